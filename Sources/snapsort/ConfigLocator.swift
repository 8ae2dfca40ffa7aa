import Foundation
import SnapsortCore

/// Finds `pipeline.json` and presets: in the working folder first, then beside the executable
/// (walking up from `.build/release`, so a built checkout works from anywhere).
enum ConfigLocator {
  static func defaultConfig() -> URL? {
    find("pipeline.json")
  }

  static func preset(_ name: String) -> URL? {
    find("presets/\(name).json")
  }

  static func presetNames() -> [String] {
    guard let directory = find("presets") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }

  private static func find(_ relative: String) -> URL? {
    let fileManager = FileManager.default
    let cwd = URL(fileURLWithPath: fileManager.currentDirectoryPath)
    var candidates = [cwd.appendingPathComponent(relative)]
    var directory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
      .resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<5 {
      candidates.append(directory.appendingPathComponent(relative))
      directory = directory.deletingLastPathComponent()
    }
    return candidates.first { fileManager.fileExists(atPath: $0.path) }
  }
}
