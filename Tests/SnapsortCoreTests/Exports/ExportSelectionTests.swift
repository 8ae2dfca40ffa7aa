import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Only cards are exported as cards (issue #22, finding 3): kind card with confidence, a code,
/// not a payment card; the rest of the card-like records are listed with the reason.
final class ExportSelectionTests: XCTestCase {
  func classified(_ record: Record, _ kind: Kind, _ confidence: Double) -> Record {
    var record = record
    record.classification = Classification(
      kind: kind, confidence: confidence,
      evidence: KindEvidence(
        paperShare: 0, paperAspect: 1, textRows: 0, rightColumnShare: 0, textLikeShare: 0))
    return record
  }

  func testOnlyConfidentCardsWithACodeAreExported() throws {
    let directory = try TestImages.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sure = classified(StoreFixtures.card("sure.jpg", name: "A", code: ("qr", "1")), .card, 0.9)
    let unsure = classified(StoreFixtures.card("unsure.jpg", name: "B", code: ("qr", "2")), .card, 0.3)
    let unclassified = StoreFixtures.card("plain.jpg", name: "C", code: ("ean13", "5901234123457"))
    let noCode = StoreFixtures.card("nocode.jpg", name: "D")
    var unknown = StoreFixtures.card("unknown.jpg", name: "E", code: ("qr", "3"))
    unknown.kind = .unknown
    let store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: [
      sure, unsure, unclassified, noCode, unknown, StoreFixtures.failure("bad.jpg", message: "x"),
    ])

    let selection = try ExportSelection(store: store)
    XCTAssertEqual(selection.cards.map(\.record.file), ["plain.jpg", "sure.jpg"])
    XCTAssertEqual(selection.notCards, 1)
    let reasons = Dictionary(uniqueKeysWithValues: selection.skipped.map { ($0.file, $0.reason) })
    XCTAssertEqual(reasons["unsure.jpg"], "a card only at confidence 0.30 (below 0.50)")
    XCTAssertEqual(reasons["nocode.jpg"], "no barcode")
    XCTAssertEqual(reasons["unknown.jpg"], "kind unknown, not a card")
    XCTAssertEqual(try CatimaExport(store: store).cards.map(\.cardID), ["5901234123457", "1"])
    XCTAssertEqual(try CatimaExport(store: store, minimumKindConfidence: 0.2).cards.count, 3)
  }
}
