import Foundation
import XCTest

/// `--help` of every command compared word for word with committed snapshots: the help text is
/// the spec. `RECORD_SNAPSHOTS=1` re-records them (and fails, so the diff gets reviewed).
final class HelpSnapshotTests: XCTestCase {
  static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Snapshots")

  func testHelpMatchesSnapshots() throws {
    let top = try CLI.run(["--help"])
    XCTAssertEqual(top.status, 0)
    var commands = [[String]()]
    // Subcommands are listed under SUBCOMMANDS: one per line, indented by two spaces.
    if let range = top.stdout.range(of: "SUBCOMMANDS:") {
      let section = top.stdout[range.upperBound...].components(separatedBy: "\n\n").first ?? ""
      for line in section.split(separator: "\n") {
        guard line.hasPrefix("  "), let name = line.split(separator: " ").first, !line.hasPrefix("   ") else {
          continue
        }
        commands.append([String(name)])
      }
    }
    XCTAssertTrue(
      commands.contains(["run"]) && commands.contains(["check"]) && commands.contains(["list-stages"]))
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    for command in commands {
      let result = try CLI.run(command + ["--help"])
      XCTAssertEqual(result.status, 0, "\(command) --help")
      let name = (["snapsort"] + command).joined(separator: "-") + ".help.txt"
      let url = Self.snapshots.appendingPathComponent(name)
      if record {
        try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
        try result.stdout.write(to: url, atomically: true, encoding: .utf8)
        continue
      }
      let expected = try? String(contentsOf: url, encoding: .utf8)
      XCTAssertEqual(
        result.stdout, expected, "\(name) differs; re-record with RECORD_SNAPSHOTS=1 if deliberate")
    }
    if record {
      XCTFail("RECORD_SNAPSHOTS=1: snapshots re-recorded; review the diff and run again without it")
    }
  }
}
