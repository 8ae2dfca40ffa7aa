import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// Field filters for a search (Receipt Scanner's): every set field must hold. A saved category
/// is one of these under a name.
public struct SearchFilter: Codable, Sendable, Equatable {
  /// A search query (see `SearchQuery`), kept as typed so a category shows what was saved.
  public var query: String?
  public var kind: Kind?
  /// Case-insensitive substring of the receipt's merchant.
  public var merchant: String?
  /// The issuer's id, or a case-insensitive substring of its name.
  public var issuer: String?
  /// ISO 8601 dates (`YYYY-MM-DD`), inclusive.
  public var from: String?
  public var to: String?
  /// Decimal strings.
  public var minTotal: String?
  public var maxTotal: String?
  public var tag: String?
  /// Receipts whose total their own checks contradict (true), or do not (false).
  public var unconfirmedTotal: Bool?

  public init(
    query: String? = nil, kind: Kind? = nil, merchant: String? = nil, issuer: String? = nil,
    from: String? = nil,
    to: String? = nil, minTotal: String? = nil, maxTotal: String? = nil, tag: String? = nil,
    unconfirmedTotal: Bool? = nil
  ) {
    self.query = query
    self.kind = kind
    self.merchant = merchant
    self.issuer = issuer
    self.from = from
    self.to = to
    self.minTotal = minTotal
    self.maxTotal = maxTotal
    self.tag = tag
    self.unconfirmedTotal = unconfirmedTotal
  }

  enum CodingKeys: String, CodingKey {
    case query, kind, merchant, issuer, from, to, tag
    case minTotal = "min_total"
    case maxTotal = "max_total"
    case unconfirmedTotal = "unconfirmed_total"
  }

  /// `other`'s set fields over this one's. Queries are not merged (the grammar has no
  /// parentheses to combine them): the store applies every query it is given with AND.
  public func merging(_ other: SearchFilter) -> SearchFilter {
    var merged = self
    merged.kind = other.kind ?? kind
    merged.merchant = other.merchant ?? merchant
    merged.issuer = other.issuer ?? issuer
    merged.from = other.from ?? from
    merged.to = other.to ?? to
    merged.minTotal = other.minTotal ?? minTotal
    merged.maxTotal = other.maxTotal ?? maxTotal
    merged.tag = other.tag ?? tag
    merged.unconfirmedTotal = other.unconfirmedTotal ?? unconfirmedTotal
    return merged
  }

  /// Rejects malformed dates and amounts before any query runs.
  public func validate() throws {
    for (name, value) in [("from", from), ("to", to)] {
      guard let value else { continue }
      guard Self.isDate(value) else {
        throw InputError("--\(name) \(value): expected a real date as YYYY-MM-DD (or YYYY-MM, YYYY)")
      }
    }
    for (name, value) in [("min-total", minTotal), ("max-total", maxTotal)] {
      guard let value else { continue }
      guard value.wholeMatch(of: /-?\d+(\.\d+)?/) != nil else {
        throw InputError("--\(name) \(value): expected an amount such as 12.50")
      }
    }
  }

  /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a day that exists (month 01–12, day within the
  /// month, 29 February in leap years only).
  static func isDate(_ text: String) -> Bool {
    guard let match = text.wholeMatch(of: /(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/) else { return false }
    let year = Int(match.1)!
    guard let monthText = match.2 else { return true }
    let month = Int(monthText)!
    guard (1...12).contains(month) else { return false }
    guard let dayText = match.3 else { return true }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(Int(dayText)!)
  }
}
