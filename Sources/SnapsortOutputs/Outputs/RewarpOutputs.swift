import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// What follows a rewarp (`snapsort rewarp` and a corner dragged in `snapsort review`): the run's
/// files written again from its new records, in step.
public enum RewarpOutputs {
  /// records.jsonl, run.json's counts, the crops no record names removed, and the store and
  /// report derived from the records.
  ///
  /// - Parameter roots: the folders the run's photos are under, so the store and the report
  ///   keep each photo's path.
  public static func write(
    _ outcome: Rewarp.Outcome, summary: RunSummary, roots: [URL], to outputDirectory: URL
  ) throws {
    var summary = summary
    let failed = outcome.records.filter { $0.status == .error }.count
    summary.counts.ok = outcome.records.count - failed
    summary.counts.error = failed
    var sources: [String: URL] = [:]
    for record in outcome.records {
      if let url = InputScanner.url(of: record.file, roots: roots),
        FileManager.default.fileExists(atPath: url.path)
      {
        sources[record.file] = url
      }
    }
    try RunOutputs.writeRecords(outcome.records, to: outputDirectory)
    try summary.write(to: outputDirectory.appendingPathComponent("run.json"))
    RunOutputs.removeOrphanedCrops(keeping: outcome.records, in: outputDirectory)
    try RunOutputs.writeDerived(
      records: outcome.records, summary: summary, to: outputDirectory, sources: sources)
  }
}
