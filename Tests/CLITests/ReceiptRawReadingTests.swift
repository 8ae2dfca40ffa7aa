import Foundation
import XCTest

/// Issue #23: the second reading of a receipt scan (the scan as loaded) reports what went wrong in
/// it, as the page's reading does.
final class ReceiptRawReadingTests: XCTestCase {
  func testTheSecondReadingsTimeoutReachesTheRecord() throws {
    let folder = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    // A scan that is all paper, small enough to be read raw; with no time to read, the page's
    // reading finds no field, so the scan is read a second time, and runs out of time too.
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent("samples/receipts/receipt-03-de-scan.jpg"),
      to: input.appendingPathComponent("scan.jpg"))
    let config = folder.appendingPathComponent("pipeline.json")
    try Data(
      #"""
      {"version": 1, "kind": "receipt", "stages": [{"stage": "load"}, {"stage": "receipt_warp"},
        {"stage": "receipt", "timeout_ms": 1}]}
      """#.utf8
    ).write(to: config)
    let out = folder.appendingPathComponent("out")
    let result = try CLI.run(["run", input.path, "--out", out.path, "--config", config.path, "--quiet"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let record = try XCTUnwrap(ReceiptOrientationTests.recordsByFile(in: out)["scan.jpg"])
    let notes = record["notes"] as? [String] ?? []
    XCTAssertTrue(notes.contains { $0.hasPrefix("receipt ocr timed out") }, "the page's note: \(notes)")
    XCTAssertTrue(
      notes.contains { $0.hasPrefix("second reading, of the scan as loaded: receipt ocr timed out") },
      "the second reading's note: \(notes)")
  }
}
