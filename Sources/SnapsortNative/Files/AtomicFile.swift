import Foundation

/// Writes a file atomically: to a temporary name in the same folder, then renamed over the target,
/// so a reader (or a killed run) never sees half a file.
public enum AtomicFile {
  public static func write(_ data: Data, to url: URL) throws {
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    try data.write(to: temporary)
    if rename(temporary.path, url.path) != 0 {
      let code = errno
      try? FileManager.default.removeItem(at: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": code])
    }
  }

  /// Renames `source` over `target` in one step (both in the same file system), so `target` is
  /// always either the old file or the new one, never missing or half written.
  public static func move(_ source: URL, over target: URL) throws {
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    if rename(source.path, target.path) != 0 {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path, "errno": errno])
    }
  }
}
