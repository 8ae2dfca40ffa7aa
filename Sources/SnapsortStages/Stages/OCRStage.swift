import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`, uses `CardCrop`; produces `CardText`.
///
/// Reads the upright card crop (the whole image when no card was cut out) with tesseract: every
/// line (card numbers masked), the suggested name with alternatives, and a payment card's network
/// and last four digits.
public final class OCRStage: Stage {
  public static let name = "ocr"
  public static let summary =
    "Tesseract on the card crop: text lines, suggested name, payment network and last four"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let uses: [any Artifact.Type] = [CardCrop.self]
  public static let produces: [any Artifact.Type] = [CardText.self]

  public struct Options: StageOptions, Equatable {
    /// Tesseract languages, "+"-joined; `make` installs `tesseract-ocr-<lang>` for each.
    public var languages: String = "eng"
    /// Tesseract page segmentation mode: 11 (sparse text) suits cards.
    public var pageSegmentation: Int = 11
    /// Milliseconds of the worker thread's CPU time the stage's readings of one image may take
    /// before they are cancelled: CPU, not wall time, so a busy machine reads as far as an idle
    /// one (the image's wall-time limit, `limits.seconds_per_image`, still applies).
    public var timeoutMs: Int = 5000
    /// Height in pixels a taller crop is scaled down to for the page reading (boxes are reported
    /// in the crop's pixels). 448 px over the card's 54 mm puts body type (3–4 mm) at 25–33 px,
    /// where tesseract reads best: at the crop's 638 px, `4111 1111 1111 1111` read as
    /// `AlIT 2 Tial fill itil`. Name lines are read again from the full crop; 0 keeps the size.
    public var pageHeight: Int = 448
    /// Height of a second, coarser reading of a card crop whose lines the name model ranks too;
    /// 0 for none (and none without a `name_model`). A name in large display type, 60–110 px tall at `page_height`, is often read
    /// in fragments or not at all there, and at half that size it is body-sized type. The warp
    /// stage's reading for which way is up is taken instead when it read the same page.
    public var coarsePageHeight: Int = 224
    /// Tesseract languages that read the best name lines a second time, one line each, for the
    /// diacritics `languages` lost (`Latin`: tesseract's Latin-script model, Debian's
    /// `tesseract-ocr-script-latn`); "" reads each line once.
    public var nameLanguages: String = "Latin"
    /// Load `name_languages` with its word lists. Off: `Latin`'s list spans every Latin-script
    /// language, costs about 210 MB resident, and pulls a brand name's reading towards
    /// dictionary words it is not.
    public var nameWordLists: Bool = false
    /// Tesseract packs, comma-separated, that read the suggested name's lines again, each with its
    /// own engine shared by the workers (about 35 MB each, loaded once), for the Cyrillic names
    /// `languages` and `name_languages` cannot read: the Cyrillic reading is taken when the name
    /// model's fitted Cyrillic choice (`NameModel.cyrillic`) prefers it to the `name_languages` one
    /// (never without a name model); "" for none.
    public var cyrillicLanguages: String = "rus,ukr"
    /// The most letters a `cyrillic_languages` reading of a line can have per line height of its
    /// width: with it the suggested name is read with those packs only when some reading that
    /// long or shorter could be taken over its `name_languages` reading (about half are not read
    /// then); 0 reads it always. 1.5 times the most seen on training cards
    /// (bench/speed/fit_cyrillic_gate.py).
    public var cyrillicLettersPerHeight: Double = 6.6
    /// How many of the best name candidates are read again with `name_languages`.
    public var nameRereads: Int = 2
    /// The model that ranks candidate lines as the name (fitted by bench/names/fit_names.py on
    /// generated training cards); "" ranks them with the hand-weighted `CardNamePicker`.
    public var nameModel: String = NameModel.bundledFileName
    /// Pixels a name line's box is scaled to before it is read again: the Latin model read the
    /// name lines of generated training crops best at this height (bench/names/line_height.py);
    /// 0 keeps the crop's size.
    public var nameLineHeight: Int = 48
    /// Bench only, on in no preset: before a name line is read again, paint over the ink that
    /// reaches in over its cut's top or bottom edge and lies mostly outside the line's box (a
    /// panel's edge, the line above, read as junk letters at the name's ends: `NameLineInk`).
    /// Held out it read 3 more screenshots' names and 2 fewer photos' (bench/names/README.md).
    public var nameLineInk: Bool = false
    /// Before a name line is read again, rebuild its box from the ink around it (`NameLineBox`):
    /// the letters on its baseline, without a logo the page layout took into the line, with the
    /// letters the box ended short of. Held out it read 2 more photos' names and 5 more
    /// screenshots' (bench/names/README.md); false reads the page reading's box.
    public var nameLineBox: Bool = true
    /// Bench only, on in no preset: the suggested name is read again by the page reading's own
    /// boxes where `name_line_box` rebuilt them, and the more confident of the two readings is
    /// kept (the rebuilt box sometimes drops a first letter it takes for a mark: `Lindex` read
    /// `index`). It read 3 more training names and lost 1, held out 2 more and lost 1, for about
    /// 15 % more ocr CPU at the median (bench/names/README.md).
    public var namePageBoxReading: Bool = false
    /// Lines found in a card crop's pixels (connected components of ink, either polarity, in luma
    /// and colourfulness) that neither page reading has a legible line on, read on their own with
    /// `name_languages` as name candidates: how many, tallest first; 0 for none. Each costs a
    /// single-line reading (white type on a colour panel, display faces the page layout misses).
    public var nameImageLines: Int = 2
    /// A line found in the pixels is also a candidate joined with the page's lines above or below
    /// it in type of the same size (a name set on two lines, one of them white on colour or in a
    /// display face the page layout missed); false keeps it a line on its own.
    public var nameImageRuns: Bool = true
    /// Bench only: a JSON Lines file every name candidate is appended to with its features, each
    /// read again with `name_languages`, for fitting the name model; "" for none.
    public var nameCandidatesFile: String = ""
    /// The issuer catalog whose spelling a suggested name takes when it is one accent or
    /// look-alike glyph away; "" for none.
    public var catalog: String = IssuerCatalog.bundledFileName
    /// Read the plain grey crop too when the flattened one gives fewer than
    /// `plain_reread_below` letters and digits in confident words, and keep the more legible.
    public var plainReread: Bool = true
    public var plainRereadBelow: Int = 12
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try ConfigError.at("languages") { try TesseractEngine.checkInstalled(options.languages) }
    if !options.nameLanguages.isEmpty {
      try ConfigError.at("name_languages") { try TesseractEngine.checkInstalled(options.nameLanguages) }
    }
    guard options.pageHeight == 0 || options.pageHeight >= 200 else {
      throw ConfigError(path: "page_height", "use 0 (keep the crop's size) or at least 200 px")
    }
    guard options.coarsePageHeight == 0 || options.coarsePageHeight >= 100 else {
      throw ConfigError(path: "coarse_page_height", "use 0 (no second reading) or at least 100 px")
    }
    for language in options.cyrillicLanguages.split(separator: ",") {
      try ConfigError.at("cyrillic_languages") { try TesseractEngine.checkInstalled(String(language)) }
    }
    guard options.cyrillicLettersPerHeight >= 0 else {
      throw ConfigError(path: "cyrillic_letters_per_height", "use 0 (always read) or more letters")
    }
    guard (0...5).contains(options.nameRereads) else {
      throw ConfigError(path: "name_rereads", "use 0 to 5 lines")
    }
    if !options.nameModel.isEmpty {
      try ConfigError.at("name_model") { try NameModel.load(from: context.resolve(options.nameModel)) }
    }
    guard (0...5).contains(options.nameImageLines) else {
      throw ConfigError(path: "name_image_lines", "use 0 to 5 lines")
    }
    guard options.nameLineHeight == 0 || (16...128).contains(options.nameLineHeight) else {
      throw ConfigError(path: "name_line_height", "use 0 (keep the size) or 16 to 128 px")
    }
    if !options.catalog.isEmpty {
      try ConfigError.at("catalog") { try IssuerCatalog.load(from: context.resolve(options.catalog)) }
    }
    guard options.plainRereadBelow >= 0 else {
      throw ConfigError(path: "plain_reread_below", "use 0 or more letters")
    }
    guard [3, 6, 11].contains(options.pageSegmentation) else {
      throw ConfigError(path: "page_segmentation", "use 3 (auto), 6 (single block) or 11 (sparse text)")
    }
  }

  private let options: Options
  private let engine: TesseractEngine
  private let nameReader: CardNameReader

  public init(options: Options, context: StageContext) throws {
    self.options = options
    self.engine = try context.workerEngines.engine(languages: options.languages)
    let logsCandidates = !options.nameCandidatesFile.isEmpty
    self.nameReader = CardNameReader(
      model: options.nameModel.isEmpty ? nil : try NameModel.load(from: context.resolve(options.nameModel)),
      nameEngine: options.nameLanguages.isEmpty
        || (options.nameRereads == 0 && options.nameImageLines == 0 && !logsCandidates)
        ? nil
        : try context.sharedEngines.engine(
          languages: options.nameLanguages, wordLists: options.nameWordLists),
      spellings: options.catalog.isEmpty
        ? nil : CardNameCatalog(catalog: try IssuerCatalog.load(from: context.resolve(options.catalog))),
      cyrillicEngines: options.nameRereads == 0
        ? []
        : try options.cyrillicLanguages.split(separator: ",").map {
          try context.sharedEngines.engine(languages: String($0))
        },
      cyrillicLettersPerHeight: options.cyrillicLettersPerHeight,
      rereads: options.nameRereads, lineHeight: options.nameLineHeight, inkLines: options.nameLineInk,
      lineBox: options.nameLineBox ? NameLineBox() : nil,
      imageLines: options.nameImageLines, imageRuns: options.nameImageRuns,
      pageBoxReading: options.namePageBoxReading,
      candidatesLog: logsCandidates
        ? try CandidatesLog(url: URL(fileURLWithPath: options.nameCandidatesFile)) : nil)
  }

  public func process(_ item: PhotoItem) throws {
    let crop = item.artifacts[CardCrop.self]
    let cardCrop = crop?.image
    let image = try cardCrop ?? item.pixels().analysis
    let prepared = crop?.prepared
    let plain = prepared?.gray ?? image.grayscale()
    var gray = prepared?.flattened ?? TextContrast.flattened(plain)
    var readsPlain = false
    let start = ThreadCPUClock.milliseconds()
    let remaining = { self.remaining(of: item, from: start) }
    let deadline = remaining()
    var result = read(gray, isCardCrop: cardCrop != nil, deadline: deadline)
    // Flattening blends tile backgrounds across a sharp edge such as a white barcode box on a
    // coloured card into a dark halo, and tesseract's layout analysis then lost every line of
    // clean type elsewhere (`Etos`, white on green, read as `mee INA`). The plain grey page reads
    // those; flattening is kept first because it reads what plain grey cannot (white on orange).
    let legible = Self.legibleCharacters(result)
    if options.plainReread && !result.timedOut && legible < options.plainRereadBelow {
      let second = read(plain, isCardCrop: cardCrop != nil, deadline: remaining())
      if !second.timedOut && Self.legibleCharacters(second) > legible {
        result = second
        gray = plain
        readsPlain = true
      }
    }
    let (payment, texts, hidesNumber) = Self.paymentCard(result)
    let lines = zip(result.lines, texts).map { line, text in
      TextLine(text: text, box: line.box, confidence: Rounding.tenths(line.confidence))
    }
    let coarse =
      result.timedOut
      ? nil : coarseReading(gray, page: result, of: item, flattened: !readsPlain, deadline: remaining())
    let (names, catalogSpelling) = nameReader.names(
      result, coarse: coarse.flatMap { $0.timedOut ? nil : $0 }, page: gray,
      crop: cardCrop.map { ($0, plain) }, file: item.relativePath, deadline: remaining)
    item.artifacts.write(
      CardText(
        lines: lines,
        name: NameSuggestion(
          suggested: names.first, alternatives: Array(names.dropFirst().prefix(3)),
          catalogSpelling: catalogSpelling ? true : nil),
        payment: payment, hidesNumber: hidesNumber,
        notes: result.timedOut
          ? ["ocr timed out after \(deadline) ms of CPU time; text may be incomplete"] : []))
  }

  /// A payment card's network and last four, the lines with any card number masked, and whether
  /// a number was hidden on a card not taken for a payment card.
  private static func paymentCard(_ result: TesseractEngine.Result) -> (
    payment: PaymentInfo?, texts: [String], hidesNumber: Bool
  ) {
    let read = result.lines.map(\.text)
    let number = PaymentCardNumber.find(in: read + [result.words.map(\.text).joined(separator: " ")])
    if let match = number.flatMap({ PaymentCardNumber.saysPaymentCard(read) ? $0 : nil })
      ?? PaymentCardNumber.findMasked(in: read)
    {
      return (
        PaymentInfo(network: match.network, last4: match.last4),
        PaymentCardNumber.maskAllGroups(read, last4: match.last4), false
      )
    }
    if let number {
      // A number that may be a payment card's but nothing else on the card says so: most often a
      // loyalty programme's. The card is not taken for a payment card (it stays exportable), but
      // its number is hidden all the same, in the lines and on the crop.
      return (nil, PaymentCardNumber.maskAllGroups(read, last4: number.last4), true)
    }
    if PaymentCardRedaction.namesPaymentCard(read) {
      // A network's name or an expiry label, but no whole number: tesseract split it into groups
      // on separate lines or misread a digit, and each group is still part of the number.
      return (nil, PaymentCardNumber.maskAllGroups(read, last4: nil), false)
    }
    return (nil, read.map(PaymentCardNumber.mask), false)
  }

  /// Milliseconds left to the readings of `item`: `timeout_ms` of this thread's CPU time from
  /// `start`, and no more than the image's wall-time limit has left.
  private func remaining(of item: PhotoItem, from start: Double) -> Int {
    Int(
      min(Double(options.timeoutMs) - (ThreadCPUClock.milliseconds() - start), item.secondsRemaining * 1000))
  }

  /// The coarser second reading of a card crop (`coarse_page_height`): the warp stage's, when it
  /// read this prepared page at that height with these languages and layout mode already. The
  /// `page` reading is only traced (`SNAPSORT_COARSE_TRACE`).
  private func coarseReading(
    _ gray: Bitmap, page: TesseractEngine.Result, of item: PhotoItem, flattened: Bool, deadline: Int
  )
    -> TesseractEngine.Result?
  {
    guard let crop = item.artifacts[CardCrop.self], options.coarsePageHeight > 0, !options.nameModel.isEmpty
    else { return nil }
    if flattened, let shared = crop.reading, shared.height == options.coarsePageHeight,
      Self.pageHeight(of: gray, at: options.coarsePageHeight) == options.coarsePageHeight,
      shared.languages == options.languages, shared.segmentation == options.pageSegmentation
    {
      return shared.result
    }
    let start = ThreadCPUClock.milliseconds()
    let coarse = read(gray, isCardCrop: true, height: options.coarsePageHeight, deadline: deadline)
    if coarseTraces {
      let spent = ThreadCPUClock.milliseconds() - start
      let best = nameReader.bestPageProbability(page, of: gray)
      let line = ["COARSE", item.relativePath, String(best), String(spent)]
      FileHandle.standardError.write(Data((line.joined(separator: "\t") + "\n").utf8))
    }
    return coarse
  }

  /// `SNAPSORT_COARSE_TRACE` set: each coarse reading the stage makes itself (not the warp
  /// stage's) is written to stderr as `COARSE`, the file, the name model's probability of the
  /// page reading's best candidate and the reading's thread CPU ms, tab-separated, for
  /// bench/speed/fit_coarse_gate.py (a gate before the reading; tried and not taken).
  private let coarseTraces = ProcessInfo.processInfo.environment["SNAPSORT_COARSE_TRACE"] != nil

  /// Reads a prepared grey crop as a page, scaled to `height` (`page_height` by default) when it
  /// is a card crop, with boxes in the crop's pixels.
  private func read(_ gray: Bitmap, isCardCrop: Bool, height: Int? = nil, deadline: Int)
    -> TesseractEngine.Result
  {
    // Only a card crop has the card's proportions that `page_height` assumes.
    let height = Self.pageHeight(of: gray, at: height ?? options.pageHeight)
    let page =
      isCardCrop && height > 0 && gray.height > height
      ? gray.resized(width: max(1, gray.width * height / gray.height), height: height) : gray
    let result = engine.recognize(
      page,
      segmentation: TesseractEngine.PageSegmentation(rawValue: Int32(options.pageSegmentation))
        ?? .sparseText,
      deadline: deadline)
    guard page.height != gray.height else { return result }
    return result.scaled(
      x: Double(gray.width) / Double(page.width), y: Double(gray.height) / Double(page.height))
  }

  /// The height a crop is read at for a card's `height`: a pass's crop keeps its own proportions,
  /// and is read at the scale of a card as wide as it (`NameLineCandidates.cardHeight`), the scale
  /// its type is sized at; a card crop's is `height`.
  static func pageHeight(of gray: Bitmap, at height: Int) -> Int {
    let card = NameLineCandidates.cardHeight(width: Double(gray.width), height: Double(gray.height))
    return Int((Double(height) * Double(gray.height) / card).rounded())
  }

  /// Letters and digits in words tesseract is fairly sure of: how much of a reading is text
  /// rather than specks and bars.
  static func legibleCharacters(_ result: TesseractEngine.Result) -> Int {
    result.words.filter { $0.confidence >= 70 }.reduce(0) { $0 + lettersAndDigits(in: $1.text) }
  }

  /// Letters of any script and the digits 0–9 in `text`.
  static func lettersAndDigits(in text: String) -> Int {
    text.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count
  }
}
