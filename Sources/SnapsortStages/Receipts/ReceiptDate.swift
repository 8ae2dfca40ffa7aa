import Foundation
import SnapsortImaging

/// Dates and times as receipts print them: numeric (DD.MM.YYYY, DD/MM/YYYY, YYYY-MM-DD,
/// MM/DD/YY…) or with a month name in English, Polish, German, French, Spanish, Italian, Dutch,
/// Swedish, Russian or Ukrainian.
public enum ReceiptDate {
  public struct Found: Sendable, Equatable {
    /// ISO 8601 `YYYY-MM-DD`.
    public var iso: String
    /// Whether day and month could be read either way round.
    public var ambiguous: Bool
    /// Whether the text had to be mended to read as a date: a separator lost ("09- 06 2018",
    /// "2703/2018") or a letter read for a digit ("OT/0T/17").
    public var repaired = false
    /// Whether it was printed without separators ("20180428"): eight digits that also spell
    /// receipt and terminal numbers, so a plainer reading of the same page should win.
    public var compact = false
  }

  /// Month-name prefixes (folded: lowercase, no diacritics) and their month numbers. Prefixes of
  /// at least three letters match abbreviations and inflected forms (`marca`, `März`, `mars`).
  static let monthNames: [(String, Int)] = [
    // en
    ("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("may", 5), ("jun", 6), ("jul", 7), ("aug", 8),
    ("sep", 9), ("oct", 10), ("nov", 11), ("dec", 12),
    // de, nl, sv, fr, es, it (the ones English prefixes do not cover)
    ("maer", 3), ("mrz", 3), ("mai", 5), ("okt", 10), ("dez", 12), ("mei", 5), ("maj", 5), ("janv", 1),
    ("fev", 2), ("avr", 4), ("juin", 6), ("juil", 7), ("aou", 8), ("ene", 1), ("abr", 4), ("ago", 8),
    ("dic", 12), ("gen", 1), ("mag", 5), ("giu", 6), ("lug", 7), ("set", 9), ("ott", 10), ("mrt", 3),
    ("okt", 10), ("des", 12),
    // pl (nominative and genitive stems)
    ("sty", 1), ("lut", 2), ("marz", 3), ("kwi", 4), ("cze", 6), ("lip", 7), ("sie", 8), ("wrz", 9),
    ("paz", 10), ("lis", 11), ("gru", 12),
    // ru
    ("янв", 1), ("фев", 2), ("мар", 3), ("апр", 4), ("мая", 5), ("май", 5), ("июн", 6), ("июл", 7),
    ("авг", 8), ("сен", 9), ("окт", 10), ("ноя", 11), ("дек", 12),
    // uk
    ("січ", 1), ("лют", 2), ("бер", 3), ("кві", 4), ("тра", 5), ("чер", 6), ("лип", 7), ("сер", 8),
    ("вер", 9), ("жов", 10), ("лис", 11), ("гру", 12),
  ]

  /// The month a word names, or nil.
  public static func month(named word: String) -> Int? {
    let folded = word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
      .filter { !$0.properties.isDiacritic && $0.properties.generalCategory != .nonspacingMark }
      .map(String.init).joined().replacingOccurrences(of: "ä", with: "ae")
    guard folded.count >= 3 else { return nil }
    // Longest prefix first, so "marz" (pl, March) is not read as "mar" by accident of order.
    var best: (length: Int, month: Int)?
    for (prefix, month) in monthNames where folded.hasPrefix(prefix) {
      if best == nil || prefix.count > best!.length { best = (prefix.count, month) }
    }
    return best?.month
  }

  private static let isoPattern = TextPattern(
    #"(?<!\d)(20\d{2}|19\d{2})\s?[-./]\s?(\d{1,2})\s?[-./]\s?(\d{1,2})(?!\d)"#)
  /// Not after a time's colon: "09:49 - 27/06/18" is a time, then the date; after a label's
  /// colon ("DATE:11/03/18") it is the date. Nor before one: in "04.04. 13:43" the 13 is the
  /// hour. Not inside a chain of numbers: "11/3-21 - 12/480" is an item code. The same
  /// separator twice: in "REG #19- 18/01/2018" the "19-" belongs to a number before the date.
  private static let numericPattern = TextPattern(
    #"(?<![\d.,])(?<!\d:)(?<!\d[-/])(\d{1,2})\s?([-./])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d]|[.,]\d|\s?:\s?\d)"#
  )
  /// Two different separators ("08. 03-17", OCR's), read when a line has no plainer date.
  private static let mixedSeparatorPattern = TextPattern(
    #"(?<![\d.,])(?<!\d:)(?<!\d[-/])(\d{1,2})\s?([-./])\s?(\d{1,2})\s?[-./]\s?(\d{4}|\d{2})(?![\d]|[.,]\d|\s?:\s?\d)"#
  )
  /// `YYYYMMDD` with nothing glued to it ("DATE/TIME : 20180428/191204"); a month and day that
  /// exist are asked of it, so most other eight-digit numbers do not read as one.
  private static let compactPattern = TextPattern(
    #"(?<![\dA-Za-z.,])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\dA-Za-z]|[.,]\d)"#)
  private static let namedPattern = TextPattern(
    #"(?<!\d)(\d{1,2})\.?[\s/-]*([A-Za-zÀ-ÿĄ-žА-яЁёІіЇїЄєҐґ]{3,12})\.?[\s,/-]*(\d{4}|\d{2})(?!\d)"#)
  private static let namedFirstPattern = TextPattern(
    #"([A-Za-zÀ-ÿĄ-žА-яЁёІіЇїЄєҐґ]{3,12})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)"#)
  /// The second separator lost before a four-digit year: "09- 06 2018".
  private static let lostSeparatorPattern = TextPattern(
    #"(?<![\d.,])(\d{1,2})\s?([-./])\s?(\d{1,2})\s(20\d{2})(?![\d]|[.,]\d)"#)
  /// Specks read as quotes or a tilde around a separator: "02- “04- 2018", "20~06-2018".
  private static let noisySeparatorPattern = TextPattern(
    #"(?<![\d.,])(\d{1,2})[\s“”"'‘’`]{0,2}([-./~])[\s“”"'‘’`]{0,2}(\d{1,2})[\s“”"'‘’`]{0,2}[-./~][\s“”"'‘’`]{0,2}(20\d{2})(?![\d]|[.,]\d)"#
  )
  /// The first separator lost: "2703/2018".
  private static let joinedDayMonthPattern = TextPattern(#"(?<![\d.,/])(\d{2})(\d{2})([-./])(20\d{2})(?!\d)"#)
  /// A year whose 0 OCR read as the 6, 8 or 9 it resembles: "15/05/2819".
  private static let misreadYearPattern = TextPattern(
    #"(?<![\d.,])(\d{1,2})\s?([-./])\s?(\d{1,2})\s?\2\s?2[689](\d{2})(?![\d]|[.,]\d)"#)
  /// Digits of a date that OCR read as the letters and signs they resemble: "OT/0T/17",
  /// "BO-Cb-16", "10/1@/24".
  private static let lookalikePattern = TextPattern(
    #"(?<![A-Za-z\d])([\dOoTIlSBbC@]{1,2})([-/.])([\dOoTIlSBbC@]{1,2})\2(\d{4}|\d{2})(?!\d)"#)
  /// The digits each letter may stand for, likeliest first: a "B" is an 8 unless that makes no
  /// day or month, then a 3 ("BO" for "30").
  private static let lookalikeDigits: [Character: [Character]] = [
    "O": ["0"], "o": ["0"], "C": ["0"], "T": ["7"], "I": ["1"], "l": ["1"], "S": ["5"], "B": ["8", "3"],
    "b": ["6"], "@": ["0"],
  ]
  /// A date's shape with letters, symbols or impossible numbers for its day or month:
  /// "$5/05/2017", "BO-Cb-16", "83/03/2017".
  private static let garbledPattern = TextPattern(
    #"(?<![A-Za-z\d])([\dA-Za-z$€£]{1,2})[-/.]([\dA-Za-z]{1,2})[-/.](\d{4}|\d{2})(?!\d)"#)

  /// The first number of at most 31 that `text` spells with each letter read as a digit it
  /// resembles.
  private static func lookalikeNumber(_ text: Substring) -> Int? {
    var spellings = [""]
    for character in text {
      let digits: [Character] = character.isNumber ? [character] : lookalikeDigits[character] ?? []
      spellings = spellings.flatMap { prefix in digits.map { prefix + String($0) } }
    }
    return spellings.compactMap { Int($0) }.first { (1...31).contains($0) }
  }

  /// Whether `text` holds something shaped like a date whose day or month OCR garbled: a
  /// date read out of it is a guess.
  public static func looksGarbled(_ text: String) -> Bool {
    garbledPattern.matches(in: text).contains { match in
      guard let a = Int(match[1]!), let b = Int(match[2]!) else { return true }
      return a > 31 || b > 31 || (a > 12 && b > 12)
    }
  }
  private static let timePattern = TextPattern(
    #"(?<![\d.,:])([01]?\d|2[0-3])\s?([:.])\s?([0-5]\d)(?:\s?(?:\2|:)\s?([0-5]\d)(?!\s?:\s?\d))?(?!\d|[.,]\d\d)"#
  )

  /// How a receipt prints the numeric dates whose parts read either way round.
  public enum Order: Sendable {
    /// `27.01.23`, `27/01/2023`: most of the world.
    case dayFirst
    /// `01/27/2023`, `01-27-23`: the United States.
    case monthFirst
    /// `23-01-27`: the short form of ISO 8601 that Swedish receipts print.
    case yearFirst
  }

  /// Every plausible date in `text`, left to right.
  ///
  /// - Parameter order: how to read a date whose parts could be read either way round.
  public static func dates(in text: String, order: Order = .dayFirst) -> [Found] {
    var dates = Collector(text: text, order: order)
    for match in isoPattern.matches(in: text) {
      dates.add(
        Int(match[1]!)!, Int(match[2]!)!, Int(match[3]!)!, ambiguous: false, at: match.range.lowerBound)
    }
    for match in compactPattern.matches(in: text) {
      dates.add(
        Int(match[1]!)!, Int(match[2]!)!, Int(match[3]!)!, ambiguous: false, compact: true,
        at: match.range.lowerBound)
    }
    // "6/ 15. 00" is a quantity and a price that OCR spaced like a date; a real date's parts
    // never read as an amount (Money skips "18.11.2023" and "02.03.20").
    let amounts = Money.amounts(in: text).map(\.range)
    dates.addNumeric(outside: amounts)
    if dates.found.isEmpty { dates.addMended(outside: amounts) }
    dates.addNamed()
    // Readings of one date in the order they were added: the likelier first.
    return dates.found.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
      .map(\.element.1)
  }

  /// The dates read from one text so far, each with its offset in the text, for sorting.
  private struct Collector {
    let text: String
    let order: Order
    var found: [(Int, Found)] = []

    @discardableResult
    mutating func add(
      _ year: Int, _ month: Int, _ day: Int, ambiguous: Bool, repaired: Bool = false, compact: Bool = false,
      at index: String.Index
    ) -> Bool {
      // A day the month does not have ("31/2 - 12", a code) is no date.
      guard (1990...2099).contains(year), (1...12).contains(month),
        (1...ReceiptDate.days(inMonth: month, year: year)).contains(day)
      else { return false }
      let iso = String(format: "%04d-%02d-%02d", year, month, day)
      found.append(
        (
          text.distance(from: text.startIndex, to: index),
          Found(iso: iso, ambiguous: ambiguous, repaired: repaired, compact: compact)
        ))
      return true
    }

    /// Two numbers that are a day and a month in one order or the other.
    mutating func addDayAndMonth(
      _ a: Int, _ b: Int, year y: Int, separator: Substring?, repaired: Bool, at index: String.Index
    ) {
      if a > 12 || b == 0 {
        add(y, b, a, ambiguous: false, repaired: repaired, at: index)
      } else if b > 12 {
        add(y, a, b, ambiguous: false, repaired: repaired, at: index)
      } else if order == .monthFirst && (separator == "/" || separator == "-") {
        add(y, a, b, ambiguous: true, repaired: repaired, at: index)
      } else {
        add(y, b, a, ambiguous: a != b, repaired: repaired, at: index)
      }
    }

    /// `range` as character offsets, as amounts give theirs.
    func offsets(of range: Range<String.Index>) -> Range<Int> {
      let lower = text.distance(from: text.startIndex, to: range.lowerBound)
      return lower..<lower + text.distance(from: range.lowerBound, to: range.upperBound)
    }

    /// `DD.MM.YY`, `MM/DD/YYYY` and the like, none of whose parts reads as an amount.
    /// Two different separators are read only where the line has no date with one separator.
    mutating func addNumeric(outside amounts: [Range<Int>]) {
      let before = found.count
      for pattern in [numericPattern, mixedSeparatorPattern]
      where pattern.regex === numericPattern.regex || found.count == before {
        for match in pattern.matches(in: text) {
          let span = offsets(of: match.range)
          // An "amount" that the date's year follows ("08. 03-17") is its day and month.
          if amounts.contains(where: { $0.overlaps(span) && $0.upperBound >= span.upperBound }) { continue }
          let a = Int(match[1]!)!, b = Int(match[3]!)!
          // `23-01-27` on a receipt that writes dates year first, and then read the usual way,
          // for a reading after the photo was taken to fall back on.
          if order == .yearFirst, match[2] == "-", match[4]!.count == 2 {
            add(2000 + a, b, Int(match[4]!)!, ambiguous: true, at: match.range.lowerBound)
          }
          addDayAndMonth(
            a, b, year: year(match[4]!), separator: match[2], repaired: false, at: match.range.lowerBound)
        }
      }
    }

    /// Dates OCR garbled: a separator lost, or digits read as letters.
    mutating func addMended(outside amounts: [Range<Int>]) {
      // Capture groups of the day (or month), the separator, the month (or day) and the year.
      let mended: [(TextPattern, first: Int, separator: Int, second: Int)] = [
        (lostSeparatorPattern, 1, 2, 3), (joinedDayMonthPattern, 1, 3, 2), (noisySeparatorPattern, 1, 2, 3),
      ]
      for (pattern, first, separator, second) in mended {
        for match in pattern.matches(in: text) {
          let span = offsets(of: match.range)
          if amounts.contains(where: { $0.overlaps(span) }) { continue }
          addDayAndMonth(
            Int(match[first]!)!, Int(match[second]!)!, year: Int(match[4]!)!, separator: match[separator],
            repaired: true, at: match.range.lowerBound)
        }
      }
      for match in misreadYearPattern.matches(in: text) {
        if amounts.contains(where: { $0.overlaps(offsets(of: match.range)) }) { continue }
        addDayAndMonth(
          Int(match[1]!)!, Int(match[3]!)!, year: 2000 + Int(match[4]!)!, separator: match[2], repaired: true,
          at: match.range.lowerBound)
      }
      for match in lookalikePattern.matches(in: text)
      where text[match.range].contains(where: { lookalikeDigits[$0] != nil }) {
        guard let a = lookalikeNumber(match[1]!), let b = lookalikeNumber(match[3]!) else { continue }
        addDayAndMonth(
          a, b, year: year(match[4]!), separator: match[2], repaired: true, at: match.range.lowerBound)
      }
    }

    /// Dates with a month name, the day before it or after it.
    mutating func addNamed() {
      for match in namedPattern.matches(in: text) {
        guard let month = month(named: String(match[2]!)) else { continue }
        add(year(match[3]!), month, Int(match[1]!)!, ambiguous: false, at: match.range.lowerBound)
      }
      for match in namedFirstPattern.matches(in: text) {
        guard let month = month(named: String(match[1]!)) else { continue }
        add(Int(match[3]!)!, month, Int(match[2]!)!, ambiguous: false, at: match.range.lowerBound)
      }
    }

    /// A two-digit year is this century's.
    func year(_ text: Substring) -> Int {
      let value = Int(text) ?? 0
      return text.count == 2 ? 2000 + value : value
    }
  }

  /// The days month `month` (1…12) has in `year`.
  static func days(inMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The first time of day in `text` as `HH:MM` or `HH:MM:SS`.
  public static func time(in text: String) -> String? {
    for match in timePattern.matches(in: text) {
      let o = match
      let hour = Int(o[1]!)!, minute = Int(o[3]!)!
      var result = String(format: "%02d:%02d", hour, minute)
      if let seconds = o[4] { result += ":\(seconds)" }
      if text[match.range].contains(":") { return result }
      // "12.50" is more often a price than a time: a point only counts next to a date, and three
      // parts with points ("23.09.16") only after one: a receipt prints the date, then the time.
      let dated = o[4] == nil ? text : String(text[..<match.range.lowerBound])
      if !dates(in: dated).isEmpty { return result }
    }
    return nil
  }
}
