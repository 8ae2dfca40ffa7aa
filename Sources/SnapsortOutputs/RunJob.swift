import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// A whole run: find inputs, process them, and write `records.jsonl` and `run.json` into the
/// output folder. The CLI and the tests both drive runs through this type.
public struct RunJob: Sendable {
  public var inputs: [URL]
  public var config: PipelineConfig
  public var configName: String?
  public var outputDirectory: URL
  public var jobs: Int
  /// Reuse the records of an earlier run of the same config in `outputDirectory`.
  public var resume: Bool
  public var shard: ShardSelection?

  public init(
    inputs: [URL], config: PipelineConfig, configName: String? = nil, outputDirectory: URL, jobs: Int,
    resume: Bool = true, shard: ShardSelection? = nil
  ) {
    self.inputs = inputs
    self.config = config
    self.configName = configName
    self.outputDirectory = outputDirectory
    self.jobs = jobs
    self.resume = resume
    self.shard = shard
  }

  public struct Result: Sendable {
    public var records: [Record]
    public var summary: RunSummary
    public var recordsURL: URL
    public var summaryURL: URL
  }

  public func run(
    progress: (@Sendable (Runner.Progress) -> Void)? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws -> Result {
    // Throws InputError for inputs that cannot be listed, PipelineSetupError when a stage cannot
    // start, OutputError when the output cannot be written.
    let started = Date()
    let clock = DispatchTime.now().uptimeNanoseconds
    var listing = try InputScanner().scan(inputs)
    if let shard {
      listing.inputs = listing.inputs.filter { shard.contains($0.relativePath) }
      listing.skipped = listing.skipped.filter { shard.contains($0) }
    }
    try OutputError.writing(outputDirectory) {
      try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    }
    var previous: [String: Record] = [:]
    if resume {
      for record in RecordJournal.previousRecords(in: outputDirectory, configHash: config.hash)
      where !record.sha256.isEmpty {
        previous[record.sha256] = record
      }
    } else {
      RecordJournal.remove(in: outputDirectory)
    }
    let journal = try OutputError.writing(outputDirectory) {
      try RecordJournal(outputDirectory: outputDirectory, configHash: config.hash)
    }
    let collected = RecordCollector(journal: journal)
    let runner = Runner(config: config, jobs: jobs, outputDirectory: outputDirectory)
    let timings = try runner.run(
      listing.inputs, reusing: previous,
      sink: { collected.append($0) }, progress: progress, isCancelled: isCancelled)
    if let failure = collected.journalFailure {
      throw OutputError(path: outputDirectory.path, reason: OutputError.reason(failure))
    }

    let records = collected.records.sorted { $0.file < $1.file }
    let recordsURL = try OutputError.writing(outputDirectory) {
      try RunOutputs.writeRecords(records, to: outputDirectory)
    }

    let failed = records.filter { $0.status == .error }.count
    let summary = RunSummary(
      version: SnapsortVersion.current, configHash: config.hash, config: configName,
      inputPaths: inputs.map { $0.absoluteURL.standardizedFileURL.path },
      startedAt: ISO8601DateFormatter().string(from: started),
      wallSeconds: (Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6).rounded() / 1000,
      jobs: jobs,
      counts: .init(
        inputs: listing.inputs.count, ok: records.count - failed, error: failed,
        skipped: listing.skipped.count, notStarted: timings.notStarted,
        reused: records.filter { !$0.sha256.isEmpty && previous[$0.sha256] != nil }.count),
      stages: RunSummary.stageTimings(timings), skippedFiles: listing.skipped,
      interrupted: timings.notStarted > 0)
    let summaryURL = outputDirectory.appendingPathComponent("run.json")
    try OutputError.writing(summaryURL) { try summary.write(to: summaryURL) }
    try OutputError.writing(outputDirectory) {
      try RunOutputs.writeDerived(
        records: records, summary: summary, to: outputDirectory,
        sources: Dictionary(listing.inputs.map { ($0.relativePath, $0.url) }) { first, _ in first })
    }
    // Everything is in records.jsonl now; an interrupted run keeps its journal for the rerun.
    if !summary.interrupted { RecordJournal.remove(in: outputDirectory) }
    return Result(records: records, summary: summary, recordsURL: recordsURL, summaryURL: summaryURL)
  }
}

/// Records arriving from the runner's sink queue, kept in memory and appended to the journal.
final class RecordCollector: @unchecked Sendable {
  // Used only on the runner's serial sink queue; read after the run has returned.
  private(set) var records: [Record] = []
  private(set) var journalFailure: Error?
  private let journal: RecordJournal

  init(journal: RecordJournal) { self.journal = journal }

  func append(_ record: Record) {
    records.append(record)
    do {
      try journal.append(record)
    } catch {
      if journalFailure == nil { journalFailure = error }
    }
  }
}
