import Foundation
import GRDB
import SnapsortStages

/// What `snapsort stats` reports: counts, spend by merchant (as grouped by `MerchantGrouping`) and by month, the most visited
/// merchant and the most common items. Sums are exact decimals, one per currency (ringgit and
/// euro are never added up; a receipt that names no currency counts in the one its merchant's
/// other receipts name, else in the one every receipt of its language names), each with the part that rests on totals their own receipt
/// contradicts (its `checks`).
public struct StoreStats: Codable, Sendable, Equatable {
  public struct Spend: Codable, Sendable, Equatable {
    public var key: String
    /// The receipts' currency; null when they do not say (written as `null`, so every spend row
    /// of `stats --json` carries the key).
    @Nullable public var currency: String?
    public var receipts: Int
    public var total: String
    /// How many of the receipts, and how much of the total, have a total that the receipt's
    /// own checks contradict (items against subtotal, subtotal − savings + tax against total).
    public var unconfirmedReceipts: Int
    public var unconfirmedTotal: String

    public init(
      key: String, currency: String?, receipts: Int, total: String, unconfirmedReceipts: Int = 0,
      unconfirmedTotal: String = "0"
    ) {
      self.key = key
      self.currency = currency
      self.receipts = receipts
      self.total = total
      self.unconfirmedReceipts = unconfirmedReceipts
      self.unconfirmedTotal = unconfirmedTotal
    }

    enum CodingKeys: String, CodingKey {
      case key, currency, receipts, total
      case unconfirmedReceipts = "unconfirmed_receipts"
      case unconfirmedTotal = "unconfirmed_total"
    }
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

/// Sums of receipts by a key and their currency.
private struct SpendTable {
  struct Key: Hashable {
    var key: String
    var currency: String?
  }
  struct Sum {
    var receipts = 0
    var total: Decimal = 0
    var unconfirmedReceipts = 0
    var unconfirmedTotal: Decimal = 0
  }
  var sums: [Key: Sum] = [:]

  mutating func add(_ key: String, currency: String?, total: Decimal, unconfirmed: Bool) {
    var sum = sums[Key(key: key, currency: currency), default: Sum()]
    sum.receipts += 1
    sum.total += total
    if unconfirmed {
      sum.unconfirmedReceipts += 1
      sum.unconfirmedTotal += total
    }
    sums[Key(key: key, currency: currency)] = sum
  }

  var rows: [StoreStats.Spend] {
    sums.map {
      StoreStats.Spend(
        key: $0.key.key, currency: $0.key.currency, receipts: $0.value.receipts, total: "\($0.value.total)",
        unconfirmedReceipts: $0.value.unconfirmedReceipts, unconfirmedTotal: "\($0.value.unconfirmedTotal)")
    }
  }
}

extension RecordStore {
  /// Each merchant's currency: the one most of its receipts that name a currency name, for its
  /// receipts that name none (ties: the first in sort order).
  static func merchantCurrencies(_ receipts: [Row]) -> [String: String] {
    currencyCounts(receipts, by: "merchant").mapValues {
      $0.min { ($1.value, $0.key) < ($0.value, $1.key) }!.key
    }
  }

  /// Each receipt language's currency, for a receipt that names none and whose merchant's
  /// receipts name none either: the one every receipt of that language in the store names, when
  /// two or more name one. English is printed in ringgit, dollars and pounds, so a store whose
  /// English receipts name two currencies assumes neither.
  static func languageCurrencies(_ receipts: [Row]) -> [String: String] {
    currencyCounts(receipts, by: "language").compactMapValues { counts in
      counts.count == 1 && counts.first!.value >= 2 ? counts.first!.key : nil
    }
  }

  /// For each value of `column`, how many receipts name each currency.
  private static func currencyCounts(_ receipts: [Row], by column: String) -> [String: [String: Int]] {
    var counts: [String: [String: Int]] = [:]
    for row in receipts {
      guard let key: String = row[column], let currency: String = row["currency"] else { continue }
      counts[key, default: [:]][currency, default: 0] += 1
    }
    return counts
  }

  public func stats(itemLimit: Int = 10) throws -> StoreStats {
    try queue.read { db in
      let kinds = try Row.fetchAll(
        db, sql: "SELECT kind, count(*) AS n FROM records GROUP BY kind ORDER BY n DESC, kind"
      )
      .map { StoreStats.Count(key: $0["kind"], count: $0["n"]) }
      let receipts = try Row.fetchAll(
        db,
        sql: """
          SELECT coalesce(r.merchant_entity, r.merchant) AS merchant, r.date, r.total, r.currency,
            r.total_contradicted AS contradicted, json_extract(j.json, '$.receipt.language') AS language
          FROM records r LEFT JOIN record_json j ON j.record_id = r.id
          WHERE r.kind = 'receipt' AND r.status = 'ok'
          """)
      var byMerchant = SpendTable(), byMonth = SpendTable()
      var visits: [String: Int] = [:]
      let merchantCurrencies = Self.merchantCurrencies(receipts)
      let languageCurrencies = Self.languageCurrencies(receipts)
      for row in receipts {
        let merchant = (row["merchant"] as String?) ?? "(unknown)"
        visits[merchant, default: 0] += 1
        guard let text: String = row["total"],
          let total = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { continue }
        let currency =
          (row["currency"] as String?) ?? merchantCurrencies[merchant]
          ?? (row["language"] as String?).flatMap { languageCurrencies[$0] }
        let unconfirmed = (row["contradicted"] as Bool?) ?? false
        byMerchant.add(merchant, currency: currency, total: total, unconfirmed: unconfirmed)
        let month = ((row["date"] as String?).map { String($0.prefix(7)) }) ?? "(undated)"
        byMonth.add(month, currency: currency, total: total, unconfirmed: unconfirmed)
      }
      // Counted by `ItemName`: quantity prefixes and currency words set aside, OCR debris left out.
      var itemCounts: [String: Int] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT description, count(*) AS n FROM receipt_items GROUP BY description")
      {
        if let name = ItemName.normalized(row["description"]) { itemCounts[name, default: 0] += row["n"] }
      }
      let items = itemCounts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(itemLimit)
        .map { StoreStats.Count(key: $0.key, count: $0.value) }
      let mostVisited = visits.max { ($0.value, $1.key) < ($1.value, $0.key) }
      return StoreStats(
        records: try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0, byKind: kinds,
        errors: try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE status = 'error'") ?? 0,
        spendByMerchant: byMerchant.rows.sorted {
          (Decimal(string: $0.total) ?? 0, $1.key, $1.currency ?? "") > (
            Decimal(string: $1.total) ?? 0, $0.key, $0.currency ?? ""
          )
        },
        spendByMonth: byMonth.rows.sorted { ($0.key, $0.currency ?? "") < ($1.key, $1.currency ?? "") },
        mostVisitedMerchant: mostVisited.map { StoreStats.Count(key: $0.key, count: $0.value) },
        mostCommonItems: Array(items))
    }
  }
}
