import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// Re-runs some files of an earlier run from the `warp` stage on, with card corners a person
/// corrected ("adjust the border of the card"), and puts their new records in place of the old
/// ones, only where the new one is a complete card record: no correction destroys a good record.
public enum Rewarp {
  /// A person's corners for one file: `file` as in records.jsonl, `quad` clockwise from the
  /// card's own top-left, in the pixels of the orientation-corrected image.
  public struct Correction: Sendable, Equatable {
    public var file: String
    public var quad: [Point]
    public init(file: String, quad: [Point]) {
      self.file = file
      self.quad = quad
    }
  }

  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  // MARK: - Corner files

  /// Reads corrections from JSON (`[{"file": …, "quad": [[x, y], …]}]`, or an object mapping
  /// each file to its four points) or CSV (`file,x1,y1,x2,y2,x3,y3,x4,y4`, a header line allowed).
  public static func corrections(from data: Data) throws -> [Correction] {
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let parsed = text.hasPrefix("[") || text.hasPrefix("{") ? try json(data) : try csv(text)
    var seen = Set<String>()
    for correction in parsed {
      guard seen.insert(correction.file).inserted else { throw Failure("\(correction.file) is listed twice") }
      try check(correction)
    }
    return parsed
  }

  private static func json(_ data: Data) throws -> [Correction] {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw Failure("the corners file is not valid JSON: \(error.localizedDescription)")
    }
    func points(_ value: Any?, _ file: String) throws -> [Point] {
      guard let list = value as? [[Any]],
        let points = Optional(
          list.compactMap { pair -> Point? in
            guard pair.count == 2, let x = (pair[0] as? NSNumber)?.doubleValue,
              let y = (pair[1] as? NSNumber)?.doubleValue
            else { return nil }
            return Point(x, y)
          }), points.count == list.count
      else { throw Failure("\(file): the corners must be four [x, y] pairs") }
      return points
    }
    if let map = object as? [String: Any] {
      return try map.keys.sorted().map { Correction(file: $0, quad: try points(map[$0], $0)) }
    }
    guard let list = object as? [[String: Any]] else {
      throw Failure(
        "the corners file must be a list of {\"file\", \"quad\"} objects or an object of file → quad")
    }
    return try list.enumerated().map { index, entry in
      guard let file = entry["file"] as? String else { throw Failure("entry \(index + 1) has no \"file\"") }
      return Correction(file: file, quad: try points(entry["quad"] ?? entry["corners"], file))
    }
  }

  private static func csv(_ text: String) throws -> [Correction] {
    var result: [Correction] = []
    for (number, raw) in text.split(whereSeparator: \.isNewline).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      // The file name may be quoted (it may hold commas); the eight numbers follow it.
      var file: String
      var rest: Substring
      if line.hasPrefix("\""), let close = line.dropFirst().firstIndex(of: "\"") {
        file = String(line[line.index(after: line.startIndex)..<close])
        rest = line[line.index(after: close)...].drop { $0 == "," || $0 == " " }
      } else {
        let fields = line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        file = String(fields[0]).trimmingCharacters(in: .whitespaces)
        rest = fields.count > 1 ? fields[1] : ""
      }
      let numbers = rest.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
      if number == 0 && numbers.contains(where: { $0 == nil }) { continue }  // a header
      guard numbers.count == 8, numbers.allSatisfy({ $0 != nil }) else {
        throw Failure("line \(number + 1): expected file and eight numbers (x1,y1,…,x4,y4)")
      }
      let v = numbers.map { $0! }
      file = file.trimmingCharacters(in: .whitespaces)
      result.append(Correction(file: file, quad: (0..<4).map { Point(v[2 * $0], v[2 * $0 + 1]) }))
    }
    return result
  }

  private static func check(_ correction: Correction) throws {
    let quad = correction.quad
    guard quad.count == 4 else {
      throw Failure("\(correction.file): four corners are needed, got \(quad.count)")
    }
    guard quad.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), Quad.isConvex(quad), Quad.area(quad) >= 16
    else {
      throw Failure("\(correction.file): the corners do not form a convex quadrilateral")
    }
  }
}
