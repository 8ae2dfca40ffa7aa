import Foundation

/// A whole run: find inputs, process them, and write `records.jsonl` and `run.json` into the
/// output folder. The CLI and the tests both drive runs through this type.
public struct RunJob: Sendable {
  public var inputs: [URL]
  public var config: PipelineConfig
  public var configName: String?
  public var outputDirectory: URL
  public var jobs: Int

  public init(
    inputs: [URL], config: PipelineConfig, configName: String? = nil, outputDirectory: URL, jobs: Int
  ) {
    self.inputs = inputs
    self.config = config
    self.configName = configName
    self.outputDirectory = outputDirectory
    self.jobs = jobs
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
    let started = Date()
    let clock = DispatchTime.now().uptimeNanoseconds
    let listing = try InputScanner().scan(inputs)
    try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    let collected = RecordCollector()
    let runner = Runner(config: config, jobs: jobs, outputDirectory: outputDirectory)
    let timings = try runner.run(
      listing.inputs, sink: { collected.append($0) }, progress: progress, isCancelled: isCancelled)

    let records = collected.records.sorted { $0.file < $1.file }
    var lines = Data()
    for record in records {
      lines.append(try RecordCoding.encodeLine(record))
      lines.append(UInt8(ascii: "\n"))
    }
    let recordsURL = outputDirectory.appendingPathComponent("records.jsonl")
    try AtomicFile.write(lines, to: recordsURL)

    let failed = records.filter { $0.status == .error }.count
    let summary = RunSummary(
      version: SnapsortVersion.current, configHash: config.hash, config: configName,
      startedAt: ISO8601DateFormatter().string(from: started),
      wallSeconds: (Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e6).rounded() / 1000,
      jobs: jobs,
      counts: .init(
        inputs: listing.inputs.count, ok: records.count - failed, error: failed,
        skipped: listing.skipped.count, notStarted: timings.notStarted),
      stages: RunSummary.stageTimings(timings), skippedFiles: listing.skipped,
      interrupted: timings.notStarted > 0)
    let summaryURL = outputDirectory.appendingPathComponent("run.json")
    try summary.write(to: summaryURL)
    return Result(records: records, summary: summary, recordsURL: recordsURL, summaryURL: summaryURL)
  }
}

/// Records arriving from the runner's sink queue.
final class RecordCollector: @unchecked Sendable {
  // Appended to only on the runner's serial sink queue; read after the run has returned.
  private(set) var records: [Record] = []
  func append(_ record: Record) { records.append(record) }
}
