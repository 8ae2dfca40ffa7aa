import Foundation
import SnapsortNative

/// A plane projective transform: `p' ~ H · p` in homogeneous coordinates.
public struct Homography: Sendable, Equatable {
  /// Row-major 3 × 3, normalised so the last entry is 1.
  public var m: [Double]

  public init(_ m: [Double]) { self.m = m }

  /// The homography that maps each `from[i]` to `to[i]` (four point pairs, no three collinear).
  public init?(from: [Point], to: [Point]) {
    guard from.count == 4, to.count == 4 else { return nil }
    // Eight equations in h0…h7 with h8 = 1, solved by Gaussian elimination with pivoting.
    var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
    for i in 0..<4 {
      let (x, y, u, v) = (from[i].x, from[i].y, to[i].x, to[i].y)
      a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
      a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
    }
    for column in 0..<8 {
      guard let pivot = (column..<8).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
        abs(a[pivot][column]) > 1e-12
      else { return nil }
      a.swapAt(column, pivot)
      for row in 0..<8 where row != column {
        let factor = a[row][column] / a[column][column]
        if factor == 0 { continue }
        for k in column..<9 { a[row][k] -= factor * a[column][k] }
      }
    }
    m = (0..<8).map { a[$0][8] / a[$0][$0] } + [1]
  }

  public func apply(_ p: Point) -> Point {
    let w = m[6] * p.x + m[7] * p.y + m[8]
    return Point((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
  }

  public var inverse: Homography? {
    let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    guard abs(det) > 1e-15 else { return nil }
    let inv = [
      (e * i - f * h), -(b * i - c * h), (b * f - c * e),
      -(d * i - f * g), (a * i - c * g), -(a * f - c * d),
      (d * h - e * g), -(a * h - b * g), (a * e - b * d),
    ].map { $0 / det }
    return Homography(inv.map { $0 / inv[8] })
  }
}

/// A homography restricted to one row (a fixed `v`): the numerators and the denominator are then
/// affine in `u`, so a sampler walking the row pays three multiply-adds and one reciprocal per
/// point instead of the full product and two divisions.
struct HomographyRow {
  let x0: Double, y0: Double, w0: Double
  let dx: Double, dy: Double, dw: Double

  init(_ map: Homography, v: Double) {
    let m = map.m
    (x0, y0, w0) = (m[1] * v + m[2], m[4] * v + m[5], m[7] * v + m[8])
    (dx, dy, dw) = (m[0], m[3], m[6])
  }

  /// The image of (u, v).
  @inline(__always)
  func apply(_ u: Double) -> (x: Double, y: Double) {
    let reciprocal = 1 / (dw * u + w0)
    return ((dx * u + x0) * reciprocal, (dy * u + y0) * reciprocal)
  }
}

/// A quadrilateral: its corners in order, clockwise from a top-left corner in the records (the
/// card's own top-left for a card), in pixels. Written in records as `[[x, y], …]`; the static
/// helpers take corner lists as detection produces them.
public struct Quad: Sendable, Equatable, Codable {
  public var corners: [Point]

  public init(_ corners: [Point]) { self.corners = corners }

  /// The corners with each coordinate passed through `transform` (rounding, scaling).
  public func map(_ transform: (Double) -> Double) -> Quad {
    Quad(corners.map { Point(transform($0.x), transform($0.y)) })
  }

  public init(from decoder: Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var corners: [Point] = []
    while !container.isAtEnd {
      var pair = try container.nestedUnkeyedContainer()
      corners.append(Point(try pair.decode(Double.self), try pair.decode(Double.self)))
    }
    self.corners = corners
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.unkeyedContainer()
    for corner in corners {
      var pair = container.nestedUnkeyedContainer()
      try pair.encode(corner.x)
      try pair.encode(corner.y)
    }
  }

  public static func area(_ q: [Point]) -> Double {
    var sum = 0.0
    for i in 0..<q.count {
      let a = q[i], b = q[(i + 1) % q.count]
      sum += a.x * b.y - b.x * a.y
    }
    return abs(sum) / 2
  }

  /// Whether each side of the quadrilateral runs within `degrees` of the image's axes (a
  /// screen's drawing, a scan); false for anything but four corners.
  public static func isSquareToAxes(_ q: [Point], withinDegrees degrees: Double) -> Bool {
    guard q.count == 4 else { return false }
    let limit = tan(degrees * .pi / 180)
    return q.indices.allSatisfy { k in
      let p = q[k], next = q[(k + 1) % 4]
      let dx = abs(next.x - p.x), dy = abs(next.y - p.y)
      return min(dx, dy) <= limit * max(dx, dy)
    }
  }

  /// Whether the polygon is convex (all turns the same way).
  public static func isConvex(_ q: [Point]) -> Bool {
    var sign = 0.0
    for i in 0..<q.count {
      let a = q[i], b = q[(i + 1) % q.count], c = q[(i + 2) % q.count]
      let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
      if abs(cross) < 1e-9 { return false }
      if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
    }
    return true
  }

  /// Clockwise on screen (y down), starting at the corner nearest the top-left.
  public static func clockwise(_ points: [Point]) -> [Point] {
    let cx = points.map(\.x).reduce(0, +) / Double(points.count)
    let cy = points.map(\.y).reduce(0, +) / Double(points.count)
    let sorted = points.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
    // atan2 ascending with y down runs clockwise on screen; start at the smallest x + y.
    let start = sorted.indices.min { sorted[$0].x + sorted[$0].y < sorted[$1].x + sorted[$1].y }!
    return Array(sorted[start...] + sorted[..<start])
  }

  /// The mean of the four corners.
  public static func centre(_ q: [Point]) -> Point {
    Point(q.map(\.x).reduce(0, +) / 4, q.map(\.y).reduce(0, +) / 4)
  }

  public static func distance(_ a: Point, _ b: Point) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }

  /// Intersection over union of two convex quads, by rasterising both on a grid.
  public static func iou(_ a: [Point], _ b: [Point], samples: Int = 200) -> Double {
    let xs = (a + b).map(\.x), ys = (a + b).map(\.y)
    let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
    let stepX = (maxX - minX) / Double(samples), stepY = (maxY - minY) / Double(samples)
    var inter = 0, union = 0
    for j in 0..<samples {
      for i in 0..<samples {
        let p = Point(minX + (Double(i) + 0.5) * stepX, minY + (Double(j) + 0.5) * stepY)
        let inA = contains(a, p), inB = contains(b, p)
        if inA || inB { union += 1 }
        if inA && inB { inter += 1 }
      }
    }
    return union == 0 ? 0 : Double(inter) / Double(union)
  }

  public static func contains(_ q: [Point], _ p: Point) -> Bool {
    var positive = false, negative = false
    for i in 0..<q.count {
      let a = q[i], b = q[(i + 1) % q.count]
      let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
      if cross > 0 { positive = true }
      if cross < 0 { negative = true }
    }
    return !(positive && negative)
  }
}
