import Foundation
import SnapsortNative

/// A Hough transform restricted, per edge pixel, to angles near its gradient direction.
struct HoughLines {
  /// `x c + y s = rho`.
  struct Equation {
    var c: Double
    var s: Double
    var rho: Double

    func intersection(_ other: Equation) -> Point? {
      let (c1, s1, c2, s2) = (c, s, other.c, other.s)
      let det = c1 * s2 - s1 * c2
      guard abs(det) > 1e-6 else { return nil }
      return Point((rho * s2 - other.rho * s1) / det, (c1 * other.rho - c2 * rho) / det)
    }
  }

  /// `x cos θ + y sin θ = rho`, with where along it edges really are.
  struct Line {
    var theta: Double
    var rho: Double
    /// cos θ and sin θ, asked for in every candidate quad.
    var c: Double
    var s: Double
    var votes: Int
    /// The mean position of the edge pixels on the line, a point of its visible segment.
    var anchor: Point
    /// Running count of covered 1-px bins along the line, indexed by `t + offset` where `t` is
    /// the position along the direction (−sin θ, cos θ) from the foot point.
    var covered: [Int32]
    var offset: Int

    func distance(to p: Point) -> Double { p.x * c + p.y * s - rho }

    /// Position of a point along the line.
    func position(of p: Point) -> Double { -p.x * s + p.y * c }

    /// The line's equation alone, which the candidate quads are built from tens of thousands of
    /// times per image: a copy of it retains no array.
    var equation: Equation { Equation(c: c, s: s, rho: rho) }

    /// Uncovered stretches at least `minimum` long between positions `a` and `b`.
    func gaps(from a: Double, to b: Double, minimum: Double) -> Int {
      let lo = max(0, min(covered.count - 1, Int(min(a, b).rounded()) + offset))
      let hi = max(0, min(covered.count - 1, Int(max(a, b).rounded()) + offset))
      var count = 0, run = 0
      for bin in lo..<max(lo, hi) {
        if covered[bin + 1] == covered[bin] {
          run += 1
        } else {
          if Double(run) >= minimum { count += 1 }
          run = 0
        }
      }
      return Double(run) >= minimum ? count + 1 : count
    }

    /// Share of the stretch between positions `a` and `b` that edge pixels along the line cover;
    /// the part outside the image counts as neither covered nor uncovered.
    func coverage(from a: Double, to b: Double) -> (covered: Double, length: Double) {
      let lo = max(0, min(covered.count - 1, Int(min(a, b).rounded()) + offset))
      let hi = max(0, min(covered.count - 1, Int(max(a, b).rounded()) + offset))
      guard hi > lo else { return (0, 0) }
      return (Double(covered[hi] - covered[lo]), Double(hi - lo))
    }
  }

  /// An edge pixel with what the transform and the traces read of it, gathered once.
  struct Edge {
    var x: Double
    var y: Double
    var gx: Double
    var gy: Double
    var magnitude: Double
  }

  let edges: [Edge]
  let thetaBins = 360
  let rhoOffset: Int
  let rhoBins: Int

  init(field: GradientField, edges indices: [Int]) {
    let w = field.width
    edges = field.gx.withUnsafeBufferPointer { gx in
      field.gy.withUnsafeBufferPointer { gy in
        field.magnitude.withUnsafeBufferPointer { magnitude in
          indices.map { i in
            Edge(
              x: Double(i % w), y: Double(i / w), gx: Double(gx[i]), gy: Double(gy[i]),
              magnitude: Double(magnitude[i]))
          }
        }
      }
    }
    let diagonal = Int((Double(field.width * field.width + field.height * field.height)).squareRoot()) / 2 + 2
    rhoOffset = diagonal
    rhoBins = 2 * diagonal + 1
  }

  /// Lines by votes, at most `perDirection` of them within any 30° of direction, so a texture
  /// (wood grain, a barcode's bars) cannot crowd out the card's other sides.
  func strongest(count: Int, minimumVotes: Int, perDirection: Int = 8) -> [Line] {
    var accumulator: [Int32] = []
    return strongest(
      count: count, minimumVotes: minimumVotes, perDirection: perDirection, accumulator: &accumulator)
  }

  /// `strongest(count:minimumVotes:perDirection:)` voting into `accumulator`, whose storage is
  /// reused from image to image (its contents are overwritten).
  func strongest(count: Int, minimumVotes: Int, perDirection: Int = 8, accumulator: inout [Int32]) -> [Line] {
    vote(into: &accumulator)
    let peaks = separatedPeaks(
      sortedPeaks(accumulator, minimumVotes: minimumVotes), count: count, perDirection: perDirection)
    return peaks.map { peak in
      let theta = Double(peak.t) * 2 * .pi / Double(thetaBins)
      let rho = Double(peak.r - rhoOffset) * 2
      return trace(theta: theta, rho: rho, votes: Int(peak.votes))
    }
  }

  /// Each edge's votes, over the θ bins near its gradient direction, into a cleared accumulator.
  private func vote(into accumulator: inout [Int32]) {
    if accumulator.count == thetaBins * rhoBins {
      accumulator.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    } else {
      accumulator = [Int32](repeating: 0, count: thetaBins * rhoBins)
    }
    let cosines = (0..<thetaBins).map { cos(Double($0) * 2 * .pi / Double(thetaBins)) }
    let sines = (0..<thetaBins).map { sin(Double($0) * 2 * .pi / Double(thetaBins)) }
    accumulator.withUnsafeMutableBufferPointer { votes in
      for edge in edges {
        // The signed gradient direction (dark → bright) is consistent along a step edge, so θ
        // runs over the full circle and a near-vertical edge never splits across a wrap.
        var angle = atan2(edge.gy, edge.gx)
        if angle < 0 { angle += 2 * .pi }
        let center = Int((angle / (2 * .pi) * Double(thetaBins)).rounded()) % thetaBins
        for d in -3...3 {
          let t = (center + d + thetaBins) % thetaBins
          // ρ in bins of 2 px: a long edge whose angle falls between two θ bins drifts across a
          // couple of pixels of ρ, and its votes should not be split.
          let rho = Int(((edge.x * cosines[t] + edge.y * sines[t]) / 2).rounded()) + rhoOffset
          votes[t * rhoBins + rho] += 1
        }
      }
    }
  }

  typealias Peak = (t: Int, r: Int, votes: Int32)

  /// Field width of θ and ρ bins in a peak's sort key.
  private static let field20 = 0xFFFFF

  /// The bins with at least `minimumVotes`, as sort keys: more votes first, then a smaller θ bin,
  /// then a smaller ρ bin.
  private func sortedPeaks(_ accumulator: [Int32], minimumVotes: Int) -> [Int] {
    // One integer per peak: integers sort several times faster than tuples compared by a
    // closure, in the same order.
    let field20 = Self.field20
    var keys: [Int] = []
    accumulator.withUnsafeBufferPointer { votes in
      for t in 0..<thetaBins {
        for r in 0..<rhoBins {
          let v = votes[t * rhoBins + r]
          if v >= Int32(minimumVotes) { keys.append(Int(v) << 40 | (field20 - t) << 20 | (field20 - r)) }
        }
      }
    }
    keys.sort(by: >)
    return keys
  }

  /// The strongest peaks, skipping one near a peak already taken and any beyond `perDirection`
  /// in a direction.
  private func separatedPeaks(_ keys: [Int], count: Int, perDirection: Int) -> [Peak] {
    let field20 = Self.field20
    let peaks = keys.lazy.map { key in
      (t: field20 - (key >> 20 & field20), r: field20 - (key & field20), votes: Int32(key >> 40))
    }
    var chosen: [Peak] = []
    var perBucket = [Int](repeating: 0, count: 6)
    for peak in peaks {
      let clash = chosen.contains { other in
        var dt = abs(other.t - peak.t)
        dt = min(dt, thetaBins - dt)
        return dt <= 4 && abs(other.r - peak.r) <= 4
      }
      if clash { continue }
      // Direction modulo 180°, in six buckets of 30°.
      let bucket = (peak.t % (thetaBins / 2)) / 30
      guard perBucket[bucket] < perDirection else { continue }
      perBucket[bucket] += 1
      chosen.append(peak)
      if chosen.count == count { break }
    }
    return chosen
  }

  /// Where along the line edges of either polarity run parallel to it, so a side whose contrast
  /// flips (a mid-grey card on wood, glare) is still seen as one edge.
  private func trace(theta: Double, rho: Double, votes: Int) -> Line {
    let c = cos(theta), s = sin(theta)
    let offset = rhoOffset * 2 + 2
    var marks = [Bool](repeating: false, count: 2 * offset + 1)
    var sx = 0.0, sy = 0.0, n = 0.0
    for edge in edges {
      let x = edge.x, y = edge.y
      guard abs(x * c + y * s - rho) < 1.6 else { continue }
      guard abs(edge.gx * c + edge.gy * s) > 0.93 * edge.magnitude else { continue }
      sx += x
      sy += y
      n += 1
      let bin = Int((-x * s + y * c).rounded()) + offset
      for b in max(0, bin - 1)...min(marks.count - 1, bin + 1) { marks[b] = true }
    }
    var covered = [Int32](repeating: 0, count: marks.count + 1)
    for (index, mark) in marks.enumerated() { covered[index + 1] = covered[index] + (mark ? 1 : 0) }
    let anchor = n == 0 ? Point(rho * c, rho * s) : Point(sx / n, sy / n)
    return Line(
      theta: theta, rho: rho, c: c, s: s, votes: votes, anchor: anchor, covered: covered, offset: offset)
  }
}
