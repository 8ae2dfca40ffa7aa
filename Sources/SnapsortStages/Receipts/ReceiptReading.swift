import Foundation
import SnapsortImaging

/// One OCR reading of a receipt (of its grey or its binarised image) and the record extracted
/// from it.
struct ReceiptReading {
  var name: String
  var receipt: ReceiptRecord
  /// Characters in confidently read words: the more text read well, the better the page.
  var readability: Double

  /// The fields that name the receipt, each taken from whichever reading holds it most surely.
  static let fusedFields = ["merchant", "date", "total"]

  /// The record of the most readable reading, with merchant, date and total taken from another
  /// reading where it found none (the most confident one) or read its date out of garbled
  /// characters, and surer where two agree. When
  /// the base reading's amounts do not add up and another's do, the items, subtotal, savings and
  /// tax are that other reading's. A value that two readings agree on gains
  /// confidence; the two preparations misread print differently, so agreement is evidence.
  static func fuse(_ readings: [ReceiptReading]) -> ReceiptRecord {
    precondition(!readings.isEmpty)
    let base = readings.max { $0.readability < $1.readability }!
    var receipt = base.receipt
    receipt.imageVariant = base.name
    guard readings.count > 1 else { return receipt }
    var fields = receipt.fields ?? [:]
    var amountsChanged = false
    for name in fusedFields {
      if fuseField(name, of: readings, base: base, into: &receipt, fields: &fields) { amountsChanged = true }
    }
    if adoptConsistentAmounts(of: readings, base: base, into: &receipt, fields: &fields)
      || adoptOneItemAmount(of: readings, base: base, into: &receipt)
    {
      amountsChanged = true
    }
    if amountsChanged { receipt.recheckAmounts() }
    receipt.fields = fields
    receipt.refreshConfidence()
    return receipt
  }

  /// Settles field `name` (merchant, date or total) across the readings.
  ///
  /// - Returns: whether the total was taken from another reading.
  static func fuseField(
    _ name: String, of readings: [ReceiptReading], base: ReceiptReading, into receipt: inout ReceiptRecord,
    fields: inout [String: ReceiptField]
  ) -> Bool {
    var found = readings.compactMap { reading in
      reading.receipt.fields?[name].map { (reading: reading, field: $0) }
    }
    // A date read out of garbled characters ("$5/05/2017", printed 15/05/2017) yields to one
    // another reading read whole, also in the base reading.
    if name == "date" {
      let whole = found.filter {
        !ReceiptDate.looksGarbled($0.reading.receipt.lineText($0.field.line) ?? "")
      }
      if !whole.isEmpty, whole.count < found.count {
        found = whole
        if !whole.contains(where: { $0.reading.name == base.name }) { fields[name] = nil }
      }
    }
    /// The surest reading's confidence in `value`, 0.1 more for each other reading agreeing.
    func weight(of value: String) -> Double {
      let agreeing = found.filter { $0.field.value.lowercased() == value.lowercased() }
      return min(0.95, agreeing.map(\.field.confidence).max()! + 0.1 * Double(agreeing.count - 1))
    }
    // The base reading keeps what it found: its lines are the record's text, it read the page
    // best, and a field's confidence decides poorly between two readings (a logo read as a
    // slogan can outscore the name; "2013" outscored "2020" on a German receipt).
    if let own = fields[name] {
      fields[name]!.confidence = Rounding.hundredths(weight(of: own.value))
      return false
    }
    guard
      let chosen = found.max(by: {
        (weight(of: $0.field.value), $0.field.confidence) < (
          weight(of: $1.field.value), $1.field.confidence
        )
      })
    else { return false }
    fields[name] = ReceiptField(
      value: chosen.field.value, confidence: Rounding.hundredths(weight(of: chosen.field.value)),
      line: nil,
      reading: chosen.reading.name, source: chosen.reading.receipt.lineText(chosen.field.line))
    switch name {
    case "merchant": receipt.merchant = chosen.reading.receipt.merchant
    case "date":
      receipt.date = chosen.reading.receipt.date
      receipt.time = chosen.reading.receipt.time
    default:
      receipt.total = chosen.reading.receipt.total
      return true
    }
    return false
  }

  /// Items that do not add up in the base reading but do in another were misread in the base:
  /// the items, subtotal, savings and tax are taken from that other reading. A reading with
  /// nothing to check its items against confirms nothing: its list can be a table's rows.
  ///
  /// - Returns: whether they were.
  static func adoptConsistentAmounts(
    of readings: [ReceiptReading], base: ReceiptReading, into receipt: inout ReceiptRecord,
    fields: inout [String: ReceiptField]
  ) -> Bool {
    guard receipt.checks?.problems.isEmpty == false,
      let other = readings.first(where: {
        $0.name != base.name && $0.receipt.itemsAddUp
      })
    else { return false }
    receipt.items = other.receipt.items
    receipt.subtotal = other.receipt.subtotal
    receipt.savings = other.receipt.savings
    receipt.tax = other.receipt.tax
    for name in ["subtotal", "savings", "tax"] {
      fields[name] = other.receipt.fields?[name].map { field in
        ReceiptField(
          value: field.value, confidence: field.confidence, line: nil, reading: other.name,
          source: other.receipt.lineText(field.line))
      }
    }
    return true
  }
}

extension ReceiptReading {
  /// Items that do not add up where another reading of the same item list (as many items) read one
  /// item's amount otherwise, and that amount alone makes them add up: that item is the other
  /// reading's, its description the base's. Two such items, or none, change nothing.
  ///
  /// - Returns: whether an amount was taken.
  static func adoptOneItemAmount(
    of readings: [ReceiptReading], base: ReceiptReading, into receipt: inout ReceiptRecord
  )
    -> Bool
  {
    let sum = receipt.items.map(\.amount).reduce(Money(cents: 0), +)
    func agrees(_ sum: Money) -> Bool {
      ReceiptConsistency.itemsAgree(
        sum, subtotal: receipt.subtotal, savings: receipt.savings, tax: receipt.tax, total: receipt.total)
    }
    guard !receipt.items.isEmpty, !agrees(sum) else { return false }
    var fits: [(index: Int, item: ReceiptItem)] = []
    for other in readings where other.name != base.name && other.receipt.items.count == receipt.items.count {
      for (index, theirs) in other.receipt.items.enumerated()
      where theirs.amount != receipt.items[index].amount
        && agrees(sum - receipt.items[index].amount + theirs.amount)
      {
        fits.append((index, theirs))
      }
    }
    guard fits.count == 1, let fit = fits.first else { return false }
    let description = receipt.items[fit.index].description
    receipt.items[fit.index] = fit.item
    receipt.items[fit.index].description = description
    return true
  }
}

extension ReceiptRecord {
  /// Line `index` of the reading, if there is one.
  func line(_ index: Int?) -> TextLine? {
    guard let index, let text, index < text.count else { return nil }
    return text[index]
  }

  /// The text of line `index` of the reading, if there is one.
  func lineText(_ index: Int?) -> String? { line(index)?.text }

  /// Whether the items are borne out by the arithmetic: they add up to the subtotal or, where
  /// none was read, to the total.
  var itemsAddUp: Bool {
    guard !items.isEmpty, let checks, checks.problems.isEmpty else { return false }
    return checks.itemsMatchSubtotal == true || (subtotal == nil && total != nil)
  }

  /// The record's confidence again, after a field was replaced.
  mutating func refreshConfidence() {
    confidence = ReceiptExtractor.overallConfidence(fields: fields ?? [:], checks: checks)
  }

  /// The consistency checks again, after an amount was replaced by another reading's.
  mutating func recheckAmounts() {
    checks = ReceiptConsistency.check(
      items: items.map(\.amount), subtotal: subtotal, savings: savings, tax: tax, total: total)
  }
}
