import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// Issue #23 item 8: a receipt photographed upside down or sideways is read turned upright, and
/// a blank page gets no made-up field.
final class ReceiptOrientationTests: XCTestCase {
  func testATurnedReceiptIsReadUprightAndABlankPageGetsNoField() throws {
    let sample = CLI.root.appendingPathComponent("samples/receipts/receipt-03-de-scan.jpg")
    let upright = try Data(contentsOf: sample).withUnsafeBytes { try JPEGDecoder.decode($0, reduction: 1) }
    let folder = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for (name, orientation) in [("upright", 1), ("upside-down", 3), ("sideways", 6)] {
      try ImageEncoder.jpeg(upright.applyingOrientation(orientation), quality: 92)
        .write(to: input.appendingPathComponent("\(name).jpg"))
    }
    let blank = Bitmap(width: 900, height: 1400, format: .rgb, fill: 248)
    try ImageEncoder.jpeg(blank).write(to: input.appendingPathComponent("blank.jpg"))
    let out = folder.appendingPathComponent("out")
    let result = try CLI.run([
      "run", input.path, "--out", out.path, "--preset", "receipts", "--quiet", "--jobs", "2",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let records = try Self.recordsByFile(in: out)
    for name in ["upright", "upside-down", "sideways"] {
      let receipt = try XCTUnwrap(records["\(name).jpg"]?["receipt"] as? [String: Any], name)
      XCTAssertEqual(receipt["total"] as? String, "12.90", name)
      XCTAssertEqual(receipt["date"] as? String, "2023-11-18", name)
      let turned = (records["\(name).jpg"]?["notes"] as? [String] ?? []).contains {
        $0.contains("read turned")
      }
      // Sideways print is flattened a quarter turned by receipt_warp, upside down found by reading.
      if name != "sideways" { XCTAssertEqual(turned, name == "upside-down", name) }
    }
    let blankReceipt = try XCTUnwrap(records["blank.jpg"]?["receipt"] as? [String: Any])
    for field in ["merchant", "date", "total"] { XCTAssertTrue(blankReceipt[field] is NSNull, field) }
  }

  /// Issue #27 item 3: a receipt that names no currency is counted in the configured default,
  /// marked as assumed; one that names its currency keeps it, and a blank page gets none.
  func testTheConfiguredDefaultCurrencyOnlyFillsAMissingOne() throws {
    let folder = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent("samples/receipts/receipt-03-de-scan.jpg"),
      to: input.appendingPathComponent("euro.jpg"))
    try ImageEncoder.jpeg(Bitmap(width: 900, height: 1400, format: .rgb, fill: 248))
      .write(to: input.appendingPathComponent("blank.jpg"))
    let config = folder.appendingPathComponent("pipeline.json")
    try Data(
      #"""
      {"version": 1, "kind": "receipt", "stages": [{"stage": "load"}, {"stage": "receipt_warp"},
        {"stage": "receipt", "default_currency": "MYR"}]}
      """#.utf8
    ).write(to: config)
    let out = folder.appendingPathComponent("out")
    let result = try CLI.run(["run", input.path, "--out", out.path, "--config", config.path, "--quiet"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let receipts = try Self.recordsByFile(in: out).compactMapValues { $0["receipt"] as? [String: Any] }
    XCTAssertEqual(receipts["euro.jpg"]?["currency"] as? String, "EUR")
    XCTAssertNil(receipts["euro.jpg"]?["currency_assumed"])
    XCTAssertTrue(receipts["blank.jpg"]?["currency"] is NSNull)

    var unnamed = ReceiptRecord()
    unnamed.total = Money(cents: 1250)
    ReceiptStage.assumeCurrency(&unnamed, "MYR")
    XCTAssertEqual(unnamed.currency, "MYR")
    XCTAssertEqual(unnamed.currencyAssumed, true)

    let bad = folder.appendingPathComponent("bad.json")
    try Data(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "receipt", "default_currency": "ringgit"}]}"#
        .utf8
    ).write(to: bad)
    let refused = try CLI.run(["run", input.path, "--out", out.path, "--config", bad.path, "--quiet"])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains("default_currency"), refused.stderr)
  }

  /// The run's records as JSON objects by file: the tests check nulls as written.
  static func recordsByFile(in out: URL) throws -> [String: [String: Any]] {
    var records: [String: [String: Any]] = [:]
    for line in try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
      .split(separator: "\n")
    {
      let record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      records[try XCTUnwrap(record["file"] as? String)] = record
    }
    return records
  }
}
