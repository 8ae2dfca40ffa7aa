import Foundation
import XCTest

@testable import SnapsortTools

/// The verdicts `snapsort check` and the golden test share, on records written in code: each
/// file and field judged on its own, within its tolerance, against the known misses.
final class ExpectedRecordsTests: XCTestCase {
  /// Parsed as files and records are: JSONSerialization's numbers, not Swift literals.
  static func json(_ text: String) -> [String: Any] {
    try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
  }

  static var expected: [String: [String: Any]] {
    [
      "cards/a": json(
        #"{"_tolerance": {"card.quad": 2}, "status": "ok", "card": {"quad": [[10, 10], [90, 10]], "issuer": {"id": "tesco"}}}"#
      ),
      "cards/b": json(#"{"status": "ok", "card": {"issuer": {"id": "lidl"}}}"#),
    ]
  }

  static func actual(aQuadX: Double, aIssuer: String, bIssuer: String) -> [String: (
    file: String, object: [String: Any]
  )] {
    [
      "cards/a": (
        "cards/a.jpg",
        json(
          #"{"status": "ok", "card": {"quad": [[\#(aQuadX), 10], [90, 10]], "issuer": {"id": "\#(aIssuer)"}}}"#
        )
      ),
      "cards/b": ("cards/b.jpg", json(#"{"status": "ok", "card": {"issuer": {"id": "\#(bIssuer)"}}}"#)),
    ]
  }

  static func withKnownMisses(_ misses: [String: [String: String]]) -> [String: [String: Any]] {
    var result = expected
    for (stem, fields) in misses { result[stem]![ExpectedRecords.knownMissesKey] = fields }
    return result
  }

  func testEveryFieldWithinItsToleranceIsAPass() {
    let report = ExpectedRecords.compare(
      expected: Self.expected, actual: Self.actual(aQuadX: 11.9, aIssuer: "tesco", bIssuer: "lidl"))
    XCTAssertTrue(report.passed, "\(report.mismatches)")
    XCTAssertEqual(report.fields.count, 5)
    XCTAssertTrue(report.fields.allSatisfy(\.passed))
  }

  func testAFieldOutsideItsToleranceFailsNamingFileFieldExpectedAndActual() {
    let report = ExpectedRecords.compare(
      expected: Self.expected, actual: Self.actual(aQuadX: 12.5, aIssuer: "tesco", bIssuer: "lidl"))
    XCTAssertFalse(report.passed)
    XCTAssertEqual(
      report.mismatches,
      [.init(file: "cards/a.jpg", field: "card.quad[0][0]", expected: "10", actual: "12.5")])
    XCTAssertEqual(report.unexpectedMisses.map(\.field), ["card.quad"])
  }

  /// Totals would not notice: one file worse and another better leaves a count unchanged.
  func testAFileThatGotWorseFailsEvenWhenAnotherGotBetter() {
    let misses = Self.withKnownMisses(["cards/a": ["card.issuer": "white card"]])
    let report = ExpectedRecords.compare(
      expected: misses, actual: Self.actual(aQuadX: 10, aIssuer: "tesco", bIssuer: "aldi"))
    XCTAssertEqual(report.passCounts["cards"]?["card.issuer"], 1, "the count per folder is unchanged")
    XCTAssertEqual(report.unexpectedMisses.map { "\($0.file) \($0.field)" }, ["cards/b.jpg card.issuer"])
    XCTAssertEqual(report.fixedKnownMisses.map { "\($0.file) \($0.field)" }, ["cards/a.jpg card.issuer"])
    XCTAssertEqual(Set(report.mismatches.map(\.file)), ["cards/a.jpg", "cards/b.jpg"])
    XCTAssertTrue(
      report.mismatches.contains {
        $0.file == "cards/a.jpg" && $0.actual.contains("remove it from the known misses")
      })
  }

  func testAKnownMissThatStillFailsPassesTheCheckAndKeepsItsReason() {
    let misses = Self.withKnownMisses(["cards/a": ["card.issuer": "white card"]])
    let report = ExpectedRecords.compare(
      expected: misses, actual: Self.actual(aQuadX: 10, aIssuer: "unknown", bIssuer: "lidl"))
    XCTAssertTrue(report.passed, "\(report.mismatches)")
    XCTAssertEqual(report.knownMisses.map(\.knownMiss), ["white card"])
    XCTAssertEqual(
      report.currentMisses, [.init(file: "cards/a.jpg", field: "card.issuer", reason: "white card")])
  }

  func testAKnownMissOnAFieldTheFileDoesNotCheckFails() {
    let misses = Self.withKnownMisses(["cards/b": ["card.quad": "stale"]])
    let report = ExpectedRecords.compare(
      expected: misses, actual: Self.actual(aQuadX: 10, aIssuer: "tesco", bIssuer: "lidl"))
    XCTAssertEqual(report.mismatches.map(\.file), ["cards/b.jpg"])
    XCTAssertEqual(report.mismatches.map(\.field), ["card.quad"])
  }

  func testAMissingRecordFails() {
    var actual = Self.actual(aQuadX: 10, aIssuer: "tesco", bIssuer: "lidl")
    actual["cards/b"] = nil
    let report = ExpectedRecords.compare(expected: Self.expected, actual: actual)
    XCTAssertEqual(report.mismatches.map { "\($0.file) \($0.field)" }, ["cards/b (record)"])
  }

  func testLoadAttachesKnownMissesAndRefusesOnesWithoutAnExpectedFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-expected-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("cards"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(#"{"status": "ok", "card": {"issuer": {"id": "lidl"}}}"#.utf8).write(
      to: directory.appendingPathComponent("cards/b.expected.json"))
    let misses = directory.appendingPathComponent(ExpectedRecords.knownMissesFileName)

    try ExpectedRecords.encodeKnownMisses([.init(file: "cards/b.jpg", field: "card.issuer", reason: "why")])
      .write(to: misses)
    XCTAssertEqual(
      try String(contentsOf: misses, encoding: .utf8),
      "[\n  {\"field\":\"card.issuer\",\"file\":\"cards/b.jpg\",\"reason\":\"why\"}\n]\n")
    let loaded = try ExpectedRecords.load(from: directory)
    XCTAssertEqual(
      loaded["cards/b"]?[ExpectedRecords.knownMissesKey] as? [String: String], ["card.issuer": "why"])

    try ExpectedRecords.encodeKnownMisses([.init(file: "cards/zz.jpg", field: "status", reason: "why")])
      .write(to: misses)
    XCTAssertThrowsError(try ExpectedRecords.load(from: directory))
  }
}
