import Foundation

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
  /// reading where it found none (the most confident one), and surer where two agree. When
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
    var totalChanged = false
    for name in fusedFields {
      var votes: [String: (confidence: Double, agreeing: Int, reading: ReceiptReading)] = [:]
      for reading in readings {
        guard let field = reading.receipt.fields?[name] else { continue }
        let key = field.value.lowercased()
        if let vote = votes[key] {
          let stronger = field.confidence > vote.confidence
          votes[key] = (
            max(vote.confidence, field.confidence), vote.agreeing + 1, stronger ? reading : vote.reading
          )
        } else {
          votes[key] = (field.confidence, 1, reading)
        }
      }
      func weight(_ vote: (confidence: Double, agreeing: Int, reading: ReceiptReading)) -> Double {
        min(0.95, vote.confidence + 0.1 * Double(vote.agreeing - 1))
      }
      let baseKey = base.receipt.fields?[name]?.value.lowercased()
      // The base reading keeps what it found: its lines are the record's text, it read the page
      // best, and a field's confidence decides poorly between two readings (a logo read as a
      // slogan can outscore the name; "2013" outscored "2020" on a German receipt).
      let keepsBase = baseKey != nil
      guard
        let winner = votes.max(by: { a, b in
          (keepsBase ? 0 : weight(a.value), a.key == baseKey ? 1 : 0)
            < (keepsBase ? 0 : weight(b.value), b.key == baseKey ? 1 : 0)
        })
      else { continue }
      let confidence = (weight(winner.value) * 100).rounded() / 100
      if winner.key == baseKey {
        fields[name]?.confidence = confidence
        continue
      }
      let from = winner.value.reading
      let field = from.receipt.fields![name]!
      let sourceText = field.line.flatMap { line in
        from.receipt.text.flatMap { line < $0.count ? $0[line].text : nil }
      }
      fields[name] = ReceiptField(
        value: field.value, confidence: confidence, line: nil, reading: from.name, source: sourceText)
      switch name {
      case "merchant": receipt.merchant = from.receipt.merchant
      case "date":
        receipt.date = from.receipt.date
        receipt.time = from.receipt.time
      default:
        receipt.total = from.receipt.total
        totalChanged = true
      }
    }
    // Items that do not add up in the base reading but do in another were misread in the base.
    var itemsChanged = false
    if receipt.checks?.problems.isEmpty == false,
      let other = readings.first(where: {
        $0.name != base.name && $0.receipt.checks?.problems.isEmpty == true && !$0.receipt.items.isEmpty
      })
    {
      receipt.items = other.receipt.items
      receipt.subtotal = other.receipt.subtotal
      receipt.savings = other.receipt.savings
      receipt.tax = other.receipt.tax
      for name in ["subtotal", "savings", "tax"] {
        fields[name] = other.receipt.fields?[name].map { field in
          ReceiptField(
            value: field.value, confidence: field.confidence, line: nil, reading: other.name,
            source: field.line.flatMap { line in
              other.receipt.text.flatMap { line < $0.count ? $0[line].text : nil }
            })
        }
      }
      itemsChanged = true
    }
    if totalChanged || itemsChanged {
      let money = { (text: String?) in text.flatMap(Money.parse) }
      receipt.checks = ReceiptConsistency.check(
        items: receipt.items.compactMap { money($0.amount) }, subtotal: money(receipt.subtotal),
        savings: money(receipt.savings), tax: money(receipt.tax), total: money(receipt.total))
    }
    receipt.fields = fields
    receipt.confidence = ReceiptExtractor.overallConfidence(
      fields: fields,
      checks: receipt.checks ?? ReceiptChecks(itemsMatchSubtotal: nil, totalsConsistent: nil, problems: []))
    return receipt
  }
}
