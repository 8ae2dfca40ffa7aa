import Foundation
import SnapsortImaging
import SnapsortNative

/// One line of `records.jsonl`: the contract other tools read (see DESIGN.md).
///
/// Field names are never renamed; new fields may be added. Optional members that the contract
/// shows as `null` are `@Nullable`: written as explicit nulls so readers can rely on the keys.
public struct Record: Codable, Sendable, Equatable {
  public enum Status: String, Codable, Sendable { case ok, error }

  public var file: String
  public var sha256: String
  public var kind: Kind
  public var status: Status
  @Nullable public var image: ImageInfo? = nil
  @Nullable public var card: CardRecord? = nil
  @Nullable public var receipt: ReceiptRecord? = nil
  public var error: RecordError?
  /// Stage notes that are not errors ("no card found", "no code found", "ocr timed out").
  public var notes: [String]?
  /// Damage the image's decoder read through (corrupt data, a bad CRC): the record is `ok` but
  /// its pixels may be partly wrong. Absent when there was none.
  public var warnings: [String]?
  /// What the classify stage decided and from which evidence.
  public var classification: Classification?

  public init(file: String, sha256: String) {
    self.file = file
    self.sha256 = sha256
    self.kind = .unknown
    self.status = .ok
  }

  enum CodingKeys: String, CodingKey {
    case file, sha256, kind, status, image, card, receipt, error, notes, warnings, classification
  }
}

/// The classify stage's decision: the kind, its confidence and the image evidence behind it.
public struct Classification: Codable, Sendable, Equatable {
  public var kind: Kind
  public var confidence: Double
  public var evidence: KindEvidence
  public init(kind: Kind, confidence: Double, evidence: KindEvidence) {
    self.kind = kind
    self.confidence = confidence
    self.evidence = evidence
  }
}

/// What the photo shows.
public enum Kind: String, Codable, Sendable, CaseIterable {
  case card, receipt, other, unknown
}

public struct RecordError: Codable, Sendable, Equatable {
  public var stage: String
  public var message: String
  public init(stage: String, message: String) {
    self.stage = stage
    self.message = message
  }
}

public struct ImageInfo: Codable, Sendable, Equatable {
  /// Size after EXIF orientation is applied: the space every point in the record lives in.
  public var width: Int
  public var height: Int
  public var orientation: Int
  public var format: String
  public init(width: Int, height: Int, orientation: Int, format: String) {
    self.width = width
    self.height = height
    self.orientation = orientation
    self.format = format
  }
}

public struct BarcodeRecord: Codable, Sendable, Equatable {
  public var symbology: String
  public var value: String
  public var checksumOK: Bool?
  /// The 14-digit-free GTIN form for retail codes (UPC-A as 13 digits, UPC-E expanded).
  public var gtin: String?
  /// Base64 of the raw bytes when the payload is not valid UTF-8 text.
  public var bytes: String?
  public var quad: Quad?
  public var decoder: String?
  public var dynamic: Bool?
  public var dynamicReason: String?
  /// The text as the symbol carries it when `value` is an interpretation of it (Code 39 Full
  /// ASCII pairs decoded).
  public var raw: String?
  /// A six-character Code 39 that also reads as a Code 32 (Italian pharmacode) whose check digit
  /// holds: that reading, `A` + 9 digits. Not the value: one random six-character Code 39 in ten
  /// passes the check, and a wallet that drew the pharmacode as Code 39 would show other bars.
  public var pharmacode: String?
  /// When an image holds several codes: true on the card's own (the largest, then the most
  /// central), false on the others; absent when there is one code.
  public var primary: Bool?

  public init(symbology: String, value: String) {
    self.symbology = symbology
    self.value = value
  }

  enum CodingKeys: String, CodingKey {
    case symbology, value, gtin, bytes, quad, decoder, dynamic, raw, pharmacode, primary
    case checksumOK = "checksum_ok"
    case dynamicReason = "dynamic_reason"
  }
}

public struct ColorShare: Codable, Sendable, Equatable {
  public var hex: String
  public var share: Double
  public init(hex: String, share: Double) {
    self.hex = hex
    self.share = share
  }
}

public struct NameSuggestion: Codable, Sendable, Equatable {
  public var suggested: String?
  public var alternatives: [String]
  /// True when `suggested` is the issuer catalog's spelling of what was read, the reading then
  /// being the first alternative: one accent or look-alike glyph restored, or a larger edit to a
  /// name of the issuer the issuer stage named with high confidence. Absent when it is the reading.
  public var catalogSpelling: Bool?

  enum CodingKeys: String, CodingKey {
    case suggested, alternatives
    case catalogSpelling = "catalog_spelling"
  }

  public init(suggested: String?, alternatives: [String], catalogSpelling: Bool? = nil) {
    self.suggested = suggested
    self.alternatives = alternatives
    self.catalogSpelling = catalogSpelling
  }
}

public struct IssuerMatch: Codable, Sendable, Equatable {
  public struct Alternative: Codable, Sendable, Equatable {
    public var id: String
    public var confidence: Double
    public init(id: String, confidence: Double) {
      self.id = id
      self.confidence = confidence
    }
  }
  @Nullable public var id: String? = nil
  @Nullable public var name: String? = nil
  public var confidence: Double
  public var alternatives: [Alternative]
  public init(id: String?, name: String?, confidence: Double, alternatives: [Alternative]) {
    self.id = id
    self.name = name
    self.confidence = confidence
    self.alternatives = alternatives
  }
}

public struct PaymentInfo: Codable, Sendable, Equatable {
  public var network: String
  public var last4: String
  public init(network: String, last4: String) {
    self.network = network
    self.last4 = last4
  }
}

public struct TextLine: Codable, Sendable, Equatable {
  public var text: String
  /// `[x, y, width, height]` in crop pixels.
  public var box: Box
  public var confidence: Double
  public init(text: String, box: Box, confidence: Double) {
    self.text = text
    self.box = box
    self.confidence = confidence
  }
}

/// What a card record's quad outlines.
public enum CardShape: String, Codable, Sendable, Equatable {
  /// An ID-1 card (85.60 × 53.98 mm), photographed or drawn on a screen.
  case card
  /// A whole wallet pass in a screenshot (Apple or Google Wallet): a tall panel with the card's
  /// content and no ID-1 rectangle; the crop is the pass.
  case pass
}

public struct CardRecord: Codable, Sendable, Equatable {
  @Nullable public var quad: Quad? = nil
  @Nullable public var confidence: Double? = nil
  /// "pass" when the quad is a whole wallet pass; absent for an ID-1 card.
  public var shape: CardShape?
  /// Why no quad was found, when `quad` is null.
  public var reason: String?
  @Nullable public var crop: String? = nil
  @Nullable public var colors: [ColorShare]? = nil
  public var backgrounds: [String]?
  public var headerColor: String?
  @Nullable public var barcodes: [BarcodeRecord]? = nil
  @Nullable public var name: NameSuggestion? = nil
  public var text: [TextLine]?
  @Nullable public var issuer: IssuerMatch? = nil
  @Nullable public var payment: PaymentInfo? = nil

  public init() {}

  enum CodingKeys: String, CodingKey {
    case quad, confidence, shape, reason, crop, colors, backgrounds, barcodes, name, text, issuer
    case payment
    case headerColor = "header_color"
  }
}

/// An amount or other field extracted from a receipt, with where it came from.
public struct ReceiptField: Codable, Sendable, Equatable {
  public var value: String
  public var confidence: Double
  /// Index of the source line in the record's `text`; nil when the field came from another
  /// reading of the receipt than the one `text` holds.
  public var line: Int?
  /// The other reading the field came from (`grey`, `binarised`; `raw`: the scan as loaded,
  /// unflattened; `line`: its source line read again on its own; `logo`: the band above the
  /// address read with thinned strokes; `block`: the flattened page read again as one block when
  /// no other reading gave the field), and the text it was read from.
  public var reading: String?
  public var source: String?
  public init(value: String, confidence: Double, line: Int?, reading: String? = nil, source: String? = nil) {
    self.value = value
    self.confidence = confidence
    self.line = line
    self.reading = reading
    self.source = source
  }
}

public struct ReceiptItem: Codable, Sendable, Equatable {
  public var description: String
  @Nullable public var quantity: String? = nil
  @Nullable public var unitPrice: Money? = nil
  public var amount: Money
  public init(description: String, quantity: String?, unitPrice: Money?, amount: Money) {
    self.description = description
    self.quantity = quantity
    self.unitPrice = unitPrice
    self.amount = amount
  }
  enum CodingKeys: String, CodingKey {
    case description, quantity, amount
    case unitPrice = "unit_price"
  }
}

public struct ReceiptChecks: Codable, Sendable, Equatable {
  /// Whether the items add up to the subtotal (null when either is missing).
  @Nullable public var itemsMatchSubtotal: Bool? = nil
  /// Whether subtotal − savings + tax equals the total (null when not computable).
  @Nullable public var totalsConsistent: Bool? = nil
  public var problems: [String]
  public init(itemsMatchSubtotal: Bool?, totalsConsistent: Bool?, problems: [String]) {
    self.itemsMatchSubtotal = itemsMatchSubtotal
    self.totalsConsistent = totalsConsistent
    self.problems = problems
  }
  enum CodingKeys: String, CodingKey {
    case problems
    case itemsMatchSubtotal = "items_match_subtotal"
    case totalsConsistent = "totals_consistent"
  }
}

public struct ReceiptRecord: Codable, Sendable, Equatable {
  @Nullable public var merchant: String? = nil
  @Nullable public var date: String? = nil
  public var time: String?
  @Nullable public var currency: String? = nil
  public var items: [ReceiptItem]
  @Nullable public var subtotal: Money? = nil
  @Nullable public var savings: Money? = nil
  @Nullable public var tax: Money? = nil
  @Nullable public var total: Money? = nil
  @Nullable public var referenceNumber: String? = nil
  @Nullable public var checks: ReceiptChecks? = nil
  public var confidence: Double?
  /// Per-field confidence and source line.
  public var fields: [String: ReceiptField]?
  public var text: [TextLine]?
  /// The receipt's corners in full-resolution pixels (the whole image for a scan).
  public var quad: Quad?
  /// Degrees the text was turned by to make its rows level.
  public var skew: Double?
  /// Which preparation of the image was read: `binarised` or `grey`.
  public var imageVariant: String?
  /// A date that was read but cannot be the receipt's (after the photo was taken), with its line
  /// and why; `date` is then null.
  public var dateRejected: String?
  /// True when the receipt names no currency and `currency` is the configured
  /// `default_currency`; absent when the currency was read from the receipt.
  public var currencyAssumed: Bool?
  /// What named the currency: `marks` printed beside the amounts (`RM`, `EUR`, `€`, `$`), the
  /// `country` the receipt was printed in (a legal form, a web address, a telephone's calling
  /// code, the country's name) or its `language`; absent when it is assumed or unknown.
  public var currencyEvidence: String?
  /// The language whose own words label two or more of the receipt's lines (`en`, `de`, `ms`, …):
  /// the store counts a receipt that names no currency in the one its language's receipts name.
  public var language: String?
  /// The page `text`'s boxes are measured on, so a viewer can mark a line on the photo.
  public var textPage: TextPage?

  public init() { items = [] }

  enum CodingKeys: String, CodingKey {
    case merchant, date, time, currency, items, subtotal, savings, tax, total, checks
    case confidence, fields, text, quad, skew
    case imageVariant = "image_variant"
    case referenceNumber = "reference_number"
    case dateRejected = "date_rejected"
    case currencyAssumed = "currency_assumed"
    case currencyEvidence = "currency_evidence"
    case language
    case textPage = "text_page"
  }
}

/// The image a receipt's lines were read from: its size, and its corners in the photo's
/// full-resolution pixels (upright as the load stage turns it), the first corner the page's
/// top-left as it was read. Warping the photo by `quad` to `width` × `height` gives the page the
/// line boxes are in, turned the way it was read.
public struct TextPage: Codable, Sendable, Equatable {
  public var width: Int
  public var height: Int
  public var quad: Quad
  public init(width: Int, height: Int, quad: Quad) {
    self.width = width
    self.height = height
    self.quad = quad
  }

  /// The page read from an image of `width` × `height` whose corners in the photo are `corners`
  /// (top-left of that image first), after that image was turned by EXIF `orientation` (1, 3, 6
  /// or 8) to be read.
  public static func turned(width: Int, height: Int, corners: [Point], orientation: Int) -> TextPage {
    // Which corner of the unturned image becomes the turned one's top-left (`applyingOrientation`).
    let firstCorner = [3: 2, 6: 3, 8: 1][orientation] ?? 0
    let quad = (0..<4).map { corners[(firstCorner + $0) % 4] }
    let swapsAxes = orientation == 6 || orientation == 8
    return TextPage(
      width: swapsAxes ? height : width, height: swapsAxes ? width : height,
      quad: Quad(quad).map(Rounding.tenths))
  }
}
