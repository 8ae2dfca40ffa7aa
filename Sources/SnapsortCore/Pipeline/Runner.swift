import Dispatch
import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// Runs a pipeline over a list of inputs with a fixed number of workers.
///
/// Each worker creates its own stage instances (and so its own native handles) once and takes
/// the next input when it finishes one, so at most `jobs` photos are in memory at any time,
/// however large the folder. Every input yields exactly one record, ok or error.
public final class Runner: Sendable {
  public struct Progress: Sendable {
    public var done: Int
    public var total: Int
    public var failed: Int
    public var file: String
  }

  public let config: PipelineConfig
  public let jobs: Int
  public let outputDirectory: URL?
  /// Run fewer photos at once when the process's peak memory passes it (nil: no ceiling).
  public let memoryBudget: MemoryBudget?

  public init(config: PipelineConfig, jobs: Int, outputDirectory: URL?, memoryBudget: MemoryBudget? = nil) {
    self.config = config
    self.jobs = max(1, jobs)
    self.outputDirectory = outputDirectory
    self.memoryBudget = memoryBudget
    MemoryPolicy.apply()
  }

  /// Processes `inputs`, handing each record to `sink` on one serial queue in completion order.
  ///
  /// - Parameters:
  ///   - seeds: artifacts a photo starts with (a person's corners for `rewarp`); a stage whose
  ///     every product is seeded is not run for that photo.
  ///   - isCancelled: checked before each new photo; in-flight photos finish.
  ///   - progress: called on the sink's queue after each record.
  ///   - onJobsReduced: called on the sink's queue when a worker stops to keep `memoryBudget`.
  /// - Returns: per-stage timings in seconds, and the inputs not started because of cancellation.
  /// - Throws: when a stage cannot be created (a missing native library or model): no photo is
  ///   processed then.
  public func run(
    _ inputs: [InputScanner.Input],
    reusing previous: [String: Record] = [:],
    seeds: (@Sendable (InputScanner.Input) -> [any Artifact])? = nil,
    sink: @escaping @Sendable (Record) -> Void,
    progress: (@Sendable (Progress) -> Void)? = nil,
    onJobsReduced: (@Sendable (JobsReduction) -> Void)? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws -> RunTimings {
    let (workers, reduction) = try makeWorkers(count: min(jobs, max(1, inputs.count)))
    let state = RunState(
      total: inputs.count, workers: workers.count, budget: memoryBudget,
      reductions: reduction.map { [$0] } ?? [])
    let sinkQueue = DispatchQueue(label: "snapsort.sink")
    if let reduction { onJobsReduced?(reduction) }
    let config = self.config
    let outputDirectory = self.outputDirectory

    DispatchQueue.concurrentPerform(iterations: workers.count) { worker in
      var timings = StageClock()
      while !isCancelled(), let pipeline = workers[worker].pipeline, let index = state.next() {
        let input = inputs[index]
        let record = Self.process(
          input, with: pipeline, config: config, outputDirectory: outputDirectory, reusing: previous,
          seeds: seeds?(input) ?? [], timings: &timings)
        sinkQueue.sync {
          sink(record)
          let snapshot = state.completed(failed: record.status == .error, file: record.file)
          progress?(snapshot)
        }
        if let reduction = state.stopWorkerIfOverBudget() {
          workers[worker].release()
          sinkQueue.sync { onJobsReduced?(reduction) }
        }
      }
      workers[worker].release()
      state.merge(timings)
    }
    let merged = state.timings
    return RunTimings(
      perStage: merged.wall, cpuPerStage: merged.cpu, notStarted: state.remaining,
      jobsReductions: state.reductions)
  }

  /// Every worker's stages, created before the first photo so that a setup failure stops the run
  /// cleanly instead of turning every record into an error. With a memory budget, a worker whose
  /// creation leaves the process over it is not kept (the first always is).
  private func makeWorkers(count: Int) throws -> ([WorkerSlot], JobsReduction?) {
    let context = StageContext(outputDirectory: outputDirectory, jobs: jobs)
    var workers: [WorkerSlot] = []
    for _ in 0..<count {
      let slot = WorkerSlot(WorkerPipeline(try config.instantiate(context: context)))
      if let memoryBudget, !workers.isEmpty, let resident = MemoryBudget.residentBytes(),
        resident > memoryBudget.bytes
      {
        slot.release()
        return (
          workers,
          JobsReduction(afterPhotos: 0, residentMB: MemoryBudget.megabytes(resident), workers: workers.count)
        )
      }
      workers.append(slot)
    }
    return (workers, nil)
  }

  /// Processes `inputs` and returns their records by path, for callers that want them all at once
  /// (training, corrections) rather than as they finish.
  public func records(
    for inputs: [InputScanner.Input], seeds: (@Sendable (InputScanner.Input) -> [any Artifact])? = nil,
    progress: (@Sendable (Progress) -> Void)? = nil
  ) throws -> [String: Record] {
    let collected = RecordsByFile()
    _ = try run(inputs, seeds: seeds, sink: collected.add, progress: progress)
    return collected.records
  }

  /// Runs every stage on one input; any failure becomes the record's error.
  ///
  /// - Parameter seeds: artifacts the photo starts with (a person's corners); a stage whose every
  ///   product is among them is not run.
  static func process(
    _ input: InputScanner.Input, with pipeline: WorkerPipeline, config: PipelineConfig,
    outputDirectory: URL?, reusing previous: [String: Record] = [:], seeds: [any Artifact] = [],
    timings: inout StageClock
  ) -> Record {
    // Resuming: a file whose content already has a record of this config is not processed again.
    var prefetched: Data?
    if !previous.isEmpty,
      let data = try? input.fileSystemPath.map({ try FileBytes.read(fileSystemPath: $0) })
        ?? FileBytes.read(input.url)
    {
      if var done = previous[FileBytes.sha256(of: data)] {
        done.file = input.relativePath
        return done
      }
      prefetched = data
    }
    let item = PhotoItem(
      relativePath: input.relativePath, url: input.url, outputDirectory: outputDirectory,
      assumedKind: config.assumedKind, deadline: .now() + config.secondsPerImage, prefetched: prefetched,
      fileSystemPath: input.fileSystemPath)
    for seed in seeds { item.artifacts.write(seed) }
    var error = runStages(on: item, with: pipeline, config: config, timings: &timings)
    error = writeCrop(of: item, config: config, error: error)
    return RecordAssembly.record(of: item, error: error)
  }

  /// Writes the card's crop file once every stage has run on `item`, so that what OCR read decides
  /// what is painted over (`CardCropFile`); a crop that cannot be written fails the photo at the
  /// stage that cut it, as when that stage wrote it.
  static func writeCrop(of item: PhotoItem, config: PipelineConfig, error: RecordError?) -> RecordError? {
    let textWasDue = config.steps.contains { step in
      step.produces.contains { $0 == CardText.self } && (step.when.isEmpty || step.when.contains(item.kind))
    }
    do {
      try CardCropFile.write(for: item, keepCardNumbers: config.keepCardNumbers, textWasDue: textWasDue)
    } catch let failure {
      let stage = config.steps.first { $0.produces.contains { $0 == CardCrop.self } }?.name ?? "warp"
      return error ?? RecordError(stage: stage, message: Self.message(for: failure))
    }
    return error
  }

  /// Runs the stages that apply to `item` in order; the first failure stops them and is returned.
  static func runStages(
    on item: PhotoItem, with pipeline: WorkerPipeline, config: PipelineConfig, timings: inout StageClock
  ) -> RecordError? {
    for (step, stage) in pipeline.stages {
      if !step.when.isEmpty && !step.when.contains(item.kind) { continue }
      // Seeded: everything this stage would write is there already (a stage that writes nothing
      // always runs).
      if !step.produces.isEmpty && step.produces.allSatisfy(item.artifacts.contains) { continue }
      if item.secondsRemaining <= 0 {
        let message =
          "time limit of \(Self.seconds(config.secondsPerImage)) per image (limits.seconds_per_image) "
          + "ran out before this stage"
        return RecordError(stage: step.name, message: message)
      }
      let start = DispatchTime.now().uptimeNanoseconds
      let cpuStart = StageClock.threadCPUSeconds()
      defer {
        timings.wall[step.name, default: []].append(
          Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        timings.cpu[step.name, default: []].append(StageClock.threadCPUSeconds() - cpuStart)
      }
      do {
        try stage.process(item)
      } catch {
        return RecordError(stage: step.name, message: Self.message(for: error))
      }
    }
    return nil
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  static func message(for error: Error) -> String {
    String(describing: error)
  }
}

/// One worker's stage instances. Used only by the worker thread that owns it.
final class WorkerPipeline: @unchecked Sendable {
  // Confinement: created on the caller's thread before the workers start, then touched only by
  // the single concurrentPerform iteration whose index selects it.
  let stages: [(PipelineConfig.Step, any Stage)]
  init(_ stages: [(PipelineConfig.Step, any Stage)]) { self.stages = stages }
}

/// A worker's pipeline while the worker runs; emptied when it stops, so that its engines are freed
/// then rather than at the end of the run.
final class WorkerSlot: @unchecked Sendable {
  // Confinement: read and emptied only by the worker whose index selects this slot.
  private(set) var pipeline: WorkerPipeline?
  init(_ pipeline: WorkerPipeline) { self.pipeline = pipeline }

  func release() {
    guard pipeline != nil else { return }
    pipeline = nil
    MemoryBudget.returnFreedMemory()
  }
}

/// One worker's per-stage durations, in seconds: wall time, and the CPU time of the worker's
/// own thread.
///
/// Wall time grows with whatever else the machine runs; the thread's CPU time is what the stage
/// itself cost on one core, so a benchmark on a shared machine can still say how fast a stage
/// is.
struct StageClock {
  var wall: [String: [Double]] = [:]
  var cpu: [String: [Double]] = [:]

  mutating func merge(_ other: StageClock) {
    wall.merge(other.wall) { $0 + $1 }
    cpu.merge(other.cpu) { $0 + $1 }
  }

  static func threadCPUSeconds() -> Double {
    ThreadCPUClock.milliseconds() / 1_000
  }
}

/// Per-stage durations of a run, in seconds: wall time and the worker thread's CPU time.
public struct RunTimings: Sendable {
  public var perStage: [String: [Double]]
  public var cpuPerStage: [String: [Double]] = [:]
  public var notStarted: Int
  /// Workers stopped to keep the memory budget, in order.
  public var jobsReductions: [JobsReduction] = []

  public func percentile(_ p: Double, of stage: String) -> Double? {
    Self.percentile(p, of: perStage[stage])
  }

  public func cpuPercentile(_ p: Double, of stage: String) -> Double? {
    Self.percentile(p, of: cpuPerStage[stage])
  }

  private static func percentile(_ p: Double, of values: [Double]?) -> Double? {
    guard let values, !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count - 1)).rounded())
    return sorted[rank]
  }
}

/// The shared counters of a run, behind one lock.
final class RunState: @unchecked Sendable {
  // Every member is read and written only while `lock` is held.
  private let lock = NSLock()
  private var nextIndex = 0
  private var done = 0
  private var failed = 0
  private let total: Int
  private var mergedTimings = StageClock()
  private let budget: MemoryBudget?
  private var activeWorkers: Int
  private var peakAtLastReduction: UInt64 = 0
  private var reductionList: [JobsReduction] = []

  /// - Parameter reductions: workers not started for the budget before the run began.
  init(total: Int, workers: Int = 1, budget: MemoryBudget? = nil, reductions: [JobsReduction] = []) {
    self.total = total
    self.activeWorkers = workers
    self.budget = budget
    self.reductionList = reductions
  }

  /// Called by a worker after each photo: whether it should stop because the process's peak
  /// memory has passed the budget. A photo's buffers are freed by the time a worker asks, so the
  /// peak, not the current size, says what the workers needed. Another worker stops only when the
  /// peak has grown again since the last one stopped; the last worker never stops.
  func stopWorkerIfOverBudget() -> JobsReduction? {
    guard let budget else { return nil }
    guard let peak = MemoryBudget.peakResidentBytes() else { return nil }
    return lock.withLock {
      guard activeWorkers > 1, peak > budget.bytes, peak > peakAtLastReduction else { return nil }
      activeWorkers -= 1
      peakAtLastReduction = peak
      let reduction = JobsReduction(
        afterPhotos: done, residentMB: MemoryBudget.megabytes(peak), workers: activeWorkers)
      reductionList.append(reduction)
      return reduction
    }
  }

  var reductions: [JobsReduction] { lock.withLock { reductionList } }

  func next() -> Int? {
    lock.withLock {
      guard nextIndex < total else { return nil }
      defer { nextIndex += 1 }
      return nextIndex
    }
  }

  func completed(failed isFailure: Bool, file: String) -> Runner.Progress {
    lock.withLock {
      done += 1
      if isFailure { failed += 1 }
      return Runner.Progress(done: done, total: total, failed: failed, file: file)
    }
  }

  func merge(_ timings: StageClock) {
    lock.withLock { mergedTimings.merge(timings) }
  }

  var timings: StageClock { lock.withLock { mergedTimings } }
  var remaining: Int { lock.withLock { total - nextIndex } }
}

/// One worker's pipeline for callers that process photos one at a time, on their own thread
/// (evaluation, training, corrections): the same stages, order and record assembly as a run.
public final class PhotoPipeline {
  private let config: PipelineConfig
  private let pipeline: WorkerPipeline
  private let outputDirectory: URL?
  private var timings = StageClock()

  /// - Throws: when a stage cannot be created (a missing native library or model).
  public init(config: PipelineConfig, outputDirectory: URL? = nil) throws {
    self.config = config
    self.outputDirectory = outputDirectory
    pipeline = WorkerPipeline(try config.instantiate(context: StageContext(outputDirectory: outputDirectory)))
  }

  /// The record of one photo, as a run would write it.
  public func record(for input: InputScanner.Input, seeds: [any Artifact] = []) -> Record {
    Runner.process(
      input, with: pipeline, config: config, outputDirectory: outputDirectory, seeds: seeds, timings: &timings
    )
  }

  /// One photo through the stages, with its artifacts, for a caller that needs more than the
  /// record (an evaluation that hands the decoded image to other readers).
  public func photo(for input: InputScanner.Input) -> (item: PhotoItem, record: Record) {
    let item = PhotoItem(
      relativePath: input.relativePath, url: input.url, outputDirectory: outputDirectory,
      assumedKind: config.assumedKind, deadline: .now() + config.secondsPerImage,
      fileSystemPath: input.fileSystemPath)
    var error = Runner.runStages(on: item, with: pipeline, config: config, timings: &timings)
    error = Runner.writeCrop(of: item, config: config, error: error)
    return (item, RecordAssembly.record(of: item, error: error))
  }
}

/// Records handed to a run's sink, by path.
private final class RecordsByFile: @unchecked Sendable {
  // Confinement: `add` is called on the runner's serial sink queue only; `records` is read after
  // the run returns.
  private(set) var records: [String: Record] = [:]
  func add(_ record: Record) { records[record.file] = record }
}
