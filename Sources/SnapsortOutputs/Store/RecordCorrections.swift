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

  public init(quad: Quad? = nil, name: String? = nil, issuer: IssuerChoice? = nil, color: String? = nil) {
    self.quad = quad
    self.name = name
    self.issuer = issuer
    self.color = color
  }

  public var isEmpty: Bool { fields.isEmpty }

  /// The fields that hold a person's value.
  public var fields: [CorrectedField] {
    CorrectedField.allCases.filter { field in
      switch field {
      case .quad: quad != nil
      case .name: name != nil
      case .issuer: issuer != nil
      case .color: color != nil
      }
    }
  }

  /// Rejects values no field could hold: an empty name, a colour that is not `#rrggbb`, corners
  /// that are not four finite points, an issuer without an id.
  public func validate() throws {
    if let name, name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || name.count > 200 {
      throw InputError("a name must have 1 to 200 characters")
    }
    if let color, color.wholeMatch(of: /#[0-9a-f]{6}/) == nil {
      throw InputError("\(color): a colour is #rrggbb in lower case")
    }
    if let quad, quad.corners.count != 4 || !quad.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
      throw InputError("the corners must be four [x, y] points")
    }
    if let issuer, issuer.id.isEmpty { throw InputError("an issuer needs its catalog id") }
  }

  /// `record` with these values over the pipeline's. A card's corrected name leads and the
  /// pipeline's reading becomes its first alternative; a chosen issuer has confidence 1 (a
  /// person's choice) and keeps the pipeline's alternatives. Records without a card are
  /// returned as they are.
  public func applied(to record: Record) -> Record {
    guard !isEmpty, var card = record.card else { return record }
    var record = record
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
    record.card = card
    return record
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
      case nil: continue
      }
    }
  }
}
