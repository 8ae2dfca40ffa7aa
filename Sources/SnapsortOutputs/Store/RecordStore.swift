import Foundation
import GRDB
import SnapsortCore
import SnapsortImaging
import SnapsortStages

/// `snapsort.sqlite`: records keyed by content hash, their barcodes and receipt items, the
/// user's tags, annotations and saved categories, and a full-text index over everything a
/// person would search for.
///
/// Owns one GRDB `DatabaseQueue`, which serialises every access on its own queue. A run writes
/// its records in one transaction, so a killed run leaves the previous store intact (SQLite
/// rolls the hot journal back on the next open). Tags and annotations are keyed by content hash
/// and never touched by a run, so they survive reruns and come back when a photo does.
public final class RecordStore {
  public static let fileName = "snapsort.sqlite"
  /// The tag and category every store starts with.
  public static let reimbursement = "reimbursement"

  let queue: DatabaseQueue
  public let url: URL

  /// Opens the store at `url`.
  ///
  /// - Parameter create: whether a missing file is created; a reading command passes false and
  ///   gets a clear error instead of an empty store.
  /// - Throws: `InputError` when the file is missing or is not a snapsort store.
  public init(url: URL, create: Bool = false) throws {
    self.url = url
    if !create && !FileManager.default.fileExists(atPath: url.path) {
      throw InputError(
        "no store at \(url.path): run `snapsort run PHOTOS --out DIR` first, or pass --db DIR/\(Self.fileName)"
      )
    }
    if create {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    }
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    configuration.prepareDatabase { db in
      db.add(
        function: DatabaseFunction(TextFolding.sqlFunctionName, argumentCount: 1, pure: true) { values in
          String.fromDatabaseValue(values[0]).map(TextFolding.fold)
        })
    }
    do {
      queue = try DatabaseQueue(path: url.path, configuration: configuration)
      try Self.migrator.migrate(queue)
    } catch let error as DatabaseError {
      throw InputError("\(url.path) is not a snapsort store: \(error.message ?? "\(error)")")
    }
  }

  // MARK: - Schema

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(sql: schemaV1)
      try addReimbursementCategory(db)
    }
    // The index holds text folded by `TextFolding.fold` (accents and case): rebuild it.
    migrator.registerMigration("v2-folded-index") { db in
      for row in try Row.fetchAll(db, sql: "SELECT id, key FROM records") {
        try Self.reindex(id: row["id"], key: row["key"], record: nil, in: db)
      }
    }
    // Where each photo was read from, so the report can be written again (after `tag`,
    // `annotate` or `snapsort report`) with the originals linked.
    migrator.registerMigration("v3-sources") { db in
      try db.execute(
        sql: "CREATE TABLE IF NOT EXISTS record_sources (file TEXT PRIMARY KEY, path TEXT NOT NULL)")
    }
    // Receipts grouped by merchant (`MerchantGrouping`), and the user's merges and splits.
    migrator.registerMigration("v4-merchant-entities") { db in
      try db.execute(sql: merchantChoicesSchema)
      try regroupMerchants(in: db)
    }
    // A person's values for a record's fields (`RecordCorrections`), kept apart from the run's.
    migrator.registerMigration("v5-corrections") { db in
      try db.execute(sql: correctionsSchema)
    }
    // Whether a receipt's own checks contradict its total, as people see the receipt (a
    // corrected amount's checks are computed again), so `--unconfirmed` and `stats` follow
    // corrections.
    migrator.registerMigration("v6-total-contradicted") { db in
      try db.execute(sql: "ALTER TABLE records ADD COLUMN total_contradicted INTEGER")
      for row in try Row.fetchAll(db, sql: "SELECT id, key FROM records WHERE kind = 'receipt'") {
        let record = try correctedRecord(id: row["id"], key: row["key"], in: db)
        try db.execute(
          sql: "UPDATE records SET total_contradicted = ? WHERE id = ?",
          arguments: [totalContradicted(record), row["id"] as Int64])
      }
    }
    return migrator
  }

  /// The tables, indexes and full-text index of version 1.
  private static let schemaV1 = """
    CREATE TABLE records (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,          -- sha256, or "file:PATH" when the file could not be read
      sha256 TEXT NOT NULL,
      file TEXT NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      name TEXT,
      issuer_id TEXT,
      issuer_name TEXT,
      issuer_confidence REAL,
      merchant TEXT,
      date TEXT,
      total TEXT,                        -- decimal text, exactly as in the record
      currency TEXT,
      header_color TEXT,
      crop TEXT,
      error TEXT,
      created_at REAL NOT NULL,
      updated_at REAL NOT NULL
    );
    -- The full record apart from the summary columns, so that scanning records for a
    -- search reads small rows.
    CREATE TABLE record_json (
      record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
      json TEXT NOT NULL
    );
    CREATE INDEX records_kind ON records(kind);
    CREATE INDEX records_date ON records(date);
    CREATE TABLE record_files (file TEXT PRIMARY KEY, key TEXT NOT NULL);
    CREATE INDEX record_files_key ON record_files(key);
    CREATE TABLE barcodes (
      record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      symbology TEXT NOT NULL,
      value TEXT NOT NULL,
      checksum_ok INTEGER,
      PRIMARY KEY (record_id, position)
    );
    CREATE TABLE receipt_items (
      record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      description TEXT NOT NULL,
      quantity TEXT,
      unit_price TEXT,
      amount TEXT NOT NULL,
      PRIMARY KEY (record_id, position)
    );
    CREATE TABLE tags (key TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (key, tag));
    CREATE INDEX tags_tag ON tags(tag);
    CREATE TABLE known_tags (tag TEXT PRIMARY KEY);
    CREATE TABLE annotations (id INTEGER PRIMARY KEY, key TEXT NOT NULL, text TEXT NOT NULL, created_at REAL NOT NULL);
    CREATE INDEX annotations_key ON annotations(key);
    CREATE TABLE categories (name TEXT PRIMARY KEY, filter TEXT NOT NULL);
    -- Trigram tokens give case-insensitive substring matching for keywords of 3+ characters;
    -- shorter keywords scan the lowercased copy in `folded`.
    CREATE VIRTUAL TABLE search_fts USING fts5(
      text, names, merchant, issuer, items, codes, annotations, tags, folded UNINDEXED,
      tokenize = 'trigram');
    """

  /// The tag and the saved category every store starts with.
  private static func addReimbursementCategory(_ db: Database) throws {
    try db.execute(sql: "INSERT INTO known_tags(tag) VALUES (?)", arguments: [reimbursement])
    let filter = try String(decoding: JSONEncoder().encode(SearchFilter(tag: reimbursement)), as: UTF8.self)
    try db.execute(
      sql: "INSERT INTO categories(name, filter) VALUES (?, ?)", arguments: [reimbursement, filter])
  }

  // MARK: - Writing a run

  /// Makes the store hold exactly `records`: rows of the same content hash are updated in
  /// place, rows of photos no longer in the run are removed (their tags and annotations stay,
  /// keyed by content hash). One transaction.
  ///
  /// - Parameter sources: each photo's absolute path by its `file` name, where known (a run
  ///   knows them, a merge does not: a known path is then kept).
  public func replaceRun(records: [SnapsortStages.Record], sources: [String: URL] = [:], now: Date = Date())
    throws
  {
    try replaceRun(records: records, sources: sources, now: now, failAfter: nil)
  }

  /// - Parameter failAfter: throws after this many records, for tests of the rollback.
  func replaceRun(records: [SnapsortStages.Record], sources: [String: URL] = [:], now: Date, failAfter: Int?)
    throws
  {
    try queue.write { db in
      for (file, url) in sources {
        try db.execute(
          sql:
            "INSERT INTO record_sources(file, path) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET path = excluded.path",
          arguments: [file, url.standardizedFileURL.path])
      }
      let files = Set(records.map(\.file))
      for file in try String.fetchAll(db, sql: "SELECT file FROM record_sources") where !files.contains(file)
      {
        try db.execute(sql: "DELETE FROM record_sources WHERE file = ?", arguments: [file])
      }
      try db.execute(sql: "DELETE FROM record_files")
      var keep = Set<String>()
      for record in records.sorted(by: { $0.file < $1.file }) {
        let key = Self.key(of: record)
        try db.execute(
          sql:
            "INSERT INTO record_files(file, key) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET key = excluded.key",
          arguments: [record.file, key])
        // Identical photos under several paths are one row, named by the first path.
        if keep.insert(key).inserted { try upsert(record, key: key, now: now, in: db) }
        if let failAfter, keep.count >= failAfter {
          throw InputError("injected failure after \(failAfter) records")
        }
      }
      let stale = try String.fetchAll(db, sql: "SELECT key FROM records").filter { !keep.contains($0) }
      for key in stale {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM records WHERE key = ?", arguments: [key]) {
          try db.execute(sql: "DELETE FROM search_fts WHERE rowid = ?", arguments: [id])
          try db.execute(sql: "DELETE FROM records WHERE id = ?", arguments: [id])
        }
      }
      try Self.regroupMerchants(in: db)
    }
  }

  static func key(of record: SnapsortStages.Record) -> String {
    record.sha256.isEmpty ? "file:\(record.file)" : record.sha256
  }

  private func upsert(_ record: SnapsortStages.Record, key: String, now: Date, in db: Database) throws {
    let json = String(decoding: try RecordCoding.encodeLine(record), as: UTF8.self)
    let existing = try Row.fetchOne(
      db, sql: "SELECT r.id, j.json FROM records r JOIN record_json j ON j.record_id = r.id WHERE r.key = ?",
      arguments: [key])
    if let existing, (existing["json"] as String) == json {
      let id: Int64 = existing["id"]
      try db.execute(sql: "UPDATE records SET file = ? WHERE id = ?", arguments: [record.file, id])
      return
    }
    // The summary columns and the index show the person's values; record_json keeps the run's.
    let corrected = try Self.corrections(key: key, in: db).applied(to: record)
    let columns = Self.summaryColumns(of: corrected, key: key)
    let names = columns.keys.sorted()
    let id: Int64
    if let existing {
      id = existing["id"]
      let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")
      try db.execute(
        sql: "UPDATE records SET \(assignments), updated_at = ? WHERE id = ?",
        arguments: StatementArguments(names.map { columns[$0]! }) + [now.timeIntervalSince1970, id])
      try db.execute(sql: "DELETE FROM barcodes WHERE record_id = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM receipt_items WHERE record_id = ?", arguments: [id])
    } else {
      let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
      try db.execute(
        sql:
          "INSERT INTO records(\(names.joined(separator: ", ")), created_at, updated_at) VALUES (\(placeholders), ?, ?)",
        arguments: StatementArguments(names.map { columns[$0]! })
          + [now.timeIntervalSince1970, now.timeIntervalSince1970])
      id = db.lastInsertedRowID
    }
    try db.execute(
      sql:
        "INSERT INTO record_json(record_id, json) VALUES (?, ?) ON CONFLICT(record_id) DO UPDATE SET json = excluded.json",
      arguments: [id, json])
    try Self.insertCodesAndItems(of: corrected, id: id, in: db)
    try Self.reindex(id: id, key: key, record: corrected, in: db)
  }

  /// The `records` row's columns apart from its id and times, by name.
  static func summaryColumns(
    of record: SnapsortStages.Record, key: String
  ) -> [String: (any DatabaseValueConvertible)?] {
    let receipt = record.receipt
    let card = record.card
    return [
      "key": key, "sha256": record.sha256, "file": record.file, "kind": record.kind.rawValue,
      "status": record.status.rawValue, "name": card?.name?.suggested,
      "issuer_id": card?.issuer?.id, "issuer_name": card?.issuer?.name,
      "issuer_confidence": card?.issuer.map { $0.confidence }, "merchant": receipt?.merchant,
      "date": receipt?.date,
      "total": receipt?.total?.description, "currency": receipt?.currency,
      "header_color": card?.headerColor ?? card?.colors?.first?.hex,
      "crop": card?.crop, "error": record.error.map { "\($0.stage): \($0.message)" },
      "total_contradicted": totalContradicted(record),
    ]
  }

  /// 1 when a receipt's own checks contradict its total (items against the subtotal, or subtotal,
  /// savings and tax against the total), 0 when they do not, nil for anything but a receipt.
  static func totalContradicted(_ record: SnapsortStages.Record) -> Int? {
    guard record.kind == .receipt else { return nil }
    let checks = record.receipt?.checks
    return checks?.totalsConsistent == false || checks?.itemsMatchSubtotal == false ? 1 : 0
  }

  /// The record's barcodes and receipt items into their tables, in order, under row `id`.
  static func insertCodesAndItems(of record: SnapsortStages.Record, id: Int64, in db: Database) throws {
    for (position, code) in (record.card?.barcodes ?? []).enumerated() {
      try db.execute(
        sql:
          "INSERT INTO barcodes(record_id, position, symbology, value, checksum_ok) VALUES (?, ?, ?, ?, ?)",
        arguments: [id, position, code.symbology, code.value, code.checksumOK])
    }
    for (position, item) in (record.receipt?.items ?? []).enumerated() {
      try db.execute(
        sql: """
          INSERT INTO receipt_items(record_id, position, description, quantity, unit_price, amount)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          id, position, item.description, item.quantity, item.unitPrice?.description, item.amount.description,
        ])
    }
  }

  /// Rewrites one record's row in the full-text index from its record (the stored one with its
  /// corrections when nil), tags and annotations.
  static func reindex(id: Int64, key: String, record: SnapsortStages.Record?, in db: Database) throws {
    let record = try record ?? correctedRecord(id: id, key: key, in: db)
    let card = record.card
    let receipt = record.receipt
    // OCR lines, an error's message and stage notes: everything a person may remember reading.
    let text =
      (((card?.text ?? []) + (receipt?.text ?? [])).map(\.text) + [record.error?.message].compactMap { $0 }
      + (record.notes ?? [])).joined(separator: "\n")
    let names = ([record.file] + [card?.name?.suggested].compactMap { $0 } + (card?.name?.alternatives ?? []))
      .joined(separator: "\n")
    let issuer = [card?.issuer?.name, card?.issuer?.id, card?.payment?.network].compactMap { $0 }.joined(
      separator: "\n")
    let items = (receipt?.items ?? []).map(\.description).joined(separator: "\n")
    let codes = (card?.barcodes ?? []).map(\.value).joined(separator: "\n")
    let annotations = try String.fetchAll(
      db, sql: "SELECT text FROM annotations WHERE key = ? ORDER BY id", arguments: [key]
    ).joined(separator: "\n")
    let tags = try String.fetchAll(
      db, sql: "SELECT tag FROM tags WHERE key = ? ORDER BY tag", arguments: [key]
    )
    .joined(separator: "\n")
    // Folded as keywords are, so the trigram index matches `zabka` in `Żabka`.
    let columns = [text, names, receipt?.merchant ?? "", issuer, items, codes, annotations, tags].map(
      TextFolding.fold)
    let folded = columns.joined(separator: "\n")
    try db.execute(sql: "DELETE FROM search_fts WHERE rowid = ?", arguments: [id])
    try db.execute(
      sql: """
        INSERT INTO search_fts(rowid, text, names, merchant, issuer, items, codes, annotations, tags, folded)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: StatementArguments([id] + columns + [folded]))
  }

  // MARK: - Organising

  /// The record key of a file as the run named it (or a path ending in it).
  func key(forFile file: String, in db: Database) throws -> (key: String, id: Int64) {
    var key = try String.fetchOne(db, sql: "SELECT key FROM record_files WHERE file = ?", arguments: [file])
    if key == nil {
      // `instr`-free suffix test: LIKE would read `_` and `%` in a name as wildcards.
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT file, key FROM record_files WHERE substr(?, -length(file) - 1) = '/' || file "
          + "OR substr(file, -length(?) - 1) = '/' || ? ORDER BY file",
        arguments: [file, file, file])
      let keys = Set(rows.map { $0["key"] as String })
      if keys.count > 1 {
        let candidates = rows.map { $0["file"] as String }.joined(separator: ", ")
        throw InputError("\(file) is ambiguous: it names \(candidates); give more of the path")
      }
      key = keys.first
    }
    guard let key,
      let id = try Int64.fetchOne(db, sql: "SELECT id FROM records WHERE key = ?", arguments: [key])
    else { throw InputError("\(file) is not in the store (paths are as in records.jsonl)") }
    return (key, id)
  }

  /// The one case rule of tags and category names: lowercased, surrounding whitespace dropped
  /// (`Reimbursement` is the tag and the category `reimbursement`).
  public static func normalizedName(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// Rejects a tag that could not be told apart in a listing (tags are listed joined by
  /// commas) or that is empty.
  public static func validateTag(_ tag: String) throws {
    if normalizedName(tag).isEmpty { throw InputError("a tag cannot be empty") }
    if tag.contains(",") {
      throw InputError("\"\(tag)\": a tag cannot contain a comma (give several tags as separate words)")
    }
  }

  /// Adds tags (lowercased) to a file's record; returns its tags afterwards.
  @discardableResult
  public func tag(file: String, tags: [String]) throws -> [String] {
    for tag in tags { try Self.validateTag(tag) }
    return try queue.write { db in
      let (key, id) = try self.key(forFile: file, in: db)
      for tag in tags.map(Self.normalizedName) where !tag.isEmpty {
        try db.execute(sql: "INSERT OR IGNORE INTO tags(key, tag) VALUES (?, ?)", arguments: [key, tag])
        try db.execute(sql: "INSERT OR IGNORE INTO known_tags(tag) VALUES (?)", arguments: [tag])
      }
      try Self.reindex(id: id, key: key, record: nil, in: db)
      return try String.fetchAll(db, sql: "SELECT tag FROM tags WHERE key = ? ORDER BY tag", arguments: [key])
    }
  }

  /// Removes tags from a file's record; returns its tags afterwards.
  ///
  /// - Throws: `InputError` naming a tag the record does not carry.
  @discardableResult
  public func untag(file: String, tags: [String]) throws -> [String] {
    try queue.write { db in
      let (key, id) = try self.key(forFile: file, in: db)
      for tag in tags.map(Self.normalizedName) {
        try db.execute(sql: "DELETE FROM tags WHERE key = ? AND tag = ?", arguments: [key, tag])
        if db.changesCount == 0 { throw InputError("\(file) has no tag \"\(tag)\"") }
      }
      try Self.reindex(id: id, key: key, record: nil, in: db)
      return try String.fetchAll(db, sql: "SELECT tag FROM tags WHERE key = ? ORDER BY tag", arguments: [key])
    }
  }

  /// Adds a searchable note to a file's record; returns its notes afterwards.
  @discardableResult
  public func annotate(file: String, text: String, now: Date = Date()) throws -> [String] {
    try queue.write { db in
      let (key, id) = try self.key(forFile: file, in: db)
      try db.execute(
        sql: "INSERT INTO annotations(key, text, created_at) VALUES (?, ?, ?)",
        arguments: [key, text, now.timeIntervalSince1970])
      try Self.reindex(id: id, key: key, record: nil, in: db)
      return try Self.notes(key: key, in: db)
    }
  }

  /// A file's notes, oldest first (`annotate --remove N` counts from 1 in this order).
  public func notes(file: String) throws -> [String] {
    try queue.read { db in try Self.notes(key: try self.key(forFile: file, in: db).key, in: db) }
  }

  /// Removes a file's note number `number` (from 1, as `notes(file:)` lists them); returns the
  /// notes left.
  @discardableResult
  public func removeNote(file: String, number: Int) throws -> [String] {
    try queue.write { db in
      let (key, id) = try self.key(forFile: file, in: db)
      let ids = try Int64.fetchAll(
        db, sql: "SELECT id FROM annotations WHERE key = ? ORDER BY id", arguments: [key])
      guard number >= 1, number <= ids.count else {
        throw InputError(
          ids.isEmpty ? "\(file) has no notes" : "\(file) has notes 1 to \(ids.count), not \(number)")
      }
      try db.execute(sql: "DELETE FROM annotations WHERE id = ?", arguments: [ids[number - 1]])
      try Self.reindex(id: id, key: key, record: nil, in: db)
      return try Self.notes(key: key, in: db)
    }
  }

  static func notes(key: String, in db: Database) throws -> [String] {
    try String.fetchAll(db, sql: "SELECT text FROM annotations WHERE key = ? ORDER BY id", arguments: [key])
  }

  /// One file's stored record (with a person's corrections over it) and its tags and notes, for
  /// `snapsort show`.
  public func entry(file: String) throws -> (record: SnapsortStages.Record, tags: [String], notes: [String]) {
    try queue.read { db in
      let (key, id) = try self.key(forFile: file, in: db)
      var record = try Self.correctedRecord(id: id, key: key, in: db)
      // The row is named by the first of identical photos; show the one asked for.
      if let named = try String.fetchOne(
        db,
        sql:
          "SELECT file FROM record_files WHERE key = ? AND (file = ? OR substr(file, -length(?) - 1) = '/' || ?)",
        arguments: [key, file, file, file])
      {
        record.file = named
      }
      let tags = try String.fetchAll(
        db, sql: "SELECT tag FROM tags WHERE key = ? ORDER BY tag", arguments: [key])
      return (record, tags, try Self.notes(key: key, in: db))
    }
  }

  /// Each record file's photo, as the run that wrote the store read it.
  public func sources() throws -> [String: URL] {
    try queue.read { db in
      var sources: [String: URL] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT file, path FROM record_sources") {
        sources[row["file"]] = URL(fileURLWithPath: row["path"])
      }
      return sources
    }
  }

  /// Tags and notes of every file, for the report.
  public func labels() throws -> [String: (tags: [String], notes: [String])] {
    try queue.read { db in
      var labels: [String: (tags: [String], notes: [String])] = [:]
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT f.file,
            (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM tags WHERE key = f.key ORDER BY tag)) AS tags,
            (SELECT group_concat(text, char(31)) FROM (SELECT text FROM annotations WHERE key = f.key ORDER BY id))
              AS notes
          FROM record_files f
          """)
      {
        let tags = (row["tags"] as String?).map { $0.components(separatedBy: "\u{1F}") } ?? []
        let notes = (row["notes"] as String?).map { $0.components(separatedBy: "\u{1F}") } ?? []
        if !tags.isEmpty || !notes.isEmpty { labels[row["file"]] = (tags, notes) }
      }
      return labels
    }
  }

  /// Each record's file and the text its search runs over, for checking the index.
  func searchableTexts() throws -> [(file: String, text: String)] {
    try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT r.file, f.folded FROM records r JOIN search_fts f ON f.rowid = r.id")
        .map {
          ($0["file"], $0["folded"])
        }
    }
  }

  public func knownTags() throws -> [String] {
    try queue.read { db in try String.fetchAll(db, sql: "SELECT tag FROM known_tags ORDER BY tag") }
  }

  /// Saves (or replaces) a named filter; the name is lowercased, as tags are.
  ///
  /// - Returns: whether a category of that name was replaced.
  @discardableResult
  public func saveCategory(name: String, filter: SearchFilter) throws -> Bool {
    try filter.validate()
    let name = Self.normalizedName(name)
    if name.isEmpty { throw InputError("a category needs a name") }
    var filter = filter
    filter.tag = filter.tag.map(Self.normalizedName)
    let json = String(decoding: try JSONEncoder().encode(filter), as: UTF8.self)
    return try queue.write { db in
      // Names saved before the case rule: one category per lowercased name.
      let existing = try String.fetchAll(
        db, sql: "SELECT name FROM categories WHERE lower(name) = ?", arguments: [name])
      try db.execute(sql: "DELETE FROM categories WHERE lower(name) = ?", arguments: [name])
      try db.execute(sql: "INSERT INTO categories(name, filter) VALUES (?, ?)", arguments: [name, json])
      return !existing.isEmpty
    }
  }

  /// Removes a saved category.
  public func removeCategory(name: String) throws {
    let name = Self.normalizedName(name)
    try queue.write { db in
      try db.execute(sql: "DELETE FROM categories WHERE lower(name) = ?", arguments: [name])
      if db.changesCount == 0 {
        let names = try String.fetchAll(db, sql: "SELECT name FROM categories ORDER BY name")
        throw InputError("no category named \(name) (saved: \(names.joined(separator: ", ")))")
      }
    }
  }

  public func categories() throws -> [(name: String, filter: SearchFilter)] {
    try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT name, filter FROM categories ORDER BY name").map { row in
        let json: String = row["filter"]
        return (row["name"], try JSONDecoder().decode(SearchFilter.self, from: Data(json.utf8)))
      }
    }
  }

  public func category(named name: String) throws -> SearchFilter {
    let name = Self.normalizedName(name)
    guard let found = try categories().first(where: { $0.name.lowercased() == name }) else {
      let names = try categories().map(\.name).joined(separator: ", ")
      throw InputError("no category named \(name) (saved: \(names))")
    }
    return found.filter
  }
}
