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
    var random = SeededGenerator(seed: seed)
    var centers: [Double] = Array(points[0..<d])
    var nearest = [Double](repeating: .infinity, count: n)
    func distance(_ i: Int, _ c: Int) -> Double {
      var sum = 0.0
      for j in 0..<d {
        let diff = points[i * d + j] - centers[c * d + j]
        sum += diff * diff
      }
      return sum
    }
    // k-means++: each next centre is drawn with probability proportional to squared distance.
    let first = Int(random.next() % UInt64(n))
    centers = Array(points[(first * d)..<(first * d + d)])
    while centers.count / d < k {
      let c = centers.count / d - 1
      var total = 0.0
      for i in 0..<n {
        nearest[i] = min(nearest[i], distance(i, c))
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
    let clusters = centers.count / d
    var assignment = [Int](repeating: 0, count: n)
    for _ in 0..<iterations {
      var changed = false
      for i in 0..<n {
        var best = 0
        var bestDistance = Double.infinity
        for c in 0..<clusters {
          let dist = distance(i, c)
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
      var sums = [Double](repeating: 0, count: clusters * d)
      var counts = [Int](repeating: 0, count: clusters)
      for i in 0..<n {
        counts[assignment[i]] += 1
        for j in 0..<d { sums[assignment[i] * d + j] += points[i * d + j] }
      }
      for c in 0..<clusters where counts[c] > 0 {
        for j in 0..<d { centers[c * d + j] = sums[c * d + j] / Double(counts[c]) }
      }
      if !changed { break }
    }
    var counts = [Int](repeating: 0, count: clusters)
    for i in 0..<n { counts[assignment[i]] += 1 }
    return (0..<clusters).compactMap { c in
      counts[c] == 0 ? nil : Cluster(center: Array(centers[(c * d)..<(c * d + d)]), count: counts[c])
    }
  }
}
