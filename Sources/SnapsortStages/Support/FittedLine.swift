import Foundation
import SnapsortNative

/// A straight line through `point` along the unit vector `direction`.
struct FittedLine {
  var point: Point
  var direction: Point

  /// The total-least-squares line through at least `minimumCount` points.
  init?(fittedTo points: [Point], minimumCount: Int = 3) {
    guard points.count >= max(2, minimumCount) else { return nil }
    let n = Double(points.count)
    let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
    var sxx = 0.0, sxy = 0.0, syy = 0.0
    for p in points {
      sxx += (p.x - mx) * (p.x - mx)
      sxy += (p.x - mx) * (p.y - my)
      syy += (p.y - my) * (p.y - my)
    }
    let theta = 0.5 * atan2(2 * sxy, sxx - syy)
    self.point = Point(mx, my)
    self.direction = Point(cos(theta), sin(theta))
  }

  init(point: Point, direction: Point) {
    self.point = point
    self.direction = direction
  }

  func intersection(_ other: FittedLine) -> Point? {
    let det = direction.x * (-other.direction.y) + other.direction.x * direction.y
    guard abs(det) > 1e-9 else { return nil }
    let (bx, by) = (other.point.x - point.x, other.point.y - point.y)
    let t = (bx * (-other.direction.y) + other.direction.x * by) / det
    return Point(point.x + t * direction.x, point.y + t * direction.y)
  }
}
