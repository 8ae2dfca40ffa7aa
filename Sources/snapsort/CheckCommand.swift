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

      With --corrections, EXPECTED_DIR is instead a run someone reviewed (`snapsort review`): \
      every record with corrected fields expects its kind and those fields (corners within 2 % of \
      the card's longer side), so a real folder checked by hand becomes a regression set.

      Exit status: 0 every expected file matches, 1 a regression or nothing to compare (no \
      *.expected.json files, no corrections), 2 a folder is missing or holds no records.jsonl.
      """)

  @Argument(
    help: "Folder with *.expected.json files (with --corrections: a reviewed run's output folder).",
    completion: .directory)
  var expectedDirectory: String

  @Argument(help: "Output folder of a run (holding records.jsonl).", completion: .directory)
  var outDirectory: String

  @Flag(name: .long, help: "Take the expected values from the corrections in EXPECTED_DIR's store.")
  var corrections = false

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
      expected = try loadExpected()
      records = try RecordCoding.readLines(recordsURL)
    } catch {
      Terminal.error(Terminal.describe(error))
      throw SnapsortExit.usage
    }
    // A regression run that compares nothing must not pass.
    if expected.isEmpty {
      Terminal.error(
        corrections
          ? "\(expectedDirectory) holds no corrected records: nothing was compared"
          : "no *\(ExpectedRecords.suffix) files under \(expectedDirectory): nothing was compared")
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

  /// The expected files, or with `--corrections` the reviewed store's corrected fields.
  private func loadExpected() throws -> [String: [String: Any]] {
    guard corrections else { return try ExpectedRecords.load(from: URL(fileURLWithPath: expectedDirectory)) }
    let store = try RecordStore(
      url: URL(fileURLWithPath: expectedDirectory).appendingPathComponent(RecordStore.fileName))
    return try ExpectedRecords.fromCorrections(try store.correctedEntries())
  }
}
