/// Spells a suggested card name the way the issuer catalog does when the OCR reading is that
/// name with diacritics lost or look-alike glyphs swapped (`Zabka` → `Żabka`, `Lid! Plus` →
/// `Lidl Plus`, `Decathion` → `Decathlon`).
///
/// The catalog holds each brand's real spelling, so it is a fair prior; it is only applied when
/// the whole reading matches one catalog name or alias, never to a word inside a longer line.
public struct CardNameCatalog: Sendable {
  /// Matching key → spelling; keys are folded words with OCR look-alikes unified.
  private let spellings: [String: String]
  /// Keys long enough that one edit more is still a match, grouped by length for a quick scan.
  private let longKeys: [Int: [String]]

  /// Keys of at least this many characters also match at edit distance 1.
  static let fuzzyLength = 7

  public init(catalog: IssuerCatalog) {
    var spellings: [String: String] = [:]
    for issuer in catalog.issuers {
      // Cards print the brand, its programme, or both (`Esselunga Fìdaty`, `Tesco Clubcard`).
      var printed = [issuer.name]
      if let program = issuer.program, !program.isEmpty {
        printed.append(program)
        if Self.key(program).hasPrefix(Self.key(issuer.name)) == false {
          printed.append("\(issuer.name) \(program)")
        }
      }
      for spelling in printed + issuer.aliases {
        let key = Self.key(spelling)
        guard !key.isEmpty else { continue }
        // An alias that only drops diacritics (`Muller` for `Müller`, `Fidaty` for `Fìdaty`)
        // stands for the accented spelling; two issuers sharing a spelling (`Coop`) keep the
        // first, the text is the same.
        if let existing = spellings[key], !(Self.isPlain(existing) && !Self.isPlain(spelling)) { continue }
        spellings[key] = spelling
      }
    }
    self.spellings = spellings
    longKeys = Dictionary(grouping: spellings.keys.filter { $0.count >= Self.fuzzyLength }, by: \.count)
  }

  /// The catalog's spelling of `text`, or nil when it matches no name or alias.
  public func spelling(of text: String) -> String? {
    let key = Self.key(text)
    guard !key.isEmpty else { return nil }
    if let exact = spellings[key] { return exact }
    guard key.count >= Self.fuzzyLength else { return nil }
    var found: String?
    for length in (key.count - 1)...(key.count + 1) {
      for candidate in longKeys[length] ?? [] where EditDistance.levenshtein(key, candidate) <= 1 {
        // Two catalog names one edit away: the reading does not say which.
        if found != nil, found != candidate { return nil }
        found = candidate
      }
    }
    return found.flatMap { spellings[$0] }
  }

  /// Plain ASCII: a search alias rather than the brand's own spelling.
  static func isPlain(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(\.isASCII) }

  /// Folded words (no case, no diacritics) with look-alike glyphs unified, joined by one space.
  static func key(_ text: String) -> String {
    // `!` and `|` after a letter are an `l` misread (`Lid! Plus`); folding would make them spaces.
    var previous: Character = " "
    let glyphs = String(
      text.map { character -> Character in
        defer { previous = character }
        return (character == "!" || character == "|") && previous.isLetter ? "l" : character
      })
    return IssuerText.tokens(glyphs).map(IssuerText.skeleton).joined(separator: " ")
  }
}
