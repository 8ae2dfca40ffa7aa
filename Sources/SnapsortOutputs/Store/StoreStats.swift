import Foundation
import GRDB
import SnapsortStages

/// What `snapsort stats` reports: counts, spend by merchant and by month, the most visited
/// merchant and the most common items. Sums are exact decimals.
public struct StoreStats: Codable, Sendable, Equatable {
  public struct Spend: Codable, Sendable, Equatable {
    public var key: String
    public var receipts: Int
    public var total: String
  }
  public struct Count: Codable, Sendable, Equatable {
    public var key: String
    public var count: Int
  }

  public var records: Int
  public var byKind: [Count]
  public var errors: Int
  public var spendByMerchant: [Spend]
  public var spendByMonth: [Spend]
  public var mostVisitedMerchant: Count?
  public var mostCommonItems: [Count]

  enum CodingKeys: String, CodingKey {
    case records, errors
    case byKind = "by_kind"
    case spendByMerchant = "spend_by_merchant"
    case spendByMonth = "spend_by_month"
    case mostVisitedMerchant = "most_visited_merchant"
    case mostCommonItems = "most_common_items"
  }
}

extension RecordStore {
  public func stats(itemLimit: Int = 10) throws -> StoreStats {
    try queue.read { db in
      let kinds = try Row.fetchAll(
        db, sql: "SELECT kind, count(*) AS n FROM records GROUP BY kind ORDER BY n DESC, kind"
      )
      .map { StoreStats.Count(key: $0["kind"], count: $0["n"]) }
      let receipts = try Row.fetchAll(
        db, sql: "SELECT merchant, date, total FROM records WHERE kind = 'receipt' AND status = 'ok'")
      var byMerchant: [String: (Int, Decimal)] = [:]
      var byMonth: [String: (Int, Decimal)] = [:]
      var visits: [String: Int] = [:]
      for row in receipts {
        let merchant = (row["merchant"] as String?) ?? "(unknown)"
        visits[merchant, default: 0] += 1
        guard let text: String = row["total"],
          let total = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { continue }
        byMerchant[merchant, default: (0, 0)].0 += 1
        byMerchant[merchant, default: (0, 0)].1 += total
        let month = ((row["date"] as String?).map { String($0.prefix(7)) }) ?? "(undated)"
        byMonth[month, default: (0, 0)].0 += 1
        byMonth[month, default: (0, 0)].1 += total
      }
      let spend = { (table: [String: (Int, Decimal)]) in
        table.map { StoreStats.Spend(key: $0.key, receipts: $0.value.0, total: "\($0.value.1)") }
      }
      let items = try Row.fetchAll(
        db,
        sql: """
          SELECT lower(trim(description)) AS item, count(*) AS n FROM receipt_items
          GROUP BY item ORDER BY n DESC, item LIMIT ?
          """, arguments: [itemLimit]
      ).map { StoreStats.Count(key: $0["item"], count: $0["n"]) }
      let mostVisited = visits.max { ($0.value, $1.key) < ($1.value, $0.key) }
      return StoreStats(
        records: try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0, byKind: kinds,
        errors: try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE status = 'error'") ?? 0,
        spendByMerchant: spend(byMerchant).sorted {
          (Decimal(string: $0.total) ?? 0, $1.key) > (Decimal(string: $1.total) ?? 0, $0.key)
        },
        spendByMonth: spend(byMonth).sorted { $0.key < $1.key },
        mostVisitedMerchant: mostVisited.map { StoreStats.Count(key: $0.key, count: $0.value) },
        mostCommonItems: items)
    }
  }
}
