import Foundation

/// How typical each header word is of a merchant's own rows against the header's other rows
/// (address, boilerplate, cashier and time lines), as a log-odds learnt from the training
/// receipts by `bench/receipts/fit_merchant_words.py` and `fit_merchant.py`; and where a pick
/// reads so much like body text that the receipt is better left without a merchant (a null
/// costs the merchant figure no more than a wrong name, and adds no bogus store row).
public struct MerchantWords: Codable, Sendable, Equatable, VersionedDataFile {
  public static var fileDescription: String { "the merchant words" }
  public static var currentVersion: Int { 1 }

  public var version: Int
  /// Word (`MerchantWords.words`) -> log-odds of a merchant row against a body row.
  public var words: [String: Double]
  /// A pick is body text when the merchant model gives it less than this probability and its
  /// words' mean log-odds is below `nullWordOdds` too.
  public var nullProbability: Double
  public var nullWordOdds: Double
  /// What the table and the thresholds were fitted on, for people.
  public var training: [String: String]

  enum CodingKeys: String, CodingKey {
    case version, words, training
    case nullProbability = "null_probability"
    case nullWordOdds = "null_word_odds"
  }

  /// The table bundled with this build.
  public static func bundled() throws -> Self {
    try read(from: StageContext().resolve("merchant-words.json"))
  }

  /// The mean log-odds of the text's words, 0 for an unknown word or no word.
  func odds(_ text: String) -> Double {
    let found = Self.words(text)
    guard !found.isEmpty else { return 0 }
    return found.reduce(0) { $0 + (words[$1] ?? 0) } / Double(found.count)
  }

  /// Whether a pick of `probability` under the merchant model reads as body text.
  func isBody(_ text: String, probability: Double) -> Bool {
    probability < nullProbability && odds(text) < nullWordOdds
  }

  /// `MerchantCandidates.fold`'s words of two letters or more: numbers and single letters are
  /// the shape features' evidence, not the words'.
  static func words(_ text: String) -> [String] {
    MerchantCandidates.fold(text).split(separator: " ").map(String.init).filter {
      $0.filter(\.isLetter).count >= 2
    }
  }
}
