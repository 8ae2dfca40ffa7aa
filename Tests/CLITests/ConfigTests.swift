import Foundation
import XCTest

/// Where `snapsort` finds `pipeline.json` and its presets (issue #22, finding 11): a binary
/// copied elsewhere keeps the presets its `--help` lists.
final class ConfigTests: XCTestCase {
  private var directory: URL!
  override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  static let configFiles = [
    "pipeline.json", "presets/cards.json", "presets/receipts.json", "presets/screenshots.json",
  ]

  /// `Sources/snapsort/BundledConfigs.swift` as generated from the files.
  static func generatedSource() throws -> String {
    var source = """
      // Generated from presets/*.json and pipeline.json: do not edit by hand. `ConfigTests` checks
      // that it matches the files; regenerate with `RECORD_SNAPSHOTS=1 swift test --filter ConfigTests`.

      /// The presets and the default pipeline compiled into the binary, the last place
      /// `ConfigLocator` looks, so a `snapsort` copied anywhere still has them.
      enum BundledConfigs {
        static let files: [String: String] = [

      """
    for name in configFiles {
      let text = try String(contentsOf: CLI.root.appendingPathComponent(name), encoding: .utf8)
      XCTAssertFalse(text.contains("\"\"\"#"), name)
      // Indented as `swift format` indents a multi-line literal (blank lines stay empty); the
      // closing delimiter's indentation is stripped, so the value is the file's text.
      let body = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.isEmpty ? "" : "    " + $0
      }.joined(separator: "\n")
      source += "    \"\(name)\": #\"\"\"\n\(body)\n    \"\"\"#,\n"
    }
    return source + "  ]\n}\n"
  }

  func testBundledConfigsMatchTheFiles() throws {
    let url = CLI.root.appendingPathComponent("Sources/snapsort/BundledConfigs.swift")
    let expected = try Self.generatedSource()
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try expected.write(to: url, atomically: true, encoding: .utf8)
      XCTFail("RECORD_SNAPSHOTS=1: BundledConfigs.swift regenerated; rebuild and run again without it")
      return
    }
    XCTAssertEqual(
      try String(contentsOf: url, encoding: .utf8), expected, "regenerate with RECORD_SNAPSHOTS=1")
  }

  func tinyInput() throws -> URL {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAADklEQVR4nGNogAIGyhgAgIQgAQ2AJGEAAAAASUVORK5CYII=")!
    try png.write(to: input.appendingPathComponent("a.png"))
    return input
  }

  func configUsed(_ out: URL) throws -> String {
    let data = try Data(contentsOf: out.appendingPathComponent("run.json"))
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try XCTUnwrap(json["config"] as? String)
  }

  func testACopiedBinaryKeepsItsPresets() throws {
    let input = try tinyInput()
    let bin = directory.appendingPathComponent("elsewhere/bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let copy = bin.appendingPathComponent("snapsort")
    try FileManager.default.copyItem(at: CLI.executable, to: copy)

    // Compiled in: found with no presets folder anywhere near.
    for preset in ["cards", "receipts", "screenshots"] {
      let out = directory.appendingPathComponent("out-\(preset)")
      let result = try CLI.run(
        ["run", input.path, "--preset", preset, "--out", out.path, "--quiet"], in: directory, executable: copy
      )
      // Found and run (an 8×8 image may fail as a receipt: exit 1, not the usage exit 2).
      XCTAssertTrue([0, 1].contains(result.status), "\(preset): \(result.stderr)")
      XCTAssertTrue(try configUsed(out).hasSuffix("presets/\(preset).json"))
    }
    let unknown = try CLI.run(["run", input.path, "--preset", "nope"], in: directory, executable: copy)
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.stderr.contains("known: cards, receipts, screenshots"), unknown.stderr)
    let plain = try CLI.run(
      ["run", input.path, "--out", directory.appendingPathComponent("out-default").path, "--quiet"],
      in: directory, executable: copy)
    XCTAssertTrue([0, 1].contains(plain.status), plain.stderr)

    // An installed share folder: ../share/snapsort/presets from the binary.
    let share = directory.appendingPathComponent("elsewhere/share/snapsort/presets")
    try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent("presets/cards.json"),
      to: share.appendingPathComponent("cards.json"))
    let out = directory.appendingPathComponent("out-share")
    let shared = try CLI.run(
      ["run", input.path, "--preset", "cards", "--out", out.path, "--quiet"], in: directory, executable: copy)
    XCTAssertEqual(shared.status, 0, shared.stderr)
    XCTAssertEqual(
      URL(fileURLWithPath: try configUsed(out)).resolvingSymlinksInPath().path,
      share.appendingPathComponent("cards.json").resolvingSymlinksInPath().path)
  }
}
