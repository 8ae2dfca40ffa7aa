import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The store on a real SQLite file in a temporary folder.
final class RecordStoreTests: XCTestCase {
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

  func files(_ query: String, _ filter: SearchFilter = SearchFilter()) throws -> [String] {
    try store.search(filter, queries: [query]).map(\.file)
  }

  func testEveryRecordIsStoredWithItsBarcodesAndItems() throws {
    XCTAssertEqual(try store.count("records"), StoreFixtures.sample.count)
    XCTAssertEqual(try store.count("barcodes"), 2)
    XCTAssertEqual(try store.count("receipt_items"), 6)
    XCTAssertEqual(try store.count("search_fts"), StoreFixtures.sample.count)
  }

  func testRerunUpdatesByContentHashWithoutDuplicates() throws {
    var changed = StoreFixtures.sample
    changed[0].card?.name = NameSuggestion(suggested: "Green Basket Gold", alternatives: [])
    try store.replaceRun(records: changed)
    try store.replaceRun(records: changed)
    XCTAssertEqual(try store.count("records"), StoreFixtures.sample.count)
    XCTAssertEqual(try store.count("barcodes"), 2)
    XCTAssertEqual(try store.count("search_fts"), StoreFixtures.sample.count)
    XCTAssertEqual(try files("gold"), ["cards/green.jpg"])
    // The same photo moved to another path is the same row.
    var moved = changed
    moved[0].file = "cards/moved/green.jpg"
    try store.replaceRun(records: moved)
    XCTAssertEqual(try store.count("records"), StoreFixtures.sample.count)
    XCTAssertEqual(try files("gold"), ["cards/moved/green.jpg"])
  }

  func testTagsAndAnnotationsSurviveReruns() throws {
    XCTAssertEqual(
      try store.tag(file: "receipts/r1.jpg", tags: ["Reimbursement", "trip"]), ["reimbursement", "trip"])
    try store.annotate(file: "r3.jpg", text: "Paid by the company card")
    try store.replaceRun(records: StoreFixtures.sample)
    // A photo missing from a run leaves the store, and its tags come back with it.
    try store.replaceRun(records: Array(StoreFixtures.sample.dropFirst(3)))
    XCTAssertEqual(try store.count("records"), StoreFixtures.sample.count - 3)
    XCTAssertEqual(
      try store.count("record_json"), StoreFixtures.sample.count - 3, "removed with their record")
    XCTAssertEqual(try store.count("barcodes"), 0)
    XCTAssertEqual(try store.count("search_fts"), StoreFixtures.sample.count - 3)
    try store.replaceRun(records: StoreFixtures.sample)
    XCTAssertEqual(try files("", SearchFilter(tag: "reimbursement")), ["receipts/r1.jpg"])
    XCTAssertEqual(try files("company"), ["receipts/r3.jpg"])
    XCTAssertEqual(
      try store.search(SearchFilter(), queries: ["company"]).first?.annotations, ["Paid by the company card"])
    XCTAssertEqual(try files("trip"), ["receipts/r1.jpg"], "tags are searchable too")
  }

  func testUnknownFileIsAClearError() {
    XCTAssertThrowsError(try store.tag(file: "nope.jpg", tags: ["x"])) { error in
      XCTAssertTrue("\(error)".contains("nope.jpg is not in the store"), "\(error)")
    }
  }

  func testMissingStoreFileIsAClearError() {
    XCTAssertThrowsError(try RecordStore(url: directory.appendingPathComponent("missing.sqlite"))) { error in
      XCTAssertTrue("\(error)".contains("no store at"), "\(error)")
    }
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.sqlite").path))
  }

  func testSearchAppliesTheQueryRules() throws {
    // The card's file name holds "coffee" too: names are searchable.
    XCTAssertEqual(try files("COFFEE"), ["cards/coffee.jpg", "receipts/r1.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(try files("coffee -decaf"), ["cards/coffee.jpg", "receipts/r1.jpg"])
    XCTAssertEqual(try files("coffee not decaf"), ["cards/coffee.jpg", "receipts/r1.jpg"])
    XCTAssertEqual(try files("milk+coffee"), ["receipts/r1.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(try files("tea or mystery"), ["cards/nocode.jpg", "receipts/r2.jpg"])
    XCTAssertEqual(try files("brühl"), ["cards/coffee.jpg"])
    XCTAssertEqual(try files("5901234"), ["cards/green.jpg"], "barcode values are searchable")
    XCTAssertEqual(try files("signature"), ["bad/corrupt.png"], "error messages are searchable")
    XCTAssertEqual(try files(" ,.; ").count, StoreFixtures.sample.count)
    XCTAssertEqual(try files("nothing-like-this"), [])
  }

  func testShortKeywordsMatchWithoutTheTrigramIndex() throws {
    XCTAssertEqual(try files("kr 42"), ["cards/coffee.jpg"])
    XCTAssertEqual(try files("-r"), [], "every record's file name holds an r")
  }

  /// The SQL translation agrees with the reference semantics on every query over the fixtures.
  func testStoreAgreesWithTheReferenceMatcher() throws {
    let words = ["green", "tea", "coffee", "milk", "-decaf", "or", "not", "basket", "kr", "club", "+", "7"]
    var generator = SeededGenerator(seed: 7)
    let texts = try store.searchableTexts()
    for _ in 0..<200 {
      let count = Int(generator.next() % 4) + 1
      let query = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(
        separator: " ")
      let expected = texts.filter { SearchQuery(parsing: query).matches($0.text) }.map(\.file).sorted()
      XCTAssertEqual(try files(query), expected, query)
    }
  }

  func testFilters() throws {
    XCTAssertEqual(try files("", SearchFilter(kind: .card)).count, 3)
    XCTAssertEqual(try files("", SearchFilter(merchant: "green b")), ["receipts/r1.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(try files("", SearchFilter(issuer: "green-basket")), ["cards/green.jpg"])
    XCTAssertEqual(try files("", SearchFilter(issuer: "BASKET")), ["cards/green.jpg"])
    XCTAssertEqual(try files("", SearchFilter(from: "2024-04")), ["receipts/r2.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(try files("", SearchFilter(from: "2024-04-12", to: "2024-04-30")), ["receipts/r3.jpg"])
    XCTAssertEqual(try files("", SearchFilter(to: "2024-03")), ["receipts/r1.jpg"])
    XCTAssertEqual(try files("", SearchFilter(minTotal: "10")), ["receipts/r1.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(
      try files("", SearchFilter(minTotal: "7.2", maxTotal: "12.5")), ["receipts/r1.jpg", "receipts/r2.jpg"])
    XCTAssertEqual(
      try files("green", SearchFilter(kind: .receipt, maxTotal: "20")),
      ["receipts/r1.jpg", "receipts/r2.jpg"])
    XCTAssertThrowsError(try files("", SearchFilter(from: "March")))
    XCTAssertThrowsError(try files("", SearchFilter(minTotal: "ten")))
  }

  func testCategoriesIncludingTheDefaultReimbursement() throws {
    XCTAssertEqual(try store.categories().map(\.name), ["reimbursement"])
    XCTAssertEqual(try store.category(named: "reimbursement"), SearchFilter(tag: "reimbursement"))
    XCTAssertTrue(try store.knownTags().contains("reimbursement"))
    try store.saveCategory(name: "groceries", filter: SearchFilter(query: "milk or beans", kind: .receipt))
    let groceries = try store.category(named: "groceries")
    XCTAssertEqual(try store.search(groceries).map(\.file), ["receipts/r1.jpg", "receipts/r3.jpg"])
    XCTAssertEqual(
      try store.search(groceries.merging(SearchFilter(maxTotal: "20")), queries: ["-decaf"]).map(\.file),
      ["receipts/r1.jpg"])
    XCTAssertThrowsError(try store.category(named: "nope"))
  }

  func testStats() throws {
    let stats = try store.stats()
    XCTAssertEqual(stats.records, StoreFixtures.sample.count)
    XCTAssertEqual(stats.errors, 1)
    XCTAssertEqual(
      stats.spendByMerchant.first, .init(key: "Green Basket", currency: "EUR", receipts: 2, total: "42.55"))
    XCTAssertEqual(stats.spendByMonth.map(\.key), ["2024-03", "2024-04"])
    XCTAssertEqual(stats.spendByMonth.last?.total, "37.25")
    XCTAssertEqual(stats.mostVisitedMerchant, .init(key: "Green Basket", count: 2))
    XCTAssertEqual(stats.mostCommonItems.prefix(2).map(\.key), ["green tea", "milk"])
  }

  /// Issue #27: ringgit and euro are never summed together, and a total the receipt's own checks
  /// contradict is counted apart.
  func testSpendIsPerCurrencyAndSaysWhatRestsOnContradictedTotals() throws {
    var ringgit = StoreFixtures.receipt(
      "receipts/my.jpg", merchant: "Green Basket", date: "2024-03-09", total: "100.00", items: [])
    ringgit.receipt?.currency = "MYR"
    var misread = StoreFixtures.receipt(
      "receipts/misread.jpg", merchant: "Green Basket", date: "2024-03-20", total: "7636.00", items: [])
    misread.receipt?.checks = ReceiptChecks(
      itemsMatchSubtotal: nil, totalsConsistent: false, problems: ["subtotal 635.00 ≠ total 7636.00"])
    try store.replaceRun(records: StoreFixtures.sample + [ringgit, misread])
    let stats = try store.stats()
    let basket = stats.spendByMerchant.filter { $0.key == "Green Basket" }
    XCTAssertEqual(
      basket,
      [
        .init(
          key: "Green Basket", currency: "EUR", receipts: 3, total: "7678.55", unconfirmedReceipts: 1,
          unconfirmedTotal: "7636"),
        .init(key: "Green Basket", currency: "MYR", receipts: 1, total: "100"),
      ])
    XCTAssertEqual(
      stats.spendByMonth.filter { $0.key == "2024-03" }.map(\.currency), ["EUR", "MYR"],
      "one row per currency")
    XCTAssertEqual(
      try store.search(SearchFilter(unconfirmedTotal: true)).map(\.file), ["receipts/misread.jpg"])
    XCTAssertFalse(
      try store.search(SearchFilter(unconfirmedTotal: false)).map(\.file).contains("receipts/misread.jpg"))
  }

  /// Issue #27 item 1: OCR variants of one merchant are one row in `stats`, `--merchant` finds
  /// them all, and the user's merge and split are kept over reruns.
  func testMerchantVariantsAreOneMerchantAndTheUsersChoicesSurviveReruns() throws {
    let variants = ["GREEN BASKET SDN BHD", "GREEN BA5KET (PUCHONG) SDN. BHD.", "Green Baskets"]
    let extra = variants.enumerated().map { index, merchant in
      StoreFixtures.receipt(
        "receipts/v\(index).jpg", merchant: merchant, date: "2024-05-0\(index + 1)", total: "1.00", items: [])
    }
    try store.replaceRun(records: StoreFixtures.sample + extra)
    let stats = try store.stats()
    XCTAssertEqual(stats.spendByMerchant.map(\.key).sorted(), ["Green Basket", "Tea House"])
    XCTAssertEqual(stats.mostVisitedMerchant, .init(key: "Green Basket", count: 5))
    XCTAssertEqual(
      try files("", SearchFilter(merchant: "green basket")).count, 5, "every spelling under its merchant")
    XCTAssertEqual(try store.merchants().first?.spellings.count, 4)

    try store.chooseMerchants("Green Baskets", "GREEN BA5KET (PUCHONG) SDN. BHD.", kind: .split)
    try store.chooseMerchants("tea house", "GREEN BASKET SDN BHD", kind: .merge)
    try store.replaceRun(records: StoreFixtures.sample + extra)
    let merchants = try store.merchants()
    XCTAssertEqual(merchants.map(\.receipts), [5, 1])
    XCTAssertEqual(merchants.last?.name, "Green Baskets")
    XCTAssertEqual(
      Set(merchants.first?.spellings.map(\.name) ?? []),
      ["Green Basket", "GREEN BASKET SDN BHD", "GREEN BA5KET (PUCHONG) SDN. BHD.", "Tea House"])
    XCTAssertThrowsError(try store.chooseMerchants("Green Basket", "GREEN BASKET SDN BHD", kind: .split))
    XCTAssertThrowsError(try store.chooseMerchants("Blue Basket", "Tea House", kind: .merge)) { error in
      XCTAssertTrue("\(error)".contains("no receipt's merchant is \"Blue Basket\""), "\(error)")
    }
  }

  /// Issue #27 item 3: a receipt that names no currency counts in its merchant's.
  func testAReceiptWithoutCurrencyCountsInItsMerchants() throws {
    var named = StoreFixtures.receipt(
      "receipts/k1.jpg", merchant: "Kedai Maju", date: "2024-06-01", total: "10.00", items: [])
    named.receipt?.currency = "MYR"
    var unnamed = StoreFixtures.receipt(
      "receipts/k2.jpg", merchant: "KEDAI MAJU", date: "2024-06-02", total: "5.00", items: [])
    unnamed.receipt?.currency = nil
    var alone = StoreFixtures.receipt(
      "receipts/z.jpg", merchant: "Zakład Nowy", date: "2024-06-03", total: "3.00", items: [])
    alone.receipt?.currency = nil
    try store.replaceRun(records: StoreFixtures.sample + [named, unnamed, alone])
    let spend = try store.stats().spendByMerchant
    XCTAssertEqual(
      spend.filter { $0.key.lowercased() == "kedai maju" }.map { [$0.currency, "\($0.receipts)", $0.total] },
      [["MYR", "2", "15"]])
    XCTAssertEqual(spend.first { $0.key == "Zakład Nowy" }?.currency, nil, "no merchant currency to take")
    let row = try XCTUnwrap(spend.first { $0.key == "Zakład Nowy" })
    let json = try XCTUnwrap(String(data: JSONEncoder().encode(row), encoding: .utf8))
    XCTAssertTrue(
      json.contains(#""currency":null"#), "stats --json writes an unknown currency as null: \(json)")
  }

  /// Issue #27 item 3: a receipt that names no currency, from a merchant whose receipts name none,
  /// counts in its language's when every receipt of that language in the store names the same one;
  /// a language whose receipts name two currencies gives none.
  func testAReceiptWithoutCurrencyCountsInItsLanguagesWhenTheStoreAgrees() throws {
    func receipt(_ name: String, _ language: String?, _ currency: String?) -> Record {
      var record = StoreFixtures.receipt(
        "receipts/\(name).jpg", merchant: name, date: "2024-07-01", total: "2.00", items: [])
      record.receipt?.currency = currency
      record.receipt?.language = language
      return record
    }
    let malay = ["Anggerik", "Bunga Raya"].map { receipt($0, "ms", "MYR") }
    let english = [receipt("Cedar Hall", "en", "MYR"), receipt("Delta Diner", "en", "USD")]
    let unnamed = [
      receipt("Embun Pagi", "ms", nil), receipt("Falcon Books", "en", nil), receipt("Gamma", nil, nil),
    ]
    try store.replaceRun(records: StoreFixtures.sample + malay + english + unnamed)
    let currencies = Dictionary(
      uniqueKeysWithValues: try store.stats().spendByMerchant.map { ($0.key, $0.currency ?? "none") })
    XCTAssertEqual(currencies["Embun Pagi"], "MYR", "every Malay receipt names ringgit")
    XCTAssertEqual(currencies["Falcon Books"], "none", "English receipts name two currencies")
    XCTAssertEqual(currencies["Gamma"], "none", "no language read")
  }

  func testAKilledRunLeavesThePreviousStore() throws {
    // A run that fails after writing part of its records rolls back as a whole.
    try store.tag(file: "cards/green.jpg", tags: ["keep"])
    let url = directory.appendingPathComponent(RecordStore.fileName)
    let writer = try RecordStore(url: url)
    XCTAssertThrowsError(
      try writer.replaceRun(records: Array(StoreFixtures.sample.prefix(3)), now: Date(), failAfter: 2))
    XCTAssertEqual(try store.count("records"), StoreFixtures.sample.count)
    XCTAssertEqual(try files("keep"), ["cards/green.jpg"])
  }

  // MARK: - Issue #22

  /// Finding 8: one accent- and case-folding for keywords, --merchant and --issuer.
  func testOneFoldingForKeywordsMerchantAndIssuer() throws {
    XCTAssertEqual(
      TextFolding.fold("Żabka Nørrebro Łódź Straße Ærø Åhléns"), "zabka norrebro lodz strasse aero ahlens")
    try store.replaceRun(records: [
      StoreFixtures.card("z.jpg", name: "Żabka", issuer: ("zabka", "Żabka")),
      StoreFixtures.card("a.jpg", name: "Åhléns", issuer: ("ahlens", "Åhléns")),
      StoreFixtures.receipt(
        "n.jpg", merchant: "Kaffe Nørrebro", date: "2024-01-02", total: "3.00", items: []),
    ])
    for typed in ["Żabka", "zabka", "ZABKA", "żab"] {
      XCTAssertEqual(try files("", SearchFilter(issuer: typed)), ["z.jpg"], typed)
      XCTAssertEqual(try files(typed), ["z.jpg"], typed)
    }
    XCTAssertEqual(try files("", SearchFilter(issuer: "Åhléns")), ["a.jpg"])
    XCTAssertEqual(try files("", SearchFilter(issuer: "ahlens")), ["a.jpg"])
    XCTAssertEqual(try files("ahlens"), ["a.jpg"])
    XCTAssertEqual(try files("", SearchFilter(merchant: "norrebro")), ["n.jpg"])
    XCTAssertEqual(try files("", SearchFilter(merchant: "NØRREBRO")), ["n.jpg"])
    XCTAssertEqual(try files("norrebro"), ["n.jpg"])
    XCTAssertEqual(try files("nø"), ["n.jpg"], "a short keyword scans the folded text")
  }

  /// Finding 9: dates that do not exist are refused.
  func testOnlyRealDatesAreAccepted() {
    for bad in ["2018-13", "2018-02-30", "2018-99", "2019-02-29", "2018-00", "2018-01-00", "March"] {
      XCTAssertThrowsError(try SearchFilter(from: bad).validate(), bad)
      XCTAssertThrowsError(try store.saveCategory(name: "x", filter: SearchFilter(to: bad)), bad)
    }
    for good in ["2018", "2018-12", "2018-02-28", "2020-02-29", "2000-02-29", "2018-12-31"] {
      XCTAssertNoThrow(try SearchFilter(from: good).validate(), good)
    }
  }

  /// Finding 13: an ambiguous name lists its candidates; commas and case of tags and categories.
  func testAmbiguousFilesCommasAndOneCaseRule() throws {
    try store.replaceRun(records: [
      StoreFixtures.card("a/x.jpg", name: "A"), StoreFixtures.card("b/x.jpg", name: "B"),
    ])
    XCTAssertThrowsError(try store.tag(file: "x.jpg", tags: ["t"])) { error in
      XCTAssertEqual("\(error)", "x.jpg is ambiguous: it names a/x.jpg, b/x.jpg; give more of the path")
    }
    XCTAssertEqual(try store.tag(file: "a/x.jpg", tags: ["Work"]), ["work"])
    XCTAssertThrowsError(try store.tag(file: "a/x.jpg", tags: ["a,b"]))
    XCTAssertEqual(try store.untag(file: "a/x.jpg", tags: ["WORK"]), [])
    XCTAssertThrowsError(try store.untag(file: "a/x.jpg", tags: ["work"]), "no such tag any more")
    XCTAssertTrue(try store.saveCategory(name: "Reimbursement", filter: SearchFilter(tag: "Trip")))
    XCTAssertEqual(try store.categories().map(\.name), ["reimbursement"])
    XCTAssertEqual(try store.category(named: "REIMBURSEMENT"), SearchFilter(tag: "trip"))
    try store.removeCategory(name: "Reimbursement")
    XCTAssertEqual(try store.categories().count, 0)
    XCTAssertThrowsError(try store.removeCategory(name: "reimbursement"))
  }

  /// Finding 15: notes are listed and removed by number; a record is shown with its labels.
  func testNotesListRemoveAndShow() throws {
    XCTAssertEqual(try store.annotate(file: "r3.jpg", text: "quokka"), ["quokka"])
    XCTAssertEqual(try store.annotate(file: "r3.jpg", text: "wombat"), ["quokka", "wombat"])
    XCTAssertEqual(try store.removeNote(file: "r3.jpg", number: 1), ["wombat"])
    XCTAssertThrowsError(try store.removeNote(file: "r3.jpg", number: 2))
    XCTAssertEqual(try store.notes(file: "r3.jpg"), ["wombat"])
    XCTAssertEqual(try files("quokka"), [])
    let entry = try store.entry(file: "r3.jpg")
    XCTAssertTrue(entry.record.file.hasSuffix("r3.jpg"))
    XCTAssertEqual(entry.notes, ["wombat"])
  }
}
