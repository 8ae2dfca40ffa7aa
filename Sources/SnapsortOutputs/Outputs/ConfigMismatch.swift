import Foundation

/// A run into an output folder that holds records of another config, or of a config nothing
/// names: resuming would mix two configs' records, replacing them would lose the earlier ones
/// unasked.
public struct ConfigMismatch: Error, CustomStringConvertible, Sendable {
  public var outputDirectory: URL
  public var earlier: EarlierRun
  /// The config file of the run that was refused.
  public var configName: String?

  public var description: String {
    let folder = outputDirectory.path
    guard let hash = earlier.configHash else {
      return "\(folder) holds records, but no run.json says which config made them"
    }
    let theirs = earlier.configName.map { "\($0), " } ?? ""
    let ours = configName.map { " (\($0))" } ?? ""
    return
      "\(folder) holds the records of another config (\(theirs)hash \(hash.prefix(12))…) than this run's\(ours)"
  }
}
