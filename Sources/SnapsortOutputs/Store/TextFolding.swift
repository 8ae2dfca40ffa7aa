import Foundation

/// The one accent- and case-folding of the store: search keywords, `--merchant`, `--issuer` and
/// the indexed text all go through `fold`, so `zabka` finds `Żabka`, `norrebro` finds
/// `Nørrebro` and `Żabka` typed as shown finds it too.
public enum TextFolding {
  /// Letters that Unicode does not decompose into a base letter and a mark, spelled the way a
  /// person types them without the keyboard for it.
  static let letters: [Character: String] = [
    "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe",
    "Œ": "oe", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h",
    "Ħ": "h", "ŧ": "t", "Ŧ": "t",
  ]

  /// Lowercased, diacritics stripped (`å` → `a`, `ż` → `z`, `é` → `e`), and the letters above
  /// spelled out (`ø` → `o`, `ł` → `l`, `ß` → `ss`, `æ` → `ae`). Locale-independent.
  public static func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var spelled = ""
    spelled.reserveCapacity(text.utf8.count)
    for character in text {
      if character.isASCII {
        spelled.append(character)
      } else if let replacement = letters[character] {
        spelled += replacement
      } else {
        spelled.append(character)
      }
    }
    return
      spelled
      .folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
      .lowercased()
  }

  /// `fold` as an SQLite function, `snapsort_fold(text)`, for filters on stored columns.
  static let sqlFunctionName = "snapsort_fold"
}
