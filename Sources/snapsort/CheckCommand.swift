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
    abstract: "Compare a run's records with expected records; exit 1 on any regression.",
    discussion: """
      EXPECTED_DIR holds NAME.expected.json files beside (or mirroring) the photos; each lists \
      only the fields it checks. OUT_DIR is a run's output folder (its records.jsonl is read).
      """)

  @Argument(help: "Folder with *.expected.json files.", completion: .directory)
  var expectedDirectory: String

  @Argument(help: "Output folder of a run (holding records.jsonl).", completion: .directory)
  var outDirectory: String

  func run() throws {
    let expected: [String: [String: Any]]
    let records: [Record]
    do {
      expected = try ExpectedRecords.load(from: URL(fileURLWithPath: expectedDirectory))
      records = try RecordCoding.readLines(
        URL(fileURLWithPath: outDirectory).appendingPathComponent("records.jsonl"))
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
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
    if !report.passed { throw SnapsortExit.someFailed }
  }
}
