import Foundation
import XCTest

/// Runs the built `snapsort` executable, as a user would.
enum CLI {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The executable SwiftPM built next to the test bundle.
  static var executable: URL {
    let bundleDirectory = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
      .deletingLastPathComponent()
    for directory in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
      let candidate = directory.appendingPathComponent("snapsort")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return root.appendingPathComponent(".build/debug/snapsort")
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  @discardableResult
  static func run(
    _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:],
    executable: URL = CLI.executable
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? root
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "100"
    environment["OMP_THREAD_LIMIT"] = "1"
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting, so a large output cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-cli-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
