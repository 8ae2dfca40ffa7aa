import Foundation
import SnapsortImaging

/// The words receipts label their lines with, in the Card Snap languages (en, pl, de, fr, es,
/// it, nl, sv, ru, uk), folded like OCR text is (lowercase, no diacritics, look-alike glyphs
/// unified) so that `SUMA CZĘŚCIOWA` and `SUMA CZESCIOWA` match alike.
public enum ReceiptKeywords {
  /// Each language's vocabulary, and the words every language borrows.
  static let vocabularies: [ReceiptVocabulary] =
    ReceiptLanguage.allCases.map(ReceiptVocabulary.of) + [.international]

  /// Every language's phrases of one kind, each once, in the order the languages are listed.
  private static func all(_ kind: (ReceiptVocabulary) -> [String]) -> [String] {
    var seen = Set<String>()
    return vocabularies.flatMap(kind).filter { seen.insert(fold($0)).inserted }
  }

  /// The amount due, with a weight: 3 for unmistakable phrases, 2 for the plain word.
  static let total: [(String, Int)] = {
    var weights: [String: (phrase: String, weight: Int)] = [:]
    for (phrase, weight) in vocabularies.flatMap(\.total) where weights[fold(phrase)] == nil {
      weights[fold(phrase)] = (phrase, weight)
    }
    return all { $0.total.map(\.0) }.map { weights[fold($0)]! }
  }()
  /// Lines with these are not the total even when they say "total" (nor is a line whose amount
  /// is the tax: the extractor tells "TOTAL GST 1.42" from the total by its arithmetic).
  static let notTotal = all(\.notTotal)
  static let subtotal = all(\.subtotal)
  static let savings = all(\.savings)
  static let tax = all(\.tax)
  static let payment = all(\.payment)
  static let cash = all(\.cash)
  static let change = all(\.change)
  static let card = all(\.card)
  static let rounding = all(\.rounding)
  /// Labels of a reference number, lowercased as printed: matched whole against the label read.
  static let reference = Set(vocabularies.flatMap(\.reference))
  static let dateLabels = all(\.dateLabels)
  static let expiryLabels = all(\.expiryLabels)
  static let greetings = all(\.greetings)
  static let titles = all(\.titles)

  /// A line folded for keyword matching, padded with spaces so `contains(" word ")` is a whole-word test.
  public static func fold(_ text: String) -> String {
    " " + IssuerText.tokens(text).map(IssuerText.skeleton).joined(separator: " ") + " "
  }

  /// Whether the folded line holds the phrase as whole words.
  static func contains(_ folded: String, _ phrase: String) -> Bool {
    folded.contains(foldedPhrases[phrase] ?? fold(phrase))
  }

  /// The phrases folded once: every vocabulary's, and the extractor's word lists that every
  /// header row and merchant candidate is matched against. Any other phrase is folded where it
  /// is matched.
  private static let foldedPhrases: [String: String] = {
    var map: [String: String] = [:]
    let phrases =
      vocabularies.flatMap { $0.phrases + $0.greetings + $0.titles } + ReceiptExtractor.notNames
      + ReceiptExtractor.companyForms + ReceiptExtractor.legalForms + ReceiptExtractor.streetWords
    for phrase in phrases {
      map[phrase] = fold(phrase)
    }
    return map
  }()

  static func containsAny(_ folded: String, _ phrases: [String]) -> Bool {
    phrases.contains { contains(folded, $0) }
  }

  /// The highest weight of a total phrase in the line, 0 when none.
  static func totalWeight(_ folded: String) -> Int {
    total.filter { contains(folded, $0.0) }.map(\.1).max() ?? 0
  }
}
