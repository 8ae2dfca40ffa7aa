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
  /// `--max-memory`: run fewer photos at once rather than pass it.
  public var memoryBudget: MemoryBudget?

  public init(
    inputs: [URL], config: PipelineConfig, configName: String? = nil, outputDirectory: URL, jobs: Int,
    resume: Bool = true, shard: ShardSelection? = nil, memoryBudget: MemoryBudget? = nil
  ) {
    self.inputs = inputs
    self.config = config
    self.configName = configName
    self.outputDirectory = outputDirectory
    self.jobs = jobs
    self.resume = resume
    self.shard = shard
    self.memoryBudget = memoryBudget
  }

  public struct Result: Sendable {
    public var records: [Record]
    public var summary: RunSummary
    public var recordsURL: URL
    public var summaryURL: URL
  }

  public func run(
    progress: (@Sendable (Runner.Progress) -> Void)? = nil,
    onJobsReduced: (@Sendable (JobsReduction) -> Void)? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws -> Result {
    // Throws InputError for inputs that cannot be listed, ConfigMismatch when the output holds
    // another config's records and this run is not fresh, PipelineSetupError when a stage cannot
    // start, OutputError when the output cannot be written.
    let started = Date()
    let clock = DispatchTime.now().uptimeNanoseconds
    var listing = try InputScanner().scan(inputs)
    if let shard {
      listing.inputs = listing.inputs.filter { shard.contains($0.relativePath) }
      listing.skipped = listing.skipped.filter { shard.contains($0) }
      listing.reasons = listing.reasons.filter { shard.contains($0.key) }
    }
    try OutputError.writing(outputDirectory) {
      try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    }
    let previous = try previousRecords()
    let journal = try OutputError.writing(outputDirectory) {
      try RecordJournal(outputDirectory: outputDirectory, configHash: config.hash)
    }
    let collected = RecordCollector(journal: journal)
    let runner = Runner(
      config: config, jobs: jobs, outputDirectory: outputDirectory, memoryBudget: memoryBudget)
    let timings = try runner.run(
      listing.inputs, reusing: previous, sink: { collected.append($0) }, progress: progress,
      onJobsReduced: onJobsReduced, isCancelled: isCancelled)
    if let failure = collected.journalFailure {
      throw OutputError(path: outputDirectory.path, reason: OutputError.reason(failure))
    }

    let sources = Dictionary(listing.inputs.map { ($0.relativePath, $0.url) }) { first, _ in first }
    let records = try applyingCorrectedCorners(
      to: collected.records.sorted { $0.file < $1.file }, sources: sources)
    let recordsURL = try OutputError.writing(outputDirectory) {
      try RunOutputs.writeRecords(records, to: outputDirectory)
    }

    var summary = summary(of: records, listing: listing, timings: timings, started: started, clock: clock)
    summary.counts.reused = records.filter { !$0.sha256.isEmpty && previous[$0.sha256] != nil }.count
    let summaryURL = outputDirectory.appendingPathComponent("run.json")
    try OutputError.writing(summaryURL) { try summary.write(to: summaryURL) }
    try OutputError.writing(outputDirectory) {
      try RunOutputs.writeDerived(
        records: records, summary: summary, to: outputDirectory, sources: sources)
    }
    // Everything is in records.jsonl now, and crops no record names can go; an interrupted run
    // keeps its journal and every crop for the rerun, which settles which are still named.
    if !summary.interrupted {
      RecordJournal.remove(in: outputDirectory)
      RunOutputs.removeOrphanedCrops(keeping: records, in: outputDirectory)
    }
    return Result(records: records, summary: summary, recordsURL: recordsURL, summaryURL: summaryURL)
  }

  /// Cards whose corners a person corrected (`snapsort review`, kept in the store) and that this
  /// run warped with other corners (a fresh run detects them again) are run again from the warp
  /// on with the person's corners, through rewarp's code and its checks (the same photo, corners
  /// inside it), so their crop, barcodes and text follow the corners the store shows.
  private func applyingCorrectedCorners(to records: [Record], sources: [String: URL]) throws -> [Record] {
    let storeURL = outputDirectory.appendingPathComponent(RecordStore.fileName)
    guard FileManager.default.fileExists(atPath: storeURL.path),
      let quads = try? RecordStore(url: storeURL).correctedQuads(), !quads.isEmpty
    else { return records }
    let corrections = records.compactMap { record -> Rewarp.Correction? in
      guard record.kind == .card, record.status == .ok, sources[record.file] != nil,
        let quad = quads[record.sha256], record.card?.quad != quad
      else { return nil }
      return Rewarp.Correction(file: record.file, quad: quad.corners)
    }.filter { Rewarp.problems([$0], records: records).isEmpty }
    guard !corrections.isEmpty else { return records }
    do {
      return try Rewarp.run(
        corrections, records: records, sources: sources, config: config, outputDirectory: outputDirectory
      ).records
    } catch is Rewarp.Failure {
      return records  // a config without a warp stage: the corners cannot be applied
    }
  }

  /// run.json's content: what was given, done and skipped, and how long it took since `clock`.
  private func summary(
    of records: [Record], listing: InputScanner.Listing, timings: RunTimings, started: Date, clock: UInt64
  ) -> RunSummary {
    let failed = records.filter { $0.status == .error }.count
    return RunSummary(
      version: SnapsortVersion.current, configHash: config.hash, config: configName,
      inputPaths: inputs.map { $0.absoluteURL.standardizedFileURL.path },
      startedAt: ISO8601DateFormatter().string(from: started),
      wallSeconds: (Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6).rounded() / 1000,
      jobs: jobs,
      counts: .init(
        inputs: listing.inputs.count, ok: records.count - failed, error: failed,
        skipped: listing.skipped.count, notStarted: timings.notStarted),
      stages: RunSummary.stageTimings(timings), skippedFiles: listing.skipped,
      skippedReasons: listing.reasons, interrupted: timings.notStarted > 0,
      maxMemoryMB: memoryBudget.map { Rounding.tenths($0.megabytes) },
      jobsReduced: memoryBudget == nil ? nil : timings.jobsReductions.map(RunSummary.JobsReduced.init))
  }

  /// The earlier records to reuse, by content hash: none for a fresh run; else the folder must
  /// hold none, or this config's.
  ///
  /// - Throws: `ConfigMismatch` when it holds records of another config, or of one nothing names
  ///   (replacing them is for a fresh run to do, asked).
  private func previousRecords() throws -> [String: Record] {
    guard resume else {
      RecordJournal.remove(in: outputDirectory)
      return [:]
    }
    if let earlier = EarlierRun.find(in: outputDirectory), earlier.configHash != config.hash {
      throw ConfigMismatch(outputDirectory: outputDirectory, earlier: earlier, configName: configName)
    }
    var previous: [String: Record] = [:]
    for record in RecordJournal.previousRecords(in: outputDirectory, configHash: config.hash)
    where !record.sha256.isEmpty {
      previous[record.sha256] = record
    }
    return previous
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
