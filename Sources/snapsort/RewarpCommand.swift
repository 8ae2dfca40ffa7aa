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
      again from where the run found it, warped with exactly those corners (their order is kept) \
      and run through the run's stages after warp (its config is the file OUT/run.json names, \
      unless --config or --preset names it); its record in OUT/records.jsonl is replaced when \
      the new one is an ok card record, else the old one stands.

      Refused before anything changes (exit 2): receipts, corners outside the image, not convex, \
      counter-clockwise or too small for a card, a config other than the run's. Exit 1: some \
      files kept their old records (the reasons are printed).
      """)

  @Argument(
    help: "JSON or CSV file with the corrected corners.", completion: .file(extensions: ["json", "csv"]))
  var cornersFile: String

  @Option(name: [.short, .long], help: "Output folder of the earlier run.")
  var out: String = "out"

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder the records' paths are relative to, if the photos moved.",
      discussion: "Default: the files and folders the run was given, from OUT/run.json."))
  var root: String?

  @OptionGroup var configChoice: ConfigChoice

  @Flag(name: .customLong("keep-card-numbers"), help: keepCardNumbersHelp)
  var keepCardNumbers = false

  func run() throws {
    let outputURL = URL(fileURLWithPath: out)
    guard let summary = RunSummary.read(in: outputURL) else {
      Terminal.error("\(out) holds no run.json: rewarp corrects a finished run's output")
      throw SnapsortExit.usage
    }
    let corrections: [Rewarp.Correction]
    let records: [Record]
    do {
      corrections = try Rewarp.corrections(from: Data(contentsOf: URL(fileURLWithPath: cornersFile)))
      records = try RecordCoding.readLines(outputURL.appendingPathComponent("records.jsonl"))
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
    }
    let pipeline = try config(of: summary, outputURL: outputURL)
    let roots = try inputRoots(of: summary)
    let sources = try photos(of: corrections, roots: roots, records: records)
    let outcome = try rewarp(
      corrections, records: records, sources: sources, pipeline: pipeline, outputURL: outputURL)
    if !outcome.replaced.isEmpty { try write(outcome, summary: summary, roots: roots, to: outputURL) }
    for (file, reason) in outcome.kept { Terminal.error("kept the old record of \(file): \(reason)") }
    Terminal.info(
      "re-warped \(outcome.replaced.count) of \(corrections.count) files → "
        + outputURL.appendingPathComponent("records.jsonl").path)
    if !outcome.kept.isEmpty { throw SnapsortExit.someFailed }
  }

  /// The run's own config: the one named with --config or --preset, else the file run.json
  /// names; either way it must be the config that made the output (same hash), since the new
  /// records stand among the run's.
  private func config(of summary: RunSummary, outputURL: URL) throws -> PipelineConfig {
    let url = try configChoice.resolve(forRunOf: summary)
    let pipeline: PipelineConfig
    do {
      pipeline = try PipelineConfig.load(
        from: url, context: StageContext(outputDirectory: outputURL, keepCardNumbers: keepCardNumbers))
    } catch {
      Terminal.error("config error in \(url.path): \(error)")
      throw SnapsortExit.usage
    }
    guard pipeline.hash == summary.configHash else {
      Terminal.error(
        "\(out) was made with another config (\(summary.config ?? "not named in run.json")) than \(url.path): "
          + "pass the run's own with --config or --preset")
      throw SnapsortExit.usage
    }
    return pipeline
  }

  /// --root, else the paths run.json says the run was given.
  private func inputRoots(of summary: RunSummary) throws -> [URL] {
    if let root { return [URL(fileURLWithPath: root)] }
    guard let paths = summary.inputPaths, !paths.isEmpty else {
      Terminal.error(
        "\(out)/run.json does not say which folder the run was given (an older snapsort wrote it): "
          + "pass that folder with --root")
      throw SnapsortExit.usage
    }
    return paths.map { URL(fileURLWithPath: $0) }
  }

  /// Each corrected file's photo. The corrections' problems and the photos not found are all
  /// reported at once, and then nothing is touched (exit 2).
  private func photos(
    of corrections: [Rewarp.Correction], roots: [URL], records: [Record]
  ) throws -> [String: URL] {
    var sources: [String: URL] = [:]
    var problems = Rewarp.problems(corrections, records: records)
    for file in corrections.map(\.file) {
      let url = InputScanner.url(of: file, roots: roots)
      if let url, FileManager.default.fileExists(atPath: url.path) {
        sources[file] = url
        continue
      }
      let place =
        url.map { "no photo at \($0.path)" } ?? "not under \(roots.map(\.path).joined(separator: ", "))"
      let hint = root == nil ? " (where the run found it; if the photos moved, pass --root FOLDER)" : ""
      problems.append("\(file): \(place)\(hint)")
    }
    guard problems.isEmpty else {
      for problem in problems { Terminal.error(problem) }
      throw SnapsortExit.usage
    }
    return sources
  }

  private func rewarp(
    _ corrections: [Rewarp.Correction], records: [Record], sources: [String: URL], pipeline: PipelineConfig,
    outputURL: URL
  ) throws -> Rewarp.Outcome {
    do {
      return try Rewarp.run(
        corrections, records: records, sources: sources, config: pipeline, outputDirectory: outputURL)
    } catch let error as Rewarp.Failure {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    } catch let error as PipelineSetupError {
      Terminal.error("cannot start the pipeline: \(error)")
      throw SnapsortExit.missingDependency
    } catch {
      Terminal.error("cannot write to the output folder \(out): \(Terminal.describe(error))")
      throw SnapsortExit.outputNotWritable
    }
  }

  /// records.jsonl, run.json's counts, and the store and report derived from them, in step.
  private func write(_ outcome: Rewarp.Outcome, summary: RunSummary, roots: [URL], to outputURL: URL) throws {
    do {
      try RewarpOutputs.write(outcome, summary: summary, roots: roots, to: outputURL)
    } catch {
      Terminal.error("cannot write to the output folder \(out): \(Terminal.describe(error))")
      throw SnapsortExit.outputNotWritable
    }
  }
}
