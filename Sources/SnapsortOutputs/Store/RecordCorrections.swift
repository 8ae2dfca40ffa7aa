import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// The fields a person may correct on a record.
public enum CorrectedField: String, Codable, Sendable, CaseIterable {
  /// The card's four corners, clockwise from its own top-left, in oriented-image pixels.
  case quad
  case name
  /// The card's issuer, chosen from the catalog.
  case issuer
  /// The card's background colour, `#rrggbb`.
  case color
  /// A receipt's merchant, date (`YYYY-MM-DD`), currency (ISO 4217) and amounts.
  case merchant, date, currency, subtotal, tax, total
  /// A receipt's line items, all of them as the person lists them.
  case items
}

/// A person's values for some fields of one record. The store keeps them apart from the
/// pipeline's record (which a rerun replaces) and lays them over it wherever records are read,
/// so a correction outlives every rerun and the pipeline's own value stays beside it.
public struct RecordCorrections: Codable, Sendable, Equatable {
  public struct IssuerChoice: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public init(id: String, name: String) {
      self.id = id
      self.name = name
    }
  }

  public var quad: Quad?
  public var name: String?
  public var issuer: IssuerChoice?
  public var color: String?
  public var merchant: String?
  public var date: String?
  public var currency: String?
  public var subtotal: Money?
  public var tax: Money?
  public var total: Money?
  public var items: [ReceiptItem]?

  public init(quad: Quad? = nil, name: String? = nil, issuer: IssuerChoice? = nil, color: String? = nil) {
    self.quad = quad
    self.name = name
    self.issuer = issuer
    self.color = color
  }

  public var isEmpty: Bool { !CorrectedField.allCases.contains(where: holdsValue) }

  /// The fields that hold a person's value.
  public var fields: [CorrectedField] { CorrectedField.allCases.filter(holdsValue) }

  /// Whether `field` holds a person's value. Asked for every record the store reads, so it looks
  /// at the values instead of encoding them as the store keeps them.
  public func holdsValue(_ field: CorrectedField) -> Bool {
    switch field {
    case .quad: quad != nil
    case .name: name != nil
    case .issuer: issuer != nil
    case .color: color != nil
    case .merchant: merchant != nil
    case .date: date != nil
    case .currency: currency != nil
    case .subtotal: subtotal != nil
    case .tax: tax != nil
    case .total: total != nil
    case .items: items != nil
    }
  }

  /// Removes the person's value of `field`, so the run's shows again.
  public mutating func clear(_ field: CorrectedField) {
    switch field {
    case .quad: quad = nil
    case .name: name = nil
    case .issuer: issuer = nil
    case .color: color = nil
    case .merchant: merchant = nil
    case .date: date = nil
    case .currency: currency = nil
    case .subtotal: subtotal = nil
    case .tax: tax = nil
    case .total: total = nil
    case .items: items = nil
    }
  }

  /// Rejects values no field could hold: an empty name or merchant, a colour that is not
  /// `#rrggbb`, corners that are not four finite points, an issuer without an id, a day that
  /// does not exist, a currency that is not three capitals.
  public func validate() throws {
    for (field, text) in [("name", name), ("merchant", merchant)] {
      if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || text.count > 200 {
        throw InputError("a \(field) must have 1 to 200 characters")
      }
    }
    if let color, color.wholeMatch(of: /#[0-9a-f]{6}/) == nil {
      throw InputError("\(color): a colour is #rrggbb in lower case")
    }
    if let quad, quad.corners.count != 4 || !quad.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
      throw InputError("the corners must be four [x, y] points")
    }
    if let issuer, issuer.id.isEmpty { throw InputError("an issuer needs its catalog id") }
    if let date, date.count != 10 || !SearchFilter.isDate(date) {
      throw InputError("\(date): a date is a real day written YYYY-MM-DD")
    }
    if let currency, currency.wholeMatch(of: /[A-Z]{3}/) == nil {
      throw InputError("\(currency): a currency is its three-letter code, such as EUR")
    }
    if let items {
      if items.count > 500 { throw InputError("a receipt holds at most 500 items") }
      for item in items
      where item.description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        || item.description.count > 200
      {
        throw InputError("an item's description must have 1 to 200 characters")
      }
    }
  }

  /// `record` with these values over the pipeline's: card fields on a card, receipt fields on a
  /// receipt; any other record is returned as it is.
  public func applied(to record: Record) -> Record {
    guard !isEmpty else { return record }
    var record = record
    if record.kind == .card, let card = record.card { record.card = applied(to: card) }
    if record.kind == .receipt, let receipt = record.receipt { record.receipt = applied(to: receipt) }
    return record
  }

  /// A corrected name leads and the pipeline's reading becomes its first alternative; a chosen
  /// issuer has confidence 1 (a person's choice) and keeps the pipeline's alternatives.
  private func applied(to card: CardRecord) -> CardRecord {
    var card = card
    if let quad { card.quad = quad }
    if let name {
      let read = card.name.map { [$0.suggested].compactMap { $0 } + $0.alternatives } ?? []
      var alternatives: [String] = []
      for reading in read where reading != name && !alternatives.contains(reading) {
        alternatives.append(reading)
      }
      card.name = NameSuggestion(suggested: name, alternatives: alternatives)
    }
    if let issuer {
      card.issuer = IssuerMatch(
        id: issuer.id, name: issuer.name, confidence: 1, alternatives: card.issuer?.alternatives ?? [])
    }
    if let color { card.headerColor = color }
    return card
  }

  /// A receipt with the person's fields; when an amount was corrected its checks are computed
  /// again (`ReceiptConsistency`, as the receipt stage computes them) from the amounts it now holds.
  private func applied(to receipt: ReceiptRecord) -> ReceiptRecord {
    var receipt = receipt
    if let merchant { receipt.merchant = merchant }
    if let date { receipt.date = date }
    if let currency { receipt.currency = currency }
    if let subtotal { receipt.subtotal = subtotal }
    if let tax { receipt.tax = tax }
    if let total { receipt.total = total }
    if let items { receipt.items = items }
    if subtotal != nil || tax != nil || total != nil || items != nil {
      receipt.checks = ReceiptConsistency.check(
        items: receipt.items.map(\.amount), subtotal: receipt.subtotal, savings: receipt.savings,
        tax: receipt.tax, total: receipt.total)
    }
    return receipt
  }

  // MARK: - Rows

  /// Each field's value as the JSON text the store keeps, nil for a field without one.
  func storedValues() throws -> [(field: CorrectedField, json: String?)] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func json(_ value: (some Encodable)?) throws -> String? {
      try value.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    }
    return [
      (.quad, try json(quad)), (.name, try json(name)), (.issuer, try json(issuer)),
      (.color, try json(color)),
      (.merchant, try json(merchant)), (.date, try json(date)), (.currency, try json(currency)),
      (.subtotal, try json(subtotal)), (.tax, try json(tax)), (.total, try json(total)),
      (.items, try json(items)),
    ]
  }

  /// The corrections of stored rows (field name, JSON text); a row of a field this version does
  /// not know, or that does not decode, is left out rather than failing the read.
  init(rows: [(field: String, json: String)]) {
    let decoder = JSONDecoder()
    for row in rows {
      let data = Data(row.json.utf8)
      switch CorrectedField(rawValue: row.field) {
      case .quad: quad = try? decoder.decode(Quad.self, from: data)
      case .name: name = try? decoder.decode(String.self, from: data)
      case .issuer: issuer = try? decoder.decode(IssuerChoice.self, from: data)
      case .color: color = try? decoder.decode(String.self, from: data)
      case .merchant: merchant = try? decoder.decode(String.self, from: data)
      case .date: date = try? decoder.decode(String.self, from: data)
      case .currency: currency = try? decoder.decode(String.self, from: data)
      case .subtotal: subtotal = try? decoder.decode(Money.self, from: data)
      case .tax: tax = try? decoder.decode(Money.self, from: data)
      case .total: total = try? decoder.decode(Money.self, from: data)
      case .items: items = try? decoder.decode([ReceiptItem].self, from: data)
      case nil: continue
      }
    }
  }
}
