import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

extension ReviewSession {
  /// The longer side of the flattened receipt page sent to the browser: enough to read a
  /// receipt's smallest print on a screen, far less than a 12 MP photo.
  static let pageLongerSide = 2000.0

  /// A receipt's page as the run flattened it: the photo (turned upright as the load stage turns
  /// it) warped by the record's `receipt.text_page` (the page its lines were read on, turned as it
  /// was read, so their boxes can be marked on it), else by `receipt.quad`, to its natural
  /// proportions, as a JPEG. The photo's path comes from the store, never from the request.
  public func page(file: String) throws -> Data {
    let record = try inputErrors { try store.entry(file: file).record }
    guard let corners = (record.receipt?.textPage?.quad ?? record.receipt?.quad)?.corners, corners.count == 4
    else {
      throw ReviewError(404, "\(file) has no receipt page outline")
    }
    guard let url = try store.sources()[record.file] else {
      throw ReviewError(404, "no photo is known for \(file)")
    }
    guard let format = record.image.flatMap({ ImageFormat(rawValue: $0.format.lowercased()) }) else {
      throw ReviewError(415, "\(file): its photo's format is not known")
    }
    let photo: Bitmap
    do {
      photo = try Self.uprightBitmap(FileBytes.read(url), format: format)
    } catch {
      throw ReviewError(422, "\(url.path) cannot be decoded: \(error)")
    }
    let width = (Quad.distance(corners[0], corners[1]) + Quad.distance(corners[3], corners[2])) / 2
    let height = (Quad.distance(corners[0], corners[3]) + Quad.distance(corners[1], corners[2])) / 2
    let scale = min(1, Self.pageLongerSide / max(width, height, 1))
    guard
      let flat = photo.warped(
        quad: corners, width: max(16, Int(width * scale)), height: max(16, Int(height * scale)))
    else { throw ReviewError(422, "\(file): its receipt outline is degenerate") }
    return try ImageEncoder.jpeg(flat, quality: 85)
  }
}
