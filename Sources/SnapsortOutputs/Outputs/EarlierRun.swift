import Foundation

/// The records an output folder already holds and the config that made them, so that a rerun
/// resumes only from records of its own config and never replaces another config's records
/// unasked.
public struct EarlierRun: Sendable, Equatable {
  /// The config's hash (`config_hash` in run.json); nil when nothing says which config it was.
  public var configHash: String?
  /// The config file run.json names, when it names the same config.
  public var configName: String?

  /// What `outputDirectory` holds: nil when it holds no records (no folder, an empty one, or a
  /// run of no photos).
  ///
  /// An unfinished run's journal is newer than run.json, so while there is one its config is
  /// the folder's; else run.json's is.
  public static func find(in outputDirectory: URL) -> EarlierRun? {
    let journal = RecordJournal.url(in: outputDirectory)
    let records = outputDirectory.appendingPathComponent("records.jsonl")
    let unfinished = FileManager.default.fileExists(atPath: journal.path)
    guard unfinished || Self.size(of: records) > 0 else { return nil }
    let summary = RunSummary.read(in: outputDirectory)
    let hash = unfinished ? RecordJournal.configHash(in: outputDirectory) : summary?.configHash
    return EarlierRun(
      configHash: hash, configName: summary?.configHash == hash ? summary?.config : nil)
  }

  private static func size(of url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
  }
}
