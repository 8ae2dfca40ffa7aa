import Foundation
import SnapsortCore
import SnapsortStages

/// Combines shard outputs into one, equal to what a single run over all files writes.
public enum OutputMerger {
  public static func merge(_ outputs: [URL], into destination: URL) throws -> RunSummary {
    guard !outputs.isEmpty else { throw InputError("give at least one output folder to merge") }
    var summaries: [RunSummary] = []
    var byFile: [String: Record] = [:]
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    for output in outputs {
      let summary = try readSummary(of: output)
      if let first = summaries.first, first.configHash != summary.configHash {
        throw InputError(
          "\(output.path) ran another config (hash \(summary.configHash.prefix(12))… vs \(first.configHash.prefix(12))…)"
        )
      }
      summaries.append(summary)
      for record in try RecordCoding.readLines(output.appendingPathComponent("records.jsonl")) {
        if let existing = byFile[record.file], existing != record {
          throw InputError("\(record.file) has different records in two shards")
        }
        byFile[record.file] = record
      }
      try copyCrops(of: output, into: destination)
    }
    let records = byFile.values.sorted { $0.file < $1.file }
    try RunOutputs.writeRecords(records, to: destination)
    let summary = mergedSummary(summaries, records: records)
    try summary.write(to: destination.appendingPathComponent("run.json"))
    try RunOutputs.writeDerived(records: records, summary: summary, to: destination)
    return summary
  }

  private static func readSummary(of output: URL) throws -> RunSummary {
    guard let summary = RunSummary.read(in: output) else {
      throw InputError("\(output.path) holds no run.json: not a snapsort output folder")
    }
    return summary
  }

  /// Crops are named by content hash, so copies from several shards never collide.
  private static func copyCrops(of output: URL, into destination: URL) throws {
    let fileManager = FileManager.default
    let cards = output.appendingPathComponent("cards")
    guard let names = try? fileManager.contentsOfDirectory(atPath: cards.path) else { return }
    let target = destination.appendingPathComponent("cards")
    try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
    for name in names where !fileManager.fileExists(atPath: target.appendingPathComponent(name).path) {
      try fileManager.copyItem(
        at: cards.appendingPathComponent(name), to: target.appendingPathComponent(name))
    }
  }

  /// The shards' summaries as one run's over `records`.
  private static func mergedSummary(_ summaries: [RunSummary], records: [Record]) -> RunSummary {
    let failed = records.filter { $0.status == .error }.count
    let skipped = Set(summaries.flatMap(\.skippedFiles)).sorted()
    return RunSummary(
      version: SnapsortVersion.current, configHash: summaries[0].configHash, config: summaries[0].config,
      // Shards of one run were given the same paths; shards run on other machines may not have been.
      inputPaths: Set(summaries.map(\.inputPaths)).count == 1 ? summaries[0].inputPaths : nil,
      startedAt: summaries.map(\.startedAt).min() ?? "", wallSeconds: summaries.map(\.wallSeconds).max() ?? 0,
      jobs: summaries.map(\.jobs).reduce(0, +),
      counts: .init(
        inputs: records.count, ok: records.count - failed, error: failed, skipped: skipped.count,
        notStarted: summaries.map(\.counts.notStarted).reduce(0, +),
        reused: summaries.map(\.counts.reused).reduce(0, +)),
      stages: mergedStages(summaries), skippedFiles: skipped,
      skippedReasons: summaries.reduce(into: [:]) {
        $0.merge($1.skippedReasons ?? [:]) { first, _ in first }
      },
      interrupted: summaries.contains { $0.interrupted })
  }

  private static func mergedStages(_ summaries: [RunSummary]) -> [String: RunSummary.StageTiming] {
    var stages: [String: RunSummary.StageTiming] = [:]
    for summary in summaries {
      for (name, timing) in summary.stages {
        // Percentiles of shards cannot be combined exactly; keep the slowest shard's as a bound.
        var merged = stages[name] ?? RunSummary.StageTiming(count: 0, p50Ms: 0, p95Ms: 0, totalMs: 0)
        merged.count += timing.count
        merged.totalMs += timing.totalMs
        merged.p50Ms = max(merged.p50Ms, timing.p50Ms)
        merged.p95Ms = max(merged.p95Ms, timing.p95Ms)
        if let cpu = timing.cpuP50Ms { merged.cpuP50Ms = max(merged.cpuP50Ms ?? 0, cpu) }
        if let cpu = timing.cpuP95Ms { merged.cpuP95Ms = max(merged.cpuP95Ms ?? 0, cpu) }
        stages[name] = merged
      }
    }
    return stages
  }
}
