import Foundation
import SnapsortStages

/// Which records the card exports (`export catima`, `export cardsnap`) take, and why the others
/// are left out.
///
/// Only cards are exported as cards: an ok record whose kind is `card` with confidence (the
/// classify stage's confidence at least `minimumKindConfidence`, or kind `card` from a config
/// without a classify stage), that is not a payment card (its number never leaves snapsort) and
/// that holds a code (a wallet app needs one).
public struct ExportSelection {
  public typealias Entry = (record: Record, tags: [String], createdAt: Date, updatedAt: Date)

  /// The classify stage's own default `minimum_confidence`.
  public static let defaultMinimumKindConfidence = 0.5

  public var cards: [Entry] = []
  /// Records that are or may be cards but are not exported, by file, with the reason.
  public var skipped: [(file: String, reason: String)] = []
  /// Receipts and error records: not cards at all, so not listed one by one.
  public var notCards = 0

  public init(store: RecordStore, minimumKindConfidence: Double = Self.defaultMinimumKindConfidence) throws {
    for entry in try store.allRecords() {
      let record = entry.record
      if record.status != .ok || record.kind == .receipt {
        notCards += 1
      } else if let reason = Self.reason(toSkip: record, minimumKindConfidence: minimumKindConfidence) {
        skipped.append((record.file, reason))
      } else {
        cards.append(entry)
      }
    }
  }

  /// Why `record` is not exported, or nil when it is.
  public static func reason(toSkip record: Record, minimumKindConfidence: Double) -> String? {
    if record.status != .ok { return "an error record" }
    guard record.kind == .card, let card = record.card else {
      return "kind \(record.kind.rawValue), not a card"
    }
    if let classification = record.classification {
      if classification.kind != .card { return "classified as \(classification.kind.rawValue)" }
      if classification.confidence < minimumKindConfidence {
        return String(
          format: "a card only at confidence %.2f (below %.2f)", classification.confidence,
          minimumKindConfidence)
      }
    }
    if card.payment != nil { return "a payment card" }
    guard let code = card.barcodes?.first, !code.value.isEmpty else { return "no barcode" }
    return nil
  }
}
