import Foundation
import SnapsortNative

/// The four sides of a roughly upright, square symbol on a dark/light mask: for each side, the
/// outermost dark pixel of every row (or column) and a line fitted to the outer envelope of
/// those points. A data module missing from the symbol's edge only pulls a point inwards, so
/// points more than `tolerance` inside the line are dropped and the line refitted.
struct EnvelopeSides {
  let dark: [Bool]
  let size: Int
  /// The rows and columns that belong to the symbol (the quiet zone left out).
  let inner: Range<Int>

  /// Top, right, bottom, left; nil when a side has too few points.
  func fitted(tolerance: Double) -> [FittedLine]? {
    var left: [(Double, Double)] = [], right: [(Double, Double)] = []
    var top: [(Double, Double)] = [], bottom: [(Double, Double)] = []
    for i in inner {
      let row = inner.filter { dark[i * size + $0] }
      if let first = row.first, let last = row.last {
        left.append((Double(i) + 0.5, Double(first)))
        right.append((Double(i) + 0.5, Double(last + 1)))
      }
      let column = inner.filter { dark[$0 * size + i] }
      if let first = column.first, let last = column.last {
        top.append((Double(i) + 0.5, Double(first)))
        bottom.append((Double(i) + 0.5, Double(last + 1)))
      }
    }
    guard let t = Self.envelope(top, inward: 1, tolerance: tolerance),
      let r = Self.envelope(right, inward: -1, tolerance: tolerance),
      let b = Self.envelope(bottom, inward: -1, tolerance: tolerance),
      let l = Self.envelope(left, inward: 1, tolerance: tolerance)
    else { return nil }
    // Rows give x = slope·y + offset, columns y = slope·x + offset.
    return [
      FittedLine(point: Point(0, t.offset), direction: Point(1, t.slope)),
      FittedLine(point: Point(r.offset, 0), direction: Point(r.slope, 1)),
      FittedLine(point: Point(0, b.offset), direction: Point(1, b.slope)),
      FittedLine(point: Point(l.offset, 0), direction: Point(l.slope, 1)),
    ]
  }

  /// across = slope · along + offset over the points not more than `tolerance` inside the line
  /// (`inward`: the sign of "inside" across).
  static func envelope(_ points: [(along: Double, across: Double)], inward: Double, tolerance: Double)
    -> (slope: Double, offset: Double)?
  {
    guard points.count >= 6 else { return nil }
    var keep = [Bool](repeating: true, count: points.count)
    var line: (slope: Double, offset: Double)?
    for _ in 0..<8 {
      let kept = zip(points, keep).filter(\.1).map(\.0)
      guard kept.count >= 6, let fit = leastSquares(kept) else { break }
      line = fit
      let next = points.map { (($0.across - (fit.slope * $0.along + fit.offset)) * inward) < tolerance }
      if next == keep { break }
      keep = next
    }
    return line
  }

  static func leastSquares(_ points: [(along: Double, across: Double)]) -> (slope: Double, offset: Double)? {
    let n = Double(points.count)
    let ma = points.map(\.along).reduce(0, +) / n, mc = points.map(\.across).reduce(0, +) / n
    var saa = 0.0, sac = 0.0
    for p in points {
      saa += (p.along - ma) * (p.along - ma)
      sac += (p.along - ma) * (p.across - mc)
    }
    guard saa > 1e-9 else { return nil }
    let slope = sac / saa
    return (slope, mc - slope * ma)
  }
}
