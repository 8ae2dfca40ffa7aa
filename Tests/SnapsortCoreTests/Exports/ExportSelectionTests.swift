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
    XCTAssertEqual(selection.leftOut.filter { $0 == .errorRecord }.count, 1)
    let reasons = Dictionary(uniqueKeysWithValues: selection.skipped.map { ($0.file, $0.reason) })
    XCTAssertEqual(reasons["unsure.jpg"], "a card only at confidence 0.30 (below 0.50)")
    XCTAssertEqual(reasons["nocode.jpg"], "no barcode")
    XCTAssertEqual(reasons["unknown.jpg"], "kind unknown, not a card")
    XCTAssertEqual(try CatimaExport(store: store).cards.map(\.cardID), ["5901234123457", "1"])
    XCTAssertEqual(try CatimaExport(store: store, minimumKindConfidence: 0.2).cards.count, 3)
  }

  /// The summary says what was exported and why each other record of the store was left out,
  /// every record counted once (it said "skipped 3 card records, 1 receipts and error records").
  func testSummaryCountsEveryRecordOnceByReason() throws {
    let directory = try TestImages.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var payment = StoreFixtures.card("visa.jpg", name: "Bank", code: ("qr", "9"))
    payment.card?.payment = PaymentInfo(network: "visa", last4: "1111")
    var receipt = StoreFixtures.card("receipt.jpg", name: "Shop")
    receipt.kind = .receipt
    var other = StoreFixtures.card("other.jpg", name: "E")
    other.kind = .other
    let store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: [
      classified(StoreFixtures.card("sure.jpg", name: "A", code: ("qr", "1")), .card, 0.9),
      classified(StoreFixtures.card("unsure1.jpg", name: "B", code: ("qr", "2")), .card, 0.3),
      classified(StoreFixtures.card("unsure2.jpg", name: "C", code: ("qr", "3")), .card, 0.2),
      StoreFixtures.card("nocode.jpg", name: "D"), payment, receipt, other,
      StoreFixtures.failure("bad.jpg", message: "x"),
    ])
    let selection = try ExportSelection(store: store)
    XCTAssertEqual(
      selection.summary(exported: 1, images: 1, destination: "cards.zip"),
      "exported 1 card to cards.zip; left out 7 of 8 records: 1 payment card, 1 card without a barcode, "
        + "2 cards classified below confidence 0.50, 1 record of kind other, 1 receipt, 1 error record")
    XCTAssertEqual(
      selection.skipped.map(\.file).sorted(),
      ["nocode.jpg", "other.jpg", "unsure1.jpg", "unsure2.jpg", "visa.jpg"],
      "receipts and error records are counted, not listed")
    XCTAssertEqual(
      selection.summary(exported: 1, images: 0, stores: 1, destination: "b.zip").prefix(77),
      "exported 1 card and 1 store to b.zip (0 with their crop's image; no crop was ")
  }
}
