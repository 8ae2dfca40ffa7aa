import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Process photos into records.jsonl, run.json and card crops.",
    discussion: """
      Walks the given files and folders (recursively, sorted, folders whatever their names, \
      hidden entries skipped), runs the pipeline on every image and writes one record per image \
      to OUT/records.jsonl, sorted by path. Every other entry (a file that is not an image, a \
      pipe, socket or device, a link loop) is skipped and counted with its reason in \
      OUT/run.json.

      Exit status: 0 all ok, 1 some files failed (the output is still complete), 2 bad \
      arguments or config, 3 missing dependency, 4 output not writable, 70 internal error, \
      130 interrupted.
      """
  )

  @Argument(help: "Image files or folders to process.", completion: .file())
  var paths: [String]

  @OptionGroup var configChoice: ConfigChoice

  @Option(name: [.short, .long], help: "Output folder.")
  var out: String = "out"

  @Option(name: [.short, .long], help: "Photos processed at once (default: the number of cores).")
  var jobs: Int?

  @Option(
    name: .customLong("max-memory"),
    help: ArgumentHelp(
      "Peak memory to stay under, e.g. 300M or 1.5G: past it, fewer photos run at once.",
      discussion:
        "Each worker holds its own OCR engines and one photo. When the run's peak memory passes the budget, a worker stops after its photo (its engines are freed) with a warning, and another each time the peak grows past it again, down to one; run.json's jobs_reduced lists them."
    ))
  var maxMemory: String?

  @Flag(name: .long, help: "Print no progress, only the summary line.")
  var quiet = false

  @Flag(
    name: .long,
    help: ArgumentHelp(
      "Process every file again, replacing the records of an earlier run in the output folder.",
      discussion:
        "Without it a rerun reuses the records of the same config and refuses an output of another config."
    ))
  var fresh = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Process only shard I of N (e.g. 0/4), chosen by a stable hash of each file's path.",
      discussion:
        "Without it, SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX (with --shards) select the shard."
    ))
  var shard: String?

  @Option(name: .long, help: "Shard count for JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs).")
  var shards: Int?

  @Flag(name: .customLong("keep-card-numbers"), help: keepCardNumbersHelp)
  var keepCardNumbers = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    if paths.isEmpty { throw ValidationError("Give at least one file or folder to process.") }
    if let shard {
      do { _ = try ShardSelection(parsing: shard) } catch { throw ValidationError("\(error)") }
    }
    if let shards, shards < 1 { throw ValidationError("--shards must be at least 1.") }
    if let maxMemory {
      do { _ = try MemoryBudget(parsing: maxMemory) } catch {
        throw ValidationError("--max-memory: \(error)")
      }
    }
  }

  func run() throws {
    let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    let configURL = try resolveConfig()
    let outputURL = URL(fileURLWithPath: out)
    let pipeline: PipelineConfig
    do {
      pipeline = try PipelineConfig.load(
        from: configURL,
        context: StageContext(outputDirectory: outputURL, jobs: jobs, keepCardNumbers: keepCardNumbers))
    } catch let error as ConfigError {
      Terminal.error("config error in \(configURL.path): \(error)")
      throw SnapsortExit.usage
    }
    // A missing input is a usage error found before anything is created: no empty --out.
    for path in paths where !FileManager.default.fileExists(atPath: path) {
      Terminal.error("no such file or folder: \(path)")
      throw SnapsortExit.usage
    }
    try Self.prepareOutput(outputURL)
    let selection = try shardSelection()
    if let selection, !quiet { Terminal.info("shard \(selection)") }

    // A second Ctrl-C quits at once, but still leaves records.jsonl with what is done.
    let interrupt = InterruptFlag.install(onSecond: { Self.writeFinished(in: outputURL) })
    let progress = ProgressReporter(enabled: !quiet)
    let budget = try maxMemory.map { try MemoryBudget(parsing: $0) }
    let job = RunJob(
      inputs: paths.map { URL(fileURLWithPath: $0) }, config: pipeline, configName: configURL.path,
      outputDirectory: outputURL, jobs: jobs, resume: !fresh, shard: selection, memoryBudget: budget)
    let result: RunJob.Result
    do {
      result = try job.run(
        progress: { progress.update($0) },
        onJobsReduced: { reduction in budget.map { progress.warn(Self.describe(reduction, budget: $0)) } },
        isCancelled: { interrupt.isSet })
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    } catch let error as ConfigMismatch {
      Terminal.error(
        "\(error): pass --fresh to process every file again and replace them, or write to another --out")
      throw SnapsortExit.usage
    } catch let error as PipelineSetupError {
      Terminal.error("cannot start the pipeline: \(error)")
      throw SnapsortExit.missingDependency
    } catch let error as OutputError {
      Terminal.error(error.description)
      throw SnapsortExit.outputNotWritable
    } catch {
      Terminal.error("internal error, please report it: \(Terminal.describe(error))")
      throw SnapsortExit.internalError
    }
    progress.finish()
    try Self.report(result, budget: budget, jobs: jobs)
  }

  /// The run's closing lines; throws the exit status a partly failed or interrupted run ends with.
  private static func report(_ result: RunJob.Result, budget: MemoryBudget?, jobs: Int) throws {
    if let budget, result.summary.peakRSSMB > budget.megabytes {
      let oneAtATime = jobs == 1 || result.summary.jobsReduced?.last?.workers == 1
      Terminal.info(
        "warning: peak memory \(String(format: "%.0f MB", result.summary.peakRSSMB)) went over "
          + "--max-memory \(budget)"
          + (oneAtATime ? " with one photo at a time: one worker's engines and photo need more" : ""))
    }

    let counts = result.summary.counts
    Terminal.info(
      "\(counts.inputs) images: \(counts.ok) ok, \(counts.error) failed, \(counts.skipped) other files skipped"
        + " in \(String(format: "%.1f", result.summary.wallSeconds)) s → \(result.recordsURL.path)")
    if result.summary.interrupted {
      Terminal.info("interrupted: \(counts.notStarted) files were not started")
      throw SnapsortExit.interrupted
    }
    if counts.error > 0 { throw SnapsortExit.someFailed }
  }

  /// A worker stopped for `--max-memory`, as the warning a person reads.
  static func describe(_ reduction: JobsReduction, budget: MemoryBudget) -> String {
    let photos = reduction.workers == 1 ? "1 photo" : "\(reduction.workers) photos"
    let memory = String(format: "%.0f MB", reduction.residentMB)
    if reduction.afterPhotos == 0 {
      return "the workers' OCR engines alone take \(memory), over --max-memory \(budget): "
        + "running \(photos) at a time"
    }
    let done = reduction.afterPhotos == 1 ? "1 photo" : "\(reduction.afterPhotos) photos"
    return "peak memory \(memory) after \(done) is over --max-memory \(budget): "
      + "running \(photos) at a time from now on"
  }

  /// Why a folder cannot be made, as a sentence: the usual cause, a file where a folder of the
  /// path should be, named.
  static func why(_ error: any Error, creating folder: URL) -> String {
    var isDirectory: ObjCBool = false
    var ancestor = folder.standardizedFileURL
    while ancestor.path != "/" {
      if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
        if !isDirectory.boolValue { return "\(ancestor.path) is a file, not a folder" }
        break
      }
      ancestor.deleteLastPathComponent()
    }
    if !FileManager.default.isWritableFile(atPath: ancestor.path) {
      return "\(ancestor.path) is not writable"
    }
    return Terminal.describe(error, path: folder.path)
  }

  /// On a second Ctrl-C: `records.jsonl` from the journal of the photos finished so far (the
  /// journal stays, so a rerun resumes from it).
  static func writeFinished(in outputURL: URL) {
    var byFile: [String: Record] = [:]
    if let data = try? Data(contentsOf: RecordJournal.url(in: outputURL)) {
      // A line torn by a worker still writing is the last one and does not decode.
      for line in data.split(separator: UInt8(ascii: "\n")) {
        if let record = try? RecordCoding.decode(Data(line)) { byFile[record.file] = record }
      }
    }
    do {
      let url = try RunOutputs.writeRecords(Array(byFile.values), to: outputURL)
      Terminal.info("interrupted again: \(byFile.count) finished records written to \(url.path)")
    } catch {
      Terminal.error("interrupted again: records.jsonl not written: \(Terminal.describe(error))")
    }
  }

  private func resolveConfig() throws -> URL {
    try configChoice.resolve()
  }

  private static func prepareOutput(_ url: URL) throws {
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      guard FileManager.default.isWritableFile(atPath: url.path) else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      Terminal.error("cannot write to the output folder \(url.path): \(Self.why(error, creating: url))")
      throw SnapsortExit.outputNotWritable
    }
  }

  /// `--shard`, else the array index a job scheduler put in the environment, else none.
  private func shardSelection() throws -> ShardSelection? {
    do {
      return try shard.map { try ShardSelection(parsing: $0) }
        ?? ShardSelection.fromEnvironment(ProcessInfo.processInfo.environment, shards: shards)
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
    }
  }
}

let keepCardNumbersHelp = ArgumentHelp(
  "Leave a payment card's number, expiry date and holder's name readable in its crop.",
  discussion:
    "By default they are painted over before the crop is written; records keep only the network and the last four digits either way."
)
