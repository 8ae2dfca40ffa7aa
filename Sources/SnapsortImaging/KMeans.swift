/// k-means with k-means++ seeding from a fixed seed: the same points always give the same
/// clusters.
public struct KMeans: Sendable {
  public struct Cluster: Sendable {
    public var center: [Double]
    public var count: Int
  }

  public var k: Int
  public var iterations = 12
  public var seed: UInt64 = 0x5EED_CA4D

  public init(k: Int) { self.k = k }

  /// Clusters `points` (each `dimensions` long, packed) and returns the non-empty clusters.
  public func fit(_ points: [Double], dimensions d: Int) -> [Cluster] {
    let n = points.count / d
    guard n > 0 else { return [] }
    var centers = seededCenters(points, dimensions: d)
    let clusters = centers.count / d
    var assignment = [Int](repeating: 0, count: n)
    for _ in 0..<iterations {
      let changed = Self.assign(points, to: centers, dimensions: d, assignment: &assignment)
      Self.moveCenters(&centers, toMeansOf: points, assignment: assignment, dimensions: d)
      if !changed { break }
    }
    var counts = [Int](repeating: 0, count: clusters)
    for i in 0..<n { counts[assignment[i]] += 1 }
    return (0..<clusters).compactMap { c in
      counts[c] == 0 ? nil : Cluster(center: Array(centers[(c * d)..<(c * d + d)]), count: counts[c])
    }
  }

  /// k-means++: each next centre is drawn with probability proportional to squared distance.
  /// Fewer than `k` centres when the points run out of distinct values.
  private func seededCenters(_ points: [Double], dimensions d: Int) -> [Double] {
    let n = points.count / d
    var random = SeededGenerator(seed: seed)
    var nearest = [Double](repeating: .infinity, count: n)
    let first = Int(random.next() % UInt64(n))
    var centers = Array(points[(first * d)..<(first * d + d)])
    while centers.count / d < k {
      let c = centers.count / d - 1
      var total = 0.0
      for i in 0..<n {
        nearest[i] = min(nearest[i], Self.squaredDistance(points, i, centers, c, dimensions: d))
        total += nearest[i]
      }
      guard total > 1e-9 else { break }
      var target = Double(random.next() % 1_000_000) / 1_000_000 * total
      var chosen = n - 1
      for i in 0..<n {
        target -= nearest[i]
        if target <= 0 {
          chosen = i
          break
        }
      }
      centers += points[(chosen * d)..<(chosen * d + d)]
    }
    return centers
  }

  /// Gives each point its nearest centre (the first on a tie).
  ///
  /// - Returns: whether any point changed centre.
  private static func assign(
    _ points: [Double], to centers: [Double], dimensions d: Int, assignment: inout [Int]
  ) -> Bool {
    let clusters = centers.count / d
    var changed = false
    for i in 0..<assignment.count {
      var best = 0
      var bestDistance = Double.infinity
      for c in 0..<clusters {
        let dist = squaredDistance(points, i, centers, c, dimensions: d)
        if dist < bestDistance {
          bestDistance = dist
          best = c
        }
      }
      if assignment[i] != best {
        assignment[i] = best
        changed = true
      }
    }
    return changed
  }

  /// Moves each centre with points to their mean; a centre without points stays where it is.
  private static func moveCenters(
    _ centers: inout [Double], toMeansOf points: [Double], assignment: [Int], dimensions d: Int
  ) {
    let clusters = centers.count / d
    var sums = [Double](repeating: 0, count: clusters * d)
    var counts = [Int](repeating: 0, count: clusters)
    for i in 0..<assignment.count {
      counts[assignment[i]] += 1
      for j in 0..<d { sums[assignment[i] * d + j] += points[i * d + j] }
    }
    for c in 0..<clusters where counts[c] > 0 {
      for j in 0..<d { centers[c * d + j] = sums[c * d + j] / Double(counts[c]) }
    }
  }

  @inline(__always)
  private static func squaredDistance(
    _ points: [Double], _ i: Int, _ centers: [Double], _ c: Int, dimensions d: Int
  ) -> Double {
    var sum = 0.0
    for j in 0..<d {
      let diff = points[i * d + j] - centers[c * d + j]
      sum += diff * diff
    }
    return sum
  }
}
