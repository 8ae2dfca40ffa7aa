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
/// Each expected file holds ground truth; `samples/golden-minimums.json` holds, per folder and
/// field, how many files must match. Minimums only go up: `RECORD_GOLDEN=1` rewrites them from
/// the current run (and fails, so a re-record is always a deliberate, reviewed change).
final class SamplesGoldenTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let samples = root.appendingPathComponent("samples")
  static let minimumsURL = samples.appendingPathComponent("golden-minimums.json")

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

  func testSamplesMeetTheirMinimums() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-golden-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: out) }
    let config = try Self.defaultPipeline(context: StageContext(outputDirectory: out, jobs: 2))
    let result = try RunJob(inputs: [Self.samples], config: config, outputDirectory: out, jobs: 2).run()

    let expected = try ExpectedRecords.load(from: Self.samples)
    XCTAssertFalse(expected.isEmpty, "samples/ has expected records")
    XCTAssertEqual(
      result.records.count, expected.count, "every sample photo has an expected record and a record")
    let report = try ExpectedRecords.compare(expected: expected, records: result.records)
    let counts = report.passCounts

    if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
      let data = try JSONSerialization.data(withJSONObject: counts, options: [.sortedKeys, .prettyPrinted])
      try data.write(to: Self.minimumsURL)
      XCTFail("RECORD_GOLDEN=1: rewrote \(Self.minimumsURL.path); review the diff and run again without it")
      return
    }
    let minimums =
      try JSONSerialization.jsonObject(with: Data(contentsOf: Self.minimumsURL)) as? [String: [String: Int]]
      ?? [:]
    var summary: [String] = []
    for folder in minimums.keys.sorted() {
      for field in minimums[folder]!.keys.sorted() {
        let minimum = minimums[folder]![field]!
        let actual = counts[folder]?[field] ?? 0
        let total = report.fields.filter { $0.folder == folder && $0.field == field }.count
        summary.append("\(folder) \(field): \(actual)/\(total) (minimum \(minimum))")
        XCTAssertGreaterThanOrEqual(actual, minimum, "\(folder) \(field) regressed: \(actual) < \(minimum)")
      }
    }
    print(summary.joined(separator: "\n"))
    for mismatch in report.mismatches.prefix(60) { print("  mismatch: \(mismatch)") }
  }
}
