import Foundation
import SnapsortStages

/// An item's description as statistics count it: `2 x Milk 1L`, `1 MILK 1L` and `milk 1l` are one
/// item; OCR debris such as `(st` or `2 x rm` is none. The record keeps the description as read.
public enum ItemName {
  /// Units and multiplication signs that a quantity prefix ends with.
  static let quantityUnits: Set<String> = [
    "x", "×", "pc", "pcs", "st", "stk", "stck", "szt", "шт", "kg", "g", "l", "ml", "cl", "lb", "oz", "ea",
  ]
  /// The folded description without quantity prefixes and currency words, or nil when what is
  /// left has fewer than three letters in a row or is mostly not letters.
  public static func normalized(_ description: String) -> String? {
    var words = TextFolding.fold(description)
      .split(whereSeparator: { $0.isWhitespace })
      .map { String($0).trimmingCharacters(in: CharacterSet.punctuationCharacters.subtracting(["%"])) }
      .filter { !$0.isEmpty }
    // `2 x`, `2x`, `1`, `0.5 kg`, `x2` before the name.
    while let first = words.first, isQuantity(first) || quantityUnits.contains(first) { words.removeFirst() }
    while let last = words.last, isQuantity(last) && last.contains(where: { $0 == "x" || $0 == "×" }) {
      words.removeLast()
    }
    words.removeAll { ReceiptExtractor.currencyNames.contains($0) }
    let name = words.joined(separator: " ")
    let letters = name.filter(\.isLetter).count
    let visible = name.filter { !$0.isWhitespace }.count
    guard words.contains(where: { $0.filter(\.isLetter).count >= 3 }), letters * 5 >= visible * 3 else {
      return nil
    }
    return name
  }

  /// A number, optionally with a unit or multiplication sign attached (`2x`, `x2`, `0,5kg`).
  static func isQuantity(_ word: String) -> Bool {
    let digits = word.filter { $0.isNumber || $0 == "." || $0 == "," }
    guard !digits.isEmpty, digits.contains(where: \.isNumber) else { return false }
    var rest = word.filter { !($0.isNumber || $0 == "." || $0 == ",") }
    if rest.isEmpty { return true }
    rest = rest.trimmingCharacters(in: .whitespaces)
    return quantityUnits.contains(rest)
  }
}
