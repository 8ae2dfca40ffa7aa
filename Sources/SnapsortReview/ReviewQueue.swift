import Foundation
import SnapsortStages

/// How much each record needs a person's look: a score made of points for each reason, every
/// reason shown beside the record so the order explains itself. The points rank kinds of doubt
/// against each other (a failed photo before a card without its barcode before an unsure
/// issuer); they are a reading order, not a probability.
public enum ReviewQueue {
  public struct Reason: Codable, Sendable, Equatable {
    public var points: Int
    public var text: String
  }

  /// Below this the issuer stage's confidence counts as a doubt; points grow as it falls.
  static let issuerDoubt = 0.6

  /// The reasons to look at `record`, the largest first (none for a record with nothing to check).
  public static func reasons(for record: Record) -> [Reason] {
    // A failed photo has nothing else worth listing: its fields are empty because it failed.
    if record.status == .error {
      let why = record.error.map { "\($0.stage): \($0.message)" } ?? "no reason given"
      return [Reason(points: 100, text: "the pipeline failed (\(why))")]
    }
    var reasons: [Reason] = []
    switch record.kind {
    case .card: reasons = cardReasons(record.card ?? CardRecord())
    case .receipt: reasons = receiptReasons(record.receipt ?? ReceiptRecord())
    case .unknown: reasons = [Reason(points: 35, text: "it was recognised as neither a card nor a receipt")]
    case .other: break
    }
    return reasons.sorted { $0.points > $1.points }
  }

  public static func score(of reasons: [Reason]) -> Int { reasons.reduce(0) { $0 + $1.points } }

  private static func cardReasons(_ card: CardRecord) -> [Reason] {
    var reasons: [Reason] = []
    if card.quad == nil { reasons.append(Reason(points: 40, text: "no card outline was found")) }
    if (card.barcodes ?? []).isEmpty { reasons.append(Reason(points: 30, text: "no barcode was read")) }
    if card.name?.suggested == nil {
      reasons.append(Reason(points: 25, text: "no name was read"))
    } else if let name = card.name, !name.alternatives.isEmpty {
      let others = name.alternatives.prefix(3).map { "“\($0)”" }.joined(separator: ", ")
      reasons.append(Reason(points: 10, text: "the name has other readings: \(others)"))
    }
    if let issuer = card.issuer, issuer.id != nil {
      if issuer.confidence < issuerDoubt {
        let points = Int((20 * (1 - issuer.confidence)).rounded())
        let shown = String(format: "%.2f", issuer.confidence)
        reasons.append(
          Reason(points: points, text: "issuer \(issuer.name ?? issuer.id!) at confidence \(shown)"))
      }
    } else {
      reasons.append(Reason(points: 20, text: "no issuer was recognised"))
    }
    return reasons
  }

  private static func receiptReasons(_ receipt: ReceiptRecord) -> [Reason] {
    var reasons: [Reason] = []
    let checks = receipt.checks
    if checks?.totalsConsistent == false || checks?.itemsMatchSubtotal == false {
      let problems = (checks?.problems ?? []).joined(separator: "; ")
      reasons.append(
        Reason(points: 40, text: "the amounts do not add up" + (problems.isEmpty ? "" : ": \(problems)")))
    } else if receipt.total != nil, checks?.totalsConsistent != true, checks?.itemsMatchSubtotal != true {
      reasons.append(Reason(points: 10, text: "no check confirms the total"))
    }
    if receipt.total == nil { reasons.append(Reason(points: 30, text: "no total was read")) }
    if receipt.merchant == nil { reasons.append(Reason(points: 15, text: "no merchant was read")) }
    if receipt.date == nil { reasons.append(Reason(points: 10, text: "no date was read")) }
    return reasons
  }
}
