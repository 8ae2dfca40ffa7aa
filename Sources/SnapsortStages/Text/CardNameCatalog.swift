/// Spells a suggested card name the way the issuer catalog does when the OCR reading is that
/// name with diacritics lost or look-alike glyphs swapped (`Zabka` → `Żabka`, `Lid! Plus` →
/// `Lidl Plus`, `Decathion` → `Decathlon`).
///
/// The catalog holds each brand's real spelling, so it is a fair prior, but only on evidence: a
/// reading one accent or glyph from a catalog name is that name (`glyphSpelling`), while a larger
/// edit (`Decathlo` → `Decathlon`) could as well be a brand the catalog does not know, so it is
/// taken only for the issuer the classifier named (`spelling(of:issuer:)`). Only the whole reading
/// is matched, never a word inside a longer line.
public struct CardNameCatalog: Sendable {
  /// A catalog spelling and the issuers that print it.
  struct Spelling: Sendable {
    var text: String
    var issuers: Set<String>
  }
  /// Matching key → spelling; keys are folded words with OCR look-alikes unified.
  private let spellings: [String: Spelling]
  /// Keys long enough that one edit more is still a match, grouped by length for a quick scan.
  private let longKeys: [Int: [String]]
  /// Keys without their spaces → the key, for a reading that splits a word or joins two; keys
  /// that differ only by their spaces are left out, a reading does not say which.
  private let keysWithoutSpaces: [String: String]

  /// Keys of at least this many characters also match at edit distance 1.
  static let fuzzyLength = 7

  public init(catalog: IssuerCatalog) {
    var spellings: [String: Spelling] = [:]
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
        // stands for the accented spelling; issuers sharing a spelling (`Coop`) share the entry,
        // the text is the same.
        var entry = spellings[key] ?? Spelling(text: spelling, issuers: [])
        if Self.isPlain(entry.text) && !Self.isPlain(spelling) { entry.text = spelling }
        entry.issuers.insert(issuer.id)
        spellings[key] = entry
      }
    }
    self.spellings = spellings
    keysWithoutSpaces = Dictionary(grouping: spellings.keys) { $0.replacingOccurrences(of: " ", with: "") }
      .compactMapValues { $0.count == 1 ? $0[0] : nil }
    longKeys = Dictionary(grouping: spellings.keys.filter { $0.count >= Self.fuzzyLength }, by: \.count)
  }

  /// The catalog's spelling of `text` when it is at most one accent or look-alike glyph away
  /// (case aside), nil otherwise: that close, the reading is the catalog's name.
  /// A space is a glyph too: OCR splits a word where its letters stand apart (`Bied ronka`) or
  /// joins two (`CoopNederland`).
  public func glyphSpelling(of text: String) -> String? {
    let key = Self.key(text)
    let joined = key.replacingOccurrences(of: " ", with: "")
    guard let catalogKey = spellings[key] != nil ? key : keysWithoutSpaces[joined],
      let spelled = spellings[catalogKey]?.text
    else { return nil }
    return EditDistance.levenshtein(text.lowercased(), spelled.lowercased()) <= 1 ? spelled : nil
  }

  /// The catalog's spelling of `text` when it is a name, alias or programme of the issuer `id`,
  /// up to one edit more on long names; nil for another issuer's names or none.
  public func spelling(of text: String, issuer id: String) -> String? {
    guard let match = match(text), match.issuers.contains(id) else { return nil }
    return match.text
  }

  /// The catalog's spelling of `text`, whichever issuer prints it, or nil when it matches no name
  /// or alias.
  public func spelling(of text: String) -> String? { match(text)?.text }

  private func match(_ text: String) -> Spelling? {
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
