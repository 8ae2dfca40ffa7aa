import Foundation
import SnapsortImaging

/// Settles merchant, date and total between the reading of the flattened page (`receipt_warp`'s
/// image) and a second reading of the scan as it was loaded, grey at its own resolution. The two
/// lose different receipts' print: on SROIE folds 0–3 the answer was in only one of the two texts
/// for a tenth of the receipts or more, each way (`bench/receipts/reading_union.py`).
struct ReceiptReadingChoice: Equatable {
  /// How much higher (0–1) the second reading's confidence in a field must be for its value to
  /// replace the page's, per field; 9 for never on confidence alone.
  var margins: [String: Double]

  /// The doubts about the page's reading that call for the second reading.
  var readWhen: Set<Doubt> = Set(Doubt.allCases)

  /// What the page's reading leaves in doubt.
  enum Doubt: String, CaseIterable, Sendable {
    case noMerchant = "no_merchant"
    case noDate = "no_date"
    case noTotal = "no_total"
    /// A total was read, and the receipt's own arithmetic does not confirm it.
    case unconfirmedTotal = "unconfirmed_total"
  }

  /// Margins fitted by `bench/receipts/choose_readings.py --when unsure` on the SROIE training
  /// folds 0–3 (the largest margin within one receipt of the most fields right). A total's or a
  /// date's confidence decided no better than chance there: they are taken only where the page has
  /// none, or, for the total, where the arithmetic confirms it. The doubts read for are fitted by
  /// `bench/receipts/raw_trigger.py` on the same folds (the fewest second readings within one
  /// field of the most fields right): a missing date alone (6 of 276 receipts) or merchant alone
  /// (none) did not pay for the reading.
  static let fitted = ReceiptReadingChoice(
    margins: ["total": 9, "date": 9, "merchant": 0.05], readWhen: [.noTotal, .unconfirmedTotal])

  static let fields = ["merchant", "date", "total"]

  /// `readWhen` as `raw_reading_when` lists it: comma-separated, in a fixed order.
  var readWhenList: String {
    Doubt.allCases.filter(readWhen.contains).map(\.rawValue).joined(separator: ",")
  }

  /// What the page's reading leaves in doubt: a key field missing, or its total unconfirmed by the
  /// receipt's own arithmetic.
  static func doubts(_ receipt: ReceiptRecord) -> Set<Doubt> {
    var doubts = Set<Doubt>()
    if receipt.merchant == nil { doubts.insert(.noMerchant) }
    if receipt.date == nil { doubts.insert(.noDate) }
    if receipt.total == nil {
      doubts.insert(.noTotal)
    } else if !closesArithmetic(receipt) {
      doubts.insert(.unconfirmedTotal)
    }
    return doubts
  }

  /// Whether the page's reading leaves a doubt the second reading is worth its time for.
  func isUnsure(_ receipt: ReceiptRecord) -> Bool {
    !Self.doubts(receipt).isDisjoint(with: readWhen)
  }

  /// Whether another reading could replace field `name` of `page` at all (`prefersOther`): a field
  /// the page lacks, a total its arithmetic does not confirm, or a field whose margin a difference
  /// of confidences (0–1) can reach.
  func mayTake(_ name: String, from page: ReceiptRecord) -> Bool {
    guard page.fields?[name] != nil else { return true }
    if name == "total", !Self.closesArithmetic(page) { return true }
    return margins[name, default: 9] <= 1
  }

  /// Whether the receipt's amounts confirm its total: the subtotal (less savings, plus tax) makes
  /// it, or, with no subtotal read, the items do.
  static func closesArithmetic(_ receipt: ReceiptRecord) -> Bool {
    guard let checks = receipt.checks, receipt.total != nil else { return false }
    if checks.totalsConsistent == true { return true }
    return receipt.subtotal == nil && !receipt.items.isEmpty && checks.problems.isEmpty
  }

  /// Whether field `name` should be taken from `other` rather than kept from `page`: a value both
  /// give stays; a field only the other found is taken; for the total, the one the receipt's
  /// arithmetic confirms in its own reading wins; else the other's must be surer by the margin.
  func prefersOther(_ name: String, page: ReceiptRecord, other: ReceiptRecord) -> Bool {
    guard let theirs = other.fields?[name] else { return false }
    guard let mine = page.fields?[name] else { return true }
    if mine.value.lowercased() == theirs.value.lowercased() { return false }
    if name == "total", Self.closesArithmetic(page) != Self.closesArithmetic(other) {
      return Self.closesArithmetic(other)
    }
    return theirs.confidence - mine.confidence >= margins[name, default: 9] - 1e-9
  }

  /// `receipt` with each key field `other` is preferred for taken from it, marked as read by
  /// `otherName`. A total taken from a reading whose amounts add up brings those amounts along.
  ///
  /// - Returns: the fields taken.
  @discardableResult
  func settle(_ receipt: inout ReceiptRecord, other: ReceiptRecord, otherName: String) -> [String] {
    Self.takeCurrency(&receipt, from: other, otherName)
    let taken = Self.fields.filter { prefersOther($0, page: receipt, other: other) }
    guard !taken.isEmpty else { return [] }
    var fields = receipt.fields ?? [:]
    for name in taken {
      guard let field = Self.borrowed(name, from: other, otherName) else { continue }
      fields[name] = field
      switch name {
      case "merchant": receipt.merchant = other.merchant
      case "date":
        receipt.date = other.date
        receipt.time = other.time
      default:
        receipt.total = other.total
        if Self.closesArithmetic(other) { Self.adoptAmounts(of: other, otherName, into: &receipt, &fields) }
      }
    }
    receipt.fields = fields
    receipt.recheckAmounts()
    receipt.refreshConfidence()
    return taken
  }

  /// `other`'s currency when the page's reading names none (its lines too faint or too few for a
  /// mark, a country or a language), with the language, which the store's statistics fall back on.
  private static func takeCurrency(
    _ receipt: inout ReceiptRecord, from other: ReceiptRecord, _ otherName: String
  ) {
    receipt.language = receipt.language ?? other.language
    guard receipt.currency == nil, let currency = other.currency else { return }
    receipt.currency = currency
    receipt.currencyEvidence = other.currencyEvidence
    receipt.fields?["currency"] = borrowed("currency", from: other, otherName)
  }

  /// The items, subtotal, savings and tax of `other`, whose total they confirm.
  private static func adoptAmounts(
    of other: ReceiptRecord, _ otherName: String, into receipt: inout ReceiptRecord,
    _ fields: inout [String: ReceiptField]
  ) {
    receipt.items = other.items
    receipt.subtotal = other.subtotal
    receipt.savings = other.savings
    receipt.tax = other.tax
    for name in ["subtotal", "savings", "tax"] {
      fields[name] = borrowed(name, from: other, otherName)
    }
  }

  /// `other`'s field `name` as evidence of another reading: its line's text kept, its line number
  /// (which points into the other reading's rows) dropped.
  private static func borrowed(_ name: String, from other: ReceiptRecord, _ otherName: String)
    -> ReceiptField?
  {
    other.fields?[name].map { field in
      ReceiptField(
        value: field.value, confidence: field.confidence, line: nil, reading: otherName,
        source: other.lineText(field.line))
    }
  }
}
