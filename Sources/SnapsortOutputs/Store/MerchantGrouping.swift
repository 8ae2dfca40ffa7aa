import Foundation
import SnapsortStages

/// Which receipts of a store are of one merchant, however OCR spelled it.
///
/// Two receipts are one merchant when they print the same long number in their header (a
/// company registration, tax id or phone number), or when their names are close once legal
/// forms, punctuation and the characters OCR confuses are set aside. Links are not taken blindly
/// in a chain: two groups whose names clearly differ are not joined by a number or a name they
/// share, so a hotline two merchants print, or one receipt whose merchant was read from the
/// customer's line, does not join a market with a bakery. The user's own choices (`snapsort
/// merchant merge` and `split`) come first and are never undone by a name's likeness. Each group
/// is named by its most frequent spelling.
public enum MerchantGrouping {
  /// Fitted by `bench/store/fit_merchants.py` on the SROIE receipts of folds 0–3
  /// (`bench/receipts/folds.json`), read by the receipts preset; fold 4 is the reported figure.
  public struct Parameters: Sendable, Equatable {
    /// The largest weighted edit distance, as a share of the longer name, between two names of
    /// one merchant.
    public var maxDistance = 0.2
    /// Below `maxDistance`, every word of each name (but the common ones) must be within this
    /// share of a word of the other (`Restoran Seri Mawar` is not `Restoran Seri Melur`), unless
    /// the names are within `closeWithoutWords` as a whole (a split or joined word: `MRDIY`).
    public var maxWordDistance = 0.34
    public var closeWithoutWords = 0.1
    /// Words of up to this many characters need no counterpart in the other name: OCR's stray
    /// marks read as letters (`YONG CEN ENTERPRISE Pu`).
    public var unmatchedWordLength = 2
    /// What an edit inside a common word costs (a word in `commonWordNames` or more of the
    /// store's distinct names: `enterprise`, `restaurant`), against 1 in the rest of the name.
    public var commonWordWeight = 0.3
    public var commonWordNames = 5
    /// A link between two groups is refused when the names most of each group's receipts carry
    /// are farther apart than this (edit distance as a share of the longer, no word discounted):
    /// the evidence conflicts. A shared identifier still joins them when one of its two
    /// receipts has a line among its first `nameLines` that reads as the other group's name.
    public var maxGroupNameDistance = 0.5
    public var nameLines = 3
    /// Header lines searched for identifiers, and the digits one needs (and compares: the last).
    public var identifierLines = 12
    public var identifierDigits = 9

    public init() {}
  }

  public struct Receipt: Sendable {
    public var id: Int64
    public var merchant: String?
    /// The receipt's text lines, top first.
    public var lines: [String]

    public init(id: Int64, merchant: String?, lines: [String]) {
      self.id = id
      self.merchant = merchant
      self.lines = lines
    }
  }

  /// A user's choice about two names, each given as its `key`.
  public struct Choice: Sendable, Equatable {
    public enum Kind: String, Sendable { case merge, split }
    public var first: String
    public var second: String
    public var kind: Kind

    public init(first: String, second: String, kind: Kind) {
      self.first = first
      self.second = second
      self.kind = kind
    }
  }

  /// Words of company law, in the languages of the receipts read: never what tells two
  /// merchants apart.
  static let legalForms: Set<String> = [
    "sdn", "bhd", "s", "b", "m", "plt", "ltd", "limited", "co", "inc", "llc", "llp", "corp", "pty", "plc",
    "gmbh", "mbh", "ag", "kg", "ohg", "ug", "ek", "sarl", "sas", "sa", "srl", "spa", "snc", "bv", "nv",
    "vof", "ab", "hb", "oy", "as", "asa", "aps", "sp", "zoo", "ooo", "oao", "zao", "pao", "tov", "ip",
  ].reduce(into: Set<String>()) { $0.insert(confusionFolded($1)) }

  /// Characters OCR takes for one another in print (`0`/`O`/`D`, `1`/`I`/`l`, `5`/`S`,
  /// `8`/`B`, `Y`/`¥`…), each class spelled by its first member so that `SDN` and `S0N`,
  /// `D.I.Y.` and `D.1.¥.` compare equal.
  static let confusionClasses = ["0odq", "1il|!t", "5s", "8b", "2z", "6g", "vy¥"]
  static let confusion: [Character: Character] = Dictionary(
    confusionClasses.flatMap { group in group.map { ($0, group.first!) } }, uniquingKeysWith: { a, _ in a })

  static func confusionFolded(_ word: String) -> String {
    String(word.map { confusion[$0] ?? $0 })
  }

  /// The name as compared: folded, parenthesised branch names dropped, words of letters and
  /// digits with OCR's confusions folded, legal forms left out.
  public static func words(_ name: String) -> [String] {
    var folded = TextFolding.fold(name)
    while let open = folded.firstIndex(of: "("),
      let close = folded[open...].firstIndex(of: ")")
    {
      folded.replaceSubrange(open...close, with: " ")
    }
    let words = folded.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "¥") })
      .map { confusionFolded(String($0)) }
    let exact = words.map(legalForms.contains)
    return words.indices.filter { index in
      if exact[index] { return false }
      let besideLegalForm = (index > 0 && exact[index - 1]) || (index + 1 < words.count && exact[index + 1])
      return !(besideLegalForm && isMisreadLegalForm(words[index]))
    }.map { words[$0] }
  }

  /// Legal forms of three or more characters: one of them misread by one character is still
  /// recognised beside another legal form (`SDN BAD`, `SDS BHD`).
  static let longLegalForms = legalForms.filter { $0.count >= 3 }

  static func isMisreadLegalForm(_ word: String) -> Bool {
    word.count >= 3 && longLegalForms.contains { EditDistance.levenshtein(word, $0) <= 1 }
  }

  /// The name's words joined: the identity of a spelling in the user's choices.
  public static func key(_ name: String) -> String { words(name).joined(separator: " ") }

  /// Long numbers in the receipt's header: registration, tax and phone numbers.
  static func identifiers(_ lines: [String], parameters: Parameters) -> Set<String> {
    var found = Set<String>()
    for line in lines.prefix(parameters.identifierLines) {
      var digits = ""
      // A run of digits may be split by spaces, dashes and slashes (`03-4021 0276`).
      for character in line + "\n" {
        if character.isASCII && character.isNumber {
          digits.append(character)
        } else if !" -/".contains(character) {
          // By their last digits: OCR adds a stray digit before a number or drops its 0.
          if digits.count >= parameters.identifierDigits {
            found.insert(String(digits.suffix(parameters.identifierDigits)))
          }
          digits = ""
        }
      }
    }
    return found
  }
}
