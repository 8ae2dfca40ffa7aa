import Foundation
import SnapsortImaging

/// Reading amounts from receipt text, with a decimal comma or point.
extension Money {
  /// An amount found in a line of text.
  public struct Found: Sendable, Equatable {
    public var money: Money
    /// Character offsets of the match in the line.
    public var range: Range<Int>
  }

  // Digits with optional thousands groups, then a comma or point and exactly two digits; OCR
  // sometimes puts a space beside the separator. Not part of a date (12.03.2024), a time, a
  // longer number or a percentage. OCR reads a faint 0 as `@` (`5.8@`, `48,@6`, `8@,32`): an `@`
  // is a 0 among the cents or just before the separator, never before the units (`3 @1,95` is a
  // quantity at a unit price). The lone 0 of an amount under 1 is read as `@`, `Q` or `®` too
  // (`@,52`, `Q,35`, `®,69`): a zero glyph alone before the separator, after no letter or digit.
  private static let pattern = TextPattern(
    #"(?<![\d.,:/])(-\s?)?(\d{1,3}(?:[.,' ]\d{3})+|\d{1,6}@|\d{1,7}|(?<![\p{L}\p{N}@®])[@Q®](?=\s?[.,]\s?\d))\s?[.,]\s?([\d@]{2})(?![\d@%]|[.,:/][\d@]|\s%)(\s?-)?"#
  )
  /// What OCR reads a faint 0 as.
  private static let zeroGlyphs: Set<Character> = ["@", "Q", "®"]

  /// Every amount in `text`, left to right.
  public static func amounts(in text: String) -> [Found] {
    var result: [Found] = []
    for match in pattern.matches(in: text) {
      guard let whole = match[2], let fraction = match[3] else { continue }
      let digits = whole.map { Self.zeroGlyphs.contains($0) ? "0" : $0 }.filter(\.isNumber)
      guard let units = Int(String(digits)),
        let minor = Int(fraction.replacingOccurrences(of: "@", with: "0"))
      else { continue }
      let negative = match[1] != nil || match[4] != nil
      let lower = text.distance(from: text.startIndex, to: match.range.lowerBound)
      let upper = text.distance(from: text.startIndex, to: match.range.upperBound)
      result.append(
        Found(money: Money(cents: (units * 100 + minor) * (negative ? -1 : 1)), range: lower..<upper))
    }
    return result
  }

  /// One amount written alone (`"17.44"`, `"1.234,56"`, `"RM 9.00"`), or nil.
  public static func parse(_ text: String) -> Money? {
    let cleaned = text.filter { !$0.isLetter && $0 != "$" && $0 != "€" && $0 != "£" }
      .trimmingCharacters(in: .whitespaces)
    let found = amounts(in: cleaned)
    return found.count == 1 ? found[0].money : nil
  }
}
