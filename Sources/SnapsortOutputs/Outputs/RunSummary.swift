import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

#if canImport(Glibc)
  import Glibc
#endif

/// `run.json`: what a run did and how long it took. Timings live here, never in records.
public struct RunSummary: Codable, Sendable {
  public struct Counts: Codable, Sendable {
    public var inputs: Int
    public var ok: Int
    public var error: Int
    public var skipped: Int
    public var notStarted: Int
    /// Records taken over from an earlier run of the same config (resume).
    public var reused: Int = 0
    enum CodingKeys: String, CodingKey {
      case inputs, ok, error, skipped, reused
      case notStarted = "not_started"
    }
  }

  public struct StageTiming: Codable, Sendable {
    public var count: Int
    public var p50Ms: Double
    public var p95Ms: Double
    public var totalMs: Double
    /// The same medians in CPU time of the worker's thread: what the stage costs on one core,
    /// however busy the machine was (nil in a run.json written before they were measured).
    public var cpuP50Ms: Double? = nil
    public var cpuP95Ms: Double? = nil
    enum CodingKeys: String, CodingKey {
      case count
      case p50Ms = "p50_ms"
      case p95Ms = "p95_ms"
      case totalMs = "total_ms"
      case cpuP50Ms = "cpu_p50_ms"
      case cpuP95Ms = "cpu_p95_ms"
    }
  }

  /// A worker stopped to keep `--max-memory`.
  public struct JobsReduced: Codable, Sendable {
    public var afterPhotos: Int
    public var peakRSSMB: Double
    public var workers: Int
    enum CodingKeys: String, CodingKey {
      case workers
      case afterPhotos = "after_photos"
      case peakRSSMB = "peak_rss_mb"
    }

    public init(_ reduction: JobsReduction) {
      afterPhotos = reduction.afterPhotos
      peakRSSMB = reduction.residentMB
      workers = reduction.workers
    }
  }

  public var version: String
  public var configHash: String
  public var config: String?
  /// The files and folders the run was given, absolute, so that `rewarp` finds the photos from
  /// any working folder (nil in a run.json written before they were kept).
  public var inputPaths: [String]? = nil
  public var startedAt: String
  public var wallSeconds: Double
  public var jobs: Int
  public var counts: Counts
  public var stages: [String: StageTiming]
  public var skippedFiles: [String]
  /// Why each of `skippedFiles` was skipped (nil in a run.json written before reasons were kept).
  public var skippedReasons: [String: String]? = nil
  public var interrupted: Bool
  /// The process's peak resident memory so far (getrusage), in MiB.
  public var peakRSSMB: Double = RunSummary.currentPeakRSSMB()
  /// `--max-memory` in MiB, nil when the run had none.
  public var maxMemoryMB: Double? = nil
  /// Workers stopped to keep `--max-memory`, in order (nil when the run had no budget).
  public var jobsReduced: [JobsReduced]? = nil

  enum CodingKeys: String, CodingKey {
    case version, config, jobs, counts, stages, interrupted
    case configHash = "config_hash"
    case startedAt = "started_at"
    case wallSeconds = "wall_seconds"
    case skippedFiles = "skipped_files"
    case skippedReasons = "skipped_reasons"
    case inputPaths = "input_paths"
    case peakRSSMB = "peak_rss_mb"
    case maxMemoryMB = "max_memory_mb"
    case jobsReduced = "jobs_reduced"
  }

  public static func currentPeakRSSMB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    // Linux reports ru_maxrss in KiB.
    return Rounding.tenths(Double(usage.ru_maxrss) / 1024)
  }

  public static func stageTimings(_ timings: RunTimings) -> [String: StageTiming] {
    var result: [String: StageTiming] = [:]
    for (stage, values) in timings.perStage {
      let ms = { (value: Double?) in ((value ?? 0) * 1e5).rounded() / 100 }
      result[stage] = StageTiming(
        count: values.count, p50Ms: ms(timings.percentile(0.5, of: stage)),
        p95Ms: ms(timings.percentile(0.95, of: stage)), totalMs: ms(values.reduce(0, +)),
        cpuP50Ms: timings.cpuPercentile(0.5, of: stage).map { ms($0) },
        cpuP95Ms: timings.cpuPercentile(0.95, of: stage).map { ms($0) })
    }
    return result
  }

  /// The `run.json` of an output folder, nil when there is none or it cannot be read.
  public static func read(in outputDirectory: URL) -> RunSummary? {
    guard let data = try? Data(contentsOf: outputDirectory.appendingPathComponent("run.json")) else {
      return nil
    }
    return try? JSONDecoder().decode(RunSummary.self, from: data)
  }

  public func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    try AtomicFile.write(try encoder.encode(self), to: url)
  }
}
