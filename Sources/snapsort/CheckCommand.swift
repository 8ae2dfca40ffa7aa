import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract:
      "Compare a run's records with expected records; exit 1 on any regression or when nothing is compared.",
    discussion: """
      EXPECTED_DIR holds NAME.expected.json files beside (or mirroring) the photos; each lists \
      only the fields it checks. OUT_DIR is a run's output folder (its records.jsonl is read).

      Exit status: 0 every expected file matches, 1 a regression or nothing to compare (no \
      *.expected.json files), 2 a folder is missing or holds no records.jsonl.
      """)

  @Argument(help: "Folder with *.expected.json files.", completion: .directory)
  var expectedDirectory: String

  @Argument(help: "Output folder of a run (holding records.jsonl).", completion: .directory)
  var outDirectory: String

  func run() throws {
    let expected: [String: [String: Any]]
    let records: [Record]
    var isDirectory: ObjCBool = false
    for (role, path) in [("expected folder", expectedDirectory), ("output folder", outDirectory)] {
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
      else {
        Terminal.error("the \(role) \(path) does not exist or is not a folder")
        throw SnapsortExit.usage
      }
    }
    let recordsURL = URL(fileURLWithPath: outDirectory).appendingPathComponent("records.jsonl")
    guard FileManager.default.fileExists(atPath: recordsURL.path) else {
      Terminal.error("\(outDirectory) holds no records.jsonl: is it the --out folder of a `snapsort run`?")
      throw SnapsortExit.usage
    }
    do {
      expected = try ExpectedRecords.load(from: URL(fileURLWithPath: expectedDirectory))
      records = try RecordCoding.readLines(recordsURL)
    } catch {
      Terminal.error(Terminal.describe(error))
      throw SnapsortExit.usage
    }
    // A regression run that compares nothing must not pass.
    if expected.isEmpty {
      Terminal.error("no *\(ExpectedRecords.suffix) files under \(expectedDirectory): nothing was compared")
      throw SnapsortExit.someFailed
    }
    let report = try ExpectedRecords.compare(expected: expected, records: records)
    var byFile: [String: [ExpectedRecords.Mismatch]] = [:]
    for mismatch in report.mismatches { byFile[mismatch.file, default: []].append(mismatch) }
    for file in byFile.keys.sorted() {
      print("✗ \(file)")
      for mismatch in byFile[file]! {
        print("    \(mismatch.field): expected \(mismatch.expected), got \(mismatch.actual)")
      }
    }
    print(
      "\(report.checkedFiles - byFile.count) of \(report.checkedFiles) files match their expected records")
    if !report.passed || report.checkedFiles == 0 { throw SnapsortExit.someFailed }
  }
}
