import Foundation
import SnapsortNative

/// Writes a card's crop to its file in the output (`cards/<sha256 prefix>.jpg`, named by `warp`):
/// the one place a crop file is written, once every stage has run on the photo, so that a payment
/// card's number, expiry and holder's name are painted over (`PaymentCardRedaction`) before any
/// byte of the image reaches the disk.
public enum CardCropFile {
  /// Writes `item`'s crop to the file its `CardCrop` names; nothing when it names none.
  ///
  /// - Parameters:
  ///   - keepCardNumbers: write the crop as cut (`snapsort run --keep-card-numbers`).
  ///   - textWasDue: an OCR stage applies to this photo (see `PaymentCardRedaction.plan`).
  /// - Throws: when the folder or the file cannot be written.
  public static func write(for item: PhotoItem, keepCardNumbers: Bool, textWasDue: Bool) throws {
    guard let crop = item.artifacts[CardCrop.self], let name = crop.file, let directory = item.outputDirectory
    else { return }
    var image = crop.image
    if !keepCardNumbers,
      let redaction = PaymentCardRedaction.plan(
        text: item.artifacts[CardText.self], textWasDue: textWasDue, width: image.width, height: image.height)
    {
      image = redaction.applied(to: image)
    }
    let url = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try AtomicFile.write(try ImageEncoder.jpeg(image, quality: crop.quality), to: url)
  }
}
