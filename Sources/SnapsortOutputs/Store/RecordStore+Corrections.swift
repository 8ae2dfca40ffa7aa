import Foundation
import GRDB
import SnapsortCore
import SnapsortImaging
import SnapsortStages

extension RecordStore {
  /// One row per corrected field of a record, keyed by content hash as tags are: a run never
  /// writes here, so a person's value survives every rerun, and the pipeline's value stays in
  /// `record_json` beside it.
  static let correctionsSchema = """
    CREATE TABLE corrections (
      key TEXT NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,               -- JSON
      updated_at REAL NOT NULL,
      PRIMARY KEY (key, field)
    )
    """

  /// Changes a file's corrections and lays them over its record in the summary columns and the
  /// search index, in one transaction. Returns the corrections afterwards.
  ///
  /// - Parameter change: sets or clears fields (nil removes a person's value, so the
  ///   pipeline's shows again).
  /// - Throws: `InputError` for an unknown file or a value no field can hold (nothing changes).
  @discardableResult
  public func correct(
    file: String, now: Date = Date(), _ change: (inout RecordCorrections) throws -> Void
  ) throws -> RecordCorrections {
    try queue.write { db in
      let (key, id) = try self.key(forFile: file, in: db)
      var corrections = try Self.corrections(key: key, in: db)
      try change(&corrections)
      try corrections.validate()
      for (field, json) in try corrections.storedValues() {
        if let json {
          try db.execute(
            sql: """
              INSERT INTO corrections(key, field, value, updated_at) VALUES (?, ?, ?, ?)
              ON CONFLICT(key, field) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
              WHERE value != excluded.value
              """,
            arguments: [key, field.rawValue, json, now.timeIntervalSince1970])
        } else {
          try db.execute(
            sql: "DELETE FROM corrections WHERE key = ? AND field = ?", arguments: [key, field.rawValue])
        }
      }
      try Self.refreshSummary(id: id, key: key, now: now, in: db)
      return corrections
    }
  }

  /// A file's corrections (empty when nobody corrected it).
  public func corrections(file: String) throws -> RecordCorrections {
    try queue.read { db in try Self.corrections(key: try self.key(forFile: file, in: db).key, in: db) }
  }

  /// Every corrected photo's corrections, by its file name in the run (each of identical photos
  /// gets its content's corrections).
  public func correctionsByFile() throws -> [String: RecordCorrections] {
    try queue.read { db in
      let corrections = try Self.allCorrections(in: db)
      var byFile: [String: RecordCorrections] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT file, key FROM record_files") {
        if let corrected = corrections[row["key"] as String] { byFile[row["file"]] = corrected }
      }
      return byFile
    }
  }

  /// Every record's corrected corners, by content hash.
  public func correctedQuads() throws -> [String: Quad] {
    try queue.read { db in try Self.allCorrections(in: db).compactMapValues(\.quad) }
  }

  static func corrections(key: String, in db: Database) throws -> RecordCorrections {
    RecordCorrections(
      rows: try Row.fetchAll(
        db, sql: "SELECT field, value FROM corrections WHERE key = ?", arguments: [key]
      ).map { ($0["field"], $0["value"]) })
  }

  /// Every corrected record's corrections, by record key.
  static func allCorrections(in db: Database) throws -> [String: RecordCorrections] {
    var rows: [String: [(field: String, json: String)]] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT key, field, value FROM corrections") {
      rows[row["key"], default: []].append((row["field"], row["value"]))
    }
    return rows.mapValues(RecordCorrections.init(rows:))
  }

  /// The record of row `id` as people see it: the pipeline's, with the person's values over it.
  static func correctedRecord(id: Int64, key: String, in db: Database) throws -> SnapsortStages.Record {
    let json =
      try String.fetchOne(db, sql: "SELECT json FROM record_json WHERE record_id = ?", arguments: [id])
      ?? "{}"
    return try corrections(key: key, in: db).applied(to: RecordCoding.decode(Data(json.utf8)))
  }

  /// Writes row `id`'s summary columns and search text again from its corrected record.
  private static func refreshSummary(id: Int64, key: String, now: Date, in db: Database) throws {
    let record = try correctedRecord(id: id, key: key, in: db)
    let columns = summaryColumns(of: record, key: key).filter { $0.key != "key" && $0.key != "file" }
    let names = columns.keys.sorted()
    try db.execute(
      sql:
        "UPDATE records SET \(names.map { "\($0) = ?" }.joined(separator: ", ")), updated_at = ? WHERE id = ?",
      arguments: StatementArguments(names.map { columns[$0]! }) + [now.timeIntervalSince1970, id])
    try reindex(id: id, key: key, record: record, in: db)
    // Corrected items are the ones `stats` counts.
    try db.execute(sql: "DELETE FROM barcodes WHERE record_id = ?", arguments: [id])
    try db.execute(sql: "DELETE FROM receipt_items WHERE record_id = ?", arguments: [id])
    try insertCodesAndItems(of: record, id: id, in: db)
    // A corrected merchant may join or leave a group (`stats`, `search --merchant`).
    if record.kind == .receipt { try regroupMerchants(in: db) }
  }
}

/// A record someone corrected: the run's own record (the pipeline's values, as the last run or
/// re-warp wrote them) and the person's values for some of its fields.
public struct CorrectedEntry: Sendable {
  public var record: SnapsortStages.Record
  public var corrections: RecordCorrections
}

extension RecordStore {
  /// Every record with at least one corrected field, by file: labelled data for `check
  /// --corrections` and `train-issuers --corrections`.
  public func correctedEntries() throws -> [CorrectedEntry] {
    try queue.read { db in
      let corrections = try Self.allCorrections(in: db)
      return try Row.fetchAll(
        db,
        sql: """
          SELECT r.key, j.json FROM records r JOIN record_json j ON j.record_id = r.id
          WHERE r.key IN (SELECT key FROM corrections) ORDER BY r.file
          """
      ).compactMap { row in
        let key: String = row["key"]
        guard let corrected = corrections[key], !corrected.isEmpty else { return nil }
        let json: String = row["json"]
        return CorrectedEntry(record: try RecordCoding.decode(Data(json.utf8)), corrections: corrected)
      }
    }
  }
}
