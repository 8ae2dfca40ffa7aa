import Foundation
import SnapsortImaging
import SnapsortNative

/// Picks the card's name among OCR lines: the most prominent line near the top — large,
/// confident, mostly letters, not boilerplate.
public enum CardNamePicker {
  /// Phrases that are printed on cards but never their name (lowercased, diacritics kept).
  static let boilerplate = [
    "member since", "member", "valid thru", "valid through", "valid from", "good thru", "expires", "exp",
    "card no", "card number", "customer", "loyalty card", "bonus card", "club member", "gold member",
    "thank you", "karta", "kunde", "mitglied", "carte", "tarjeta", "tessera", "kort", "kaart", "since",
    "visa", "mastercard", "maestro", "american express", "amex", "debit", "credit", "electron",
  ]

  public struct Candidate: Sendable {
    public var text: String
    public var score: Double
    /// The line's box `[x, y, width, height]` in the crop's pixels, to read it again.
    public var box: Box = .zero
    /// The boxes of the lines a name set on several lines is made of, to read each again.
    public var lineBoxes: [Box] = []
    /// The lines of `lineBoxes`, by index, that were found in the crop's pixels and read on their
    /// own already, with that reading and its confidence (0–100): reading them again from the grey
    /// page would lose type that is ink only in colour. Also a run's `&` lines, as the page read them.
    public var readLines: [Int: (text: String, confidence: Double)] = [:]
    /// `NameLineCandidates` measurements, by feature name.
    public var features: [String: Double] = [:]
  }

  /// - Parameters:
  ///   - lines: OCR lines with boxes in the crop's pixels.
  ///   - words: OCR words (low-confidence and symbol-only words are dropped from the lines).
  ///   - height: the crop's height, for the "near the top" prior.
  public static func candidates(lines: [TesseractEngine.Item], words: [TesseractEngine.Item], height: Double)
    -> [Candidate]
  {
    var result: [Candidate] = []
    for line in lines {
      // A third of the card tall is a barcode or a logo read as letters (`earn m`), not type.
      guard line.box.height <= height * 0.3 else { continue }
      let cleaned = clean(line, words: words)
      let letters = cleaned.filter(\.isLetter).count
      let digits = cleaned.filter(\.isNumber).count
      guard letters >= 3, Double(letters) >= 0.6 * Double(cleaned.filter { !$0.isWhitespace }.count),
        digits <= 2
      else { continue }
      // Three or four vertical strokes (`ill`, `wil`, `IMM`) are barcode bars, not a name.
      if letters <= 4, IssuerText.fold(cleaned).filter(\.isLetter).allSatisfy(strokes.contains) { continue }
      let lower = cleaned.lowercased()
      if boilerplate.contains(where: { lower == $0 || lower.hasPrefix($0 + " ") }) { continue }
      if looksLikePersonName(cleaned) { continue }
      let top = line.box.y / height
      let size = line.box.height / height
      // Large type, near the top, recognised with confidence.
      let score = size * 3 + (1 - top) * 0.6 + line.confidence / 100 * 0.5
      result.append(Candidate(text: cleaned, score: score, box: line.box))
    }
    return result.sorted { $0.score > $1.score }
  }

  /// The line's words without low-confidence junk and symbol-only tokens (logos, bars).
  static func clean(_ line: TesseractEngine.Item, words: [TesseractEngine.Item]) -> String {
    let inLine = wordsInLine(line, words: words)
    let legible = inLine.map { word in
      let letters = word.text.filter { $0.isLetter || $0.isNumber }.count
      guard letters * 2 >= word.text.count else { return false }
      return word.confidence >= 50 || (word.confidence >= 20 && looksLikeWord(word.text))
    }
    // An ampersand between two kept words is the name's (`Coffee & Co`), not a logo's speck.
    var texts = inLine.indices.filter { index in
      legible[index]
        || (conjunctions.contains(inLine[index].text) && index > 0 && index + 1 < inLine.count
          && legible[index - 1] && legible[index + 1])
    }.map { inLine[$0].text }
    // A lone lowercase letter at either end is a speck or a logo's edge (`f ICA Stammis`).
    while texts.count > 1, let first = texts.first, first.count == 1, first.first!.isLowercase {
      texts.removeFirst()
    }
    while texts.count > 1, let last = texts.last, last.count == 1, last.first!.isLowercase {
      texts.removeLast()
    }
    return trimmed(texts.joined(separator: " "))
  }

  static let conjunctions: Set<String> = ["&", "+"]

  /// Punctuation and spaces trimmed from both ends, except a quotation mark or bracket that
  /// closes or opens one inside the name (`Банк «Вишня»`, `(Outlet) Store`) or a pair around it.
  static func trimmed(_ text: String) -> String {
    let trim = CharacterSet.punctuationCharacters.union(.whitespaces)
    let isTrimmed = { (character: Character) in character.unicodeScalars.allSatisfy(trim.contains) }
    guard let start = text.firstIndex(where: { !isTrimmed($0) }),
      let end = text.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    var core = String(text[start...end])
    let before: Character? = start > text.startIndex ? text[text.index(before: start)] : nil
    let after: Character? = text.index(after: end) < text.endIndex ? text[text.index(after: end)] : nil
    if let before, let after, pairs[before] == after { return "\(before)\(core)\(after)" }
    if let after, let opener = pairs.first(where: { $0.value == after })?.key,
      lacks(core, after, partner: opener)
    {
      core.append(after)
    }
    if let before, let closer = pairs[before], lacks(core, before, partner: closer) {
      core.insert(before, at: core.startIndex)
    }
    return core
  }

  /// Quotation marks and brackets by their opening mark.
  static let pairs: [Character: Character] = [
    "«": "»", "»": "«", "„": "“", "“": "”", "‚": "‘", "‘": "’", "‹": "›", "(": ")", "[": "]", "\"": "\"",
  ]

  /// Whether the text holds more of `partner` than of `mark` (an odd count when the two are the
  /// same mark): the mark that pairs it was trimmed away.
  static func lacks(_ text: String, _ mark: Character, partner: Character) -> Bool {
    let partners = text.filter { $0 == partner }.count
    guard mark != partner else { return partners % 2 == 1 }
    return partners > text.filter { $0 == mark }.count
  }

  /// The words whose centre lies inside the line's box.
  static func wordsInLine(_ line: TesseractEngine.Item, words: [TesseractEngine.Item]) -> [TesseractEngine
    .Item]
  {
    words.filter { word in
      let cy = word.box.y + word.box.height / 2
      return cy >= line.box.y && cy <= line.box.y + line.box.height && word.box.x >= line.box.x - 2
        && word.box.x + word.box.width <= line.box.x + line.box.width + 2
    }
  }

  /// Tesseract's confidence is low on large type (`Decathlon` 25, `Sephora` 36 on a card name
  /// 45 px high) but a name is still legible as a word: four letters or more, a vowel, and not
  /// only the vertical-stroke glyphs that barcode bars and logos are read as (`IMM`, `IMINO`,
  /// always in capitals: a lowercase letter is required too).
  static func looksLikeWord(_ text: String) -> Bool {
    let letters = Array(IssuerText.fold(text).filter(\.isLetter))
    guard letters.count >= 4, text.allSatisfy(\.isLetter), text.contains(where: \.isLowercase) else {
      return false
    }
    return letters.contains { "aeiouy".contains($0) } && letters.contains { !strokes.contains($0) }
  }

  /// Letters that are only vertical strokes, as bars and logo edges are read.
  static let strokes: Set<Character> = ["i", "l", "m", "n", "w", "v", "t", "h", "u"]

  /// Two or three all-capital words, like an embossed cardholder name.
  static func looksLikePersonName(_ text: String) -> Bool {
    let words = text.split(separator: " ")
    guard (2...3).contains(words.count) else { return false }
    return words.allSatisfy { word in
      word.count >= 2 && word.allSatisfy { $0.isUppercase || $0 == "-" || $0 == "." }
    }
  }
}
