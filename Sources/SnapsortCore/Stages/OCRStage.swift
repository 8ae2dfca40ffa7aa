import Foundation

/// Reads the upright card crop with tesseract: `card.text` (every line, card numbers masked),
/// `card.name` (suggested name and alternatives) and `card.payment` (network, last four).
public final class OCRStage: Stage {
  public static let name = "ocr"
  public static let summary =
    "Tesseract on the card crop: text lines, suggested name, payment network and last four"

  public struct Options: StageOptions, Equatable {
    /// Tesseract languages, "+"-joined; `make` installs `tesseract-ocr-<lang>` for each.
    public var languages: String = "eng"
    /// Tesseract page segmentation mode: 11 (sparse text) suits cards.
    public var pageSegmentation: Int = 11
    /// Milliseconds before recognition of one image is cancelled.
    public var timeoutMs: Int = 5000
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try TesseractEngine.checkInstalled(options.languages)
    guard [3, 6, 11].contains(options.pageSegmentation) else {
      throw ConfigError(path: "page_segmentation", "use 3 (auto), 6 (single block) or 11 (sparse text)")
    }
  }

  private let options: Options
  private let engine: TesseractEngine

  public init(options: Options, context: StageContext) throws {
    self.options = options
    self.engine = try TesseractEngine(languages: options.languages)
  }

  public func process(_ item: PhotoItem) throws {
    guard let image = item.cardCrop ?? item.analysis else { return }
    let gray = image.grayscale()
    let deadline = Int(min(Double(options.timeoutMs), item.secondsRemaining * 1000))
    let result = engine.recognize(
      gray,
      segmentation: TesseractEngine.PageSegmentation(rawValue: Int32(options.pageSegmentation))
        ?? .sparseText,
      deadline: deadline)
    var card = item.card
    var texts = result.lines.map { PaymentCardNumber.mask($0.text) }
    if let match = PaymentCardNumber.find(
      in: result.lines.map(\.text) + [result.words.map(\.text).joined(separator: " ")])
    {
      card.payment = PaymentInfo(network: match.network, last4: match.last4)
      texts = PaymentCardNumber.maskAllGroups(result.lines.map(\.text), last4: match.last4)
    }
    let lines = zip(result.lines, texts).map { line, text in
      TextLine(text: text, box: line.box, confidence: (line.confidence * 10).rounded() / 10)
    }
    card.text = lines
    item.textLines = lines
    let candidates = CardNamePicker.candidates(
      lines: result.lines, words: result.words, height: Double(gray.height))
    var names: [String] = []
    for candidate in candidates where !names.contains(candidate.text) { names.append(candidate.text) }
    card.name = NameSuggestion(suggested: names.first, alternatives: Array(names.dropFirst().prefix(3)))
    item.card = card
    if result.timedOut {
      item.record.notes =
        (item.record.notes ?? []) + ["ocr timed out after \(deadline) ms; text may be incomplete"]
    }
  }
}
