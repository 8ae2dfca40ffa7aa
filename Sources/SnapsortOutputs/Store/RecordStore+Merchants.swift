import Foundation
import GRDB
import SnapsortCore
import SnapsortStages

/// One merchant as the store groups it: its name and the spellings its receipts were read with.
public struct MerchantEntity: Codable, Sendable, Equatable {
  public struct Spelling: Codable, Sendable, Equatable {
    public var name: String
    public var receipts: Int
  }
  public var name: String
  public var receipts: Int
  public var spellings: [Spelling]
}

extension RecordStore {
  /// The user's merge and split choices, by the names' keys (`MerchantGrouping.key`), so that
  /// they hold for every receipt read with those spellings, in this run and the next.
  static let merchantChoicesSchema = """
    ALTER TABLE records ADD COLUMN merchant_entity TEXT;
    CREATE TABLE merchant_choices (
      first TEXT NOT NULL, second TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('merge', 'split')),
      PRIMARY KEY (first, second));
    """

  /// Sets every receipt's `merchant_entity` from all receipts in the store and the user's
  /// choices.
  static func regroupMerchants(in db: Database) throws {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT r.id, r.merchant, r.merchant_entity, json_extract(j.json, '$.receipt.text') AS lines
        FROM records r JOIN record_json j ON j.record_id = r.id WHERE r.kind = 'receipt' ORDER BY r.id
        """)
    let receipts = rows.map { row in
      MerchantGrouping.Receipt(id: row["id"], merchant: row["merchant"], lines: lineTexts(row["lines"]))
    }
    let entities = MerchantGrouping.entities(of: receipts, choices: try merchantChoices(in: db))
    for row in rows {
      let id: Int64 = row["id"]
      let old: String? = row["merchant_entity"]
      if old != entities[id] {
        try db.execute(
          sql: "UPDATE records SET merchant_entity = ? WHERE id = ?", arguments: [entities[id], id])
      }
    }
  }

  private static func lineTexts(_ json: String?) -> [String] {
    guard let json, let lines = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    else { return [] }
    return lines.compactMap { $0["text"] as? String }
  }

  static func merchantChoices(in db: Database) throws -> [MerchantGrouping.Choice] {
    try Row.fetchAll(db, sql: "SELECT first, second, kind FROM merchant_choices ORDER BY first, second").map {
      MerchantGrouping.Choice(first: $0["first"], second: $0["second"], kind: .init(rawValue: $0["kind"])!)
    }
  }

  /// The store's merchants, most receipts first.
  public func merchants() throws -> [MerchantEntity] {
    try queue.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT merchant_entity AS entity, merchant, count(*) AS n FROM records
          WHERE kind = 'receipt' AND merchant_entity IS NOT NULL GROUP BY entity, merchant
          """)
      var byEntity: [String: [MerchantEntity.Spelling]] = [:]
      for row in rows {
        let spelling = MerchantEntity.Spelling(
          name: (row["merchant"] as String?) ?? "(none)", receipts: row["n"])
        byEntity[row["entity"], default: []].append(spelling)
      }
      return byEntity.map { name, spellings in
        MerchantEntity(
          name: name, receipts: spellings.reduce(0) { $0 + $1.receipts },
          spellings: spellings.sorted { ($1.receipts, $0.name) < ($0.receipts, $1.name) })
      }
      .sorted { ($1.receipts, $0.name) < ($0.receipts, $1.name) }
    }
  }

  /// Records that `first` and `second` (merchant names as listed, or spellings) are one
  /// merchant, or two; the choice replaces any earlier one about the same two names and
  /// survives reruns.
  public func chooseMerchants(_ first: String, _ second: String, kind: MerchantGrouping.Choice.Kind) throws {
    try queue.write { db in
      let keys = try [first, second].map { try Self.merchantKey(naming: $0, in: db) }
      guard keys[0] != keys[1] else {
        throw InputError(
          "\"\(first)\" and \"\(second)\" are the same name once case, punctuation and legal forms are set aside"
        )
      }
      let (a, b) = (keys.min()!, keys.max()!)
      try db.execute(
        sql: """
          INSERT INTO merchant_choices(first, second, kind) VALUES (?, ?, ?)
          ON CONFLICT(first, second) DO UPDATE SET kind = excluded.kind
          """, arguments: [a, b, kind.rawValue])
      try Self.regroupMerchants(in: db)
    }
  }

  /// The key of a merchant name the store holds (as a receipt's merchant or a group's name).
  private static func merchantKey(naming name: String, in db: Database) throws -> String {
    let key = MerchantGrouping.key(name)
    let known = try String.fetchAll(
      db, sql: "SELECT DISTINCT merchant FROM records WHERE kind = 'receipt' AND merchant IS NOT NULL")
    if known.contains(where: { MerchantGrouping.key($0) == key }) { return key }
    let close = known.sorted {
      (EditDistance.levenshtein(TextFolding.fold($0), TextFolding.fold(name)), $0)
        < (EditDistance.levenshtein(TextFolding.fold($1), TextFolding.fold(name)), $1)
    }
    .prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
    throw InputError(
      "no receipt's merchant is \"\(name)\"" + (close.isEmpty ? "" : " (closest: \(close))")
        + "; `snapsort merchant list` shows the names")
  }
}
