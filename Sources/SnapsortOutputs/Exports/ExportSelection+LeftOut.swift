import Foundation
import SnapsortStages

extension ExportSelection {
  /// Why a record of the store is not exported.
  public enum LeftOut: Equatable, Sendable, CustomStringConvertible {
    case errorRecord
    /// Its kind is not `card` (a receipt, other, unknown).
    case notACard(Kind)
    case classifiedAs(Kind)
    /// Classified as a card below the confidence the export asks for.
    case unsure(confidence: Double, minimum: Double)
    case paymentCard
    case noBarcode

    /// Said of one record, in the `skipped: FILE (reason)` lines.
    public var description: String {
      switch self {
      case .errorRecord: "an error record"
      case .notACard(let kind): "kind \(kind.rawValue), not a card"
      case .classifiedAs(let kind): "classified as \(kind.rawValue)"
      case .unsure(let confidence, let minimum):
        String(format: "a card only at confidence %.2f (below %.2f)", confidence, minimum)
      case .paymentCard: "a payment card"
      case .noBarcode: "no barcode"
      }
    }

    /// Said of one and of several records in the summary; the same for every record left out
    /// for this reason, whatever its confidence.
    var forms: (one: String, many: String) {
      switch self {
      case .errorRecord: ("error record", "error records")
      case .notACard(.receipt): ("receipt", "receipts")
      case .notACard(let kind): ("record of kind \(kind.rawValue)", "records of kind \(kind.rawValue)")
      case .classifiedAs(let kind):
        ("record classified as \(kind.rawValue)", "records classified as \(kind.rawValue)")
      case .unsure(_, let minimum):
        (
          String(format: "card classified below confidence %.2f", minimum),
          String(format: "cards classified below confidence %.2f", minimum)
        )
      case .paymentCard: ("payment card", "payment cards")
      case .noBarcode: ("card without a barcode", "cards without a barcode")
      }
    }

    /// The summary's order: the cards left out first, the records that are no cards last.
    var rank: Int {
      switch self {
      case .paymentCard: 0
      case .noBarcode: 1
      case .unsure: 2
      case .classifiedAs: 3
      case .notACard(.receipt): 5
      case .notACard: 4
      case .errorRecord: 6
      }
    }

    /// `1 receipt`, `2 receipts`.
    static func counted(_ count: Int, _ forms: (one: String, many: String)) -> String {
      "\(count) \(count == 1 ? forms.one : forms.many)"
    }
  }
}
