import Foundation

/// The one JSON form of records: sorted keys, no escaped slashes, one line each. Byte-identical
/// for equal records, which makes regression runs a diff.
public enum RecordCoding {
  public static func encodeLine(_ record: Record) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(record)
  }

  public static func decode(_ line: Data) throws -> Record {
    try JSONDecoder().decode(Record.self, from: line)
  }

  /// Reads a `records.jsonl` file.
  public static func readLines(_ url: URL) throws -> [Record] {
    let data = try Data(contentsOf: url)
    return try data.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }.map { try decode(Data($0)) }
  }
}

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
}
