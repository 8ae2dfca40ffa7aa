import Foundation

/// Second readings of the lines where a page with no date read may print one that OCR garbled
/// ("19/62/2018", "Date : 05- 0b\" 116"): each such line is cut out and read again on its own
/// (`ReceiptStage.lineCrops`), and a date is taken only when two of the re-readings give it.
/// Only for a page that read no date: where the page read one, re-read crops agreed on a wrong
/// date more often than they mended one (`KeyLineVote`).
enum DateLineVote {
  /// At most this many lines of a page are re-read: a page holds one or two lines that look
  /// like its date, and each line costs three readings.
  static let maxLines = 2

  /// Three groups split by date separators, the first of one or two digits and the last
  /// starting with a digit or a glyph OCR reads for one: the shape of a date whatever its
  /// digits became (`72/01/2017`, `25/Fen/20t7`, `05- 0b" 116`). Quotes and tildes are specks
  /// read beside a separator.
  private static let garbledDate = TextPattern(
    #"(?<![\d/])\d{1,2}\s?[-/.~“”"']{1,2}\s?\S{1,3}\s?[-/.~“”"']{1,2}\s?[0-9OoZzSsBbIl]\S{1,3}"#)
  /// A digit anywhere on a line that names a date.
  private static let digit = TextPattern(#"\d"#)

  /// Whether `text` may print a date that was not read: a garbled date's shape, or a date label
  /// with a digit after it.
  static func mayHoldDate(_ text: String) -> Bool {
    if garbledDate.firstMatch(in: text) != nil { return true }
    let folded = ReceiptKeywords.fold(text)
    return ReceiptKeywords.containsAny(folded, ReceiptKeywords.dateLabels)
      && digit.firstMatch(in: text) != nil
  }

  /// The lines of `text` (indices) to re-read, top first.
  static func lines(_ text: [TextLine]) -> [Int] {
    Array(text.indices.filter { mayHoldDate(text[$0].text) }.prefix(maxLines))
  }

  /// Whether a re-reading's date token differs from the page's in a group the page read cleanly:
  /// all digits, as many as the re-reading's, and a date still (`isDate`) when put in place of the
  /// re-reading's group. The re-readings share the line's pixels, so they can agree on the same
  /// misread ("01-08-2018" where the page read "(1 “06- 2018"); a group the page read as no date
  /// can take ("19/62/2018") is what they are for.
  static func contradicts(page: String, reread: String, isDate: (String) -> Bool) -> Bool {
    guard let pageToken = token(in: page), let rereadToken = token(in: reread) else { return false }
    let pageGroups = groups(pageToken), rereadGroups = groups(rereadToken)
    guard pageGroups.count == 3, rereadGroups.count == 3 else { return false }
    return (0..<3).contains { index in
      let printed = pageGroups[index], read = rereadGroups[index]
      guard printed != read, printed.count == read.count, printed.allSatisfy(\.isNumber) else { return false }
      var mixed = rereadGroups
      mixed[index] = printed
      return isDate(mixed.joined(separator: "/"))
    }
  }

  private static func token(in text: String) -> String? {
    garbledDate.firstMatch(in: text).map { String(text[$0.range]) }
  }

  private static func groups(_ token: String) -> [String] {
    token.split(whereSeparator: { "-/.~“”\"' ".contains($0) }).map(String.init)
  }

  /// The date (ISO) at least two re-readings give, when no other date is given as often.
  static func decide(_ dates: [String?]) -> String? {
    var counts: [String: Int] = [:]
    for case let date? in dates { counts[date, default: 0] += 1 }
    guard let (best, votes) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }), votes >= 2,
      counts.filter({ $0.value == votes }).count == 1
    else { return nil }
    return best
  }
}
