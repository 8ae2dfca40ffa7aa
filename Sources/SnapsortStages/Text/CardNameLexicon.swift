import Foundation

/// Words printed on loyalty and payment cards around the brand's name, in the ten Card Snap
/// languages: small print (`Scan at checkout`, `Membre depuis`), programme words (`Treuekarte`,
/// `Бонусная карта`) and common given names (a cardholder's line). The name picker uses how much
/// of a line they cover as evidence, never as a rule: a brand may contain one (`Club`, `Plus`).
///
/// Words are the languages' own spellings, lowercased; matching folds diacritics on both sides,
/// because the page reading (`eng`) loses them.
public struct CardNameLexicon: Sendable {
  public struct Language: Sendable {
    public var code: String
    /// Small print: instructions, validity, thanks, function words of those phrases.
    public var boilerplate: [String]
    /// Words naming the card or its programme rather than the shop.
    public var programme: [String]
    /// Endings of compound programme words (`Kundenkarte`, `stamkundskort`).
    public var compoundHeads: [String]
    /// Common given names, for a cardholder's line.
    public var givenNames: [String]
  }

  /// How much of a line the lexicon covers.
  public struct Coverage: Sendable, Equatable {
    /// Share of the line's words that are small print or programme words.
    public var boilerplate: Double
    /// Share of the line's words that are programme words.
    public var programme: Double
    /// 1 when the line starts with a given name, else 0.
    public var givenName: Double
  }

  private let boilerplate: Set<String>
  private let programme: Set<String>
  private let heads: [String]
  private let givenNames: Set<String>

  public init(languages: [Language] = CardNameLexicon.languages) {
    let fold = { (words: [String]) in Set(words.map(IssuerText.fold)) }
    boilerplate = fold(languages.flatMap(\.boilerplate))
    programme = fold(languages.flatMap(\.programme))
    heads = Array(fold(languages.flatMap(\.compoundHeads))).sorted()
    givenNames = fold(languages.flatMap(\.givenNames))
  }

  public static let shared = CardNameLexicon()

  public func coverage(of text: String) -> Coverage {
    let words = IssuerText.fold(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    guard !words.isEmpty else { return Coverage(boilerplate: 0, programme: 0, givenName: 0) }
    let isProgramme = { (word: String) in
      programme.contains(word) || (word.count >= 6 && heads.contains { word.hasSuffix($0) })
    }
    let small = words.filter { boilerplate.contains($0) || isProgramme($0) }.count
    let named = words.filter(isProgramme).count
    let given = words.count <= 4 && givenNames.contains(words[0])
    return Coverage(
      boilerplate: Double(small) / Double(words.count), programme: Double(named) / Double(words.count),
      givenName: given ? 1 : 0)
  }
}
