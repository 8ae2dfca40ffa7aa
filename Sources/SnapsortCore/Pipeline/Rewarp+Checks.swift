import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

extension Rewarp {
  /// How far beyond the image's edge a corner may lie, as a share of that side: a person who
  /// marks a card cut off by the frame puts its corner just outside; farther out is a mistake.
  static let edgeTolerance = 0.02
  /// The smallest share of the image a card's corners may enclose: a sliver warped to a full
  /// crop reads as nothing and would replace a card with an empty one.
  static let minimumAreaShare = 0.002

  /// Why each correction cannot be applied to the run's records, one sentence each, found before
  /// any photo is touched: no record of the file, a receipt, a photo the run could not read, or
  /// corners that are not a card in the image (outside it, not clockwise, not convex, too small).
  public static func problems(_ corrections: [Correction], records: [Record]) -> [String] {
    var byFile: [String: Record] = [:]
    for record in records { byFile[record.file] = record }
    return corrections.compactMap { correction in
      guard let record = byFile[correction.file] else {
        return "\(correction.file) has no record in this output (paths are as in records.jsonl)"
      }
      return problem(with: correction.quad, of: record)
    }
  }

  private static func problem(with quad: [Point], of record: Record) -> String? {
    let file = record.file
    if record.kind == .receipt {
      return
        "\(file) is a receipt; rewarp corrects card corners (the receipt stages find the paper themselves)"
    }
    guard let image = record.image else {
      return "\(file): the run could not read this photo, so there is no image to put corners in"
    }
    let width = Double(image.width), height = Double(image.height)
    let slackX = width * edgeTolerance, slackY = height * edgeTolerance
    for (index, corner) in quad.enumerated()
    where
      !(corner.x >= -slackX && corner.x <= width + slackX && corner.y >= -slackY
      && corner.y <= height + slackY)
    {
      return "\(file): corner \(index + 1) [\(format(corner.x)), \(format(corner.y))] is outside the image "
        + "(\(image.width) × \(image.height) pixels, orientation corrected)"
    }
    guard quad.count == 4, Quad.isConvex(quad) else {
      return "\(file): the corners do not form a convex quadrilateral"
    }
    // Clockwise on screen (y down) is a positive shoelace sum; the other way the crop is mirrored.
    if signedArea(quad) < 0 {
      return "\(file): the corners run counter-clockwise; list them clockwise from the card's own top-left"
    }
    if Quad.area(quad) < minimumAreaShare * width * height {
      return "\(file): the corners enclose \(format(Quad.area(quad))) square pixels, too small for a card "
        + "in a \(image.width) × \(image.height) image"
    }
    return nil
  }

  private static func signedArea(_ quad: [Point]) -> Double {
    var sum = 0.0
    for index in quad.indices {
      let a = quad[index], b = quad[(index + 1) % quad.count]
      sum += a.x * b.y - b.x * a.y
    }
    return sum / 2
  }

  private static func format(_ value: Double) -> String {
    abs(value) < 1e9 && value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
  }
}
