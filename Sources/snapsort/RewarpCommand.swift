import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct RewarpCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rewarp",
    abstract: "Re-run some files from the warp on with corrected card corners.",
    discussion: """
      CORNERS_FILE gives, per file, the card's four corners clockwise from its own top-left, in \
      the pixels of the orientation-corrected image: JSON ([{"file": "a.jpg", "quad": [[x, y], \
      …]}] or {"a.jpg": [[x, y], …]}) or CSV (file,x1,y1,x2,y2,x3,y3,x4,y4). Each file is loaded \
      again from --root, warped with exactly those corners (their order is kept) and run through \
      the stages after warp; its record in OUT/records.jsonl is replaced, the others are kept.
      """)

  @Argument(
    help: "JSON or CSV file with the corrected corners.", completion: .file(extensions: ["json", "csv"]))
  var cornersFile: String

  @Option(name: [.short, .long], help: "Output folder of the earlier run.")
  var out: String = "out"

  @Option(name: .long, help: "The folder the earlier run was given (records' paths are relative to it).")
  var root: String = "."

  @OptionGroup var configChoice: ConfigChoice

  @Flag(name: .customLong("keep-card-numbers"), help: keepCardNumbersHelp)
  var keepCardNumbers = false

  func run() throws {
    let outputURL = URL(fileURLWithPath: out)
    let recordsURL = outputURL.appendingPathComponent("records.jsonl")
    let configURL = try configChoice.resolve()
    let corrections: [Rewarp.Correction]
    let records: [Record]
    let pipeline: PipelineConfig
    do {
      corrections = try Rewarp.corrections(from: Data(contentsOf: URL(fileURLWithPath: cornersFile)))
      records = try RecordCoding.readLines(recordsURL)
      pipeline = try PipelineConfig.load(
        from: configURL, context: StageContext(outputDirectory: outputURL, keepCardNumbers: keepCardNumbers))
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
    }
    let updated: [Record]
    do {
      updated = try Rewarp.run(
        corrections, records: records, root: URL(fileURLWithPath: root), config: pipeline,
        outputDirectory: outputURL)
    } catch let error as Rewarp.Failure {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
    try RunOutputs.writeRecords(updated, to: outputURL)
    // The store and the report are derived from the records: keep them in step with the new crops.
    if let data = try? Data(contentsOf: outputURL.appendingPathComponent("run.json")),
      let summary = try? JSONDecoder().decode(RunSummary.self, from: data)
    {
      let rootURL = URL(fileURLWithPath: root)
      try RunOutputs.writeDerived(
        records: updated, summary: summary, to: outputURL,
        sources: Dictionary(
          uniqueKeysWithValues: updated.map { ($0.file, rootURL.appendingPathComponent($0.file)) }))
    }
    let files = Set(corrections.map(\.file))
    let failed = updated.filter { files.contains($0.file) && $0.status == .error }
    Terminal.info("re-warped \(corrections.count) files (\(failed.count) failed) → \(recordsURL.path)")
    if !failed.isEmpty { throw SnapsortExit.someFailed }
  }
}
