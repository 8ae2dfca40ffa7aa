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
    XCTAssertEqual(try CLI.run(["run"]).status, 2, "no paths: a usage error")
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

  /// Issue #22, finding 5: a regression run that compares nothing must not pass, and a missing
  /// folder is a sentence, not an NSError.
  func testCheckThatComparesNothingFails() throws {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAADklEQVR4nGNogAIGyhgAgIQgAQ2AJGEAAAAASUVORK5CYII=")!
    try png.write(to: input.appendingPathComponent("a.png"))
    let out = directory.appendingPathComponent("out")
    XCTAssertEqual(try CLI.run(["run", input.path, "--out", out.path]).status, 0)

    let nothing = try CLI.run(["check", input.path, out.path])
    XCTAssertEqual(nothing.status, 1, nothing.stdout + nothing.stderr)
    XCTAssertTrue(nothing.stderr.contains("nothing was compared"), nothing.stderr)
    XCTAssertFalse(nothing.stdout.contains("0 of 0"), nothing.stdout)

    let noExpected = try CLI.run(["check", "/nonexistent", out.path])
    XCTAssertNotEqual(noExpected.status, 0)
    XCTAssertTrue(noExpected.stderr.contains("/nonexistent does not exist"), noExpected.stderr)

    try Data(#"{"status": "ok"}"#.utf8).write(to: input.appendingPathComponent("a.expected.json"))
    let noOut = try CLI.run(["check", input.path, "/nonexistent"])
    XCTAssertNotEqual(noOut.status, 0)
    XCTAssertFalse(
      noOut.stderr.contains("NSCocoaErrorDomain") || noOut.stderr.contains("Error Domain"), noOut.stderr)
    XCTAssertTrue(noOut.stderr.contains("/nonexistent does not exist"), noOut.stderr)
    let notARun = try CLI.run(["check", input.path, input.path])
    XCTAssertNotEqual(notARun.status, 0)
    XCTAssertTrue(notARun.stderr.contains("no records.jsonl"), notARun.stderr)
  }

  /// Issue #22, finding 6: every argument the parser rejects exits 2, as the README and
  /// `run --help` say (not ArgumentParser's 64), with the message and usage on stderr.
  func testEveryUsageErrorExitsTwo() throws {
    let cases: [[String]] = [
      ["run", ".", "--shard", "5/4"], ["run", ".", "--shard", "abc"], ["run", ".", "-j", "0"],
      ["run", ".", "--config", CLI.root.appendingPathComponent("pipeline.json").path, "--preset", "cards"],
      ["run"],
      ["search", "x", "--kind", "receipts"], ["search", "x", "--no-such-option"], ["tag", "a.jpg"],
      ["export", "catima"], ["check", "only-one"], ["no-such-command"],
    ]
    for arguments in cases {
      let result = try CLI.run(arguments, in: directory)
      XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("Error:") || result.stderr.contains("Usage:"), "\(arguments): \(result.stderr)"
      )
      XCTAssertEqual(result.stdout, "", "\(arguments)")
    }
    XCTAssertEqual(try CLI.run(["run", "--help"]).status, 0)
    XCTAssertEqual(try CLI.run(["--version"]).status, 0)
  }

  /// Issue #22, finding 14: sentences instead of NSError text, no output folder for a missing
  /// input, and eval-barcodes refuses to report zeros over nothing.
  func testErrorsAreSentencesAndNothingIsCreatedForAMissingInput() throws {
    let file = directory.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    let underFile = try CLI.run(["run", directory.path, "--out", file.appendingPathComponent("out").path])
    XCTAssertEqual(underFile.status, 4, underFile.stderr)
    XCTAssertTrue(underFile.stderr.contains("\(file.path) is a file, not a folder"), underFile.stderr)
    XCTAssertFalse(underFile.stderr.contains("NSCocoaErrorDomain") || underFile.stderr.contains("(null)"))

    let out = directory.appendingPathComponent("never")
    let missing = try CLI.run([
      "run", directory.appendingPathComponent("no-such-folder").path, "--out", out.path,
    ])
    XCTAssertEqual(missing.status, 2, missing.stderr)
    XCTAssertTrue(missing.stderr.contains("no such file or folder"), missing.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no empty --out for a missing input")

    let empty = directory.appendingPathComponent("no-labels")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let eval = try CLI.run(["eval-barcodes", empty.path, "--no-baselines"])
    XCTAssertEqual(eval.status, 1)
    XCTAssertTrue(eval.stderr.contains("no labelled images under"), eval.stderr)
    XCTAssertEqual(eval.stdout, "")
  }

  /// Issue #22, finding 14: a second Ctrl-C quits at once but still writes records.jsonl with
  /// the photos finished so far, and exits 130.
  func testSecondInterruptStillWritesWhatIsDone() throws {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for index in 1...6 {
      let name = String(format: "card-%02d", index)
      guard
        let source = try FileManager.default.contentsOfDirectory(
          at: CLI.root.appendingPathComponent("samples/cards"), includingPropertiesForKeys: nil
        ).first(where: { $0.lastPathComponent.hasPrefix(name) && $0.pathExtension == "jpg" })
      else { continue }
      try FileManager.default.copyItem(at: source, to: input.appendingPathComponent(source.lastPathComponent))
    }
    let out = directory.appendingPathComponent("out")
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["run", input.path, "--out", out.path, "--jobs", "1", "--quiet"]
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    process.environment = environment
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait for the first finished photo in the journal, then interrupt twice.
    let journal = out.appendingPathComponent(".snapsort/journal.jsonl")
    let deadline = Date().addingTimeInterval(300)
    while Date() < deadline, process.isRunning,
      ((try? Data(contentsOf: journal))?.filter { $0 == UInt8(ascii: "\n") }.count ?? 0) < 1
    {
      usleep(50_000)
    }
    kill(process.processIdentifier, SIGINT)
    usleep(300_000)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 130)
    let records = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    let lines = records.split(separator: "\n")
    XCTAssertGreaterThanOrEqual(lines.count, 1)
    XCTAssertLessThan(lines.count, 6, "interrupted before the end")
  }
}
