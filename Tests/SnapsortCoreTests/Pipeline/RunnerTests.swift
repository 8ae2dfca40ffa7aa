import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// A test-only stage that fails on files whose name contains "fail".
final class FailOnNameStage: Stage {
  static let name = "fail_on_name"
  static let summary = "test only: fails photos whose name contains \"fail\""
  static let needs: [any Artifact.Type] = []
  static let produces: [any Artifact.Type] = []
  struct Options: StageOptions { init() {} }
  init(options: Options, context: StageContext) throws {}
  func process(_ item: PhotoItem) throws {
    if item.relativePath.contains("fail") { throw StageFailure("injected failure") }
  }
}

/// A test-only stage that takes a while, to exercise the per-image time limit.
final class SleepStage: Stage {
  static let name = "sleep"
  static let summary = "test only: sleeps"
  static let needs: [any Artifact.Type] = []
  static let produces: [any Artifact.Type] = []
  struct Options: StageOptions { var milliseconds = 50; init() {} }
  let options: Options
  init(options: Options, context: StageContext) throws { self.options = options }
  func process(_ item: PhotoItem) throws {
    Thread.sleep(forTimeInterval: Double(options.milliseconds) / 1000)
  }
}

final class RunnerTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws { directory = try TestImages.temporaryDirectory() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  private func config(_ json: String) throws -> PipelineConfig {
    try PipelineConfig.parse(
      Data(json.utf8), context: StageContext(),
      registry: StageRegistry.all + [FailOnNameStage.self, SleepStage.self])
  }

  private func makeInputs() throws -> URL {
    let input = directory.appendingPathComponent("in")
    let nested = input.appendingPathComponent("deep/er")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    let png = try ImageEncoder.png(TestImages.quadrants())
    for name in ["a.png", "fail-me.png", "deep/er/b with space.png", "zz.png", ".hidden.png"] {
      try png.write(to: input.appendingPathComponent(name))
    }
    try Data("not an image".utf8).write(to: input.appendingPathComponent("README.md"))
    try Data("{}".utf8).write(to: input.appendingPathComponent("a.json"))
    try Data().write(to: input.appendingPathComponent("empty.jpg"))
    return input
  }

  func testOneFailingPhotoDoesNotSinkTheBatch() throws {
    let input = try makeInputs()
    let pipeline = try config(
      #"{"version": 1, "kind": "card", "stages": [{"stage": "load"}, {"stage": "fail_on_name"}, {"stage": "barcode"}]}"#
    )
    let out = directory.appendingPathComponent("out")
    let result = try RunJob(inputs: [input], config: pipeline, outputDirectory: out, jobs: 2).run()
    XCTAssertEqual(
      result.records.map(\.file), ["a.png", "deep/er/b with space.png", "empty.jpg", "fail-me.png", "zz.png"])
    let failed = result.records.filter { $0.status == .error }
    XCTAssertEqual(failed.map(\.file), ["empty.jpg", "fail-me.png"])
    XCTAssertEqual(failed.map { $0.error?.stage }, ["load", "fail_on_name"])
    XCTAssertEqual(result.summary.counts.skipped, 2, "README.md and a.json are skipped, not recorded")
    XCTAssertEqual(result.summary.counts.ok, 3)
    XCTAssertNotNil(result.summary.stages["load"]?.p50Ms)
    let lines = try String(contentsOf: result.recordsURL, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 5)
  }

  func testTwoRunsAreByteIdentical() throws {
    let input = try makeInputs()
    let pipeline = try config(
      #"{"version": 1, "kind": "card", "stages": [{"stage": "load"}, {"stage": "barcode"}]}"#)
    let first = try RunJob(
      inputs: [input], config: pipeline, outputDirectory: directory.appendingPathComponent("o1"), jobs: 2
    ).run()
    let second = try RunJob(
      inputs: [input], config: pipeline, outputDirectory: directory.appendingPathComponent("o2"), jobs: 1
    ).run()
    XCTAssertEqual(try Data(contentsOf: first.recordsURL), try Data(contentsOf: second.recordsURL))
  }

  func testTimeLimitStopsLaterStagesWithAClearError() throws {
    let input = try makeInputs()
    let pipeline = try config(
      #"{"version": 1, "limits": {"seconds_per_image": 0.02}, "stages": [{"stage": "load"}, {"stage": "sleep"}, {"stage": "barcode"}]}"#
    )
    let result = try RunJob(
      inputs: [input], config: pipeline, outputDirectory: directory.appendingPathComponent("o"), jobs: 2
    ).run()
    let record = try XCTUnwrap(result.records.first { $0.file == "a.png" })
    XCTAssertEqual(record.status, .error)
    XCTAssertEqual(record.error?.stage, "barcode")
    XCTAssertEqual(record.error?.message.contains("limits.seconds_per_image"), true)
    XCTAssertNotNil(record.image, "what earlier stages found stays in the record")
    XCTAssertThrowsError(
      try config(#"{"version": 1, "limits": {"seconds_per_image": -1}, "stages": [{"stage": "load"}]}"#))
  }

  func testWhenSkipsStagesForOtherKinds() throws {
    let input = try makeInputs()
    let pipeline = try config(
      #"{"version": 1, "kind": "receipt", "stages": [{"stage": "load"}, {"stage": "fail_on_name", "when": "card"}]}"#
    )
    let result = try RunJob(
      inputs: [input], config: pipeline, outputDirectory: directory.appendingPathComponent("o"), jobs: 1
    ).run()
    XCTAssertEqual(result.records.first { $0.file == "fail-me.png" }?.status, .ok)
  }
}

final class MemoryBudgetTests: XCTestCase {
  func testSizesInBinaryUnitsWithOrWithoutB() throws {
    XCTAssertEqual(try MemoryBudget(parsing: "300M").bytes, 300 * 1_048_576)
    XCTAssertEqual(try MemoryBudget(parsing: "300mb").bytes, 300 * 1_048_576)
    XCTAssertEqual(try MemoryBudget(parsing: " 300 MiB ").bytes, 300 * 1_048_576)
    XCTAssertEqual(try MemoryBudget(parsing: "300").bytes, 300 * 1_048_576)
    XCTAssertEqual(try MemoryBudget(parsing: "1.5G").bytes, 1536 * 1_048_576)
    XCTAssertEqual(try MemoryBudget(parsing: "800k").bytes, 800 * 1024)
  }

  func testWhatIsNoSizeIsRefused() {
    for text in ["", "M", "300X", "-3M", "0", "1.2.3G", "300 MBB"] {
      XCTAssertThrowsError(try MemoryBudget(parsing: text), text)
    }
  }

  func testTheProcessKnowsItsResidentAndPeakMemory() throws {
    let resident = try XCTUnwrap(MemoryBudget.residentBytes())
    let peak = try XCTUnwrap(MemoryBudget.peakResidentBytes())
    XCTAssertGreaterThan(resident, 1_048_576)
    XCTAssertGreaterThanOrEqual(peak, resident / 2)
  }
}
