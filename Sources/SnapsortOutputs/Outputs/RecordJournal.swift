import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

#if canImport(Glibc)
  import Glibc
#endif

/// An append-only log of finished records in `OUT/.snapsort/journal.jsonl`, written as each photo
/// completes, so a killed run loses at most the photos in flight.
///
/// Each record is one `write(2)` of a whole line; a line torn by SIGKILL can only be the last
/// and is ignored when read back.
public final class RecordJournal {
  public static func url(in outputDirectory: URL) -> URL {
    outputDirectory.appendingPathComponent(".snapsort/journal.jsonl")
  }

  private let descriptor: Int32

  public init(outputDirectory: URL, configHash: String) throws {
    let url = Self.url(in: outputDirectory)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    if Self.configHash(in: outputDirectory) != configHash {
      try? FileManager.default.removeItem(at: url)
      try AtomicFile.write(Data(configHash.utf8), to: Self.configHashURL(in: outputDirectory))
    }
    descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw InputError("cannot open \(url.path) for writing") }
  }

  deinit {
    close(descriptor)
  }

  public func append(_ record: Record) throws {
    var line = try RecordCoding.encodeLine(record)
    line.append(UInt8(ascii: "\n"))
    try line.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw InputError("cannot write the journal: \(String(cString: strerror(errno)))")
        }
        offset += written
      }
    }
  }

  /// The hash of the config the journal's records are of (kept after the journal is removed).
  public static func configHash(in outputDirectory: URL) -> String? {
    try? String(contentsOf: configHashURL(in: outputDirectory), encoding: .utf8)
  }

  private static func configHashURL(in outputDirectory: URL) -> URL {
    url(in: outputDirectory).deletingLastPathComponent().appendingPathComponent("config-hash")
  }

  /// The records of an earlier run of the same config into this folder: its `records.jsonl`
  /// plus whatever its journal holds (the journal wins: it is newer).
  ///
  /// `records.jsonl` is the run's that run.json describes, and the journal may be another run's
  /// (a `--fresh` run of another config, killed): each is taken only when its own config is this.
  public static func previousRecords(in outputDirectory: URL, configHash: String) -> [Record] {
    var records: [Record] = []
    if RunSummary.read(in: outputDirectory)?.configHash == configHash {
      records = (try? RecordCoding.readLines(outputDirectory.appendingPathComponent("records.jsonl"))) ?? []
    }
    guard Self.configHash(in: outputDirectory) == configHash else { return records }
    if let data = try? Data(contentsOf: url(in: outputDirectory)) {
      for line in data.split(separator: UInt8(ascii: "\n")) {
        if let record = try? RecordCoding.decode(Data(line)) { records.append(record) }
      }
    }
    return records
  }

  /// Forgets the journal once `records.jsonl` holds everything.
  public static func remove(in outputDirectory: URL) {
    try? FileManager.default.removeItem(at: url(in: outputDirectory))
  }
}
