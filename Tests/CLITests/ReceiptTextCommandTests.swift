import Foundation
import XCTest

/// `snapsort receipt-text` end to end on a receipt written for the test
/// (`Tests/Fixtures/receipt-text`): boxed lines and plain text give the same fields.
final class ReceiptTextCommandTests: XCTestCase {
  private let fixtures = CLI.root.appendingPathComponent("Tests/Fixtures/receipt-text")

  private func object(_ line: Substring) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  func testBoxedLinesGiveTheReceiptsFields() throws {
    let result = try CLI.run([
      "receipt-text", fixtures.appendingPathComponent("harbour-lane-bakery.lines.csv").path, "--json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 1)
    let record = try object(lines[0])
    XCTAssertEqual(record["file"] as? String, "harbour-lane-bakery.lines.csv")
    XCTAssertEqual(record["status"] as? String, "ok")
    let receipt = try XCTUnwrap(record["receipt"] as? [String: Any])
    XCTAssertEqual(receipt["merchant"] as? String, "HARBOUR LANE BAKERY SDN BHD")
    XCTAssertEqual(receipt["date"] as? String, "2019-03-14")
    XCTAssertEqual(receipt["total"] as? String, "28.00")
    // The prices boxed apart from their labels are on their rows again.
    let text = (receipt["text"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
    XCTAssertTrue(text.contains("TOTAL (RM) 28.00"), "\(text)")
    XCTAssertTrue(text.contains("1 6\" PIE DISH, LEMON TART 8.50"), "\(text)")
    XCTAssertTrue(text.contains("THANK YOU, PLEASE \"COME\" AGAIN"), "\(text)")
  }

  /// A run's records extracted again from their rows (`--records`), and the merchant model's
  /// evidence on them (`--merchant-candidates`), which names the rules' merchant.
  func testRecordsRowsGiveTheReceiptAgainAndTheMerchantEvidence() throws {
    let folder = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = [("HARBOUR LANE BAKERY SDN BHD", 40), ("12 JALAN MERDEKA", 30), ("TOTAL 9.00", 30)]
      .enumerated().map { index, row in
        "{\"box\":[100,\(index * 60),600,\(row.1)],\"confidence\":90,\"text\":\"\(row.0)\"}"
      }
    let record =
      "{\"file\":\"a.jpg\",\"kind\":\"receipt\",\"receipt\":{\"text\":[\(rows.joined(separator: ","))]}}"
    let records = folder.appendingPathComponent("records.jsonl")
    try Data((record + "\n").utf8).write(to: records)

    let rerun = try CLI.run(["receipt-text", "--records", records.path])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    let receipt = try XCTUnwrap(
      try object(rerun.stdout.split(separator: "\n")[0])["receipt"] as? [String: Any])
    XCTAssertEqual(receipt["merchant"] as? String, "HARBOUR LANE BAKERY SDN BHD")
    XCTAssertEqual(receipt["total"] as? String, "9.00")

    let dump = try CLI.run(["receipt-text", "--records", records.path, "--merchant-candidates"])
    XCTAssertEqual(dump.status, 0, dump.stderr)
    let evidence = try object(dump.stdout.split(separator: "\n")[0])
    XCTAssertEqual(evidence["file"] as? String, "a.jpg")
    XCTAssertEqual(evidence["rules"] as? String, "HARBOUR LANE BAKERY SDN BHD")
    XCTAssertEqual(evidence["rules_brand"] as? Bool, false)
    let candidates = try XCTUnwrap(evidence["candidates"] as? [[String: Any]])
    XCTAssertEqual(candidates.first?["value"] as? String, "HARBOUR LANE BAKERY SDN BHD")
    XCTAssertEqual((candidates.first?["features"] as? [String: Double])?["legal"], 1)

    let totals = try CLI.run(["receipt-text", "--records", records.path, "--total-candidates"])
    XCTAssertEqual(totals.status, 0, totals.stderr)
    let totalEvidence = try object(totals.stdout.split(separator: "\n")[0])
    XCTAssertEqual(totalEvidence["rules"] as? String, "9.00")
    let amounts = try XCTUnwrap(totalEvidence["candidates"] as? [[String: Any]])
    XCTAssertEqual(amounts.map { $0["value"] as? String }, ["9.00"])
    XCTAssertEqual((amounts.first?["features"] as? [String: Double])?["total_label"], 2.0 / 3)

    let both = try CLI.run(["receipt-text", records.path, "--merchant-candidates", "--total-candidates"])
    XCTAssertEqual(both.status, 2, both.stderr)
  }

  func testAFolderGivesATableOfEveryTextFile() throws {
    let result = try CLI.run(["receipt-text", fixtures.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let rows = result.stdout.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true)
    }
    XCTAssertEqual(rows.first, ["FILE", "MERCHANT", "DATE", "TOTAL", "ITEMS"])
    XCTAssertEqual(rows.count, 3, result.stdout)
    for row in rows.dropFirst() {
      XCTAssertTrue(row.contains("2019-03-14") && row.contains("28.00"), result.stdout)
    }
  }

  func testAFileThatCannotBeReadIsNamedWithItsLineAndTheOthersStillRead() throws {
    let folder = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("harbour-lane-bakery.lines.csv"),
      to: folder.appendingPathComponent("a.lines.csv"))
    try Data("10,10,90,10,90,30,10,30,SHOP\n10,40,90,40,TOTAL 9.00\n".utf8).write(
      to: folder.appendingPathComponent("b.lines.csv"))
    let result = try CLI.run(["receipt-text", folder.path, "--json"])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(
      result.stderr.contains("b.lines.csv:2: expected x1,y1,x2,y2,x3,y3,x4,y4,text"), result.stderr)
    let records = try result.stdout.split(separator: "\n").map(object)
    XCTAssertEqual(records.map { $0["status"] as? String }, ["ok", "error"])

    let missing = try CLI.run(["receipt-text", folder.appendingPathComponent("nowhere").path])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("no such file or directory"), missing.stderr)
    let empty = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let none = try CLI.run(["receipt-text", empty.path])
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.contains("no .csv or .txt files"), none.stderr)
  }
}
