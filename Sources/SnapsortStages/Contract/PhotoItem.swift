import Foundation
import SnapsortNative

/// One input photo as it moves through the stages of one worker.
///
/// Stages read what earlier stages left here and write their results into `record`. An item
/// is confined to the worker that created it, so it is a class without locking.
public final class PhotoItem {
  /// The path relative to the input root it was found under, with `/` separators.
  public let relativePath: String
  public let url: URL
  /// Where this run writes crops and other per-item files.
  public let outputDirectory: URL?

  /// When this photo's time budget (`limits.seconds_per_image`) runs out; OCR cancels at it.
  public var deadline: DispatchTime = .distantFuture

  /// Seconds left before `deadline` (0 when passed).
  public var secondsRemaining: Double {
    let now = DispatchTime.now().uptimeNanoseconds
    return deadline.uptimeNanoseconds > now ? Double(deadline.uptimeNanoseconds - now) / 1e9 : 0
  }

  /// The file's bytes, read once by the load stage.
  public var data: Data?
  public var record: Record

  /// The orientation-corrected image at full resolution, decoded lazily by `fullImage()`.
  public var full: Bitmap?
  /// A reduced copy (longest side ≤ the configured analysis size) that detection works on.
  public var analysis: Bitmap?
  /// Full-resolution pixels per analysis pixel.
  public var analysisScale: Double = 1
  /// Decodes the full-resolution image when a stage first asks for it.
  public var fullImageLoader: (() throws -> Bitmap)?

  /// The card's corners in full-resolution pixels, clockwise from the card's top-left.
  public var cardQuad: [Point]?
  /// The quad's corner order is the card's own (a person gave it): warp keeps it as it is.
  public var cardQuadIsFinal = false
  /// The upright, perspective-corrected card.
  public var cardCrop: Bitmap?
  /// Barcodes found so far (in the crop or in the whole image).
  public var barcodes: [BarcodeRecord] = []
  /// Lines OCR recognised, for stages after OCR (issuer, receipt fields).
  public var textLines: [TextLine] = []
  /// The flattened receipt binarised, when a receipt geometry stage produced one.
  public var receiptImage: Bitmap? {
    if let binarised = receiptBinarised { return binarised }
    receiptBinarised = receiptBinariser?()
    receiptBinariser = nil
    return receiptBinarised
  }
  private var receiptBinarised: Bitmap?
  /// Binarises the flattened receipt when `receiptImage` is first asked for: a reading that
  /// never needs it (the grey one read well) should not pay for it.
  public var receiptBinariser: (() -> Bitmap)?
  /// The flattened receipt in grey with its contrast stretched, for faint print that
  /// binarisation breaks apart.
  public var receiptGray: Bitmap?

  public init(relativePath: String, url: URL, outputDirectory: URL?) {
    self.relativePath = relativePath
    self.url = url
    self.outputDirectory = outputDirectory
    self.record = Record(file: relativePath, sha256: "")
  }

  /// The full-resolution image, decoding it on first use.
  public func fullImage() throws -> Bitmap {
    if let full { return full }
    guard let loader = fullImageLoader else {
      throw StageFailure("no image has been loaded (is the load stage first in the pipeline?)")
    }
    let image = try loader()
    full = image
    fullImageLoader = nil
    return image
  }

  /// Releases pixel buffers once the record is complete, so memory per worker stays flat.
  package func releasePixels() {
    data = nil
    full = nil
    analysis = nil
    cardCrop = nil
    receiptBinarised = nil
    receiptBinariser = nil
    receiptGray = nil
    fullImageLoader = nil
  }

  /// The card part of the record, created on first write.
  public var card: CardRecord {
    get { record.card ?? CardRecord() }
    set { record.card = newValue }
  }
}
