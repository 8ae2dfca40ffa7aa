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
  /// Why each record of the store that is not exported was left out: those in `skipped`, and the
  /// receipts and error records, which are not cards at all and so not listed one by one.
  public var leftOut: [LeftOut] = []
  /// The files whose card a person named by hand (`snapsort review`): exported under that name.
  public var namedByHand: Set<String> = []

  public init(store: RecordStore, minimumKindConfidence: Double = Self.defaultMinimumKindConfidence) throws {
    namedByHand = Set(try store.correctionsByFile().filter { $0.value.name != nil }.keys)
    for entry in try store.allRecords() {
      let record = entry.record
      guard let reason = Self.reason(toSkip: record, minimumKindConfidence: minimumKindConfidence) else {
        cards.append(entry)
        continue
      }
      leftOut.append(reason)
      if reason != .errorRecord && reason != .notACard(.receipt) {
        skipped.append((record.file, reason.description))
      }
    }
  }

  /// The name a card is exported under: the one a person gave it, else its issuer's (the
  /// catalog's spelling), else the one read.
  public func displayName(of card: CardRecord, file: String) -> String? {
    let read = card.name?.suggested.flatMap { $0.isEmpty ? nil : $0 }
    if namedByHand.contains(file), let read { return read }
    return card.issuer?.name.flatMap { $0.isEmpty ? nil : $0 } ?? read
  }

  /// Why `record` is not exported, or nil when it is.
  public static func reason(toSkip record: Record, minimumKindConfidence: Double) -> LeftOut? {
    if record.status != .ok { return .errorRecord }
    guard record.kind == .card, let card = record.card else { return .notACard(record.kind) }
    if let classification = record.classification {
      if classification.kind != .card { return .classifiedAs(classification.kind) }
      if classification.confidence < minimumKindConfidence {
        return .unsure(confidence: classification.confidence, minimum: minimumKindConfidence)
      }
    }
    if card.payment != nil { return .paymentCard }
    guard let code = card.barcodes?.first, !code.value.isEmpty else { return .noBarcode }
    return nil
  }

  /// The line an export ends with: what it wrote and what it left out, by reason, so that every
  /// record of the store is counted once: `exported 2 cards to cards.zip; left out 3 of 5
  /// records: 1 payment card, 2 receipts`.
  ///
  /// - Parameters:
  ///   - exported: the cards written (`cards`, unless the export dropped some).
  ///   - images: how many of them have their crop's image in the export (a crop missing from the
  ///     output folder leaves its card without one).
  ///   - stores: the issuers written beside the cards, for an export that has them.
  public func summary(exported: Int, images: Int, stores: Int? = nil, destination: String) -> String {
    var line = "exported \(LeftOut.counted(exported, ("card", "cards")))"
    if let stores { line += " and \(LeftOut.counted(stores, ("store", "stores")))" }
    line += " to \(destination)"
    if images < exported {
      line += " (\(images) with their crop's image; no crop was found for the others)"
    }
    guard !leftOut.isEmpty else { return line }
    var groups: [String: (reason: LeftOut, count: Int)] = [:]
    for reason in leftOut {
      groups[reason.forms.one, default: (reason, 0)].count += 1
    }
    let counts = groups.values.sorted {
      ($0.reason.rank, $0.reason.forms.one) < ($1.reason.rank, $1.reason.forms.one)
    }
    .map { LeftOut.counted($0.count, $0.reason.forms) }
    return line + "; left out \(leftOut.count) of \(leftOut.count + cards.count) records: "
      + counts.joined(separator: ", ")
  }
}
