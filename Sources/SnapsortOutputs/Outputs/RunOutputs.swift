import Foundation
import SnapsortNative
import SnapsortStages

/// Writes a run's files from its records; `snapsort run` and `snapsort merge` both end here, so
/// a merged output has exactly the files a single run has.
public enum RunOutputs {
  /// `records.jsonl`, sorted by path, atomically.
  @discardableResult
  public static func writeRecords(_ records: [Record], to outputDirectory: URL) throws -> URL {
    var lines = Data()
    for record in records.sorted(by: { $0.file < $1.file }) {
      lines.append(try RecordCoding.encodeLine(record))
      lines.append(UInt8(ascii: "\n"))
    }
    let url = outputDirectory.appendingPathComponent("records.jsonl")
    try AtomicFile.write(lines, to: url)
    return url
  }

  /// The files derived from the records: the SQLite store and the HTML report.
  ///
  /// - Parameter sources: each record's photo by its `file` name, when known (a run knows them,
  ///   a merge does not), so the report can show the photo under its detected quad.
  public static func writeDerived(
    records: [Record], summary: RunSummary, to outputDirectory: URL, sources: [String: URL] = [:]
  ) throws {
    let store = try RecordStore(
      url: outputDirectory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: records, sources: sources)
    try HTMLReport.write(records: records, summary: summary, store: store, to: outputDirectory)
  }
}
