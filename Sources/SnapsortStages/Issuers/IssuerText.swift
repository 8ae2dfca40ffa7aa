import Foundation
import SnapsortImaging

/// Text normalisation and character trigrams for matching OCR text against issuer names.
///
/// OCR on cards loses diacritics, confuses look-alike glyphs (`0`/`O`, `1`/`l`/`I`, `5`/`S`) and
/// splits or merges words, so names are compared as folded, space-free trigram sets over windows
/// of consecutive words rather than as exact strings.
public enum IssuerText {
  /// Lowercase, diacritics removed, letters outside the decomposition folded (`ł`→`l`, `ß`→`ss`),
  /// apostrophes dropped and every other non-alphanumeric character (except `&`) a space.
  public static func fold(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .spacingMark, .enclosingMark: continue
      default: break
      }
      switch scalar {
      case "ł": out.append("l")
      case "ß": out.append(contentsOf: "ss".unicodeScalars)
      case "ø": out.append("o")
      case "æ": out.append(contentsOf: "ae".unicodeScalars)
      case "œ": out.append(contentsOf: "oe".unicodeScalars)
      case "đ": out.append("d")
      case "ı": out.append("i")
      case "'", "’", "`", "´": continue
      case "&": out.append("&")
      default:
        if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
          out.append(scalar)
        } else {
          out.append(" ")
        }
      }
    }
    return String(out)
  }

  /// Folded words.
  public static func tokens(_ text: String) -> [String] {
    fold(text).split(separator: " ").map(String.init)
  }

  /// The programme name without the words any loyalty card prints (`Club`, `Rewards`, `Karta`,
  /// `Member`, …): matched whole, `Advantage Card` scored on every card that says `Bonus card`,
  /// and the trained weight of the programme feature had turned negative.
  public static func withoutCardVocabulary(_ text: String) -> String {
    tokens(text).filter { !cardVocabulary.contains($0) }.joined(separator: " ")
  }

  static let cardVocabulary: Set<String> = [
    "card", "cards", "carte", "carta", "karta", "karte", "kaart", "kort", "tarjeta", "club", "klub",
    "member", "members", "membership", "mitgliedschaft", "rewards", "reward", "bonus", "loyalty",
    "points", "plus", "premium", "my",
  ]

  /// A word with OCR look-alikes unified, so `C0STA` and `Costa`, `Bl1` and `BII` compare equal.
  /// Words made of digits only are left alone (card numbers are not names).
  public static func skeleton(_ word: String) -> String {
    guard word.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) else { return word }
    var out = String.UnicodeScalarView()
    for scalar in word.unicodeScalars {
      switch scalar {
      case "0": out.append("o")
      case "1", "i", "j", "!", "|": out.append("l")
      case "5": out.append("s")
      case "8": out.append("b")
      case "2": out.append("z")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Cyrillic text as an English OCR model reads it: each letter as the Latin glyph it looks
  /// like (`Простор` → `npoctop`, `Нова пошта` → `hosa nowta`, as tesseract `eng` printed them), nil when there is no Cyrillic.
  public static func latinLookalike(_ text: String) -> String? {
    let lower = text.lowercased()
    guard lower.contains(where: { cyrillicLookalikes[$0] != nil }) else { return nil }
    return String(lower.flatMap { cyrillicLookalikes[$0] ?? String($0) })
  }

  private static let cyrillicLookalikes: [Character: String] = [
    "а": "a", "б": "6", "в": "s", "г": "r", "д": "a", "е": "e", "є": "e", "ж": "x", "з": "3", "и": "u",
    "і": "i", "ї": "i", "й": "u", "к": "k", "л": "n", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p",
    "с": "c", "т": "t", "у": "y", "ф": "o", "х": "x", "ц": "u", "ч": "y", "ш": "w", "щ": "w", "ь": "b",
    "ю": "io", "я": "r", "ґ": "r",
  ]

  /// Cyrillic text as tesseract `eng` also reads it when a letter comes out as its other
  /// look-alike (`Епіцентр` → `eniwehtp`, `Нова пошта` → `hoba nouita`, `Ощадбанк` → `oujan6ahk`):
  /// in the bench's training records these readings, not those of `latinLookalike`, were what 11
  /// of the 36 cross-validation misses had; nil when no letter of `text` has another reading.
  public static func latinLookalikeAlternative(_ text: String) -> String? {
    let other: [Character: String] = [
      "в": "b", "д": "n", "и": "n", "ф": "d", "ц": "w", "ш": "ui", "щ": "uj", "я": "a",
    ]
    let lower = text.lowercased()
    guard lower.contains(where: { other[$0] != nil }) else { return nil }
    return String(lower.flatMap { other[$0] ?? cyrillicLookalikes[$0] ?? String($0) })
  }

  /// Sorted, unique trigram codes of a space-free string, padded with boundary marks.
  public static func trigrams(_ text: String) -> [UInt64] { ngrams(text, 3) }

  /// Sorted, unique n-gram codes (n ≤ 3) of a space-free string, padded with boundary marks.
  /// Bigrams forgive more on short words (`comy` vs `comfy` share 4 of 6 bigrams, 2 of 5 trigrams).
  public static func ngrams(_ text: String, _ n: Int) -> [UInt64] {
    let scalars: [UInt32] = [0x2] + text.unicodeScalars.map(\.value) + [0x3]
    guard scalars.count >= n else { return [] }
    var grams: [UInt64] = []
    grams.reserveCapacity(scalars.count - n + 1)
    for index in 0...(scalars.count - n) {
      var code: UInt64 = 0
      for offset in 0..<n { code = code << 21 | UInt64(scalars[index + offset]) }
      grams.append(code)
    }
    grams.sort()
    var unique: [UInt64] = []
    unique.reserveCapacity(grams.count)
    for gram in grams where unique.last != gram { unique.append(gram) }
    return unique
  }

  /// Dice coefficient of two sorted trigram sets: 1 for equal strings, 0 for nothing shared.
  public static func dice(_ p: [UInt64], _ q: [UInt64]) -> Double {
    guard !p.isEmpty, !q.isEmpty else { return 0 }
    var i = 0
    var j = 0
    var shared = 0
    while i < p.count && j < q.count {
      if p[i] == q[j] {
        shared += 1
        i += 1
        j += 1
      } else if p[i] < q[j] {
        i += 1
      } else {
        j += 1
      }
    }
    return 2 * Double(shared) / Double(p.count + q.count)
  }
}

/// A name or alias prepared for matching: its skeleton words joined without spaces.
public struct IssuerPhrase: Sendable {
  public let text: String
  public let wordCount: Int
  public let grams: [UInt64]
  public let bigrams: [UInt64]

  public init(_ phrase: String) {
    let words = IssuerText.tokens(phrase).map(IssuerText.skeleton)
    text = words.joined()
    wordCount = max(1, words.count)
    grams = IssuerText.trigrams(text)
    bigrams = IssuerText.ngrams(text, 2)
  }
}

/// OCR text prepared for matching: every window of 1…4 consecutive words on a line.
public struct TextWindows: Sendable {
  public struct Window: Sendable {
    public let text: String
    public let wordCount: Int
    public let grams: [UInt64]
    public let bigrams: [UInt64]
  }
  public let windows: [Window]

  /// - Parameters:
  ///   - lines: separate texts (name suggestions, or lines in no particular order).
  ///   - readingOrder: lines in the order OCR read them on the card; the end of each line and the
  ///     start of the next also make windows, since cards print names over two lines ("Clas" /
  ///     "Ohlson", "Poste" / "Italiane").
  public init(lines: [String], readingOrder: [String] = [], maxWords: Int = 4) {
    var windows: [Window] = []
    var seen = Set<String>()
    func add(_ words: ArraySlice<String>) {
      let text = words.joined()
      guard seen.insert("\(words.count)|\(text)").inserted else { return }
      windows.append(
        Window(
          text: text, wordCount: words.count, grams: IssuerText.trigrams(text),
          bigrams: IssuerText.ngrams(text, 2)))
    }
    let ordered = readingOrder.map { IssuerText.tokens($0).map(IssuerText.skeleton) }.filter { !$0.isEmpty }
    for words in lines.map({ IssuerText.tokens($0).map(IssuerText.skeleton) }) + ordered {
      for start in words.indices {
        for count in 1...maxWords where start + count <= words.count { add(words[start..<(start + count)]) }
      }
    }
    for (upper, lower) in zip(ordered, ordered.dropFirst()) {
      for tail in 1..<maxWords where tail <= upper.count {
        for head in 1...(maxWords - tail) where head <= lower.count {
          add(upper.suffix(tail) + lower.prefix(head))
        }
      }
    }
    self.windows = windows
  }

  public var isEmpty: Bool { windows.isEmpty }

  /// The best trigram and bigram Dice similarities of `phrase` with a window of about as many
  /// words, and whether a window equals it exactly.
  public func match(_ phrase: IssuerPhrase) -> (score: Double, bigram: Double, exact: Bool) {
    var best = 0.0
    var bestBigram = 0.0
    for window in windows where abs(window.wordCount - phrase.wordCount) <= 1 {
      if window.text == phrase.text {
        return (1, 1, true)
      }
      let p2 = window.bigrams.count
      let q2 = phrase.bigrams.count
      if 2 * Double(min(p2, q2)) / Double(p2 + q2) > bestBigram {
        bestBigram = max(bestBigram, IssuerText.dice(window.bigrams, phrase.bigrams))
      }
      // Trigram sets of very different lengths cannot be similar; skip the merge.
      let p = window.grams.count
      let q = phrase.grams.count
      guard 2 * Double(min(p, q)) / Double(p + q) > best else { continue }
      let score = IssuerText.dice(window.grams, phrase.grams)
      if score > best { best = score }
    }
    return (best, bestBigram, best >= 1)
  }
}
