import Foundation
import SnapsortStages

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
