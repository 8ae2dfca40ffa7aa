import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The report's HTML from records built in code: one entry each, every untrusted string escaped.
/// (The page in a real browser is checked by CLITests.StoreCommandTests.)
final class HTMLReportTests: XCTestCase {
  func render(_ records: [Record]) -> String {
    let summary = RunSummary(
      version: "test", configHash: "abc", config: nil, startedAt: "", wallSeconds: 0, jobs: 1,
      counts: .init(inputs: records.count, ok: records.count, error: 0, skipped: 0, notStarted: 0),
      stages: [:], skippedFiles: [], interrupted: false)
    return HTMLReport(records: records, summary: summary, outputDirectory: URL(fileURLWithPath: "/tmp/out"))
      .render()
  }

  func testOneEntryPerRecordWithReceiptsAndErrors() {
    let html = render(StoreFixtures.sample)
    XCTAssertEqual(
      html.components(separatedBy: "<article class=\"entry").count - 1, StoreFixtures.sample.count)
    XCTAssertTrue(html.contains("<td>Coffee beans</td>"))
    XCTAssertTrue(html.contains("<span class=\"ok\">✓</span> items add up to the subtotal"))
    XCTAssertTrue(html.contains("load: not a PNG: bad signature"))
    XCTAssertTrue(
      html.contains("<polygon class=\"quad\" points=\"40.0,30.0 360.0,40.0 350.0,250.0 50.0,240.0\""))
    XCTAssertTrue(html.contains("background:#1b7f3a"))
  }

  /// Issue #27 item 5: the store's spending as charts, one pair per currency, hatched where
  /// totals are contradicted; the numbers are those of `stats`.
  func testSpendingChartsPerCurrency() throws {
    let directory = try TestImages.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    var ringgit = StoreFixtures.receipt(
      "receipts/my.jpg", merchant: "Kedai <Ceria>", date: "2024-03-09", total: "100.00", items: [])
    ringgit.receipt?.currency = "MYR"
    ringgit.receipt?.checks = ReceiptChecks(itemsMatchSubtotal: nil, totalsConsistent: false, problems: [])
    try store.replaceRun(records: StoreFixtures.sample + [ringgit])
    let summary = RunSummary(
      version: "test", configHash: "abc", config: nil, startedAt: "", wallSeconds: 0, jobs: 1,
      counts: .init(inputs: 1, ok: 1, error: 0, skipped: 0, notStarted: 0), stages: [:], skippedFiles: [],
      interrupted: false)
    let html = HTMLReport(
      records: StoreFixtures.sample, summary: summary, outputDirectory: directory, stats: try store.stats()
    ).render()
    for title in ["EUR by month", "EUR: top merchants", "MYR by month", "MYR: top merchants"] {
      XCTAssertTrue(html.contains("<h3>\(title)</h3>"), title)
    }
    XCTAssertTrue(html.contains("Kedai &lt;Ceria&gt;"))
    XCTAssertTrue(html.contains("<span class=\"bar-label\">Green Basket</span>"))
    XCTAssertTrue(html.contains("style=\"width:100.0%\"><span class=\"unconfirmed\" style=\"width:100.0%\">"))
    XCTAssertFalse(render(StoreFixtures.sample).contains("id=\"spending\""), "no store, no charts")
  }

  func testEveryUntrustedStringIsEscaped() {
    let hostile = "<script>alert(1)</script>\"'&<img src=x onerror=alert(2)>"
    var records = [
      StoreFixtures.card("x/<b>.jpg", name: hostile, code: ("qr", hostile), text: [hostile]),
      StoreFixtures.receipt(
        "r.jpg", merchant: hostile, date: hostile, total: "1.00", items: [(hostile, "1.00")]),
      StoreFixtures.failure("e.jpg", message: hostile),
    ]
    records[0].card?.colors = [ColorShare(hex: "red;}</style><script>", share: 1)]
    records[0].card?.issuer = IssuerMatch(id: hostile, name: hostile, confidence: 0.5, alternatives: [])
    records[0].notes = [hostile]
    let html = render(records)
    XCTAssertFalse(html.contains("<script>alert"))
    XCTAssertFalse(html.contains("<img src=x"))
    XCTAssertFalse(html.contains("<b>.jpg"))
    XCTAssertFalse(html.contains("</style><script>"), "a colour that is not #rrggbb is left out")
    XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
    // Only the report's own script tag.
    XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 1)
  }

  /// The photo is linked by its absolute URL, so the report keeps it when the output folder
  /// moves (issue #22, finding 12); tags and notes from the store are shown and filterable.
  func testPhotoLinkedByAbsoluteURLWithTagsAndNotes() {
    let summary = RunSummary(
      version: "test", configHash: "abc", config: nil, startedAt: "", wallSeconds: 0, jobs: 1,
      counts: .init(inputs: 1, ok: 1, error: 0, skipped: 0, notStarted: 0),
      stages: [:], skippedFiles: [], interrupted: false)
    let record = StoreFixtures.sample[0]
    let html = HTMLReport(
      records: [record], summary: summary, outputDirectory: URL(fileURLWithPath: "/data/out"),
      sources: [record.file: URL(fileURLWithPath: "/data/photos/a b#1.jpg")],
      labels: [record.file: (tags: ["work"], notes: ["lunch <with> Q"])]
    ).render()
    XCTAssertTrue(html.contains("src=\"file:///data/photos/a%20b%231.jpg\""), html)
    XCTAssertFalse(html.contains("../photos"))
    XCTAssertTrue(html.contains("<span class=\"tag\">work</span>"))
    XCTAssertTrue(html.contains("lunch &lt;with&gt; Q"))
  }

  func testFilterScriptFoldsAsTheStoreDoes() {
    let html = render(StoreFixtures.sample)
    XCTAssertTrue(html.contains("\"ø\":\"o\""), "the folding table is in the page")
    XCTAssertTrue(html.contains("normalize('NFD')"))
  }
}
