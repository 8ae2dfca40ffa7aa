/// Chooses between two readings of a name line: the page model's (`eng`, which reads the layout
/// and most glyphs best but has no diacritics) and a second reading of the same line by a model
/// that knows them (tesseract's `Latin` script model).
///
/// The diacritic reading is taken only when it is the same name once diacritics are folded
/// away: the Latin model misreads plain glyphs more often (`Lidl` → `Lidi`), so it may add
/// accents but not change letters. One exception is allowed: `eng` tends to read a letter it
/// does not know as two (`ø` → `eo`), so a diacritic reading one letter shorter, one edit
/// away, is taken too; one letter longer (`Müller` → `Muüller`) is not.
public enum CardNameReconciler {
  public static func reconcile(page: String, diacritic: String) -> String {
    guard !diacritic.isEmpty, diacritic != page, hasDiacritics(diacritic) else { return page }
    let a = IssuerText.fold(page).split(separator: " ").joined(separator: " ")
    let b = IssuerText.fold(diacritic).split(separator: " ").joined(separator: " ")
    guard !b.isEmpty else { return page }
    if a == b { return diacritic }
    if b.count + 1 == a.count, a.count >= 5, EditDistance.levenshtein(a, b) == 1 { return diacritic }
    // `eng` also reads such a letter as one wrong letter (`ø` → `e`): a single substitution is
    // taken when the diacritic reading has an accented letter in that place.
    if a.count == b.count, a.count >= 5, let letter = substitution(a, diacritic), !letter.isASCII {
      return diacritic
    }
    return page
  }

  /// The character of `diacritic` where its folded form differs from `folded` in exactly one
  /// place; nil when they differ in more places or folding changed the character count.
  static func substitution(_ folded: String, _ diacritic: String) -> Character? {
    let original = Array(diacritic)
    let parts = original.map { IssuerText.fold(String($0)) }
    guard parts.allSatisfy({ $0.count == 1 }) else { return nil }
    let b = parts.map { Character($0) }, a = Array(folded)
    guard a.count == b.count else { return nil }
    let differing = a.indices.filter { a[$0] != b[$0] }
    guard differing.count == 1 else { return nil }
    return original[differing[0]]
  }

  /// A letter outside ASCII that folds to a different letter (`ü`, `ø`, `Ż`), not a symbol.
  static func hasDiacritics(_ text: String) -> Bool {
    text.contains { character in
      character.isLetter && !character.isASCII
        && IssuerText.fold(String(character)) != String(character).lowercased()
    }
  }
}
