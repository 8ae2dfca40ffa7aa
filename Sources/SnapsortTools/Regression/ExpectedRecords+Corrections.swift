import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortOutputs
import SnapsortStages

extension ExpectedRecords {
  /// The quad tolerance of a corrected card, as a share of its longer side: a person drags a
  /// corner to within a few pixels of the card's edge, and a photo may be 4 000 px wide.
  public static let correctedQuadTolerance = 0.02

  /// Expected records from what people corrected in a reviewed run's store (`snapsort review`):
  /// each corrected record expects its kind and the corrected fields, and nothing else, so a
  /// real user's folder becomes a regression set without writing expected files.
  public static func fromCorrections(_ entries: [CorrectedEntry]) throws -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    for entry in entries {
      let corrected = entry.corrections.applied(to: entry.record)
      let object = try JSONSerialization.jsonObject(with: RecordCoding.encodeLine(corrected))
      guard let full = object as? [String: Any] else { continue }
      var spec: [String: Any] = ["kind": entry.record.kind.rawValue]
      for field in entry.corrections.fields {
        let path = recordPath(of: field)
        guard let value = value(at: path, in: full) else { continue }
        setValue(value, at: path, in: &spec)
      }
      if let quad = entry.corrections.quad {
        spec["_tolerance"] = ["card.quad": correctedQuadTolerance * longerSide(of: quad)]
      }
      result[(entry.record.file as NSString).deletingPathExtension] = spec
    }
    return result
  }

  /// Where a corrected field sits in the record's JSON.
  static func recordPath(of field: CorrectedField) -> [String] {
    switch field {
    case .quad: ["card", "quad"]
    case .name: ["card", "name", "suggested"]
    case .issuer: ["card", "issuer", "id"]
    case .color: ["card", "header_color"]
    case .merchant, .date, .currency, .subtotal, .tax, .total, .items: ["receipt", field.rawValue]
    }
  }

  private static func value(at path: [String], in object: [String: Any]) -> Any? {
    guard let first = path.first else { return nil }
    if path.count == 1 { return object[first] }
    guard let inner = object[first] as? [String: Any] else { return nil }
    return value(at: Array(path.dropFirst()), in: inner)
  }

  private static func setValue(_ value: Any, at path: [String], in object: inout [String: Any]) {
    guard let first = path.first else { return }
    if path.count == 1 {
      object[first] = value
      return
    }
    var inner = object[first] as? [String: Any] ?? [:]
    setValue(value, at: Array(path.dropFirst()), in: &inner)
    object[first] = inner
  }

  private static func longerSide(of quad: Quad) -> Double {
    let corners = quad.corners
    return corners.indices.map { Quad.distance(corners[$0], corners[($0 + 1) % corners.count]) }.max() ?? 0
  }
}
