import Foundation
import SnapsortNative

// The artifacts the stages in `StageRegistry` write, in pipeline order. Each is written by one
// stage (its `produces`) and becomes part of the record in `RecordAssembly` only.

/// What `load` learnt about the file: its content hash, the image's size and orientation, and
/// remarks on its format. Written even when decoding then fails, so an error record still names
/// the content.
public struct ImageFile: Artifact {
  public static let displayName = "the file's content and image size"
  public var data: Data
  public var sha256: String
  public var info: ImageInfo?
  public var notes: [String] = []
  /// Damage the decoder read through (the record's `warnings`): the pixels may be wrong.
  public var warnings: [String] = []

  public init(data: Data, sha256: String) {
    self.data = data
    self.sha256 = sha256
  }
}

/// The decoded image: a reduced copy that detection works on, and the full-resolution image,
/// decoded when a stage first asks for it.
public struct ImagePixels: Artifact {
  public static let displayName = "the decoded image"
  /// Longest side at most the configured analysis size.
  public let analysis: Bitmap
  /// Full-resolution pixels per analysis pixel.
  public let analysisScale: Double
  /// When the photo was taken (`YYYY-MM-DD`, from its EXIF), when the file says.
  public let captureDay: String?
  private let fullResolution: Lazy<Result<Bitmap, any Error>>

  public init(
    analysis: Bitmap, analysisScale: Double, full: Bitmap?, captureDay: String? = nil,
    decodeFull: @escaping () throws -> Bitmap
  ) {
    self.analysis = analysis
    self.analysisScale = analysisScale
    self.captureDay = captureDay
    self.fullResolution = full.map { Lazy(made: .success($0)) } ?? Lazy { Result { try decodeFull() } }
  }

  /// The full-resolution image when it is already decoded (PNG and WebP have no shrink-on-load).
  public var decodedFull: Bitmap? { try? fullResolution.made?.get() }

  /// The full-resolution image, decoding it on first use.
  /// Decoded once, when first asked: a photo whose card is never warped never pays for it.
  public func full() throws -> Bitmap { try fullResolution.value.get() }

}

/// What the photo is, decided from its pixels: `kind` is nil when the decision was not confident
/// enough to replace the kind the config assumes.
public struct KindDecision: Artifact {
  public static let displayName = "the photo's kind"
  public var classification: Classification?
  public var kind: Kind?
  public init(classification: Classification?, kind: Kind?) {
    self.classification = classification
    self.kind = kind
  }
}

/// The card's corners in full-resolution pixels, clockwise from a top-left corner, or why none
/// were found.
public struct CardGeometry: Artifact {
  public static let displayName = "the card's corners"
  public var quad: [Point]?
  public var confidence: Double?
  public var reason: String?
  /// The corners' order is the card's own (a person gave them): warp keeps it as it is.
  public var cornersAreFinal = false
  /// What the quad outlines: an ID-1 card, or a whole wallet pass where a screenshot shows one.
  public var shape: CardShape = .card
  public init(
    quad: [Point]?, confidence: Double?, reason: String?, cornersAreFinal: Bool = false,
    shape: CardShape = .card
  ) {
    self.quad = quad
    self.confidence = confidence
    self.reason = reason
    self.cornersAreFinal = cornersAreFinal
    self.shape = shape
  }
}

/// The upright, perspective-corrected card, its corners in the order warp settled (the card's
/// top-left first), and the crop's file in the output when one is to be written, with its JPEG
/// quality: `CardCropFile` writes it once the photo's stages have run.
public struct CardCrop: Artifact {
  public static let displayName = "the card's upright crop"
  public var image: Bitmap
  public var quad: [Point]
  public var file: String?
  public var quality: Int
  /// The warp stage's reading of the upright crop, made to decide which way is up, for the ocr
  /// stage to take as its coarse reading instead of reading the same page again; nil when none
  /// was made.
  public var reading: CropReading?
  /// The warp stage's zbar scan of the upright crop's grey pixels, made to decide which way is up,
  /// for the barcode stage to take as its zbar read of the crop instead of scanning it again; nil
  /// when none was made.
  public var codeScan: CropCodeScan?
  /// The crop's grey pixels and their `TextContrast.flattened` page as the warp stage made them
  /// for its orientation evidence, for the ocr stage to take instead of making them again; nil
  /// when not made, or made before the crop was turned.
  public var prepared: (gray: Bitmap, flattened: Bitmap?)?
  /// Whether the quad is square to the image within the warp stage's `square_upright_degrees`: a
  /// card drawn on a screen, not photographed (the warp stage keeps it upright; the barcode stage
  /// keeps its full-resolution fallback beside it, where other cards' codes are read).
  public var drawnOnScreen: Bool
  public init(
    image: Bitmap, quad: [Point], file: String?, quality: Int = 90, reading: CropReading? = nil,
    codeScan: CropCodeScan? = nil, prepared: (gray: Bitmap, flattened: Bitmap?)? = nil,
    drawnOnScreen: Bool = false
  ) {
    self.image = image
    self.quad = quad
    self.file = file
    self.quality = quality
    self.reading = reading
    self.codeScan = codeScan
    self.prepared = prepared
    self.drawnOnScreen = drawnOnScreen
  }
}

/// What zbar read in a card crop's grey pixels, in the upright crop's coordinates, and whether
/// it looked for light-on-dark codes too (`inverted`).
public struct CropCodeScan: Sendable {
  public var symbols: [ZBarScanner.Symbol]
  public var inverted: Bool
  public init(symbols: [ZBarScanner.Symbol], inverted: Bool) {
    self.symbols = symbols
    self.inverted = inverted
  }

  /// The same scan of the crop turned by 180°: each point mirrored through the centre.
  public func turned(width: Int, height: Int) -> CropCodeScan {
    var turned = self
    for index in turned.symbols.indices {
      turned.symbols[index].points = turned.symbols[index].points.map {
        Point(Double(width - 1) - $0.x, Double(height - 1) - $0.y)
      }
    }
    return turned
  }
}

/// Tesseract's reading of a card crop prepared as the ocr stage prepares it
/// (`TextContrast.flattened`) and scaled to `height` rows, with boxes in the crop's pixels.
public struct CropReading: Sendable {
  public var height: Int
  /// Tesseract languages ("+"-joined) and page segmentation mode it was read with.
  public var languages: String
  public var segmentation: Int
  public var result: TesseractEngine.Result
  public init(height: Int, languages: String, segmentation: Int, result: TesseractEngine.Result) {
    self.height = height
    self.languages = languages
    self.segmentation = segmentation
    self.result = result
  }
}

/// The card's dominant colours by share, the two proposed backgrounds and the header colour.
public struct CardPalette: Artifact {
  public static let displayName = "the card's colours"
  public var colors: [ColorShare]
  public var backgrounds: [String]?
  public var headerColor: String?
  public init(colors: [ColorShare], backgrounds: [String]?, headerColor: String?) {
    self.colors = colors
    self.backgrounds = backgrounds
    self.headerColor = headerColor
  }
}

/// Every code read, in image pixels, with remarks on the search.
public struct CodeReads: Artifact {
  public static let displayName = "the codes read"
  public var barcodes: [BarcodeRecord]
  public var notes: [String]
  public init(barcodes: [BarcodeRecord], notes: [String]) {
    self.barcodes = barcodes
    self.notes = notes
  }
}

/// What OCR read on the card: its lines (card numbers masked), the suggested name, and a payment
/// card's network and last four digits.
public struct CardText: Artifact {
  public static let displayName = "the card's text"
  public var lines: [TextLine]
  public var name: NameSuggestion
  public var payment: PaymentInfo?
  /// A number that may be a payment card's was read, though nothing else says the card is one:
  /// its crop is redacted as a payment card's is.
  public var hidesNumber: Bool
  public var notes: [String]
  public init(
    lines: [TextLine], name: NameSuggestion, payment: PaymentInfo?, hidesNumber: Bool = false, notes: [String]
  ) {
    self.lines = lines
    self.name = name
    self.payment = payment
    self.hidesNumber = hidesNumber
    self.notes = notes
  }
}

/// Which issuer the card is from (`IssuerMatch` is the record's own type).
extension IssuerMatch: Artifact {
  public static let displayName = "the card's issuer"
}

/// The catalog's spelling of the suggested name, given when the issuer it belongs to was named
/// with high confidence; the record shows it in place of the reading.
public struct CatalogSpelling: Artifact {
  public static let displayName = "the catalog's spelling of the card's name"
  public var name: String
  public init(name: String) { self.name = name }

  /// `suggestion` with this spelling suggested and the reading as the first alternative.
  public func applied(to suggestion: NameSuggestion) -> NameSuggestion {
    let reading = suggestion.suggested.map { [$0] } ?? []
    let alternatives = (reading + suggestion.alternatives).filter { $0 != name }
    var seen: Set<String> = []
    return NameSuggestion(
      suggested: name, alternatives: alternatives.filter { seen.insert($0).inserted }, catalogSpelling: true)
  }
}

/// The receipt's paper flattened, upright and scaled to its text, in grey, and binarised when
/// first asked for; its corners in full-resolution pixels and the deskew angle.
public struct ReceiptPage: Artifact {
  public static let displayName = "the flattened receipt"
  public var grey: Bitmap
  public var quad: [Point]
  /// Degrees the text was turned by to make its rows level.
  public var skew: Double
  /// How much larger the share of blank rows is than the share of blank columns on the page as
  /// flattened (`ReceiptWarpStage.acrossMargin`): well above 0 when its print runs across, as
  /// upright or upside-down print does; nil when not measured or when `receipt_warp` turned the
  /// page a quarter by it.
  public var acrossMargin: Double?
  private let binarisedPage: Lazy<Bitmap>

  public init(
    grey: Bitmap, quad: [Point], skew: Double, acrossMargin: Double? = nil, binarise: @escaping () -> Bitmap
  ) {
    self.grey = grey
    self.quad = quad
    self.skew = skew
    self.acrossMargin = acrossMargin
    self.binarisedPage = Lazy(binarise)
  }

  /// The page binarised, made on first use: a reading that never needs it should not pay for it.
  public var binarised: Bitmap { binarisedPage.value }

}

/// The receipt's fields as read, with remarks on the reading.
public struct ReceiptReadout: Artifact {
  public static let displayName = "the receipt's fields"
  public var receipt: ReceiptRecord
  public var notes: [String]
  public init(receipt: ReceiptRecord, notes: [String]) {
    self.receipt = receipt
    self.notes = notes
  }
}

/// A value made on first use and kept: an image a photo may never need.
private final class Lazy<Value> {
  private var make: (() -> Value)?
  private(set) var made: Value?

  init(_ make: @escaping () -> Value) { self.make = make }
  init(made: Value) { self.made = made }

  var value: Value {
    if let made { return made }
    let value = make!()
    made = value
    make = nil
    return value
  }
}
