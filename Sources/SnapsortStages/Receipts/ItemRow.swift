import Foundation
import SnapsortImaging

/// One row of a receipt's item list read on its own: its words, the quantity and unit price it
/// prints, and its amount. The row does not know its neighbours; `ReceiptItems` joins a
/// description printed on rows of its own, a quantity row above or below, and skips discounts.
struct ItemRow {
  /// The words, without a leading line or article number, a quantity or a trailing currency.
  var description: String
  var quantity: String?
  var unitPrice: Money?
  /// The amount at the row's right (negative for a discount); nil for a row without a price.
  var amount: Money?
  /// The row prints `quantity x unit price` (or `@`).
  var isQuantityRow = false
  /// A count and a unit price printed before the amount that do not come to it
  /// (`2  1,99  3,88`): one of the three was misread.
  var printedQuantity: String?
  var printedUnitPrice: Money?
  /// The description has words of its own: two letters or more, not only a unit and a times sign
  /// left of a quantity row whose digits were misread (`@,745 kg x 2,64`).
  var hasWords: Bool {
    let words = description.lowercased().split(separator: " ").filter { !Self.unitWords.contains(String($0)) }
    return words.joined().filter(\.isLetter).count >= 2
  }
  static let unitWords: Set<String> = [
    "kg", "g", "l", "x", "szt", "szt.", "stk", "stk.", "st", "st.", "pcs", "pc", "ea",
  ]

  /// What `printedQuantity` × `printedUnitPrice` come to.
  var product: Money? {
    guard let printedQuantity, let printedUnitPrice else { return nil }
    return ReceiptItems.multiply(printedQuantity, printedUnitPrice)
  }

  init(_ line: ReceiptExtractor.Line) {
    if let q = ReceiptItems.quantity(in: line.text) {
      let after = Money.amounts(in: q.after)
      let lead = Self.leadingNumber(of: ReceiptItems.clean(q.before))
      description = Self.withoutCurrency(lead.rest)
      quantity = q.quantity
      unitPrice = q.unitPrice
      amount = after.last?.money ?? Self.unseparatedPrice(in: q.after)?.money
      isQuantityRow = true
      return
    }
    amount = line.price
    guard let price = line.price, let last = line.amounts.last else {
      description = Self.leadingNumber(of: ReceiptItems.clean(line.text)).rest
      return
    }
    // A unit price printed before the amount ("2 Milk 1.99 3.98", "2  1.99  3.98") ends the
    // description; without one the description is everything before the amount.
    let unit = line.amounts.count >= 2 ? line.amounts[line.amounts.count - 2] : nil
    let cut = unit.map { $0.range.lowerBound } ?? last.range.lowerBound
    let lead = Self.leadingNumber(of: ReceiptItems.clean(String(line.text.prefix(cut))))
    var words = Self.withoutCurrency(lead.rest)
    var count = lead.number
    if let bare = Self.bareQuantity.firstMatch(in: words), let number = bare[1] {
      // Only a quantity before the prices (`2   1.99   3.98`, `0,532 kg  3,49  1,86`): the
      // description is on the rows above.
      count = number.replacingOccurrences(of: ",", with: ".")
      words = ""
    } else if count == nil, let trailing = Self.trailingQuantity(of: words) {
      words = trailing.rest
      count = trailing.number
    }
    description = words
    (quantity, unitPrice) = Self.evidence(count: count, unit: unit?.money, amount: price)
    if let count, let unit = unit?.money, unit.cents > 0, unitPrice != unit,
      Double(count).map({ $0 >= 1 }) == true
    {
      (printedQuantity, printedUnitPrice) = (count, unit)
    }
  }

  /// The quantity and unit price a row's numbers support: `count × unit = amount` (to the cent
  /// OCR or rounding may lose), a unit price equal to the amount, or a count the amount divides.
  static func evidence(count: String?, unit: Money?, amount: Money) -> (String?, Money?) {
    if let unit {
      if let count, (ReceiptItems.multiply(count, unit).cents - amount.cents).magnitude <= 1 {
        return (count, unit)
      }
      if unit == amount { return ("1", unit) }
    }
    if let count, let whole = Int(count), whole > 1, amount.cents % whole == 0 {
      return (count, Money(cents: amount.cents / whole))
    }
    // A weight without its price per unit: the quantity stands, the unit price is not printed.
    if let count, count.contains("."), Double(count).map({ $0 > 0 && $0 < 100 }) == true {
      return (count, nil)
    }
    return ("1", amount)
  }

  /// A number before the first word: a quantity (`2 x Milk`, `2x Milk`, `2 Milk`) or a line or
  /// article number (`003 Milk`, `4006381333931 Milk`), which is no quantity: a leading zero or
  /// more than two digits.
  static func leadingNumber(of text: String) -> (number: String?, rest: String) {
    guard let match = leadingPattern.firstMatch(in: text), let digits = match[1] else {
      return (nil, text)
    }
    let rest = String(text[match.range.upperBound...])
    let isCount = digits.count <= 2 && !digits.hasPrefix("0")
    return (isCount ? String(digits) : nil, rest)
  }
  private static let leadingPattern = TextPattern(#"^(\d{1,14})(?:\s*[xX×*]\s*|\s+)(?=\p{L})"#)

  private static let bareQuantity = TextPattern(#"^(\d{1,4}(?:[.,]\d{1,3})?)(?:\s*\p{L}{1,3}\.?)?$"#)

  /// A quantity after the name: `Milk x2`, `Milk 2x`, `Milk x 2`, `Milk (2)`, a weight with its
  /// three decimals (`Apples x0,532`).
  static func trailingQuantity(of text: String) -> (number: String, rest: String)? {
    guard let match = trailingPattern.firstMatch(in: text),
      let digits = match[1] ?? match[2] ?? match[3]
    else { return nil }
    let rest = String(text[..<match.range.lowerBound])
    guard rest.filter(\.isLetter).count >= 2 else { return nil }
    return (String(digits).replacingOccurrences(of: ",", with: "."), ReceiptItems.clean(rest))
  }
  private static let trailingPattern = TextPattern(
    #"\s(?:[xX×]\s?(\d{1,2}(?:[.,]\d{3})?)|(\d{1,2}(?:[.,]\d{3})?)\s?[xX×]|\((\d{1,2}(?:[.,]\d{3})?)\))$"#)

  /// The price at a row's end that OCR read without its separator, where the tax class or the
  /// currency printed after it marks the price's end (`231€A`, `438A`, `208 80 SR`), or with the
  /// tax class B read as an 8 after its cents (`4,838`, `18,278`). A row of an item list has a
  /// price; these shapes are no count, weight or article number (`2kg`, `0,532 kg`, `x6`).
  static func unseparatedPrice(in text: String) -> Money.Found? {
    guard let match = unseparatedPattern.firstMatch(in: text),
      let units = (match[1] ?? match[3]).flatMap({ Int($0) }),
      let cents = (match[2] ?? match[4]).flatMap({ Int($0) })
    else { return nil }
    let lower = text.distance(from: text.startIndex, to: match.range.lowerBound)
    let upper = text.distance(from: text.startIndex, to: match.range.upperBound)
    return Money.Found(money: Money(cents: units * 100 + cents), range: lower..<upper)
  }
  private static let unseparatedPattern: TextPattern = {
    let currencies = ReceiptExtractor.currencyNames.sorted().map {
      "(?i:" + NSRegularExpression.escapedPattern(for: $0) + ")"
    }
    let mark = (["[A-D]", "SR", "ZR"] + currencies).joined(separator: "|")
    return TextPattern(
      #"(?<![\p{L}\d.,:/])(\d{1,4})\s?(\d{2})\s?(?:\#(mark))(?:\s?[A-D])?\s*$"#
        + #"|(?<![\d.,:/])(\d{1,4})[.,](\d{2})8\s*$"#)
  }()

  /// The description without a currency printed between it and the amount (`Milk RM 3.98`).
  static func withoutCurrency(_ text: String) -> String {
    var words = text.split(separator: " ").map(String.init)
    while let last = words.last, words.count > 1,
      [last.lowercased(), ReceiptKeywords.fold(last).trimmingCharacters(in: .whitespaces)]
        .contains(where: ReceiptExtractor.currencyNames.contains)
    {
      words.removeLast()
    }
    return ReceiptItems.clean(words.joined(separator: " "))
  }
}
