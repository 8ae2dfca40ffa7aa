import Foundation

/// Reads the flattened receipt (`receipt_warp`'s image, else the photo) with tesseract, rebuilds
/// its rows from word boxes, and writes `receipt`: merchant, date and time, currency, items,
/// subtotal, savings, tax, total, reference number, per-field confidence and source line, and
/// the consistency checks.
public final class ReceiptStage: Stage {
  public static let name = "receipt"
  public static let summary =
    "Receipt OCR with word boxes: rows and price column, merchant, date, items, totals, checks"

  public struct Options: StageOptions, Equatable {
    /// Tesseract languages, "+"-joined.
    public var languages: String = "eng"
    /// 4 (one column of lines) suits receipts; 6 (one block) and 3 (automatic) are allowed.
    public var pageSegmentation: Int = 4
    /// Milliseconds before recognition of one receipt is cancelled.
    public var timeoutMs: Int = 20_000
    /// When the binarised receipt reads with a mean word confidence below this, the grey one
    /// is read too and the better reading kept.
    public var retryBelowConfidence: Double = 80
    /// Skip that second reading when the first already found the merchant, the date and a
    /// confidently labelled total: the second costs as much again and rarely changes them.
    public var retryOnlyForMissingFields: Bool = true
    /// The issuer catalog whose names the header is matched against.
    public var catalog: String = IssuerCatalog.bundledFileName
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try TesseractEngine.checkInstalled(options.languages)
    guard [3, 4, 6].contains(options.pageSegmentation) else {
      throw ConfigError(path: "page_segmentation", "use 4 (one column), 6 (single block) or 3 (auto)")
    }
    do {
      _ = try IssuerCatalog.load(from: context.resolve(options.catalog))
    } catch let failure as StageFailure {
      throw ConfigError(path: "catalog", failure.message)
    }
  }

  private let options: Options
  /// Created on the first receipt: in the default pipeline most photos may be cards, and a
  /// worker that never sees a receipt should not pay for a second tesseract.
  private var engine: TesseractEngine?
  private let extractor: ReceiptExtractor

  public init(options: Options, context: StageContext) throws {
    self.options = options
    extractor = ReceiptExtractor(catalog: try IssuerCatalog.load(from: context.resolve(options.catalog)))
  }

  public func process(_ item: PhotoItem) throws {
    var variants: [(name: String, image: Bitmap)] = []
    if let binary = item.receiptImage { variants.append(("binarised", binary)) }
    if let gray = item.receiptGray { variants.append(("grey", gray)) }
    if variants.isEmpty { variants.append(("grey", try item.fullImage().grayscale())) }
    let segmentation =
      TesseractEngine.PageSegmentation(rawValue: Int32(options.pageSegmentation)) ?? .singleColumn
    let engine = try self.engine ?? TesseractEngine(languages: options.languages)
    self.engine = engine
    var best: (name: String, result: TesseractEngine.Result, score: Double, receipt: ReceiptRecord)?
    var deadline = 0
    for variant in variants {
      deadline = Int(min(Double(options.timeoutMs), item.secondsRemaining * 1000))
      guard deadline > 0 else { break }
      let result = engine.recognize(variant.image, segmentation: segmentation, deadline: deadline)
      let score = Self.readability(result.words)
      let receipt = extractor.extract(ReceiptLine.rows(from: result.words))
      if best == nil || score.value > best!.score { best = (variant.name, result, score.value, receipt) }
      // Binarisation that kept the print whole reads confidently; faint dot-matrix print that
      // it broke apart reads poorly and is tried again in grey, unless the fields are all there.
      if score.meanConfidence >= options.retryBelowConfidence { break }
      if options.retryOnlyForMissingFields, Self.hasKeyFields(receipt) { break }
    }
    guard let best else { throw StageFailure("no time was left to read the receipt") }
    var receipt = best.receipt
    receipt.quad = item.record.receipt?.quad
    receipt.skew = item.record.receipt?.skew
    receipt.imageVariant = best.name
    item.record.receipt = receipt
    item.textLines = receipt.text ?? []
    if best.result.timedOut {
      item.record.notes =
        (item.record.notes ?? []) + ["receipt ocr timed out after \(deadline) ms; text may be incomplete"]
    }
  }

  /// Whether a reading found the merchant, the date and a total with a clear label.
  static func hasKeyFields(_ receipt: ReceiptRecord) -> Bool {
    receipt.merchant != nil && receipt.date != nil && (receipt.fields?["total"]?.confidence ?? 0) >= 0.7
  }

  /// How well a page read: characters in confident words (the more text read well, the better)
  /// and the mean word confidence.
  static func readability(_ words: [TesseractEngine.Item]) -> (value: Double, meanConfidence: Double) {
    let confident = words.filter { $0.confidence >= 70 }.map { Double($0.text.count) }.reduce(0, +)
    let mean = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    return (confident, mean)
  }
}
