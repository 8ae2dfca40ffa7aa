import Foundation

/// Second opinions on the line a receipt's total was read from: the line cut out and read again
/// on its own in other preparations (`ReceiptStage.lineCrops`), and a value replaced only when
/// the new readings agree with each other against the page's reading ("14.65" for "14.85").
enum KeyLineVote {
  // Not the date: on the SROIE receipts its re-read crops agreed on a wrong date (2073, a month
  // 9 for 3) three times for one they mended.

  /// The total a re-read line gives, without its sign: a crop's padding can take in a rule above
  /// the line, read as a minus.
  static func total(in text: String) -> String? {
    Money.amounts(in: text).last.map { $0.money.magnitude.description }
  }

  /// Whether the page's total is what its source line itself says: a total taken from a payment
  /// or the line below its label is not re-read from the label's line.
  static func lineCarries(total: String, text: String) -> Bool {
    Self.total(in: text) == total
  }

  /// Whether the page's total stands on more than its own line: the receipt's amounts add up to
  /// it, cash given less change returned makes it, or another line prints the same amount (a card
  /// payment, a subtotal where no tax is added). Re-readings of the one line share its crop and
  /// its stray marks (`TOTAL sys 39.93` re-read as `139.93`), so they do not outvote that.
  static func corroborated(_ receipt: ReceiptRecord, total: String, line: Int) -> Bool {
    if receipt.checks?.totalsConsistent == true { return true }
    if receipt.subtotal == nil, !receipt.items.isEmpty, receipt.checks?.problems.isEmpty == true {
      return true
    }
    let rows = receipt.text ?? []
    if paidLessChange(rows)?.description == total { return true }
    return rows.enumerated().contains { index, row in
      index != line && Money.amounts(in: row.text).contains { $0.money.magnitude.description == total }
    }
  }

  /// Cash given less change returned, as the extractor reads the payment rows: two other lines
  /// that close on the total, where re-reading its line found "60.39" for a paid 70.30 less 10.00.
  static func paidLessChange(_ rows: [TextLine]) -> Money? {
    let lines = rows.enumerated().map { index, row in
      ReceiptExtractor.prepare(index: index, text: row.text, confidence: row.confidence)
    }
    var payments = ReceiptExtractor.Payments()
    for line in lines { ReceiptExtractor.readPayment(lines, line, into: &payments) }
    return payments.cashLessChange
  }

  /// The value to keep: the page's, unless at least two re-readings agree on another one and
  /// more re-readings say it than say the page's value. A re-reading that is the page's value with
  /// its leading digits cut off is the crop's edge cutting into the line, not a mended misreading
  /// ("Total Payable: 33.05" re-read as 3.05 on the SROIE training folds), and is not counted.
  static func decide(page: String, rereads: [String?]) -> String {
    var counts: [String: Int] = [:]
    for case let value? in rereads where !(value.count < page.count && page.hasSuffix(value)) {
      counts[value, default: 0] += 1
    }
    guard
      let (best, votes) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }),
      best != page, votes >= 2, votes > counts[page, default: 0]
    else { return page }
    return best
  }
}
