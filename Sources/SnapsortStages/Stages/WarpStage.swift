import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `CardGeometry` and `ImagePixels`, uses `ImageFile`; produces `CardCrop`.
///
/// Maps the card's quad to an upright crop sampled from the full-resolution image, decides which
/// way is up, reorders the corners so the first is the card's top-left, and names the crop's file
/// `cards/<sha256 prefix>.jpg`. The file is written once the photo's stages have run
/// (`CardCropFile`), when OCR has said whether there is a payment card's number to paint over.
public final class WarpStage: Stage {
  public static let name = "warp"
  public static let summary =
    "Homography to an upright crop from the full-resolution image; decide which way is up"
  public static let needs: [any Artifact.Type] = [CardGeometry.self, ImagePixels.self]
  public static let uses: [any Artifact.Type] = [ImageFile.self]
  public static let produces: [any Artifact.Type] = [CardCrop.self]

  public struct Options: StageOptions, Equatable {
    public var width: Int = 1012
    public var height: Int = 638
    /// JPEG quality of the crop file.
    public var quality: Int = 90
    /// Write the crop into the output's `cards/` folder.
    public var writeCrop: Bool = true
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (64...4096).contains(options.width), (64...4096).contains(options.height) else {
      throw ConfigError(path: "width", "width and height must be between 64 and 4096")
    }
    guard (1...100).contains(options.quality) else { throw ConfigError(path: "quality", "must be 1…100") }
  }

  private let options: Options
  private let zbar: ZBarScanner
  /// This worker's buffers, reused from photo to photo (see `Bitmap.warped(…reductionBuffer:)`).
  private var reductionBuffer: [UInt8] = []
  private var grayBuffer: [UInt8] = []

  public init(options: Options, context: StageContext) throws {
    self.options = options
    self.zbar = try ZBarScanner(testInverted: true, scanDensity: 2)
  }

  public func process(_ item: PhotoItem) throws {
    guard let geometry = item.artifacts[CardGeometry.self], var quad = geometry.quad else { return }
    // The card is landscape: start at a corner from which the first side is a long side.
    let horizontal = Quad.distance(quad[0], quad[1]) + Quad.distance(quad[2], quad[3])
    let vertical = Quad.distance(quad[1], quad[2]) + Quad.distance(quad[3], quad[0])
    if vertical > horizontal && !geometry.cornersAreFinal { quad = Array(quad[3...] + quad[..<3]) }
    let full = try item.fullImage()
    guard
      var crop = full.warped(
        quad: quad, width: options.width, height: options.height, reductionBuffer: &reductionBuffer)
    else {
      throw StageFailure("the card's corners do not form a usable quadrilateral")
    }
    if !geometry.cornersAreFinal && isUpsideDown(crop) {
      crop = crop.rotated180()
      quad = Array(quad[2...] + quad[..<2])
    }
    var file: String?
    if options.writeCrop, item.outputDirectory != nil,
      let sha256 = item.artifacts[ImageFile.self]?.sha256,
      !sha256.isEmpty
    {
      file = "cards/\(sha256.prefix(16)).jpg"
    }
    item.artifacts.write(CardCrop(image: crop, quad: quad, file: file, quality: options.quality))
  }

  /// A barcode read upside down says the card is; without one, the layout (a chip, a code
  /// panel) may; else the crop is kept as detected.
  private func isUpsideDown(_ crop: Bitmap) -> Bool {
    let gray = crop.grayscale(recycling: Bitmap.take(&grayBuffer))
    let votes = zbar.scan(gray).map(\.orientation)
    grayBuffer = gray.pixels
    let down = votes.filter { $0 == 2 }.count
    let up = votes.filter { $0 == 0 }.count
    if down != up { return down > up }
    return CardLayout.looksUpsideDown(crop)
  }
}
