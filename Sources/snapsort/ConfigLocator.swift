import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

/// --config or --preset, for the commands that run a pipeline.
struct ConfigChoice: ParsableArguments {
  @Option(
    name: .long, help: "Pipeline config file (default: ./pipeline.json).",
    completion: .file(extensions: ["json"]))
  var config: String?

  @Option(name: .long, help: "A preset from presets/: cards, receipts or screenshots.")
  var preset: String?

  func validate() throws {
    if config != nil && preset != nil {
      throw ValidationError("--config and --preset name two configs; give one.")
    }
  }

  func resolve() throws -> URL { try ConfigLocator.resolve(config: config, preset: preset) }
}

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

  /// The config a command names with --config or --preset, else the default pipeline.json;
  /// reports what is missing and throws the usage exit.
  static func resolve(config: String?, preset: String?) throws -> URL {
    if let config {
      let url = URL(fileURLWithPath: config)
      guard FileManager.default.fileExists(atPath: url.path) else {
        Terminal.error("config file not found: \(config)")
        throw SnapsortExit.usage
      }
      return url
    }
    if let preset {
      guard let url = Self.preset(preset) else {
        let known = Self.presetNames().joined(separator: ", ")
        Terminal.error("unknown preset \"\(preset)\" (known: \(known.isEmpty ? "none found" : known))")
        throw SnapsortExit.usage
      }
      return url
    }
    guard let url = Self.defaultConfig() else {
      Terminal.error("no pipeline.json here or beside the snapsort executable; pass --config or --preset")
      throw SnapsortExit.usage
    }
    return url
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
