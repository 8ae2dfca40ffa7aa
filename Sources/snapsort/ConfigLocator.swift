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

  /// The config of a finished run: --config or --preset when given, else the file its run.json
  /// names while that file is there, else the default. (Whether it is the run's own is for the
  /// caller to check against run.json's hash.)
  func resolve(forRunOf summary: RunSummary) throws -> URL {
    if config == nil, preset == nil, let name = summary.config, FileManager.default.fileExists(atPath: name) {
      return URL(fileURLWithPath: name)
    }
    return try resolve()
  }
}

/// Finds `pipeline.json` and presets: in the working folder first, then beside the executable
/// (walking up from `.build/release`, so a built checkout works from anywhere), then in an
/// installed share folder (`../share/snapsort/` from the executable, as `make install` or a
/// package lays it out), and last the copies compiled into the binary (`BundledConfigs`), so a
/// `snapsort` copied anywhere keeps the presets its `--help` lists.
enum ConfigLocator {
  static func defaultConfig() -> URL? {
    find("pipeline.json")
  }

  static func preset(_ name: String) -> URL? {
    find("presets/\(name).json")
  }

  static func presetNames() -> [String] {
    var names = Set(
      BundledConfigs.files.keys.filter { $0.hasPrefix("presets/") }.map {
        String($0.dropFirst("presets/".count).dropLast(".json".count))
      })
    if let directory = find("presets") {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      names.formUnion(files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
    }
    return names.sorted()
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
    let executableDirectory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
      .resolvingSymlinksInPath().deletingLastPathComponent()
    candidates.append(
      executableDirectory.deletingLastPathComponent().appendingPathComponent("share/snapsort")
        .appendingPathComponent(relative))
    return candidates.first { fileManager.fileExists(atPath: $0.path) } ?? bundled(relative)
  }

  /// A compiled-in config written to a file (the pipeline loads configs from files): under the
  /// temporary folder, named by version, written atomically so concurrent runs agree.
  private static func bundled(_ relative: String) -> URL? {
    guard let text = BundledConfigs.files[relative] else { return nil }
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapsort-\(SnapsortVersion.current)-\(getuid())")
      .appendingPathComponent(relative)
    if (try? String(contentsOf: url, encoding: .utf8)) == text { return url }
    do {
      try AtomicFile.write(Data(text.utf8), to: url)
      return url
    } catch {
      return nil
    }
  }
}
