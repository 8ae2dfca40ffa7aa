import Foundation
import SnapsortImaging
import SnapsortNative

/// Line items between the header and the totals: a description with a price at the right, and
/// the quantity lines receipts print under, above or beside it (`2 x 1.99`, `2 szt. x 1,99`,
/// `2 @ 1.99`, weighed goods `0,532 kg x 3,49`), a description over rows of its own above its
/// price, discounts on their own rows (`ItemRow` reads one row, `ItemAssembly` joins them).
enum ReceiptItems {
  struct Item {
    var item: ReceiptItem
    var amount: Money
  }

  /// A "2" that OCR read as the letter it resembles ("Z x 3,20") still counts as a quantity;
  /// `@` stands for "at" a unit price (`6 @ 3.80`).
  static let quantityPattern = TextPattern(
    #"(?i)(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?|(?<!\p{L})Z)\s*(kg|g|l|szt\.?|stk\.?|st\.?|pcs?\.?|ea|шт\.?)?\s*[xX×*@]\s*(-?\d{1,5}[.,]\s?\d{2})(?!\d)"#
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

  /// The items of rows `..<end`. `addsUp` tells whether items summing to an amount agree with the
  /// receipt's subtotal or total; where they do not, one item read two ways takes the other reading
  /// when that alone makes them agree.
  static func items(
    _ lines: [ReceiptExtractor.Line], end: Int, ceiling: Money? = nil, addsUp: (Money) -> Bool = { _ in true }
  ) -> [Item] {
    let lines = lines.map { splitCount($0, ceiling: ceiling) ?? $0 }
    let above = assemble(lines, end: end, continuation: .above)
    var chosen = above
    // Rows of words left right under the last item of a list the totals close, on a receipt
    // whose descriptions run over several rows: its items print the amount on a description's
    // first row, and each item's further rows stand below it, unless that loses items or
    // leaves quantity rows without their description.
    if end < lines.count, above.trailingDescriptionRows > 0, above.joinedRows > 0 {
      let below = assemble(lines, end: end, continuation: .below)
      if below.items.count >= above.items.count, below.itemsWithoutWords <= above.itemsWithoutWords {
        chosen = below
      }
    }
    // Where items after the first take rows of words above their amounts, so does the first:
    // the rows over it that are no heading (`ItemHeading`), unless that loses items.
    if chosen.continuation == .above, above.laterJoinedRows > 0, let start = firstItemStart(lines, end: end),
      start <= itemRange(lines, end: end).lowerBound
    {
      let first = assemble(lines, end: end, continuation: .above, firstItemFrom: start)
      if first.items.count == above.items.count { chosen = first }
    }
    return reconciled(chosen, addsUp: addsUp).filter { $0.amount.cents != 0 }
  }

  /// The assembly's items, with one item's other reading (`ItemAssembly.alternatives`) taken when
  /// the items do not add up as read and do with that reading, and with no other one.
  static func reconciled(_ assembly: ItemAssembly, addsUp: (Money) -> Bool) -> [Item] {
    var items = assembly.items
    let sum = items.map(\.amount).reduce(Money(cents: 0), +)
    guard !addsUp(sum) else { return items }
    let fits = assembly.alternatives.filter { index, other in
      index < items.count && addsUp(sum - items[index].amount + other.amount)
    }
    if fits.count == 1, let (index, other) = fits.first { items[index] = other }
    return items
  }

  static func assemble(
    _ lines: [ReceiptExtractor.Line], end: Int, continuation: ItemAssembly.Continuation,
    firstItemFrom: Int? = nil
  ) -> ItemAssembly {
    var assembly = ItemAssembly(continuation: continuation)
    assembly.firstTakesRowsAbove = firstItemFrom != nil
    let range = itemRange(lines, end: end)
    for position in (firstItemFrom ?? range.lowerBound)..<range.upperBound {
      // A discount or other labelled row among the items closes the item above it.
      guard !isLabelled(lines[position]) else {
        assembly.closeLast()
        continue
      }
      var line = lines[position]
      if line.price == nil, let found = ItemRow.unseparatedPrice(in: line.text) {
        line.price = found.money
        line.amounts.append(found)
      }
      // "Woda 1,5l" read as "Woda 1,51": a row whose price is not the amount the quantity row
      // under it prints is the description of that row, not an item of its own. A quantity row
      // without an amount may be the next item's, printed above it.
      if line.price != nil, position + 1 < end, let next = quantity(in: lines[position + 1].text),
        next.before.filter(\.isLetter).count < 2, quantity(in: line.text) == nil,
        let nextAmount = Money.amounts(in: next.after).last?.money, nextAmount != line.price
      {
        line.price = nil
        line.amounts = []
      }
      assembly.read(line, nextPrice: nextPrice(lines, after: position, end: end))
    }
    return assembly
  }

  /// The price of the first priced row after `position`, unless that row prints a quantity.
  static func nextPrice(_ lines: [ReceiptExtractor.Line], after position: Int, end: Int) -> Money? {
    guard let next = (position + 1..<end).first(where: { lines[$0].price != nil }),
      quantity(in: lines[next].text) == nil
    else { return nil }
    return lines[next].price
  }

  /// The row with its price's thousands group read as a count printed before the price
  /// (`Kiełbasa 4 245,36`, `Chleb 31,11 6 186,66`, a space being a thousands separator too): when
  /// read as thousands the item would cost more than the whole receipt (`ceiling`), or the count
  /// times the unit price printed before it is the rest. Nil when the row is no such row.
  static func splitCount(_ line: ReceiptExtractor.Line, ceiling: Money?) -> ReceiptExtractor.Line? {
    guard let price = line.price, let last = line.amounts.last, price == last.money else { return nil }
    let text = Array(line.text)
    let printed = String(text[last.range])
    guard let match = groupedCount.firstMatch(in: printed), let count = match[1], let rest = match[2],
      let amount = Money.parse(String(rest))
    else { return nil }
    let unit = line.amounts.dropLast().last?.money
    let tooDear = ceiling.map { price > $0 && amount <= $0 } ?? false
    guard tooDear || unit.map({ multiply(String(count), $0) == amount }) == true else { return nil }
    let split =
      String(text[..<last.range.lowerBound]) + "\(count)  \(rest)" + String(text[last.range.upperBound...])
    var splitLine = ReceiptExtractor.prepare(index: line.index, text: split, confidence: line.confidence)
    splitLine.left = line.left
    return splitLine
  }
  private static let groupedCount = TextPattern(#"^([1-9]\d?) (\d{3}[.,]\s?\d{2})$"#)

  /// From the first row with a price that is not a date line (and the description row right
  /// above it: one row only, as a header's last row is as likely there) to `end`.
  static func itemRange(_ lines: [ReceiptExtractor.Line], end: Int) -> Range<Int> {
    var start = lines.firstIndex { $0.price != nil && ReceiptDate.dates(in: $0.text).isEmpty } ?? lines.count
    if start > 0, start < lines.count, isDescription(lines[start - 1]) { start -= 1 }
    return min(start, end)..<end
  }

  /// The first priced row that is no date line, less the rows of words right over it that may be
  /// its description (`ItemHeading.mayDescribeFirstItem`), as many as a description takes, when a
  /// rule, a date or a heading stands right over them (else a header row may be among them). Nil
  /// when there are no such rows.
  static func firstItemStart(_ lines: [ReceiptExtractor.Line], end: Int) -> Int? {
    let first = min(
      lines.firstIndex { $0.price != nil && ReceiptDate.dates(in: $0.text).isEmpty } ?? lines.count, end)
    var start = first
    while start > 0, first - start < ItemAssembly.descriptionRows,
      ItemHeading.mayDescribeFirstItem(lines[start - 1])
    {
      start -= 1
    }
    return start < first && start > 0 && ItemHeading.isBoundary(lines[start - 1]) ? start : nil
  }

  /// Where the items end on a page whose subtotal and total were not read: at the first row from
  /// `first` on that names a saving and is no item's discount, else at the first row after `first`
  /// whose price is what the rows above it come to (a subtotal or total whose label was lost).
  static func savingsEnd(_ lines: [ReceiptExtractor.Line], from first: Int) -> Int {
    guard
      let discount = (first..<lines.count).first(where: { index in
        ReceiptKeywords.containsAny(lines[index].folded, ReceiptKeywords.savings)
          && !isItemDiscount(lines, at: index)
      })
    else { return sumEnd(lines, from: first) }
    return discount
  }

  /// The first row after `first` whose price is exactly the priced rows above it, with or without
  /// the savings printed among them, or the page's end: an item rarely costs exactly what all
  /// those above it come to.
  static func sumEnd(_ lines: [ReceiptExtractor.Line], from first: Int) -> Int {
    var sum = 0
    var savings = 0
    for index in itemRange(lines, end: lines.count) {
      let line = lines[index]
      if ReceiptKeywords.containsAny(line.folded, ReceiptKeywords.savings) {
        savings += abs((line.price ?? line.amounts.last?.money)?.cents ?? 0)
        continue
      }
      guard !isLabelled(line), let price = line.price, price.cents > 0 else { continue }
      if index > first, sum > 0, price.cents == sum || price.cents == sum - savings { return index }
      sum += price.cents
    }
    return lines.count
  }

  /// A saving printed under an item: the row above is an item's that costs more, and the row
  /// below is another item's, or the start of its description.
  static func isItemDiscount(_ lines: [ReceiptExtractor.Line], at index: Int) -> Bool {
    guard index > 0, index + 1 < lines.count,
      let saving = lines[index].price ?? lines[index].amounts.last?.money,
      let above = lines[index - 1].price, !isLabelled(lines[index - 1]),
      above.cents > saving.cents.magnitude
    else { return false }
    let below = lines[index + 1]
    return !isLabelled(below) && (below.price != nil || isDescription(below))
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

  static func make(_ description: String, _ quantity: String, _ unitPrice: Money?, _ amount: Money) -> Item {
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

  /// Letters a run of trailing words needs before it can be told from the description's own words.
  static let leaderLetters = 6

  /// The words without a dot leader read as letters (`Pasta co.cc ccc cc reece cece ees`): a run
  /// of trailing words each of which brings at most one letter the run has not used yet, with
  /// few distinct letters for its length (`ItemAssembly.letterVariety`, a rule read as letters).
  /// A word with a digit ends the run (`Mleko 3,2%`); the first word always stays.
  static func withoutLeaderLetters(_ words: [String]) -> [String] {
    var used = Set<Character>()
    var letters = 0
    var start = words.count
    for index in stride(from: words.count - 1, to: 0, by: -1) {
      let word = words[index].lowercased()
      guard !word.contains(where: \.isNumber) else { break }
      let own = Set(word.filter(\.isLetter))
      if !used.isEmpty && own.subtracting(used).count > 1 { break }
      used.formUnion(own)
      letters += word.filter(\.isLetter).count
      start = index
    }
    guard letters >= leaderLetters, Double(used.count) < ItemAssembly.letterVariety * Double(letters) else {
      return words
    }
    return Array(words[..<start])
  }

  private static let dotLeader = TextPattern(#"(?:\s?\.){3,}.*$"#)

  /// The description without stray symbols at its ends, a dot leader, a leading article number or a
  /// trailing tax class.
  static func clean(_ text: String) -> String {
    // A dot leader ends the description, however OCR read the dots after it (`Milk ....ceee`).
    let text = dotLeader.firstMatch(in: text).map { String(text[..<$0.range.lowerBound]) } ?? text
    var words = withoutLeaderLetters(text.split(separator: " ").map(String.init))
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
    } else if subtotal == nil, let total, !items.isEmpty,
      !itemsAgree(sum, subtotal: nil, savings: savings, tax: tax, total: total)
    {
      problems.append("items add up to \(sum), the total says \(total)")
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

  /// Whether items summing to `sum` agree with the subtotal, or without one with the total (less
  /// savings, or with the tax added); with neither read nothing contradicts them.
  static func itemsAgree(_ sum: Money, subtotal: Money?, savings: Money?, tax: Money?, total: Money?) -> Bool
  {
    if let subtotal { return sum == subtotal }
    guard let total else { return true }
    return sum - (savings ?? Money(cents: 0)) == total || sum == total
      || sum + (tax ?? Money(cents: 0)) == total
  }
}
