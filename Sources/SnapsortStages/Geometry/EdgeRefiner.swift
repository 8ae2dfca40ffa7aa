import Foundation
import SnapsortImaging
import SnapsortNative

/// Re-fits each side of a quad to the strongest edge across it, with sub-pixel precision.
struct EdgeRefiner {
  /// Grey or RGB, sampled where needed, so no copy is made.
  let image: Bitmap

  /// Two passes: a wide search that absorbs the coarse line's angle error, then a narrow one
  /// around the first fit. Nil when a side finds no edge or a corner would move too far.
  func refine(_ quad: [Point]) -> [Point]? {
    let wide = max(4.0, Double(max(image.width, image.height)) / 200)
    guard let first = refine(quad, radius: wide) else { return nil }
    for (old, new) in zip(quad, first) where Quad.distance(old, new) > wide * 3 { return nil }
    return refine(first, radius: 3) ?? first
  }

  private func refine(_ quad: [Point], radius: Double) -> [Point]? {
    var lines: [(a: Double, b: Double, c: Double)] = []  // a x + b y = c, (a, b) unit
    for s in 0..<4 {
      let p = quad[s], q = quad[(s + 1) % 4]
      let length = Quad.distance(p, q)
      guard length > 8 else { return nil }
      let nx = -(q.y - p.y) / length, ny = (q.x - p.x) / length
      var points: [Point] = []
      let samples = 48
      let steps = Int(radius * 2)
      var values = [Double](repeating: 0, count: steps + 1)
      for k in 0..<samples {
        // The ends of a side are the rounded corners: leave 8 % at each end out.
        let t = 0.08 + 0.84 * (Double(k) + 0.5) / Double(samples)
        let cx = p.x + (q.x - p.x) * t, cy = p.y + (q.y - p.y) * t
        for step in 0...steps {
          let offset = -radius + Double(step)
          values[step] = derivative(cx + nx * offset, cy + ny * offset, nx, ny)
        }
        guard let index = values.indices.max(by: { values[$0] < values[$1] }), values[index] > 8 else {
          continue
        }
        var offset = -radius + Double(index)
        // Parabolic interpolation of the peak for sub-pixel position.
        if index > 0 && index < steps {
          let l = values[index - 1], r = values[index + 1], v = values[index]
          let denominator = l - 2 * v + r
          if denominator < 0 { offset += 0.5 * (l - r) / denominator }
        }
        points.append(Point(cx + nx * offset, cy + ny * offset))
      }
      guard points.count >= 10, let line = robustLine(points) else { return nil }
      lines.append(line)
    }
    var corners: [Point] = []
    for s in 0..<4 {
      let l1 = lines[(s + 3) % 4], l2 = lines[s]
      let det = l1.a * l2.b - l1.b * l2.a
      guard abs(det) > 1e-6 else { return nil }
      corners.append(Point((l1.c * l2.b - l1.b * l2.c) / det, (l1.a * l2.c - l1.c * l2.a) / det))
    }
    return corners
  }

  /// A line through most of the points: fingers, glare and shadows pull a few off the edge, so
  /// the closest 60 % are fitted first, then every point within 1.5 px of that fit.
  private func robustLine(_ points: [Point]) -> (a: Double, b: Double, c: Double)? {
    guard var line = fitLine(points) else { return nil }
    for _ in 0..<2 {
      let residuals = points.map { abs(line.a * $0.x + line.b * $0.y - line.c) }
      let cut = residuals.sorted()[Int(Double(points.count - 1) * 0.6)]
      let kept = zip(points, residuals).filter { $0.1 <= cut }.map(\.0)
      guard kept.count >= 6, let refit = fitLine(kept) else { return line }
      line = refit
    }
    let inliers = points.filter { abs(line.a * $0.x + line.b * $0.y - line.c) < 1.5 }
    if inliers.count >= 8, let refit = fitLine(inliers) { line = refit }
    return line
  }

  /// Largest absolute derivative over the channels along (nx, ny) at a point, by central
  /// differences: a card may differ from the table in hue more than in brightness.
  private func derivative(_ x: Double, _ y: Double, _ nx: Double, _ ny: Double) -> Double {
    let a = value(x + nx, y + ny), b = value(x - nx, y - ny)
    return max(abs(a.0 - b.0), abs(a.1 - b.1), abs(a.2 - b.2))
  }

  private func value(_ x: Double, _ y: Double) -> (Double, Double, Double) {
    let xi = min(image.width - 2, max(0, Int(x))), yi = min(image.height - 2, max(0, Int(y)))
    let fx = min(1, max(0, x - Double(xi))), fy = min(1, max(0, y - Double(yi)))
    let i = yi * image.width + xi
    let w = image.width, c = image.channels
    return image.pixels.withUnsafeBufferPointer { p in
      func channel(_ k: Int) -> Double {
        let k = min(k, c - 1)
        let top = Double(p[i * c + k]) * (1 - fx) + Double(p[(i + 1) * c + k]) * fx
        let bottom = Double(p[(i + w) * c + k]) * (1 - fx) + Double(p[(i + w + 1) * c + k]) * fx
        return top * (1 - fy) + bottom * fy
      }
      return (channel(0), channel(1), channel(2))
    }
  }

  /// Total least squares line through points, as its unit normal (a, b) and offset c.
  private func fitLine(_ points: [Point]) -> (a: Double, b: Double, c: Double)? {
    guard let line = FittedLine(fittedTo: points, minimumCount: 2) else { return nil }
    let (a, b) = (-line.direction.y, line.direction.x)
    return (a, b, a * line.point.x + b * line.point.y)
  }
}
