import Foundation
import XCTest

final class RunCommandTests: XCTestCase {
  private var directory: URL!
  override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  func testExitCodesAndSummary() throws {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    // A tiny valid PNG (8×8 grey) written byte for byte, and a broken file.
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAADklEQVR4nGNogAIGyhgAgIQgAQ2AJGEAAAAASUVORK5CYII=")!
    try png.write(to: input.appendingPathComponent("ok.png"))
    let out = directory.appendingPathComponent("out")
    let good = try CLI.run(["run", input.path, "--out", out.path, "--jobs", "1"])
    XCTAssertEqual(good.status, 0, good.stderr)
    XCTAssertTrue(good.stderr.contains("1 images: 1 ok, 0 failed"), good.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))

    try Data("garbage".utf8).write(to: input.appendingPathComponent("bad.jpg"))
    let some = try CLI.run(["run", input.path, "--out", out.path])
    XCTAssertEqual(some.status, 1, some.stderr)
    let records = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    XCTAssertEqual(records.split(separator: "\n").count, 2)
    XCTAssertTrue(records.contains(#""stage":"load""#))
  }

  func testConfigErrorNamesTheKeyAndExitsTwo() throws {
    let config = directory.appendingPathComponent("bad.json")
    try Data(#"{"version": 1, "stages": [{"stage": "load", "max_pixel": 5}]}"#.utf8).write(to: config)
    let result = try CLI.run([
      "run", directory.path, "--config", config.path, "--out", directory.appendingPathComponent("o").path,
    ])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains("stages[0].max_pixel: unknown option"), result.stderr)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appendingPathComponent("o/records.jsonl").path))
  }

  func testUsageErrors() throws {
    XCTAssertEqual(try CLI.run(["run"]).status, 64, "no paths: ArgumentParser's usage status")
    XCTAssertEqual(try CLI.run(["run", ".", "--preset", "nope"]).status, 2)
    XCTAssertEqual(try CLI.run(["run", "/no/such/folder", "--out", directory.path]).status, 2)
  }

  func testCheckReportsPerFieldDiffs() throws {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAADklEQVR4nGNogAIGyhgAgIQgAQ2AJGEAAAAASUVORK5CYII=")!
    try png.write(to: input.appendingPathComponent("a.png"))
    try Data(#"{"status": "ok", "image": {"width": 8}}"#.utf8).write(
      to: input.appendingPathComponent("a.expected.json"))
    let out = directory.appendingPathComponent("out")
    XCTAssertEqual(try CLI.run(["run", input.path, "--out", out.path]).status, 0)
    let pass = try CLI.run(["check", input.path, out.path])
    XCTAssertEqual(pass.status, 0, pass.stdout)
    XCTAssertTrue(pass.stdout.contains("1 of 1 files match"))
    try Data(#"{"status": "ok", "image": {"width": 9}}"#.utf8).write(
      to: input.appendingPathComponent("a.expected.json"))
    let fail = try CLI.run(["check", input.path, out.path])
    XCTAssertEqual(fail.status, 1)
    XCTAssertTrue(fail.stdout.contains("image.width: expected 9, got 8"), fail.stdout)
  }
}
