import Foundation
import GRDB
import SnapsortStages

/// One search result: the record's summary columns (the full record is in `record_json`).
public struct SearchHit: Codable, Sendable, Equatable {
  public var file: String
  public var sha256: String
  public var kind: String
  public var status: String
  public var name: String?
  public var issuer: String?
  public var merchant: String?
  public var date: String?
  public var total: String?
  public var currency: String?
  public var tags: [String]
  public var annotations: [String]
  /// The card's crop, relative to the store's folder (`cards/….jpg`).
  public var crop: String?
  public var barcodes: [Code] = []

  public struct Code: Codable, Sendable, Equatable {
    public var symbology: String
    public var value: String
  }
}

extension RecordStore {
  /// Records matching every query and the filter, by file path.
  ///
  /// Each keyword of 3 or more characters is looked up in the trigram index
  /// (case-insensitive substring); shorter ones scan the lowercased text. A query's clauses
  /// become SQL `OR` of `AND`s of `rowid [NOT] IN (…)`, so negation needs no positive keyword.
  public func search(_ filter: SearchFilter, queries: [String] = []) throws -> [SearchHit] {
    try filter.validate()
    var conditions: [String] = []
    var arguments = StatementArguments()
    for query in (queries + [filter.query].compactMap { $0 }).map(SearchQuery.init(parsing:))
    where !query.isEmpty {
      conditions.append(Self.condition(matching: query, arguments: &arguments))
    }
    Self.addConditions(of: filter, to: &conditions, arguments: &arguments)
    let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    let sql = """
      SELECT r.file, r.sha256, r.kind, r.status, r.name, coalesce(r.issuer_name, r.issuer_id) AS issuer,
        r.merchant, r.date, r.total, r.currency,
        (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM tags WHERE key = r.key ORDER BY tag)) AS tags,
        (SELECT group_concat(text, char(31)) FROM (SELECT text FROM annotations WHERE key = r.key ORDER BY id))
          AS annotations,
        r.crop,
        (SELECT group_concat(symbology || char(30) || value, char(31))
          FROM (SELECT symbology, value FROM barcodes WHERE record_id = r.id ORDER BY position)) AS codes
      FROM records r \(whereClause) ORDER BY r.file
      """
    // A cursor and positional columns: with thousands of matches, per-row name lookups and
    // row copies cost more than the query itself.
    return try queue.read { db in
      var hits: [SearchHit] = []
      let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      let split = { (value: String?) in value.map { $0.components(separatedBy: "\u{1F}") } ?? [] }
      while let row = try rows.next() {
        hits.append(
          SearchHit(
            file: row[0], sha256: row[1], kind: row[2], status: row[3], name: row[4], issuer: row[5],
            merchant: row[6], date: row[7], total: row[8], currency: row[9], tags: split(row[10]),
            annotations: split(row[11]), crop: row[12],
            barcodes: split(row[13]).map { pair in
              let parts = pair.components(separatedBy: "\u{1E}")
              return SearchHit.Code(symbology: parts[0], value: parts.dropFirst().joined(separator: "\u{1E}"))
            }))
      }
      return hits
    }
  }

  /// The SQL condition of one query, its keywords appended to `arguments`.
  private static func condition(matching query: SearchQuery, arguments: inout StatementArguments) -> String {
    var alternatives: [String] = []
    for clause in query.clauses {
      var terms: [String] = []
      for term in clause {
        let keyword = term.keyword
        let subquery: String
        if keyword.count >= 3 {
          subquery = "SELECT rowid FROM search_fts WHERE search_fts MATCH ?"
          // Keywords are letters and digits only; quoting makes one phrase of trigrams.
          arguments += ["\"\(keyword)\""]
        } else {
          subquery = "SELECT rowid FROM search_fts WHERE folded LIKE ?"
          arguments += ["%\(keyword)%"]
        }
        terms.append("r.id \(term.negated ? "NOT IN" : "IN") (\(subquery))")
      }
      alternatives.append("(" + terms.joined(separator: " AND ") + ")")
    }
    return "(" + alternatives.joined(separator: " OR ") + ")"
  }

  /// The filter's kind, merchant, issuer, date, total and tag as SQL conditions and their
  /// arguments.
  private static func addConditions(
    of filter: SearchFilter, to conditions: inout [String], arguments: inout StatementArguments
  ) {
    if let kind = filter.kind {
      conditions.append("r.kind = ?")
      arguments += [kind.rawValue]
    }
    if let merchant = filter.merchant {
      // The name as read or the merchant it was grouped under (`MerchantGrouping`).
      conditions.append(
        "(instr(\(TextFolding.sqlFunctionName)(r.merchant), ?) > 0 "
          + "OR instr(\(TextFolding.sqlFunctionName)(r.merchant_entity), ?) > 0)")
      arguments += [TextFolding.fold(merchant), TextFolding.fold(merchant)]
    }
    if let issuer = filter.issuer {
      conditions.append(
        "(r.issuer_id = ? OR instr(\(TextFolding.sqlFunctionName)(r.issuer_name), ?) > 0)")
      arguments += [issuer, TextFolding.fold(issuer)]
    }
    // A partial date (YYYY-MM) compares with the same prefix of the record's date.
    if let from = filter.from {
      conditions.append("substr(r.date, 1, length(?)) >= ?")
      arguments += [from, from]
    }
    if let to = filter.to {
      conditions.append("substr(r.date, 1, length(?)) <= ?")
      arguments += [to, to]
    }
    if let minimum = filter.minTotal {
      conditions.append("r.total IS NOT NULL AND CAST(r.total AS REAL) >= CAST(? AS REAL)")
      arguments += [minimum]
    }
    if let maximum = filter.maxTotal {
      conditions.append("r.total IS NOT NULL AND CAST(r.total AS REAL) <= CAST(? AS REAL)")
      arguments += [maximum]
    }
    if let tag = filter.tag {
      conditions.append("EXISTS (SELECT 1 FROM tags t WHERE t.key = r.key AND t.tag = ?)")
      arguments += [RecordStore.normalizedName(tag)]
    }
    if let unconfirmed = filter.unconfirmedTotal {
      conditions.append(unconfirmed ? "r.total_contradicted = 1" : "r.total_contradicted = 0")
    }
  }

  /// Every stored record, by file path, with a person's corrections over it and its tags.
  public func allRecords() throws -> [(
    record: SnapsortStages.Record, tags: [String], createdAt: Date, updatedAt: Date
  )] {
    try queue.read { db in
      let corrections = try Self.allCorrections(in: db)
      return try Row.fetchAll(
        db,
        sql: """
          SELECT j.json, r.created_at, r.updated_at, r.key,
            (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM tags WHERE key = r.key ORDER BY tag)) AS tags
          FROM records r JOIN record_json j ON j.record_id = r.id ORDER BY r.file
          """
      ).map { row in
        let json: String = row["json"]
        let tags: String? = row["tags"]
        let key: String = row["key"]
        let record = try RecordCoding.decode(Data(json.utf8))
        return (
          (corrections[key] ?? RecordCorrections()).applied(to: record),
          tags.map { $0.components(separatedBy: "\u{1F}") } ?? [],
          Date(timeIntervalSince1970: row["created_at"]), Date(timeIntervalSince1970: row["updated_at"])
        )
      }
    }
  }

  /// Row counts per table, for checks and `stats`.
  public func count(_ table: String) throws -> Int {
    precondition(table.allSatisfy { $0.isLetter || $0 == "_" })
    return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
  }
}
