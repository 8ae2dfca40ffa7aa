import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// A person's corrections in a real store: laid over the run's record wherever the store is
/// read, kept apart from it, and never overwritten by a run.
final class RecordCorrectionsTests: XCTestCase {
  var directory: URL!
  var store: RecordStore!

  override func setUpWithError() throws {
    directory = try TestImages.temporaryDirectory()
    store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: StoreFixtures.sample)
  }

  override func tearDownWithError() throws {
    store = nil
    try? FileManager.default.removeItem(at: directory)
  }

  func correctGreen() throws {
    try store.correct(file: "cards/green.jpg") {
      $0.name = "Green Basket Family"
      $0.issuer = .init(id: "blue-basket", name: "Blue Basket")
      $0.color = "#112233"
      $0.quad = Quad([[41, 31], [361, 41], [351, 251], [51, 241]])
    }
  }

  func testCorrectionsShowInShowSearchAndExport() throws {
    try correctGreen()
    let card = try XCTUnwrap(store.entry(file: "cards/green.jpg").record.card)
    XCTAssertEqual(card.name?.suggested, "Green Basket Family")
    XCTAssertEqual(card.name?.alternatives.first, "Green Basket", "the run's reading is kept beside it")
    XCTAssertEqual(card.issuer?.id, "blue-basket")
    XCTAssertEqual(card.issuer?.confidence, 1)
    XCTAssertEqual(card.headerColor, "#112233")
    XCTAssertEqual(card.quad?.corners.first, Point(41, 31))
    XCTAssertEqual(try store.search(SearchFilter(), queries: ["family"]).map(\.file), ["cards/green.jpg"])
    XCTAssertEqual(try store.search(SearchFilter(issuer: "blue basket")).map(\.file), ["cards/green.jpg"])
    XCTAssertEqual(try store.search(SearchFilter(issuer: "green-basket")).map(\.file), [])
    let exported = try XCTUnwrap(store.allRecords().first { $0.record.file == "cards/green.jpg" })
    XCTAssertEqual(exported.record.card?.name?.suggested, "Green Basket Family")
    XCTAssertEqual(try store.corrections(file: "cards/green.jpg").fields, [.quad, .name, .issuer, .color])
  }

  func testARunNeverOverwritesACorrection() throws {
    try correctGreen()
    var rerun = StoreFixtures.sample
    rerun[0].card?.name = NameSuggestion(suggested: "Green Baskct", alternatives: [])
    rerun[0].card?.headerColor = "#00ff00"
    try store.replaceRun(records: rerun)
    try store.replaceRun(records: rerun)
    let card = try XCTUnwrap(store.entry(file: "cards/green.jpg").record.card)
    XCTAssertEqual(card.name?.suggested, "Green Basket Family")
    XCTAssertEqual(card.name?.alternatives, ["Green Baskct"], "the rerun's value stands beside it")
    XCTAssertEqual(card.headerColor, "#112233")
    XCTAssertEqual(try store.search(SearchFilter(), queries: ["family"]).map(\.file), ["cards/green.jpg"])
    // Even a run without the photo keeps it: the correction comes back with the photo.
    try store.replaceRun(records: Array(rerun.dropFirst()))
    try store.replaceRun(records: rerun)
    XCTAssertEqual(
      try store.entry(file: "cards/green.jpg").record.card?.name?.suggested, "Green Basket Family")
  }

  func testClearingAFieldShowsTheRunsValueAgain() throws {
    try correctGreen()
    try store.correct(file: "cards/green.jpg") { $0.name = nil }
    let card = try XCTUnwrap(store.entry(file: "cards/green.jpg").record.card)
    XCTAssertEqual(card.name?.suggested, "Green Basket")
    XCTAssertEqual(card.issuer?.id, "blue-basket")
    XCTAssertEqual(try store.search(SearchFilter(), queries: ["family"]).map(\.file), [])
  }

  func testAValueNoFieldCanHoldChangesNothing() throws {
    XCTAssertThrowsError(try store.correct(file: "cards/green.jpg") { $0.color = "green" })
    XCTAssertThrowsError(try store.correct(file: "cards/green.jpg") { $0.name = "  " })
    XCTAssertThrowsError(try store.correct(file: "nowhere.jpg") { $0.name = "x" })
    XCTAssertEqual(try store.count("corrections"), 0)
    XCTAssertEqual(try store.entry(file: "cards/green.jpg").record.card?.name?.suggested, "Green Basket")
  }

  func testAReceiptsCorrectedAmountsAreCheckedAgainAndFilterAsTheyRead() throws {
    let receipt = try XCTUnwrap(StoreFixtures.sample.first { $0.kind == .receipt })
    let items = try XCTUnwrap(receipt.receipt?.items.map(\.amount).reduce(Money(cents: 0), +))
    try store.correct(file: receipt.file) {
      $0.merchant = "Corner Bakery"
      $0.date = "2031-02-03"
      $0.subtotal = items
      $0.total = items + Money(cents: 100)
    }
    let corrected = try XCTUnwrap(store.entry(file: receipt.file).record.receipt)
    XCTAssertEqual(corrected.merchant, "Corner Bakery")
    XCTAssertEqual(corrected.checks?.itemsMatchSubtotal, true)
    XCTAssertEqual(
      corrected.checks?.totalsConsistent, false, "the checks are computed from the person's amounts")
    XCTAssertEqual(try store.search(SearchFilter(merchant: "corner bakery")).map(\.file), [receipt.file])
    XCTAssertEqual(try store.search(SearchFilter(from: "2031")).map(\.file), [receipt.file])
    XCTAssertEqual(
      try store.search(SearchFilter(unconfirmedTotal: true)).map(\.file), [receipt.file],
      "--unconfirmed reads the checks of the person's amounts")
    XCTAssertEqual(
      try store.stats().spendByMonth.reduce(0) { $0 + $1.unconfirmedReceipts }, 1, "and so do the statistics")
    try store.correct(file: receipt.file) { $0.total = items }
    XCTAssertEqual(try store.search(SearchFilter(unconfirmedTotal: true)).map(\.file), [])
    XCTAssertTrue(try store.search(SearchFilter(unconfirmedTotal: false)).map(\.file).contains(receipt.file))
    XCTAssertThrowsError(try store.correct(file: receipt.file) { $0.date = "2031-02-30" })
    XCTAssertThrowsError(try store.correct(file: receipt.file) { $0.currency = "eur" })
  }

  func testCorrectedFieldsAreExpectedRecordsAndCorrectedIssuersAreLabels() throws {
    try correctGreen()
    let receipt = try XCTUnwrap(StoreFixtures.sample.first { $0.kind == .receipt })
    try store.correct(file: receipt.file) { $0.total = Money(cents: 4321) }
    let expected = try ExpectedRecords.fromCorrections(store.correctedEntries())
    XCTAssertEqual(
      Set(expected.keys), ["cards/green", (receipt.file as NSString).deletingPathExtension])

    let asRun = try ExpectedRecords.compare(expected: expected, records: StoreFixtures.sample)
    XCTAssertEqual(
      Set(asRun.fields.filter { !$0.passed }.map(\.field)),
      ["card.name", "card.issuer", "card.header_color", "receipt.total"],
      "the run's corners are a pixel off the person's: within the tolerance")
    XCTAssertTrue(asRun.fields.contains { $0.field == "kind" && $0.passed })
    let asCorrected = try ExpectedRecords.compare(
      expected: expected, records: store.allRecords().map(\.record))
    XCTAssertTrue(asCorrected.passed, "\(asCorrected.mismatches)")

    // The corners a person dragged are met within 2 % of the card's longer side (320 px here).
    var nudged = try store.allRecords().map(\.record)
    let green = try XCTUnwrap(nudged.firstIndex { $0.file == "cards/green.jpg" })
    let corrected = try XCTUnwrap(nudged[green].card?.quad)
    nudged[green].card?.quad = corrected.map { $0 + 5 }
    XCTAssertTrue(try ExpectedRecords.compare(expected: expected, records: nudged).passed)
    nudged[green].card?.quad = corrected.map { $0 + 10 }
    XCTAssertFalse(try ExpectedRecords.compare(expected: expected, records: nudged).passed)

    let labelled = try LabelledPhotos.cards(fromCorrectionsIn: directory)
    XCTAssertEqual(labelled.map(\.label), ["blue-basket"])
    XCTAssertEqual(labelled.map(\.source), ["cards/green.jpg"])
    XCTAssertEqual(
      labelled.first?.evidence.names, CardEvidence(card: StoreFixtures.sample[0].card).names,
      "the evidence is what the run read, not the person's name")
  }

  func testAStoreFromBeforeTheContradictedColumnGetsItFromItsCorrectedRecords() throws {
    let receipt = try XCTUnwrap(StoreFixtures.sample.first { $0.kind == .receipt })
    let items = try XCTUnwrap(receipt.receipt?.items.map(\.amount).reduce(Money(cents: 0), +))
    try store.correct(file: receipt.file) {
      $0.subtotal = items
      $0.total = items + Money(cents: 1)
    }
    try store.queue.write { db in
      try db.execute(sql: "ALTER TABLE records DROP COLUMN total_contradicted")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v6-total-contradicted'")
    }
    store = nil
    store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName))
    XCTAssertEqual(try store.search(SearchFilter(unconfirmedTotal: true)).map(\.file), [receipt.file])
  }

  func testReceiptsAndFailuresAreLeftAsTheRunWroteThem() {
    let receipt = StoreFixtures.sample.first { $0.kind == .receipt }!
    XCTAssertEqual(RecordCorrections(name: "x").applied(to: receipt), receipt)
    let failure = StoreFixtures.failure("bad.jpg", message: "corrupt")
    XCTAssertEqual(RecordCorrections(name: "x").applied(to: failure), failure)
  }
}
