import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class PipelineConfigTests: XCTestCase {
  /// A bundled file's name found in the working folder does not replace the bundled file (a stray
  /// `kind-model.json` where snapsort runs); any other name is still found there.
  func testBundledFilesWinOverTheWorkingFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let previous = FileManager.default.currentDirectoryPath
    defer {
      _ = FileManager.default.changeCurrentDirectoryPath(previous)
      try? FileManager.default.removeItem(at: folder)
    }
    try Data("not a model".utf8).write(to: folder.appendingPathComponent(KindModel.bundledFileName))
    try Data("{}".utf8).write(to: folder.appendingPathComponent("my-model.json"))
    XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
    let context = StageContext()
    XCTAssertNoThrow(try KindModel.load(from: context.resolve(KindModel.bundledFileName)))
    XCTAssertEqual(
      context.resolve("my-model.json").resolvingSymlinksInPath().path,
      folder.appendingPathComponent("my-model.json").resolvingSymlinksInPath().path)
  }

  private func parse(_ json: String) throws -> PipelineConfig {
    try PipelineConfig.parse(Data(json.utf8), context: StageContext())
  }

  private func assertConfigError(
    _ json: String, path: String, contains text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try parse(json), file: file, line: line) { error in
      guard let error = error as? ConfigError else {
        return XCTFail("\(error) is not a ConfigError", file: file, line: line)
      }
      XCTAssertEqual(error.path, path, file: file, line: line)
      XCTAssertTrue(
        error.message.contains(text), "“\(error.message)” lacks “\(text)”", file: file, line: line)
    }
  }

  func testDefaultsFillMissingOptions() throws {
    let config = try parse(
      #"{"version": 1, "stages": [{"stage": "load", "max_pixels": 5000}, {"stage": "barcode"}]}"#)
    XCTAssertEqual(config.steps.map(\.name), ["load", "barcode"])
    XCTAssertTrue(config.steps[0].optionsJSON.contains(#""max_pixels":5000"#))
    XCTAssertTrue(config.steps[0].optionsJSON.contains(#""analysis_max_side":1600"#))
  }

  func testErrorsNameTheKeyPath() {
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "bar_code"}]}"#,
      path: "stages[1].stage", contains: "unknown stage \"bar_code\"")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load", "max_pixel": 5}]}"#,
      path: "stages[0].max_pixel", contains: "unknown option")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load", "max_pixels": "lots"}]}"#,
      path: "stages[0].max_pixels", contains: "expected an integer")
    assertConfigError(
      #"{"version": 2, "stages": [{"stage": "load"}]}"#, path: "version", contains: "unsupported version 2")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}], "stagse": []}"#, path: "stagse", contains: "unknown key"
    )
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "barcode"}]}"#, path: "stages[0].stage",
      contains: "\"barcode\" needs the decoded image, which \"load\" writes: put it before")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load", "analysis_max_side": 10}]}"#,
      path: "stages[0].analysis_max_side", contains: "at least 64")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "barcode", "when": "cards"}]}"#,
      path: "stages[1].when", contains: "kind")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "barcode", "fallback_skip_crop_density": 20}]}"#,
      path: "stages[1].fallback_skip_crop_density", contains: "0 (never skip) to 16")
    assertConfigError("{not json", path: "", contains: "not valid JSON")
  }

  func testHashDependsOnEffectiveOptionsOnly() throws {
    let implicit = try parse(#"{"version": 1, "stages": [{"stage": "load"}]}"#)
    let explicit = try parse(
      #"{"version": 1, "description": "x", "stages": [{"stage": "load", "max_pixels": 100000000}]}"#)
    let changed = try parse(#"{"version": 1, "stages": [{"stage": "load", "max_pixels": 1}]}"#)
    XCTAssertEqual(implicit.hash, explicit.hash)
    XCTAssertNotEqual(implicit.hash, changed.hash)
  }

  /// Crops differ with `--keep-card-numbers`: a run with it is not resumed from one without.
  func testKeepingCardNumbersIsPartOfTheHash() throws {
    let json = Data(#"{"version": 1, "stages": [{"stage": "load"}]}"#.utf8)
    let painted = try PipelineConfig.parse(json, context: StageContext())
    let kept = try PipelineConfig.parse(json, context: StageContext(keepCardNumbers: true))
    XCTAssertFalse(painted.keepCardNumbers)
    XCTAssertTrue(kept.keepCardNumbers)
    XCTAssertNotEqual(painted.hash, kept.hash)
  }

  func testShippedConfigsAreValid() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var files = [root.appendingPathComponent("pipeline.json")]
    let presets = root.appendingPathComponent("presets")
    for name in try FileManager.default.contentsOfDirectory(atPath: presets.path)
    where name.hasSuffix(".json") {
      files.append(presets.appendingPathComponent(name))
    }
    XCTAssertGreaterThanOrEqual(
      files.count, 4, "pipeline.json and the cards, receipts and screenshots presets")
    for file in files {
      XCTAssertNoThrow(try PipelineConfig.load(from: file, context: StageContext()), file.lastPathComponent)
    }
  }

  /// The order is checked from what stages declare they need and produce.
  func testImpossibleOrdersAreRefusedFromTheDeclarations() {
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "warp"}, {"stage": "detect_card"}]}"#,
      path: "stages[1].stage", contains: "\"warp\" needs the card's corners, which \"detect_card\" writes")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "load"}]}"#,
      path: "stages[1].stage", contains: "which \"load\" has written already")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "detect_card", "when": "card"}, {"stage": "warp"}]}"#,
      path: "stages[2].when", contains: "\"warp\" runs for photos that \"detect_card\" skips")
    assertConfigError(
      #"{"version": 1, "stages": [{"stage": "issuer"}]}"#, path: "stages", contains: "put \"load\" first")
  }
}
