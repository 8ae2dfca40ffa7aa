import Foundation
import SnapsortImaging
import SnapsortNative

/// Reads the flattened receipt (`receipt_warp`'s image, else the photo) with tesseract, rebuilds
/// its rows from word boxes, and writes `receipt`: merchant, date and time, currency, items,
/// subtotal, savings, tax, total, reference number, per-field confidence and source line, and
/// the consistency checks.
///
/// Needs `ImagePixels`, uses `ReceiptPage`; produces `ReceiptReadout`.
public final class ReceiptStage: Stage {
  public static let name = "receipt"
  public static let summary =
    "Receipt OCR with word boxes: rows and price column, merchant, date, items, totals, checks"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let uses: [any Artifact.Type] = [ReceiptPage.self]
  public static let produces: [any Artifact.Type] = [ReceiptReadout.self]

  public struct Options: StageOptions, Equatable {
    /// Tesseract languages, "+"-joined.
    public var languages: String = "eng"
    /// 4 (one column of lines) suits receipts; 6 (one block) and 3 (automatic) are allowed.
    public var pageSegmentation: Int = 4
    /// The prepared images read, in order, comma-separated: `grey` (receipt_warp's
    /// contrast-stretched grey image) and `binarised` (its Sauvola image). A later one is read
    /// only when the retry conditions below hold, and each field is then taken from the reading
    /// that found it most confidently. Grey first: on the real receipts it reads more fields
    /// than the binarised image (issue #7).
    public var readings: String = "grey,binarised"
    /// When the reading of the flattened page misses the merchant, the date or the total, or its
    /// amounts do not confirm the total, and the receipt is a scan that is all paper, read the
    /// scan again as it was loaded (grey, unwarped, at its own resolution) and take each of
    /// those fields from the reading `ReceiptReadingChoice` prefers: the two preparations lose
    /// print on different receipts.
    public var rawReading: Bool = true
    /// The raw reading only for scans of at most this many pixels: its time grows with them (0.5–0.7 s
    /// CPU for a 1–1.7 MP SROIE scan, 0.7 s more per receipt on the 2.5 MP German scans, which gained
    /// nothing from it), and the receipt's budget is about 2 s.
    public var rawReadingMaxPixels: Int = 2_000_000
    /// The doubts about the page's reading the raw reading is made for, comma-separated:
    /// `no_merchant`, `no_date`, `no_total`, `unconfirmed_total` (a total the receipt's own
    /// arithmetic does not confirm). The default is the set `bench/receipts/raw_trigger.py` fitted
    /// on the SROIE training folds.
    public var rawReadingWhen: String = ReceiptReadingChoice.fitted.readWhenList
    /// Tesseract's retry of a line it read unsurely, inverted (for white print on a dark band).
    /// Off: on SROIE training folds 0–1 (138 receipts, the page's reading) it changed no merchant,
    /// date or total, and it cost 6–7 % of the receipts' CPU (perf, the 45 `sroie/` receipts).
    public var invertUnsureLines: Bool = false
    /// Milliseconds of the worker thread's CPU time before a reading of one receipt is cancelled
    /// (`TesseractEngine.recognize`: not wall time, which made records depend on the load).
    public var timeoutMs: Int = 20_000
    /// When the first reading's mean word confidence is below this, the next image is read too.
    public var retryBelowConfidence: Double = 80
    /// Skip that second reading when the first already found the merchant, the date and the
    /// total: the second costs as much again and rarely changes them.
    public var retryOnlyForMissingFields: Bool = true
    /// Pages of at most this many pixels are read in the next image too when their amounts do not
    /// add up (items against subtotal, subtotal against total). 0 turns this off.
    public var recheckMaxPixels: Int = 6_000_000
    /// Read the total's line again on its own, three ways, and take a value the second readings
    /// agree on.
    public var keyLineRereads: Bool = true
    /// When the date's line was read with a mean word confidence below this, the page is read
    /// again as one block of text (page segmentation 6), and the date of the more confidently
    /// read line is kept. 0 turns this off.
    public var dateRecheckBelow: Double = 70
    /// When no date was read, read the lines that may print one (a date's shape with garbled
    /// digits, or a date label and digits; at most two) again on their own, three ways each,
    /// and take a date two of a line's readings give.
    public var dateLineRereads: Bool = true
    /// With no merchant found, read the band above the address again with the strokes thinned
    /// six ways, and take a catalog brand two of those readings name: heavy logo type
    /// ("L◆DL") reads as blots on the page, or not at all.
    public var logoRereads: Bool = true
    /// When the first reading's mean word confidence is below this, the middle of the page is
    /// read turned a quarter, a half and three quarters too, and the page is read again the way
    /// that reads the most confident letters and digits (`ReceiptUpright`), by `turn_lead` or
    /// more: a receipt photographed upside down or sideways reads as confident-looking nonsense
    /// otherwise. 0 turns this off.
    public var orientationCheckBelow: Double = 60
    /// The word confidence from which the orientation check counts a word's letters and digits,
    /// and the share more of them a turn must read than the page as it is (and one more). Fitted
    /// by bench/receipts/fit_upright.py on training pages: the old rule (a mean word confidence 15
    /// higher) let a turned junk reading win on a blurred upright page.
    public var turnConfidentAt: Double = 60
    public var turnLead: Double = 1.0
    /// The middle of the page is read turned a quarter only when `receipt_warp`'s measure of its
    /// print running across (`ReceiptPage.acrossMargin`, blank rows' share minus blank columns')
    /// is below this or not known: print that clearly runs across as flattened is upright or
    /// upside down. A page `receipt_warp` turned a quarter has no margin, so the reading can undo
    /// that turn (on the SROIE training folds it undid one: a small receipt on a large white scan).
    /// 0.15 is the margin `receipt_warp` turns by (upright SROIE training pages 0.19–0.69); 1 always
    /// reads the quarter turns.
    public var quarterTurnsBelowMargin: Double = ReceiptWarpStage.turnMargin
    /// Check the orientation even when the page's reading already found a date and a total. Off:
    /// print read upside down or sideways is nonsense in which a valid date (day, month and year in
    /// range, not after the photo) and a total are not found together, and the check costs four
    /// readings of the middle of the page (0.3–0.7 s CPU on a 300 dpi German scan). A missing
    /// merchant alone does not call for it: a logo is often not read as text at all.
    public var orientationCheckWhenDated: Bool = false
    /// With no total or no date from any reading, the page segmentation the flattened page is
    /// read with once more for the missing fields alone (6: one block); 0 turns this off. Chosen
    /// by `bench/receipts/total_readings.py` on the training receipts that had no total, and
    /// `bench/receipts/date_fallback.py` on those that had no date.
    public var fallbackReadingSegmentation: Int = 6
    /// Megapixels the receipt's readings may have sent to tesseract, that reading's included: it
    /// is not started past them. Counted in pixels, not in CPU time, so that the same receipt gets
    /// the same record at any load (a CPU budget filled the total of a receipt near its edge in one
    /// run and not in the next). Fitted with the scale by `bench/receipts/fit_fallback_budget.py`
    /// on the training receipts: the most totals and dates right less wrong with no receipt read
    /// past 3 s of the stage's CPU (issue #28: about 2 s a receipt).
    public var fallbackReadingMegapixels: Double = 13
    /// The scale the flattened page is read at for those fields: `receipt_warp` sets its print
    /// larger than tesseract needs, and a smaller page costs less of the budget (at 0.7 the
    /// training receipts gained 7 fields within it, at 1 five).
    public var fallbackReadingScale: Double = 0.7
    /// Where that reading took no field, the scale the page is read at once more; 0 for none. Some
    /// prints are read whole only at full size.
    public var fallbackReadingSecondScale: Double = 1
    /// Megapixels the receipt's readings, both fallback readings included, may have sent to
    /// tesseract for that second reading. Fitted with `bench/receipts/fit_fallback_budget.py
    /// --cascade 0.7 1` on the training receipts that reach the fallback: a total gained and none
    /// lost within 1.38–2.75, and past 2.75 a receipt read twice passes 3 s of the stage's CPU
    /// (issue #28); at the first reading's 13, three do.
    public var fallbackReadingSecondMegapixels: Double = 2.1
    /// The ISO 4217 code (`MYR`, `EUR`) a receipt that prints no currency is counted in, marked
    /// `currency_assumed`; empty (the default) for none, so such a receipt's currency stays null.
    public var defaultCurrency: String = ""
    /// The issuer catalog whose names the header is matched against.
    public var catalog: String = IssuerCatalog.bundledFileName
    public init() {}

    public static let retiredOptions = [
      "fallback_reading_cpu_ms":
        "use fallback_reading_megapixels, a bound in pixels read that gives the same record at any load",
      "total_fallback_cpu_ms": "use fallback_reading_megapixels",
      "total_fallback_segmentation": "use fallback_reading_segmentation",
      "total_fallback_scale": "use fallback_reading_scale",
    ]

    var readingList: [String] {
      readings.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `raw_reading_when` as doubts; nil when one is not known.
    var rawReadingDoubts: Set<ReceiptReadingChoice.Doubt>? {
      var doubts = Set<ReceiptReadingChoice.Doubt>()
      for name in rawReadingWhen.split(separator: ",") {
        guard let doubt = ReceiptReadingChoice.Doubt(rawValue: name.trimmingCharacters(in: .whitespaces))
        else { return nil }
        doubts.insert(doubt)
      }
      return doubts
    }
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try ConfigError.at("languages") { try TesseractEngine.checkInstalled(options.languages) }
    guard [3, 4, 6].contains(options.pageSegmentation) else {
      throw ConfigError(path: "page_segmentation", "use 4 (one column), 6 (single block) or 3 (auto)")
    }
    guard (0...100).contains(options.orientationCheckBelow) else {
      throw ConfigError(path: "orientation_check_below", "use word confidences from 0 (off) to 100")
    }
    guard (0...100).contains(options.turnConfidentAt) else {
      throw ConfigError(path: "turn_confident_at", "use a word confidence from 0 to 100")
    }
    guard options.turnLead >= 0 else {
      throw ConfigError(path: "turn_lead", "must be 0 or more (a share of the page's confident characters)")
    }
    guard (0...1).contains(options.quarterTurnsBelowMargin) else {
      throw ConfigError(path: "quarter_turns_below_margin", "use a margin from 0 (never) to 1 (always)")
    }
    guard (0...100).contains(options.dateRecheckBelow) else {
      throw ConfigError(path: "date_recheck_below", "use a word confidence from 0 (off) to 100")
    }
    let readings = options.readingList
    guard !readings.isEmpty, readings.allSatisfy(["binarised", "grey"].contains),
      Set(readings).count == readings.count
    else {
      throw ConfigError(path: "readings", "list binarised and/or grey, comma-separated, each once")
    }
    guard options.rawReadingDoubts != nil else {
      let known = ReceiptReadingChoice.Doubt.allCases.map(\.rawValue).joined(separator: ", ")
      throw ConfigError(path: "raw_reading_when", "list doubts from \(known), comma-separated")
    }
    guard [0, 3, 4, 6, 11].contains(options.fallbackReadingSegmentation) else {
      throw ConfigError(
        path: "fallback_reading_segmentation", "use 6 (single block), 11 (sparse), 4, 3, or 0 (off)")
    }
    guard options.fallbackReadingScale > 0, options.fallbackReadingScale <= 1 else {
      throw ConfigError(path: "fallback_reading_scale", "use a scale above 0 and at most 1")
    }
    guard options.fallbackReadingSecondScale >= 0, options.fallbackReadingSecondScale <= 1 else {
      throw ConfigError(
        path: "fallback_reading_second_scale", "use a scale above 0 and at most 1, or 0 (none)")
    }
    guard options.fallbackReadingSecondMegapixels >= 0 else {
      throw ConfigError(path: "fallback_reading_second_megapixels", "must be 0 or more (megapixels read)")
    }
    guard options.fallbackReadingMegapixels >= 0 else {
      throw ConfigError(path: "fallback_reading_megapixels", "must be 0 or more (megapixels read)")
    }
    guard options.rawReadingMaxPixels >= 0 else {
      throw ConfigError(path: "raw_reading_max_pixels", "must be 0 or more (0 reads no scan raw)")
    }
    let code = options.defaultCurrency
    if !code.isEmpty, code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase }) {
      throw ConfigError(path: "default_currency", "use an ISO 4217 code in capitals, such as EUR or MYR")
    }
    try ConfigError.at("catalog") { try IssuerCatalog.load(from: context.resolve(options.catalog)) }
  }

  let options: Options
  /// The worker's engine for `languages`, taken on the first receipt: in the default pipeline
  /// most photos may be cards, and the card's OCR stage already holds the same `eng` model.
  private let engines: WorkerTesseractEngines
  let extractor: ReceiptExtractor
  /// The fitted choice between the page's reading and the raw scan's, read for the configured doubts.
  private let choice: ReceiptReadingChoice

  public init(options: Options, context: StageContext) throws {
    self.options = options
    choice = ReceiptReadingChoice(
      margins: ReceiptReadingChoice.fitted.margins, readWhen: options.rawReadingDoubts ?? [])
    engines = context.workerEngines
    extractor = ReceiptExtractor(catalog: try IssuerCatalog.load(from: context.resolve(options.catalog)))
  }

  public func process(_ item: PhotoItem) throws {
    // Images are prepared only when read: binarising a large scan costs a fifth of reading it.
    let flattened = item.artifacts[ReceiptPage.self]
    var images: [(name: String, image: () throws -> Bitmap?)] = options.readingList.map { name in
      (name, { name == "grey" ? flattened?.grey : flattened?.binarised })
    }
    if flattened == nil {
      images = [("grey", { try item.fullImage().grayscale() })]
    }
    let engine = try engines.engine(languages: options.languages)
    let pixelsBefore = engine.pixelsRead
    let latest = Self.latestDate(of: item)
    let page = try read(
      images, logoPage: flattened?.grey, plan: .page(acrossMargin: flattened?.acrossMargin), engine: engine,
      item: item, latest: latest)
    var receipt = page.receipt
    var notes = page.notes
    receipt.textPage = try Self.textPage(of: flattened, item: item, turn: page.turn)
    if options.rawReading, let flattened, choice.isUnsure(receipt), item.secondsRemaining > 1,
      let scan = try Self.flatScan(item, page: flattened, maxPixels: options.rawReadingMaxPixels)
    {
      let plan = ReadingPlan.raw(after: page, quad: flattened.quad, choice: choice)
      let raw = try read(
        [("raw", { scan })], logoPage: nil, plan: plan, engine: engine, item: item, latest: latest)
      choice.settle(&receipt, other: raw.receipt, otherName: "raw")
      try Self.keepLines(of: raw, in: &receipt, item: item)
      notes += raw.notes.map { "second reading, of the scan as loaded: \($0)" }
    }
    notes += readMissingAgain(
      &receipt, page: flattened?.grey, turn: page.turn, engine: engine, item: item, latestDate: latest,
      pixelsRead: engine.pixelsRead - pixelsBefore)
    Self.assumeCurrency(&receipt, options.defaultCurrency)
    item.artifacts.write(ReceiptReadout(receipt: receipt, notes: notes))
  }

  /// The page the first reading's lines were read on: the flattened page, or the whole photo
  /// without `receipt_warp`, turned as it was read.
  static func textPage(of flattened: ReceiptPage?, item: PhotoItem, turn: Turn?) throws -> TextPage {
    let orientation = turn?.orientation ?? 1
    if let flattened {
      return TextPage.turned(
        width: flattened.grey.width, height: flattened.grey.height, corners: flattened.quad,
        orientation: orientation)
    }
    let full = try item.fullImage()
    let w = Double(full.width), h = Double(full.height)
    return TextPage.turned(
      width: full.width, height: full.height, corners: [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)],
      orientation: orientation)
  }

  /// The raw reading's lines, on the page they were read on, when the page's reading gave none:
  /// the record's fields then come from the raw reading alone, and without its lines `search` and
  /// the review would show none of the receipt's words.
  static func keepLines(of raw: Reading, in receipt: inout ReceiptRecord, item: PhotoItem) throws {
    guard receipt.text?.isEmpty ?? true, let lines = raw.receipt.text, !lines.isEmpty else { return }
    receipt.text = lines
    receipt.textPage = try textPage(of: nil, item: item, turn: raw.turn)
  }

  /// Which way up the page is turned (EXIF orientation 3, 6 or 8) and by how many degrees.
  typealias Turn = (orientation: Int, degrees: Int)

  /// How a reading knows which way up its page is.
  enum Orientation {
    /// Read it as it is, and turned if its first reading is unsure (`orientation_check_below`);
    /// a quarter turned only if the page's print is not known to run across (`acrossMargin`, nil
    /// when not measured).
    case findByReading(acrossMargin: Double?)
    /// Already known from another reading of the same page: the turn, nil for upright.
    case known(Turn?)
  }

  /// How one reading of the receipt finds which way up its page is, and which rereads it makes.
  struct ReadingPlan {
    var orientation: Orientation
    var rereadTotal = true
    var recheckDate = true
    var rereadLogo = true

    /// The flattened page's reading: it finds its own way up and makes every reread.
    static func page(acrossMargin: Double?) -> ReadingPlan {
      ReadingPlan(orientation: .findByReading(acrossMargin: acrossMargin))
    }

    /// The raw scan's reading after the page's: the scan is turned as the page was when the
    /// flattened page runs the scan's way (`receipt_warp` turned it no quarter), and only the
    /// rereads for a field `choice` could take from it are made: a date or a total the page has
    /// is replaced only on evidence those rereads cannot give.
    static func raw(after page: Reading, quad: [Point], choice: ReceiptReadingChoice) -> ReadingPlan {
      ReadingPlan(
        orientation: runsAlongScan(quad) ? .known(page.turn) : .findByReading(acrossMargin: nil),
        rereadTotal: choice.mayTake("total", from: page.receipt),
        recheckDate: choice.mayTake("date", from: page.receipt),
        rereadLogo: choice.mayTake("merchant", from: page.receipt))
    }

    /// Whether the flattened page's top edge runs left to right across the scan, as the scan's
    /// own rows do.
    static func runsAlongScan(_ quad: [Point]) -> Bool {
      guard quad.count == 4 else { return false }
      return quad[1].x - quad[0].x > abs(quad[1].y - quad[0].y)
    }
  }

  /// One reading of the receipt: its record, its notes and the turn it was read at.
  struct Reading {
    var receipt: ReceiptRecord
    var notes: [String]
    var turn: Turn?
  }

  /// The loaded image in grey when it is a scan that is all paper (`coversImage`) of at most
  /// `maxPixels`: a photo of a receipt on a table is not read unflattened.
  static func flatScan(_ item: PhotoItem, page: ReceiptPage, maxPixels: Int) throws -> Bitmap? {
    let full = try item.fullImage()
    guard full.pixelCount <= maxPixels, coversImage(page.quad, width: full.width, height: full.height) else {
      return nil
    }
    return full.grayscale()
  }

  /// Whether `receipt_warp`'s outline, deskewed or not, covers 85 % of the image or more: it
  /// found no smaller paper region (85 % is the share above which it takes a region for the
  /// whole scan).
  static func coversImage(_ quad: [Point], width: Int, height: Int) -> Bool {
    Quad.area(quad) >= 0.85 * Double(width * height)
  }

  /// One reading of the receipt from `images` (read in turn, `readPage`), turned upright when it
  /// reads better so, with the total's line, the date and the logo re-read as `plan` says.
  ///
  /// - Parameter logoPage: the grey image the logo band is cut from; nil for the first image read.
  private func read(
    _ images: [(name: String, image: () throws -> Bitmap?)], logoPage: Bitmap?, plan: ReadingPlan,
    engine: TesseractEngine, item: PhotoItem, latest: String?
  ) throws -> Reading {
    let (pass, turn) = try readUpright(
      images, orientation: plan.orientation, engine: engine, item: item, latest: latest)
    var notes: [String] = []
    if let turn { notes.append("the receipt was read turned \(turn.degrees)° (it reads better so)") }
    let read = pass.read
    guard var receipt = pass.fused else { throw StageFailure("no time was left to read the receipt") }
    if options.keyLineRereads, plan.rereadTotal, let variant = receipt.imageVariant, let page = read[variant]
    {
      rereadTotal(&receipt, on: page, engine: engine, deadline: Int(min(2_000, item.secondsRemaining * 1000)))
    }
    if options.dateRecheckBelow > 0, plan.recheckDate, let variant = receipt.imageVariant,
      let page = read[variant]
    {
      recheckDate(
        &receipt, on: page, engine: engine, latestDate: latest,
        deadline: Int(min(Double(options.timeoutMs), item.secondsRemaining * 1000)))
    }
    if options.dateLineRereads, plan.recheckDate, let variant = receipt.imageVariant, let page = read[variant]
    {
      rereadDateLines(
        &receipt, on: page, engine: engine, latestDate: latest,
        deadline: Int(min(2_000, item.secondsRemaining * 1000)))
    }
    // The grey image whichever was read: thinning a binarised logo thins the noise Sauvola left
    // in it too. Both are made from one flattened page, so the line boxes hold in either.
    if options.logoRereads, plan.rereadLogo, receipt.merchant == nil,
      let grey = logoPage ?? images.first.flatMap({ read[$0.name] })
    {
      rereadLogo(&receipt, on: grey, engine: engine, deadline: Int(min(2_000, item.secondsRemaining * 1000)))
    }
    if pass.timedOut {
      notes.append("receipt ocr timed out after \(pass.deadline) ms of CPU time; text may be incomplete")
    }
    return Reading(receipt: receipt, notes: notes, turn: turn)
  }

  /// `readPage` of `images` turned as `orientation` knows, or, when it is to be found, as they are and
  /// again turned the way the middle of the page reads best, if its first reading was unsure.
  ///
  /// - Returns: the pass and the turn it was read at (nil: as it is).
  private func readUpright(
    _ images: [(name: String, image: () throws -> Bitmap?)], orientation: Orientation,
    engine: TesseractEngine,
    item: PhotoItem, latest: String?
  ) throws -> (PagePass, Turn?) {
    func turned(_ turn: Turn) -> [(name: String, image: () throws -> Bitmap?)] {
      images.map { variant in (variant.name, { try variant.image()?.applyingOrientation(turn.orientation) }) }
    }
    let acrossMargin: Double?
    switch orientation {
    case .known(let turn):
      return (try readPage(turn.map(turned) ?? images, engine: engine, item: item, latest: latest), turn)
    case .findByReading(let margin): acrossMargin = margin
    }
    let pass = try readPage(images, engine: engine, item: item, latest: latest)
    guard options.orientationCheckBelow > 0, pass.firstConfidence < options.orientationCheckBelow,
      options.orientationCheckWhenDated || !(pass.fused.map(Self.hasDateAndTotal) ?? false),
      let page = try images.first?.image(),
      let turn = uprightTurn(
        of: page, engine: engine, quarterTurns: (acrossMargin ?? 0) < options.quarterTurnsBelowMargin,
        deadline: Int(min(4_000, item.secondsRemaining * 1000)),
        trace: uprightTraces
          ? UprightTrace(
            item: item.relativePath, firstConfidence: pass.firstConfidence,
            dated: pass.fused.map(Self.hasDateAndTotal) ?? false) : nil)
    else { return (pass, nil) }
    return (try readPage(turned(turn), engine: engine, item: item, latest: latest), turn)
  }

  /// Gives a receipt that names no currency the configured default, marked as assumed; a page
  /// with no amount at all (a blank page, a photo that is no receipt) keeps a null currency.
  static func assumeCurrency(_ receipt: inout ReceiptRecord, _ defaultCurrency: String) {
    guard receipt.currency == nil, !defaultCurrency.isEmpty,
      receipt.total != nil || receipt.subtotal != nil || !receipt.items.isEmpty
    else { return }
    receipt.currency = defaultCurrency
    receipt.currencyAssumed = true
  }

  /// What reading the prepared images in turn gave.
  struct PagePass {
    var fused: ReceiptRecord?
    var read: [String: Bitmap] = [:]
    var firstConfidence: Double = 100
    var timedOut = false
    var deadline = 0
  }

  /// Reads the prepared images in order until one reads confidently, has every key field, or
  /// the amounts add up, and fuses what they found.
  private func readPage(
    _ images: [(name: String, image: () throws -> Bitmap?)], engine: TesseractEngine, item: PhotoItem,
    latest: String?
  ) throws -> PagePass {
    let segmentation =
      TesseractEngine.PageSegmentation(rawValue: Int32(options.pageSegmentation)) ?? .singleColumn
    var pass = PagePass()
    var readings: [ReceiptReading] = []
    for variant in images {
      guard let image = try variant.image() else { continue }
      pass.deadline = Int(min(Double(options.timeoutMs), item.secondsRemaining * 1000))
      guard pass.deadline > 0 else { break }
      let result = engine.recognize(
        image, segmentation: segmentation, deadline: pass.deadline,
        invertUnsureLines: options.invertUnsureLines)
      let score = Self.readability(result.words)
      if readings.isEmpty { pass.firstConfidence = score.meanConfidence }
      let receipt = extractor.extract(ReceiptLine.rows(from: result.words), latestDate: latest)
      readings.append(ReceiptReading(name: variant.name, receipt: receipt, readability: score.value))
      pass.read[variant.name] = image
      pass.timedOut = pass.timedOut || result.timedOut
      // A page that read confidently is not read again, nor one whose fields are all there: the
      // second reading costs as much again and rarely changes them. Faint dot-matrix print
      // that one preparation broke apart often reads in the other.
      let current = ReceiptReading.fuse(readings)
      pass.fused = current
      // Amounts that do not add up are misread digits more often than misprinted receipts; on a
      // page small enough to read twice within about a second the other image is read for them.
      let recheck = current.checks?.problems.isEmpty == false && image.pixelCount <= options.recheckMaxPixels
      if recheck { continue }
      if score.meanConfidence >= options.retryBelowConfidence { break }
      if options.retryOnlyForMissingFields, Self.hasKeyFields(current) { break }
    }
    return pass
  }

  /// The EXIF orientation (3, 6 or 8) that turns the page upright, when the middle of the page
  /// reads enough more confident letters and digits turned so than as it is (`ReceiptUpright`);
  /// only the half turn is tried without `quarterTurns`.
  private func uprightTurn(
    of page: Bitmap, engine: TesseractEngine, quarterTurns: Bool, deadline: Int, trace: UprightTrace?
  ) -> Turn? {
    let side = min(page.width, page.height, 1_200)
    guard side >= 64, deadline > 0 else { return nil }
    let probe = page.cropped(
      x: (page.width - side) / 2, y: (page.height - side) / 2, width: side, height: side)
    let turns = quarterTurns ? [(1, 0), (6, 90), (3, 180), (8, 270)] : [(1, 0), (3, 180)]
    let upright = ReceiptUpright(confidentAt: options.turnConfidentAt, lead: options.turnLead)
    let scores = turns.map { turn in
      let words = engine.recognize(
        probe.applyingOrientation(turn.0), segmentation: .singleColumn, deadline: deadline / turns.count,
        invertUnsureLines: options.invertUnsureLines
      ).words
      trace?.write(degrees: turn.1, side: side, words: words)
      return upright.score(words)
    }
    return upright.chosen(scores).map { turns[$0] }
  }

  /// SNAPSORT_UPRIGHT_TRACE set: each turn the upright check reads, as one line on stderr (the
  /// data bench/receipts/fit_upright.py fits `turn_confident_at` and `turn_lead` with).
  private let uprightTraces = ProcessInfo.processInfo.environment["SNAPSORT_UPRIGHT_TRACE"] != nil

  /// One page's upright check as `fit_upright.py` reads it: `UPRIGHT`, the file, the first
  /// reading's confidence, whether it found a date and a total, the turn in degrees, the probe's
  /// side and the turn's words as `[text, confidence, x, y, width, height]`, tab-separated.
  struct UprightTrace {
    let item: String
    let firstConfidence: Double
    let dated: Bool

    func write(degrees: Int, side: Int, words: [TesseractEngine.Item]) {
      guard let line = line(degrees: degrees, side: side, words: words) else { return }
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func line(degrees: Int, side: Int, words: [TesseractEngine.Item]) -> String? {
      let json = words.map {
        [$0.text, $0.confidence, $0.box.x, $0.box.y, $0.box.width, $0.box.height] as [Any]
      }
      guard let data = try? JSONSerialization.data(withJSONObject: json),
        let list = String(data: data, encoding: .utf8)
      else { return nil }
      return ["UPRIGHT", item, String(firstConfidence), String(dated), String(degrees), String(side), list]
        .joined(separator: "\t")
    }
  }

  /// The last day the receipt can be dated (a receipt is printed before it is photographed or
  /// scanned): the day the photo was taken by its EXIF date, else the day its file was last
  /// written, a day later; nil when neither is known.
  static func latestDate(of item: PhotoItem) -> String? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    let captured =
      item.artifacts[ImagePixels.self]?.captureDay.flatMap { formatter.date(from: $0) }
      ?? (try? FileManager.default.attributesOfItem(atPath: item.url.path))?[.modificationDate] as? Date
    // A day's grace: the camera's clock has no time zone.
    return captured.map { formatter.string(from: $0.addingTimeInterval(86_400)) }
  }

  /// Reads the total's source line again, cut out of the page read, and replaces a total the
  /// re-readings agree on against the page (`KeyLineVote`), unless the rest of the page bears the
  /// page's total out.
  private func rereadTotal(
    _ receipt: inout ReceiptRecord, on page: Bitmap, engine: TesseractEngine, deadline: Int
  ) {
    guard deadline > 0, let field = receipt.fields?["total"], let index = field.line,
      let line = receipt.line(index), KeyLineVote.lineCarries(total: field.value, text: line.text),
      !KeyLineVote.corroborated(receipt, total: field.value, line: index)
    else { return }
    let rereads = Self.lineCrops(line.box, of: page).map { image in
      KeyLineVote.total(
        in: engine.recognize(
          image, segmentation: .singleLine, deadline: deadline, invertUnsureLines: options.invertUnsureLines
        ).text)
    }
    let decided = KeyLineVote.decide(page: field.value, rereads: rereads)
    guard decided != field.value else { return }
    receipt.fields?["total"] = ReceiptField(
      value: decided, confidence: field.confidence, line: index, reading: "line", source: line.text)
    receipt.total = Money(recordString: decided)
    receipt.recheckAmounts()
    receipt.refreshConfidence()
  }

  /// Reads the page again as one block when the date's line read poorly: faint small print
  /// that the column layout read as "Doe 1o C000 31664 Date 26/12/2018" reads as "Doc No
  /// CS00031664 Date 25/12/2018" laid out as a block. The block reading's date replaces the
  /// page's only when its line was read more confidently.
  private func recheckDate(
    _ receipt: inout ReceiptRecord, on page: Bitmap, engine: TesseractEngine, latestDate: String?,
    deadline: Int
  ) {
    guard deadline > 0, let line = Self.dateLine(of: receipt), line.confidence < options.dateRecheckBelow
    else { return }
    let result = engine.recognize(
      page, segmentation: .singleBlock, deadline: deadline, invertUnsureLines: options.invertUnsureLines)
    let block = extractor.extract(ReceiptLine.rows(from: result.words), latestDate: latestDate)
    guard let date = Self.dateFromBlock(page: receipt, block: block) else { return }
    receipt.fields?["date"] = date
    receipt.date = block.date
    receipt.time = block.time
    receipt.refreshConfidence()
  }

  /// The line of the record's own text its date was read from.
  static func dateLine(of receipt: ReceiptRecord) -> TextLine? {
    receipt.line(receipt.fields?["date"]?.line)
  }

  /// The block reading's date as the page's date field, when it is another date read from a
  /// more confidently read line.
  static func dateFromBlock(page: ReceiptRecord, block: ReceiptRecord) -> ReceiptField? {
    guard let pageLine = dateLine(of: page), let field = page.fields?["date"],
      let blockLine = dateLine(of: block),
      let other = block.fields?["date"], other.value != field.value,
      blockLine.confidence > pageLine.confidence
    else { return nil }
    return ReceiptField(
      value: other.value, confidence: field.confidence, line: nil, reading: "block", source: blockLine.text)
  }

  /// Reads the band above the first address line, where a logo sits, with its strokes thinned
  /// by 3 to 13 % of a text line's height, and takes the brand two of the readings name: how
  /// much thinning a logo needs depends on how heavy its type is (the Lidl scans read at 5-13 %,
  /// a bold sans logo at 3 and 7 %), and a lone match among six readings may be chance.
  private func rereadLogo(
    _ receipt: inout ReceiptRecord, on page: Bitmap, engine: TesseractEngine, deadline: Int
  ) {
    guard deadline > 0, let lines = receipt.text, !lines.isEmpty,
      let address = lines.prefix(16).first(where: {
        ReceiptExtractor.looksLikeAddress(ReceiptKeywords.fold($0.text))
      })
    else { return }
    let lineHeight = lines.map { $0.box.height }.sorted()[lines.count / 2]
    let top = max(0, Int(address.box.y - 4 * lineHeight))
    let bottom = min(page.height, Int(address.box.y - 0.08 * lineHeight))
    guard bottom - top >= Int(lineHeight), page.width >= 8 else { return }
    let band = page.cropped(x: 0, y: top, width: page.width, height: bottom - top)
    var votes: [String: (count: Int, text: String)] = [:]
    for share in [0.03, 0.05, 0.07, 0.09, 0.11, 0.13] {
      let thinned = ReceiptImaging.thinned(band, radius: Int((lineHeight * share).rounded()))
      let text = engine.recognize(
        thinned, segmentation: .singleLine, deadline: deadline, invertUnsureLines: options.invertUnsureLines
      ).text
      guard let brand = extractor.brand(readFromLogo: text) else { continue }
      votes[brand, default: (0, text)].count += 1
    }
    guard let (brand, vote) = votes.first(where: { $0.value.count >= 2 }) else { return }
    receipt.merchant = brand
    var fields = receipt.fields ?? [:]
    fields["merchant"] = ReceiptField(
      value: brand, confidence: 0.5, line: nil, reading: "logo", source: vote.text)
    receipt.fields = fields
    receipt.refreshConfidence()
  }

  /// One line cut out of a page with a margin, three ways: as the page was prepared, at 3/4 of
  /// its scale, and binarised anew. Misread digits depend on the pixels around them, so an
  /// error the page reading made is rarely made the same way on all three.
  static func lineCrops(_ box: Box, of page: Bitmap) -> [Bitmap] {
    let pad = box.height * 0.4
    let x0 = max(0, Int(box.x - 2 * pad)), y0 = max(0, Int(box.y - pad))
    let x1 = min(page.width, Int(box.x + box.width + 2 * pad)),
      y1 = min(page.height, Int(box.y + box.height + pad))
    guard x1 - x0 >= 8, y1 - y0 >= 8 else { return [] }
    let crop = page.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    let smaller = crop.resized(width: max(8, crop.width * 3 / 4), height: max(8, crop.height * 3 / 4))
    let binarised = ReceiptImaging.sauvola(crop, radius: max(8, Int(box.height * 0.6)), k: 0.3)
    return [crop, smaller, binarised]
  }

  /// Whether a reading found the merchant, the date and the total. A field found but doubted is
  /// no reason to read again: on the real receipts a second reading mostly found what the first
  /// missed and rarely mended what it misread (issue #7).
  static func hasKeyFields(_ receipt: ReceiptRecord) -> Bool {
    receipt.merchant != nil && receipt.date != nil && receipt.total != nil
  }

  /// Whether a reading found a date and a total: print read the wrong way up does not give both.
  static func hasDateAndTotal(_ receipt: ReceiptRecord) -> Bool {
    receipt.date != nil && receipt.total != nil
  }

  /// How well a page read: characters in confident words (the more text read well, the better)
  /// and the mean word confidence.
  static func readability(_ words: [TesseractEngine.Item]) -> (value: Double, meanConfidence: Double) {
    let confident = words.filter { $0.confidence >= 70 }.map { Double($0.text.count) }.reduce(0, +)
    let mean = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    return (confident, mean)
  }
}
