import Foundation

/// Everything a receipt says about its currency: the marks beside its amounts (`RM`, `EUR`, `€`),
/// the country it was printed in (`ReceiptCountry`) and its language. Most receipts print no mark
/// at all, and a `$` names pesos, ringgit and many dollars as well as the US one.
public struct CurrencyEvidence: Encodable, Sendable {
  /// Each currency's marks, weighed by `ReceiptExtractor.marks`, counted twice on a total's line.
  public var marks: [String: Double] = [:]
  /// The same for the `$` sign, whose currency is the country's when the receipt names one.
  public var dollar = 0.0
  /// For each currency, how many kinds of evidence name a country that pays in it.
  public var country: [String: Int] = [:]
  /// The currency of the language whose own words label the most lines, when one currency covers
  /// it, and how many lines they label.
  public var language: String?
  public var languageLines = 0

  /// How much one kind of a country's evidence and the language weigh against a mark of weight
  /// 1, fitted by bench/receipts/fit_currency.py on the receipts preset's OCR records of SROIE folds
  /// 0–3 and of the rendered train receipts (bench/gen/receipts.py --split train --seed 11).
  static let countryWeight = 1.0
  static let languageWeight = 1.0
  /// The lines a language's own words must label before it counts.
  static let languageMinimumLines = 1

  /// The language whose own words label the most lines, read once for the date's order too.
  var leadingLanguage: ReceiptLanguage.Leading?
  /// For each mark, the first line naming it, or the first total's line that does.
  var markLines: [String: (line: Int, onTotal: Bool)] = [:]
  var markConfidence: [String: Double] = [:]
  var countryLine: [String: Int] = [:]

  enum CodingKeys: String, CodingKey {
    case marks, dollar, country, language
    case languageLines = "language_lines"
  }

  init(_ lines: [ReceiptExtractor.Line]) {
    for line in lines {
      let onTotal = ReceiptKeywords.totalWeight(line.folded) > 0
      for mark in ReceiptExtractor.marks(on: line) {
        let weight = mark.confidence * (onTotal ? 2 : 1)
        if mark.value == "$" { dollar += weight } else { marks[mark.value, default: 0] += weight }
        if markLines[mark.value].map({ onTotal && !$0.onTotal }) ?? true {
          markLines[mark.value] = (line.index, onTotal)
        }
        markConfidence[mark.value] = max(markConfidence[mark.value] ?? 0, mark.confidence)
      }
    }
    for (currency, found) in ReceiptCountry.evidence(lines) {
      country[currency] = found.kinds
      countryLine[currency] = found.line
    }
    leadingLanguage = ReceiptLanguage.leading(inFolded: lines.map(\.folded))
    if let leading = leadingLanguage, let currency = ReceiptCountry.languageCurrency[leading.language] {
      (language, languageLines) = (currency, leading.lines)
    }
  }

  /// The currency a `$` stands for: the one the country's evidence names most, else the US dollar.
  var dollarCurrency: String {
    country.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "USD"
  }

  /// Each currency's score: its marks, plus its country's evidence and its language, weighed.
  var scores: [String: Double] {
    var scores = marks
    if dollar > 0 { scores[dollarCurrency, default: 0] += dollar }
    for (currency, kinds) in country { scores[currency, default: 0] += Self.countryWeight * Double(kinds) }
    if let language, languageLines >= Self.languageMinimumLines {
      scores[language, default: 0] += Self.languageWeight
    }
    return scores
  }

  struct Choice {
    var currency: String
    var confidence: Double
    var line: Int?
    /// What named it: `marks`, `country` or `language`.
    var source: String
  }

  /// The currency with the highest score, with the confidence of its best mark (a country's
  /// evidence alone 0.6, the language alone 0.4), and the line that named it first. Of two equal
  /// scores the one with more of a country's evidence wins, since a language is spoken in many.
  var choice: Choice? {
    let ranked = scores.map { (currency: $0.key, score: $0.value, kinds: country[$0.key] ?? 0) }
    guard
      let best = ranked.max(by: { ($0.score, $0.kinds, $1.currency) < ($1.score, $1.kinds, $0.currency) }),
      best.score > 0
    else {
      return nil
    }
    let currency = best.currency
    let mark = marks[currency] != nil ? currency : (dollar > 0 && dollarCurrency == currency ? "$" : nil)
    if let mark, let line = markLines[mark]?.line {
      return Choice(currency: currency, confidence: markConfidence[mark] ?? 0, line: line, source: "marks")
    }
    if let line = countryLine[currency] {
      return Choice(currency: currency, confidence: 0.6, line: line, source: "country")
    }
    return Choice(currency: currency, confidence: 0.4, line: nil, source: "language")
  }
}
