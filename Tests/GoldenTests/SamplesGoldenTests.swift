import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The core regression: the default pipeline over `samples/`, compared with the expected
/// records beside each photo by the same code as `snapsort check`.
///
/// Each file is judged on its own, field by field, within the `_tolerance` its expected record
/// gives: a file that got worse fails, whatever the others do. The (file, field) pairs that do
/// not match today are listed with their reasons in `samples/golden-known-misses.json`; a pair
/// that matched and no longer does fails, naming the file and field with expected and actual, and
/// a listed pair that matches now fails too ("remove from known misses"), so the list only
/// shrinks. `RECORD_GOLDEN=1` rewrites the list from the current run, keeping the reasons already
/// written, and fails, so a re-record is always a deliberate, reviewed change.
final class SamplesGoldenTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let samples = root.appendingPathComponent("samples")
  static let knownMissesURL = samples.appendingPathComponent(ExpectedRecords.knownMissesFileName)

  /// pipeline.json as shipped, except that `GOLDEN_SECONDS_PER_IMAGE` replaces its per-image time
  /// limit: `make test-sanitize` runs this under ThreadSanitizer and AddressSanitizer, 5-15x slower,
  /// where the shipped 60 s limit would turn slowness into error records.
  static func defaultPipeline(context: StageContext) throws -> PipelineConfig {
    let url = root.appendingPathComponent("pipeline.json")
    guard let seconds = ProcessInfo.processInfo.environment["GOLDEN_SECONDS_PER_IMAGE"].flatMap(Double.init)
    else {
      return try PipelineConfig.load(from: url, context: context)
    }
    var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var limits = object["limits"] as? [String: Any] ?? [:]
    limits["seconds_per_image"] = seconds
    object["limits"] = limits
    var context = context
    context.configDirectory = root
    return try PipelineConfig.parse(JSONSerialization.data(withJSONObject: object), context: context)
  }

  func testEverySampleFieldMatchesOrIsAKnownMiss() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-golden-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: out) }
    let config = try Self.defaultPipeline(context: StageContext(outputDirectory: out, jobs: 2))
    let result = try RunJob(inputs: [Self.samples], config: config, outputDirectory: out, jobs: 2).run()

    let expected = try ExpectedRecords.load(from: Self.samples)
    // 18 cards, 6 screenshots, 7 receipts, 16 negatives, 5 bad files.
    XCTAssertGreaterThanOrEqual(expected.count, 52, "samples/ has its expected records")
    XCTAssertEqual(
      result.records.count, expected.count, "every sample photo has an expected record and a record")
    let report = try ExpectedRecords.compare(expected: expected, records: result.records)
    XCTAssertEqual(Set(report.fields.map(\.file)).count, expected.count, "every expected file was checked")
    Self.printSummary(report)

    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
      try ExpectedRecords.encodeKnownMisses(report.currentMisses).write(to: Self.knownMissesURL)
      XCTFail(
        "RECORD_GOLDEN=1: rewrote \(Self.knownMissesURL.path) (\(report.currentMisses.count) known misses); "
          + "give new entries their reason, review the diff and run again without it")
      return
    }
    for miss in report.unexpectedMisses {
      let detail = miss.differences.map { "\($0.field): expected \($0.expected), got \($0.actual)" }
      XCTFail(
        "\(miss.file) \(miss.field) does not match (and is not a known miss): "
          + detail.joined(separator: "; "))
    }
    for fixed in report.fixedKnownMisses {
      XCTFail(
        "\(fixed.file) \(fixed.field) matches now: remove it from known misses (\(Self.knownMissesURL.lastPathComponent))"
      )
    }
    // `snapsort check` marks the same files ✗: no more (a known miss naming a field its file
    // does not check), no fewer.
    XCTAssertEqual(
      Set(report.mismatches.map(\.file)),
      Set((report.unexpectedMisses + report.fixedKnownMisses).map(\.file)),
      "snapsort check's verdicts: \(report.mismatches)")
  }

  /// Per folder and field, how many files match (known misses included as failures).
  static func printSummary(_ report: ExpectedRecords.Report) {
    var lines: [String] = []
    let counts = report.passCounts
    for folder in counts.keys.sorted() {
      for field in counts[folder]!.keys.sorted() {
        let total = report.fields.filter { $0.folder == folder && $0.field == field }.count
        lines.append("\(folder) \(field): \(counts[folder]![field]!)/\(total)")
      }
    }
    for miss in report.knownMisses {
      lines.append("  known miss: \(miss.file) \(miss.field): \(miss.knownMiss!)")
    }
    print(lines.joined(separator: "\n"))
  }
}
