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

  /// Removes the crops in `cards/` that no record names any more (a photo that left the folder,
  /// a rerun of a config that writes no crops), so the folder holds what its records say.
  /// Only names of the form the warp stage writes are touched.
  public static func removeOrphanedCrops(keeping records: [Record], in outputDirectory: URL) {
    let named = Set(records.compactMap { $0.card?.crop })
    let cards = outputDirectory.appendingPathComponent("cards")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: cards.path)) ?? []
    for name in names where isCropName(name) && !named.contains("cards/\(name)") {
      try? FileManager.default.removeItem(at: cards.appendingPathComponent(name))
    }
  }

  /// `<first 16 hex digits of the photo's sha256>.jpg`, as `WarpStage` names a crop.
  private static func isCropName(_ name: String) -> Bool {
    guard name.hasSuffix(".jpg") else { return false }
    let stem = name.dropLast(4)
    return stem.count == 16 && stem.allSatisfy { $0.isHexDigit && !$0.isUppercase }
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
