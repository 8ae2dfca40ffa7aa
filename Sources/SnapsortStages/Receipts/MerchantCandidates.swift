import Foundation
import SnapsortNative

/// The names a receipt's header offers for its merchant, each with the features
/// `MerchantModel` weighs: every header row (down to the first priced row, at most 12) and every
/// two neighbouring rows joined. `bench/receipts/fit_merchant.py` fits the model on these
/// features as `snapsort receipt-text --merchant-candidates` dumps them, so fit and product
/// compute them once, here.
public struct MerchantCandidates: Sendable {
  /// One printed row as a record writes it: text, box `[x, y, width, height]` rounded to
  /// pixels, confidence (0–100) rounded to tenths.
  struct Row {
    var text: String
    var box: Box
    var confidence: Double

    init(text: String, box: Box, confidence: Double) {
      self.text = text
      self.box = box.map { $0.rounded() }
      self.confidence = Rounding.tenths(confidence)
    }
  }

  public struct Candidate: Codable, Sendable, Equatable {
    /// The name as the record would give it: registration numbers in brackets and edge
    /// punctuation removed.
    public var value: String
    /// The first row it comes from.
    public var line: Int
    public var features: [String: Double]
  }

  /// What the model weighs for one receipt, as `snapsort receipt-text --merchant-candidates`
  /// writes it for the fitting script.
  public struct Evidence: Codable, Sendable, Equatable {
    /// The rules' merchant (`ReceiptExtractor.ruleMerchant`).
    public var rules: String?
    /// Whether `rules` names a catalog brand: the model never overrides one.
    public var rulesBrand: Bool
    public var candidates: [Candidate]

    enum CodingKeys: String, CodingKey {
      case rules, candidates
      case rulesBrand = "rules_brand"
    }
  }

  /// What a row's neighbours need to know of it.
  struct Traits {
    var address: Bool
    var registration: Bool
    var phoneOrTax: Bool
    var date: Bool
    var height: Double
    var centre: Double
    var confidence: Double
    var nameLike: Bool
    /// Only company forms ("SDN BHD", "TRADING"): the end of a name printed over two rows.
    var formOnly: Bool
    /// Ends with "&" or "and": the name goes on in the next row.
    var openEnd: Bool
    /// Names a street or an area word ("TAMAN", "JALAN"), with or without a number.
    var place: Bool
    /// The row's top and its middle, in pixels.
    var top: Double
    var middle: Double
  }

  /// Folded catalog names and aliases (`fold`, at least three letters), for the `brand` feature.
  let brands: [String]
  /// The learnt word log-odds, for the `word_odds` feature; nil only in a broken build.
  let words: MerchantWords?

  /// The bundled word table; nil only in a broken build (a test loads it).
  public static let bundledWords = try? MerchantWords.bundled()

  init(catalog: IssuerCatalog?, words: MerchantWords? = MerchantCandidates.bundledWords) {
    self.words = words
    var brands = Set<String>()
    for issuer in catalog?.issuers ?? [] {
      for name in [issuer.name] + issuer.aliases {
        let folded = Self.fold(name).trimmingCharacters(in: .whitespaces)
        if folded.filter(\.isLetter).count >= 3 { brands.insert(folded) }
      }
    }
    self.brands = brands.sorted()
  }

  /// Every feature this build computes, by the name the model file uses.
  public static let featureNames = [
    "above_address", "address", "address_below", "amount", "brand", "centre", "company", "confidence", "date",
    "digits", "first_row", "form_only", "height", "incomplete", "joined", "legal", "letters", "name_rank",
    "not_name", "odd_case", "phone_or_tax", "phone_or_tax_below", "place", "punctuation", "registration",
    "registration_below", "row", "short_words", "split_name", "tallest", "upper", "vowels", "word_odds",
    "words",
  ]

  /// The header's candidates, each distinct name once (the first row pair that gives it).
  func candidates(_ rows: [Row]) -> [Candidate] {
    let traits = Self.traits(rows)
    let end = min(Self.headerEnd(rows), rows.count)
    var found: [Candidate] = []
    for first in 0..<end {
      for last in [first, first + 1] where last < rows.count && last <= end {
        let candidate = features(rows, traits, first...last, end: end)
        if candidate.value.filter(\.isLetter).count >= 3,
          !found.contains(where: { $0.value == candidate.value })
        {
          found.append(candidate)
        }
      }
    }
    return found
  }

  /// Whether `name` spells a catalog brand ("@" read for "O" in a logo).
  func namesBrand(_ name: String) -> Bool {
    let folded = Self.fold(name.replacingOccurrences(of: "@", with: "O"))
    return brands.contains { folded.contains(" \($0) ") }
  }

  private func features(_ rows: [Row], _ traits: [Traits], _ span: ClosedRange<Int>, end: Int) -> Candidate {
    let text = span.map { rows[$0].text }.joined(separator: " ")
    let value = Self.clean(text)
    var features = textFeatures(value: value, text: text)
    let own = span.map { traits[$0] }
    let last = span.upperBound
    let below = traits[min(rows.count, last + 1)..<min(rows.count, last + 3)]
    let addressBelow =
      (last + 1..<min(rows.count, last + 7)).first { traits[$0].address }.map { $0 - last } ?? 7
    let height = own.map(\.height).max() ?? 0
    let tallest = traits.prefix(end).map(\.height).max() ?? 0
    let flag = { (set: Bool) -> Double in set ? 1 : 0 }
    features["row"] = Double(span.lowerBound) / 10
    features["first_row"] = flag(span.lowerBound == 0)
    features["joined"] = flag(span.count > 1)
    features["height"] = height
    features["tallest"] = flag(height >= tallest - 1e-9)
    features["confidence"] = own.map(\.confidence).min() ?? 0
    features["address"] = flag(own.contains { $0.address })
    features["registration"] = flag(own.contains { $0.registration })
    features["phone_or_tax"] = flag(own.contains { $0.phoneOrTax })
    features["date"] = flag(own.contains { $0.date })
    features["address_below"] = Double(addressBelow) / 7
    features["registration_below"] = flag(below.contains { $0.registration })
    features["phone_or_tax_below"] = flag(below.contains { $0.phoneOrTax })
    features["centre"] = own.map(\.centre).min() ?? 0
    features["above_address"] = flag(addressBelow <= 2)
    features["name_rank"] = Double(min(3, traits.prefix(span.lowerBound).filter(\.nameLike).count)) / 3
    features["place"] = flag(own.contains { $0.place })
    let split = Self.split(traits, span)
    features["split_name"] = flag(span.count > 1 && split)
    features["incomplete"] = flag(span.count == 1 && split)
    return Candidate(value: value, line: span.lowerBound, features: features)
  }

  /// The features of the candidate's words: `value` as the record would give it, `text` its rows
  /// as read.
  private func textFeatures(value: String, text: String) -> [String: Double] {
    let folded = Self.fold(text)
    let shares = Self.shares(value)
    let words = value.split(whereSeparator: \.isWhitespace)
    let letters = value.filter(\.isLetter)
    let flag = { (set: Bool) -> Double in set ? 1 : 0 }
    var features: [String: Double] = [:]
    features["letters"] = shares.letters
    features["digits"] = shares.digits
    features["punctuation"] = shares.punctuation
    features["upper"] = shares.upper
    features["words"] = log1p(Double(words.count))
    features["company"] = flag(Self.hasAny(folded, Self.companyForms))
    features["legal"] = flag(Self.hasAny(folded, Self.legalForms))
    features["not_name"] = flag(Self.holdsNotName(text))
    features["amount"] = flag(Self.amount.firstMatch(in: text) != nil)
    features["short_words"] = Double(words.filter { $0.count <= 2 }.count) / Double(max(1, words.count))
    features["odd_case"] = Self.oddCase(value)
    let vowels = letters.filter { "aeiouy".contains($0.lowercased()) }.count
    features["vowels"] = Double(vowels) / Double(max(1, letters.count))
    features["brand"] = flag(namesBrand(value))
    features["form_only"] = flag(Self.formOnly(folded))
    features["word_odds"] = self.words?.odds(value) ?? 0
    return features
  }

  /// Whether the name is broken between the span's first row and the next one: the first ends
  /// open ("HOME MASTER HARDWARE &") or the next, printed below it, holds only company forms
  /// ("TRADING"). A next row beside it is the same printed line cut in two by OCR, its order
  /// unknown ("SYARIKAT" printed before the name).
  static func split(_ traits: [Traits], _ span: ClosedRange<Int>) -> Bool {
    let first = span.lowerBound
    guard first + 1 < traits.count else { return false }
    let below = traits[first + 1].top >= traits[first].middle
    return traits[first].openEnd || (below && traits[first + 1].formOnly && !traits[first].formOnly)
  }

  /// Whether a folded text holds a company form and no other word of two letters or more but
  /// numbers.
  static func formOnly(_ folded: String) -> Bool {
    guard hasAny(folded, companyForms) else { return false }
    var rest = folded
    for form in formsLongestFirst {
      while rest.contains(" \(form) ") { rest = rest.replacingOccurrences(of: " \(form) ", with: " ") }
    }
    return !rest.split(separator: " ").contains { $0.count > 1 && !$0.allSatisfy(\.isNumber) }
  }

  private static let formsLongestFirst = companyForms.sorted { $0.count > $1.count }

  /// Where the header ends: the first priced row (a price in the first two rows is OCR
  /// noise), at most 12 rows down.
  static func headerEnd(_ rows: [Row]) -> Int {
    let first = rows.firstIndex { priceEnd.firstMatch(in: $0.text) != nil } ?? rows.count
    return first >= 2 ? min(12, first) : 12
  }

  static func traits(_ rows: [Row]) -> [Traits] {
    let heights = rows.map { max(1, $0.box.height) }.sorted()
    let median = heights.isEmpty ? 1 : heights[heights.count / 2]
    let width = max(1, rows.map(\.box.maxX).max() ?? 1)
    return rows.map { row in
      let folded = fold(row.text)
      let address = looksLikeAddress(folded)
      let nameLike =
        shares(row.text).letters >= 0.6 && !holdsNotName(row.text) && !address
        && amount.firstMatch(in: row.text) == nil && row.text.filter(\.isLetter).count >= 3
      return Traits(
        address: address,
        registration: row.text.filter(\.isNumber).count >= 5
          && row.text.split(whereSeparator: \.isWhitespace).count <= 4,
        phoneOrTax: hasAny(
          folded,
          ["tel", "fax", "phone", "hp", "gst", "reg", "co no", "company no", "vat", "ust", "id", "no"]),
        date: date.firstMatch(in: row.text) != nil || time.firstMatch(in: row.text) != nil,
        height: log(max(1, row.box.height) / median), centre: abs(row.box.midX / width - 0.5),
        confidence: row.confidence / 100, nameLike: nameLike, formOnly: formOnly(folded),
        openEnd: row.text.trimmingCharacters(in: .whitespaces).hasSuffix("&") || folded.hasSuffix(" and "),
        place: hasAny(folded, placeWords), top: row.box.y, middle: row.box.midY)
    }
  }

  /// Shares of letters, digits and other marks among the visible characters, and of capitals
  /// among the letters.
  static func shares(_ text: String) -> (letters: Double, digits: Double, punctuation: Double, upper: Double)
  {
    let visible = text.filter { !$0.isWhitespace }
    let count = Double(max(1, visible.count))
    let letters = visible.filter(\.isLetter)
    return (
      Double(letters.count) / count, Double(visible.filter(\.isNumber).count) / count,
      Double(visible.filter { !$0.isLetter && !$0.isNumber }.count) / count,
      Double(letters.filter(\.isUppercase).count) / Double(max(1, letters.count))
    )
  }

  /// Share of words whose letters are neither all capitals, all small nor capitalised: OCR of
  /// a logo or of shapes more often than a printed name.
  static func oddCase(_ text: String) -> Double {
    let words = text.split(whereSeparator: \.isWhitespace).map { $0.filter(\.isLetter) }.filter {
      !$0.isEmpty
    }
    let odd = words.filter { letters in
      !(letters.allSatisfy(\.isUppercase) || letters.allSatisfy(\.isLowercase)
        || (letters.first!.isUppercase && letters.dropFirst().allSatisfy(\.isLowercase)))
    }
    return Double(odd.count) / Double(max(1, words.count))
  }

  /// Small letters, digits, spaces and German letters only, every other mark a space, padded
  /// with a space each side so that `hasAny` matches whole words.
  static func fold(_ text: String) -> String {
    let kept = text.lowercased().unicodeScalars.map { keptScalars.contains($0) ? Character($0) : " " }
    return " " + String(kept).split(separator: " ").joined(separator: " ") + " "
  }

  private static let keptScalars = Set("0123456789abcdefghijklmnopqrstuvwxyzäöüß ".unicodeScalars)

  /// Whether the text holds a word that is no name, folded as the rules fold, so that accented
  /// and Cyrillic not-names (reçu, добро пожаловать) and OCR look-alikes match here as they do
  /// there.
  static func holdsNotName(_ text: String) -> Bool {
    ReceiptKeywords.containsAny(ReceiptKeywords.fold(text), notNames)
  }

  /// What two spellings of one name share, in any script: letters and digits, case and accents
  /// dropped. The fold above keeps a–z and German letters only, so a Cyrillic or Greek name
  /// would fold to nothing and equal any other such name.
  static func nameKey(_ text: String) -> String {
    String(
      text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars
        .filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
  }

  /// The header row that prints `name`, one word, in full among more words, nearest first within
  /// `rows` rows of `line` (below before above), and reads as no address, phone, tax id,
  /// registration, date, amount or not-name: a logo prints one word of the trading name above or
  /// below the row that gives it whole. Nil for a name of more words, or of fewer than three
  /// letters.
  static func fullName(of name: String, line: Int, among candidates: [Candidate], rows: Int) -> Candidate? {
    let own = keys(name)
    guard own.count == 1, let word = own.first, word.filter(\.isLetter).count >= 3 else { return nil }
    let reach = max(1, rows)
    // Nearest first, below before above; on a tie the earlier candidate (`min` keeps the first).
    func order(_ candidate: Candidate) -> (Int, Int) {
      (abs(candidate.line - line), candidate.line < line ? 1 : 0)
    }
    return candidates.lazy.filter { candidate in
      guard (1...reach).contains(abs(candidate.line - line)), candidate.features["joined"] == 0,
        !Self.notInFullName.contains(where: { (candidate.features[$0] ?? 0) > 0 })
      else { return false }
      let words = keys(candidate.value)
      return words.count > 1 && words.contains(word)
    }
    .min { order($0) < order($1) }
  }

  /// The features of a row that cannot be the full name of the logo's word.
  private static let notInFullName = [
    "address", "phone_or_tax", "registration", "not_name", "date", "amount",
  ]

  /// The text's words, each by `nameKey`; words of punctuation alone dropped.
  private static func keys(_ text: String) -> [String] {
    text.split(whereSeparator: \.isWhitespace).map { nameKey(String($0)) }.filter { !$0.isEmpty }
  }

  static func hasAny(_ folded: String, _ phrases: [String]) -> Bool {
    phrases.contains { folded.contains(" \($0) ") }
  }

  static func looksLikeAddress(_ folded: String) -> Bool {
    let tokens = folded.split(separator: " ")
    if folded.contains(where: \.isNumber), hasAny(folded, streetWords) { return true }
    if let first = tokens.first, first.count >= 4, first.allSatisfy(\.isNumber), tokens.count <= 4 {
      return true
    }
    return !tokens.isEmpty && tokens.filter { $0.allSatisfy(\.isNumber) }.count * 2 > tokens.count
  }

  /// The name without a bracketed registration number or edge punctuation.
  static func clean(_ text: String) -> String {
    var text = text
    for pattern in [bracketedNumber, edgePunctuation] {
      text = pattern.stringByReplacingMatches(
        in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
    }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  private static let bracketedNumber = try! NSRegularExpression(
    pattern: #"\([^()]*[0-9][^()]*(\)|$)"#)
  private static let edgePunctuation = try! NSRegularExpression(
    pattern: #"^[^\w(&.]+|[^\w()&.]+$"#)
  static let amount = TextPattern(#"(?<![\d.,])\d{1,7}[.,]\d{2}(?![\d])"#)
  static let priceEnd = TextPattern(#"\d[.,]\d{2}(\s+\S{1,3})?\s*$"#)
  static let date = TextPattern(#"\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b"#)
  static let time = TextPattern(#"\b\d{1,2}:\d{2}\b"#)

  static let companyForms = ReceiptExtractor.companyForms
  static let legalForms = ReceiptExtractor.legalForms
  static let notNames = ReceiptExtractor.notNames
  static let streetWords = ReceiptExtractor.streetWords
  /// Street words but "no" (a registration's "REG NO" too), and the area words of an address.
  static let placeWords =
    streetWords.filter { $0 != "no" } + ["kawasan", "bandar", "pusat", "persiaran", "tmn", "kampung", "desa"]
}
