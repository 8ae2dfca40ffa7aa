import Foundation
import SnapsortImaging
import SnapsortNative

/// Line items between the header and the totals: a description with a price at the right, and
/// the quantity lines receipts print under or beside it (`2 x 1.99`, `2 szt. x 1,99`, weighed
/// goods `0,532 kg x 3,49`), including a description on one row and its price on the next.
enum ReceiptItems {
  struct Item {
    var item: ReceiptItem
    var amount: Money
  }

  /// A "2" that OCR read as the letter it resembles ("Z x 3,20") still counts as a quantity.
  static let quantityPattern = TextPattern(
    #"(?i)(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?|(?<!\p{L})Z)\s*(kg|g|l|szt\.?|stk\.?|st\.?|pcs?\.?|ea|шт\.?)?\s*[xX×*]\s*(-?\d{1,5}[.,]\s?\d{2})(?!\d)"#
  )

  /// A quantity and unit price in `text`, with the text before them.
  static func quantity(in text: String) -> (
    quantity: String, unitPrice: Money, before: String, after: String
  )? {
    guard let match = quantityPattern.firstMatch(in: text),
      let quantity = match[1], let price = match[3],
      let unitPrice = Money.parse(String(price))
    else { return nil }
    let before = String(text[..<match.range.lowerBound])
    let after = String(text[match.range.upperBound...])
    let digits = quantity.uppercased() == "Z" ? "2" : quantity.replacingOccurrences(of: ",", with: ".")
    return (digits, unitPrice, before, after)
  }

  static func items(_ lines: [ReceiptExtractor.Line], end: Int) -> [Item] {
    var items: [Item] = []
    // A row of letters without a price waits for the quantity row under it.
    var pending: ReceiptExtractor.Line?
    // Items start after the header: the first row with a price that is not a date line.
    var start = lines.firstIndex { $0.price != nil && ReceiptDate.dates(in: $0.text).isEmpty } ?? lines.count
    if start > 0, start < lines.count, isDescription(lines[start - 1]) { start -= 1 }
    let range = min(start, end)..<end
    for position in range where !isLabelled(lines[position]) {
      var line = lines[position]
      // "Woda 1,5l" read as "Woda 1,51": a row whose price is not what the quantity row under it
      // comes to is the description of that row, not an item of its own.
      if line.price != nil, position + 1 < end, let next = quantity(in: lines[position + 1].text),
        next.before.filter(\.isLetter).count < 2, quantity(in: line.text) == nil
      {
        let nextAmount = Money.amounts(in: next.after).last?.money ?? multiply(next.quantity, next.unitPrice)
        if nextAmount != line.price {
          line.price = nil
          line.amounts = []
        }
      }
      if let q = quantity(in: line.text) {
        let after = Money.amounts(in: q.after)
        let amount = after.last?.money ?? multiply(q.quantity, q.unitPrice)
        let inline = clean(q.before)
        if inline.filter(\.isLetter).count >= 2 {
          items.append(make(inline, q.quantity, q.unitPrice, amount))
        } else if let description = pending {
          items.append(make(clean(description.text), q.quantity, q.unitPrice, amount))
        } else if after.isEmpty, let last = items.last, last.amount == amount {
          // The quantity row under an item that already shows its amount.
          items[items.count - 1] = make(last.item.description, q.quantity, q.unitPrice, amount)
        } else if !after.isEmpty {
          items.append(make(inline, q.quantity, q.unitPrice, amount))
        }
        pending = nil
        continue
      }
      if let price = line.price, let last = line.amounts.last {
        let description = clean(String(line.text.prefix(last.range.lowerBound)))
        if description.filter(\.isLetter).count >= 2 {
          items.append(make(description, "1", price, price))
          pending = nil
        } else if let waiting = pending {
          items.append(make(clean(waiting.text), "1", price, price))
          pending = nil
        }
        continue
      }
      pending = line.text.filter(\.isLetter).count >= 3 && line.amounts.isEmpty ? line : nil
    }
    return items.filter { $0.amount.cents != 0 }
  }

  /// A row of words without amounts or dates: the first half of an item printed on two rows.
  static func isDescription(_ line: ReceiptExtractor.Line) -> Bool {
    line.amounts.isEmpty && line.text.filter(\.isLetter).count >= 3
      && ReceiptDate.dates(in: line.text).isEmpty
      && !isLabelled(line)
  }

  /// Rows that carry a total, a tax, a payment or a saving rather than an item.
  static func isLabelled(_ line: ReceiptExtractor.Line) -> Bool {
    let f = line.folded
    return ReceiptKeywords.totalWeight(f) >= 2 || ReceiptKeywords.containsAny(f, ReceiptKeywords.subtotal)
      || ReceiptKeywords.containsAny(f, ReceiptKeywords.payment)
      || ReceiptKeywords.containsAny(f, ReceiptKeywords.savings)
      || ReceiptKeywords.containsAny(f, ["tax", "vat", "gst", "mwst", "ptu", "tva", "iva", "btw", "moms"])
  }

  static func make(_ description: String, _ quantity: String, _ unitPrice: Money, _ amount: Money) -> Item {
    Item(
      item: ReceiptItem(
        description: description, quantity: quantity, unitPrice: unitPrice, amount: amount),
      amount: amount)
  }

  /// Quantity × unit price, rounded half up to the cent, in integers.
  static func multiply(_ quantity: String, _ unitPrice: Money) -> Money {
    let parts = quantity.split(separator: ".")
    let whole = Int(parts.first ?? "0") ?? 0
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let scale = Int(pow(10, Double(fraction.count)))
    let thousandths = whole * scale + (Int(fraction) ?? 0)
    let product = thousandths * unitPrice.cents
    return Money(cents: (product + scale / 2) / scale)
  }

  /// The description without stray symbols at its ends, a leading article number or a
  /// trailing tax class.
  static func clean(_ text: String) -> String {
    var words = text.split(separator: " ").map(String.init)
    while let last = words.last, !last.contains(where: { $0.isLetter || $0.isNumber }) { words.removeLast() }
    let joined = words.joined(separator: " ")
    return joined.trimmingCharacters(
      in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "()%")).inverted)
  }
}

/// The arithmetic a receipt should satisfy: its items add up to the subtotal, and the subtotal
/// less savings plus tax is the total (tax may be included in the prices already).
public enum ReceiptConsistency {
  public static func check(items: [Money], subtotal: Money?, savings: Money?, tax: Money?, total: Money?)
    -> ReceiptChecks
  {
    var problems: [String] = []
    let sum = items.reduce(Money(cents: 0), +)
    var itemsMatch: Bool?
    if let subtotal, !items.isEmpty {
      itemsMatch = sum == subtotal
      if itemsMatch == false {
        problems.append("items add up to \(sum), the subtotal says \(subtotal)")
      }
    } else if subtotal == nil, let total, !items.isEmpty {
      // Without a subtotal the items (less savings) should make the total.
      let expected = sum - (savings ?? Money(cents: 0))
      if expected != total && sum != total && sum + (tax ?? Money(cents: 0)) != total {
        problems.append("items add up to \(sum), the total says \(total)")
      }
    }
    var consistent: Bool?
    if let subtotal, let total {
      let less = subtotal - (savings ?? Money(cents: 0))
      let withTax = less + (tax ?? Money(cents: 0))
      consistent = total == withTax || total == less
      if consistent == false {
        var parts = "subtotal \(subtotal)"
        if let savings { parts += " − savings \(savings)" }
        if let tax { parts += " + tax \(tax)" }
        problems.append("\(parts) is \(withTax), the total says \(total)")
      }
    }
    return ReceiptChecks(itemsMatchSubtotal: itemsMatch, totalsConsistent: consistent, problems: problems)
  }
}
