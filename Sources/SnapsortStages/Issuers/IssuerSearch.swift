import Foundation
import SnapsortImaging

/// Offline search of the catalog by name or alias, tolerant of typos and diacritics.
public struct IssuerSearch: Sendable {
  public struct Hit: Sendable, Equatable {
    public var issuer: Issuer
    public var score: Double
    /// The name or alias that matched best.
    public var matched: String
  }

  struct Entry: Sendable {
    let issuerIndex: Int
    let text: String
    let folded: String
    let grams: [UInt64]
    /// Programme names rank below the issuer's own names (PAYBACK the issuer before its partners).
    let weight: Double
  }

  public let catalog: IssuerCatalog
  let entries: [Entry]
  /// Below this trigram Dice a name is not a match (`walmart` and `clubsmart` score 0.375).
  static let minimumFuzzyScore = 0.45

  public init(catalog: IssuerCatalog) {
    self.catalog = catalog
    var entries: [Entry] = []
    for (index, issuer) in catalog.issuers.enumerated() {
      let texts =
        ([issuer.name] + issuer.aliases).map { ($0, 1.0) }
        + [issuer.program].compactMap { $0 }.map { ($0, 0.9) }
      for (text, weight) in texts {
        let folded = IssuerText.tokens(text).joined(separator: " ")
        entries.append(
          Entry(
            issuerIndex: index, text: text, folded: folded,
            grams: IssuerText.trigrams(folded.replacingOccurrences(of: " ", with: "")), weight: weight))
      }
    }
    self.entries = entries
  }

  /// Issuers whose names or aliases match `query`, best first: a prefix or whole-word match
  /// scores above a fuzzy (trigram) one.
  public func search(_ query: String, country: String? = nil, limit: Int = 10) -> [Hit] {
    let folded = IssuerText.tokens(query).joined(separator: " ")
    guard !folded.isEmpty else { return [] }
    let compactQuery = folded.replacingOccurrences(of: " ", with: "")
    let grams = IssuerText.trigrams(compactQuery)
    let country = country?.uppercased()
    var best: [Int: Hit] = [:]
    for entry in entries {
      let issuer = catalog.issuers[entry.issuerIndex]
      if let country, !issuer.countries.contains(country) { continue }
      var score = IssuerText.dice(grams, entry.grams)
      let compactEntry = entry.folded.replacingOccurrences(of: " ", with: "")
      if abs(compactEntry.count - compactQuery.count) <= 2 {
        // Trigrams miss swapped letters in short words (`lild`); edit distance does not.
        let distance = EditDistance.optimalStringAlignment(Array(compactQuery), Array(compactEntry))
        let similarity = 1 - Double(distance) / Double(max(compactQuery.count, compactEntry.count))
        if similarity >= 0.6 { score = max(score, similarity) }
      }
      if entry.folded == folded {
        score = 2
      } else if entry.folded.hasPrefix(folded) {
        score = max(score, 1.5)
      } else if (" " + entry.folded + " ").contains(" " + folded) {
        score = max(score, 1.2)
      }
      guard score >= Self.minimumFuzzyScore else { continue }
      score *= entry.weight
      if score > (best[entry.issuerIndex]?.score ?? -1) {
        best[entry.issuerIndex] = Hit(issuer: issuer, score: score, matched: entry.text)
      }
    }
    return best.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.issuer.id < $1.issuer.id }
      .prefix(limit).map { $0 }
  }
}
