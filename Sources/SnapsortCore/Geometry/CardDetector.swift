import Foundation

/// Finds the quadrilateral of an ID-1 card (85.60 × 53.98 mm) in a grey image.
///
/// Straight edges are found by a Hough transform of gradient edges on a reduced copy; pairs of
/// roughly parallel lines are combined into quadrilaterals, which are ranked by how well all four
/// sides are supported by edges, how close their aspect is to the card's after perspective, their
/// area and the contrast across their border. The winner's sides are then re-fitted to sub-pixel
/// edge positions on the full analysis image. Rounded corners do not matter: the corners are
/// where the straight sides meet.
public struct CardDetector: Sendable {
  public struct Result: Sendable {
    /// Corners in the input image's pixels, clockwise from the top-left corner of the image's view.
    public var quad: [Point]
    public var confidence: Double
    public var candidates: Int
  }

  public static let cardAspect = 85.60 / 53.98

  /// Longest side of the copy that lines are searched on.
  public var searchSide = 640
  /// Lowest score a quad may have to be reported.
  public var minimumScore = 0.35

  public init() {}

  public func detect(in image: Bitmap) -> Result? {
    let gray = image.grayscale()
    let small = gray.fitting(maxSide: searchSide)
    let scale = Double(gray.width) / Double(small.width)
    let field = GradientField(smoothing: small)
    let edges = field.edgePixels()
    guard edges.count > 50 else { return nil }
    let lines = HoughLines(field: field, edges: edges).strongest(
      count: 40, minimumVotes: max(20, min(small.width, small.height) / 16))
    guard lines.count >= 4 else { return nil }
    var best: (quad: [Point], score: Double)?
    var evaluated = 0
    let imageArea = Double(small.width * small.height)
    let pairs = parallelPairs(lines, minimumSeparation: Double(min(small.width, small.height)) * 0.08)
    for i in 0..<pairs.count {
      for j in (i + 1)..<pairs.count {
        let (a1, a2) = pairs[i], (b1, b2) = pairs[j]
        let angle = abs(angleBetween(a1.theta, b1.theta))
        guard angle > 50 * .pi / 180 else { continue }
        guard let quad = quadrilateral(a1, b1, a2, b2) else { continue }
        let area = Quad.area(quad)
        guard area > imageArea * 0.02, area < imageArea * 1.05, Quad.isConvex(quad) else { continue }
        guard inside(quad, width: small.width, height: small.height, margin: 0.04) else { continue }
        guard anglesPlausible(quad) else { continue }
        let aspect = aspectScore(quad)
        guard aspect > 0.05 else { continue }
        evaluated += 1
        let support = field.sideSupport(quad)
        let contrast = field.borderContrast(quad)
        // Nested rectangles (a barcode panel, a logo) can be as well supported as the card: the
        // card is the largest one, and its border is a step between two different surfaces.
        let score =
          0.40 * support.minimum + 0.10 * support.mean + 0.20 * aspect + 0.30
          * (area / imageArea).squareRoot()
          + 0.15 * contrast
        if score > (best?.score ?? 0) { best = (quad, score) }
      }
    }
    if let best, best.score >= minimumScore {
      let scaled = best.quad.map { Point($0.x * scale, $0.y * scale) }
      let refined = EdgeRefiner(gray: gray).refine(scaled) ?? scaled
      return Result(quad: Quad.clockwise(refined), confidence: min(1, best.score), candidates: evaluated)
    }
    return nil
  }

  // MARK: - Candidate geometry

  private func parallelPairs(_ lines: [HoughLines.Line], minimumSeparation: Double) -> [(
    HoughLines.Line, HoughLines.Line
  )] {
    var pairs: [(HoughLines.Line, HoughLines.Line)] = []
    for i in 0..<lines.count {
      for j in (i + 1)..<lines.count {
        let difference = abs(angleBetween(lines[i].theta, lines[j].theta))
        // Perspective makes opposite sides converge; up to ~25° apart at a 35° tilt.
        guard difference < 35 * .pi / 180 else { continue }
        // Distance between the lines measured at the midpoint of the first line's segment.
        let gap = abs(lines[j].distance(to: lines[i].anchor))
        guard gap > minimumSeparation else { continue }
        pairs.append((lines[i], lines[j]))
      }
    }
    return pairs
  }

  /// Acute angle between two line directions, in radians (−π/2…π/2).
  private func angleBetween(_ a: Double, _ b: Double) -> Double {
    var d = a - b
    while d > .pi / 2 { d -= .pi }
    while d < -.pi / 2 { d += .pi }
    return d
  }

  /// The quad bounded by a1, b1, a2, b2 (a's parallel, b's parallel), in order around it.
  private func quadrilateral(
    _ a1: HoughLines.Line, _ b1: HoughLines.Line, _ a2: HoughLines.Line, _ b2: HoughLines.Line
  ) -> [Point]? {
    guard let p1 = a1.intersection(b1), let p2 = b1.intersection(a2), let p3 = a2.intersection(b2),
      let p4 = b2.intersection(a1)
    else { return nil }
    return [p1, p2, p3, p4]
  }

  private func inside(_ quad: [Point], width: Int, height: Int, margin: Double) -> Bool {
    let mx = Double(width) * margin, my = Double(height) * margin
    return quad.allSatisfy {
      $0.x > -mx && $0.y > -my && $0.x < Double(width) + mx && $0.y < Double(height) + my
    }
  }

  private func anglesPlausible(_ quad: [Point]) -> Bool {
    for i in 0..<4 {
      let a = quad[(i + 3) % 4], b = quad[i], c = quad[(i + 1) % 4]
      let v1 = (a.x - b.x, a.y - b.y), v2 = (c.x - b.x, c.y - b.y)
      let cosine =
        (v1.0 * v2.0 + v1.1 * v2.1)
        / ((v1.0 * v1.0 + v1.1 * v1.1).squareRoot() * (v2.0 * v2.0 + v2.1 * v2.1).squareRoot())
      if abs(cosine) > cos(45 * Double.pi / 180) { return false }
    }
    return true
  }

  /// How close the quad's aspect (mean of opposite sides) is to the card's, in log space.
  func aspectScore(_ quad: [Point]) -> Double {
    let s0 = Quad.distance(quad[0], quad[1]), s1 = Quad.distance(quad[1], quad[2])
    let s2 = Quad.distance(quad[2], quad[3]), s3 = Quad.distance(quad[3], quad[0])
    let a = (s0 + s2) / 2, b = (s1 + s3) / 2
    guard min(a, b) > 1 else { return 0 }
    let ratio = max(a, b) / min(a, b)
    let error = log(ratio / Self.cardAspect) / 0.14
    return exp(-error * error)
  }
}

/// Smoothed image with its Sobel gradient.
struct GradientField {
  let width: Int
  let height: Int
  let smooth: [Float]
  let gx: [Float]
  let gy: [Float]
  let magnitude: [Float]
  /// Magnitude above which a pixel counts as an edge.
  let threshold: Float

  init(smoothing gray: Bitmap) {
    width = gray.width
    height = gray.height
    let w = width, h = height
    // Separable [1 4 6 4 1] / 16 blur.
    var temp = [Float](repeating: 0, count: w * h)
    var blurred = [Float](repeating: 0, count: w * h)
    let k: [Float] = [1, 4, 6, 4, 1]
    gray.pixels.withUnsafeBufferPointer { src in
      for y in 0..<h {
        for x in 0..<w {
          var sum: Float = 0
          for t in -2...2 {
            let xx = min(w - 1, max(0, x + t))
            sum += k[t + 2] * Float(src[y * w + xx])
          }
          temp[y * w + x] = sum / 16
        }
      }
    }
    for y in 0..<h {
      for x in 0..<w {
        var sum: Float = 0
        for t in -2...2 {
          let yy = min(h - 1, max(0, y + t))
          sum += k[t + 2] * temp[yy * w + x]
        }
        blurred[y * w + x] = sum / 16
      }
    }
    var gx = [Float](repeating: 0, count: w * h)
    var gy = [Float](repeating: 0, count: w * h)
    var magnitude = [Float](repeating: 0, count: w * h)
    for y in 1..<(h - 1) {
      for x in 1..<(w - 1) {
        let i = y * w + x
        let dx =
          (blurred[i - w + 1] + 2 * blurred[i + 1] + blurred[i + w + 1])
          - (blurred[i - w - 1] + 2 * blurred[i - 1] + blurred[i + w - 1])
        let dy =
          (blurred[i + w - 1] + 2 * blurred[i + w] + blurred[i + w + 1])
          - (blurred[i - w - 1] + 2 * blurred[i - w] + blurred[i - w + 1])
        gx[i] = dx
        gy[i] = dy
        magnitude[i] = (dx * dx + dy * dy).squareRoot()
      }
    }
    // An edge is stronger than most of the image: the 85th percentile, at least a faint step.
    let sample = stride(from: 0, to: magnitude.count, by: 7).map { magnitude[$0] }.sorted()
    threshold = max(12, sample[Int(Double(sample.count - 1) * 0.85)])
    smooth = blurred
    self.gx = gx
    self.gy = gy
    self.magnitude = magnitude
  }

  /// Pixels that are local maxima of the gradient across the edge and above the threshold.
  func edgePixels() -> [Int] {
    var result: [Int] = []
    for y in 2..<(height - 2) {
      for x in 2..<(width - 2) {
        let i = y * width + x
        let m = magnitude[i]
        guard m >= threshold else { continue }
        let ax = abs(gx[i]), ay = abs(gy[i])
        let (n1, n2): (Int, Int)
        if ax > 2.4 * ay {
          (n1, n2) = (i - 1, i + 1)
        } else if ay > 2.4 * ax {
          (n1, n2) = (i - width, i + width)
        } else if (gx[i] > 0) == (gy[i] > 0) {
          (n1, n2) = (i - width - 1, i + width + 1)
        } else {
          (n1, n2) = (i - width + 1, i + width - 1)
        }
        if m >= magnitude[n1] && m > magnitude[n2] { result.append(i) }
      }
    }
    return result
  }

  func sample(_ values: [Float], _ x: Double, _ y: Double) -> Float {
    let xi = min(width - 2, max(0, Int(x))), yi = min(height - 2, max(0, Int(y)))
    let fx = Float(min(1, max(0, x - Double(xi)))), fy = Float(min(1, max(0, y - Double(yi))))
    let i = yi * width + xi
    let top = values[i] * (1 - fx) + values[i + 1] * fx
    let bottom = values[i + width] * (1 - fx) + values[i + width + 1] * fx
    return top * (1 - fy) + bottom * fy
  }

  /// Per side, the share of points along it (corners excluded) with an edge across the side.
  func sideSupport(_ quad: [Point]) -> (minimum: Double, mean: Double) {
    var supports: [Double] = []
    for s in 0..<4 {
      let a = quad[s], b = quad[(s + 1) % 4]
      let length = Quad.distance(a, b)
      guard length > 4 else { return (0, 0) }
      let nx = -(b.y - a.y) / length, ny = (b.x - a.x) / length
      let count = 32
      var hits = 0
      for k in 0..<count {
        // Skip 12 % at each end: rounded corners and occluding fingers live there.
        let t = 0.12 + 0.76 * (Double(k) + 0.5) / Double(count)
        let px = a.x + (b.x - a.x) * t, py = a.y + (b.y - a.y) * t
        var found = false
        for offset in [-2.0, -1, 0, 1, 2] {
          let x = px + nx * offset, y = py + ny * offset
          guard x >= 1, y >= 1, x < Double(width - 2), y < Double(height - 2) else { continue }
          let gxv = Double(sample(gx, x, y)), gyv = Double(sample(gy, x, y))
          let m = (gxv * gxv + gyv * gyv).squareRoot()
          if m > Double(threshold) * 0.6 && abs(gxv * nx + gyv * ny) > 0.8 * m {
            found = true
            break
          }
        }
        if found { hits += 1 }
      }
      supports.append(Double(hits) / Double(count))
    }
    return (supports.min() ?? 0, supports.reduce(0, +) / 4)
  }

  /// Mean absolute difference of brightness just inside and just outside the border, 0…1.
  func borderContrast(_ quad: [Point]) -> Double {
    let cx = quad.map(\.x).reduce(0, +) / 4, cy = quad.map(\.y).reduce(0, +) / 4
    var total = 0.0
    var count = 0
    for s in 0..<4 {
      let a = quad[s], b = quad[(s + 1) % 4]
      for k in 1..<8 {
        let t = Double(k) / 8
        let px = a.x + (b.x - a.x) * t, py = a.y + (b.y - a.y) * t
        let dx = px - cx, dy = py - cy
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 1 else { continue }
        let ux = dx / length * 4, uy = dy / length * 4
        let inside = (px - ux, py - uy), outside = (px + ux, py + uy)
        guard outside.0 >= 0, outside.1 >= 0, outside.0 < Double(width - 1), outside.1 < Double(height - 1)
        else { continue }
        total += Double(abs(sample(smooth, inside.0, inside.1) - sample(smooth, outside.0, outside.1)))
        count += 1
      }
    }
    return count == 0 ? 0 : min(1, total / Double(count) / 60)
  }
}

/// A Hough transform restricted, per edge pixel, to angles near its gradient direction.
struct HoughLines {
  /// `x cos θ + y sin θ = rho`; `anchor` is the centroid of the pixels that voted for it.
  struct Line {
    var theta: Double
    var rho: Double
    var votes: Int
    var anchor: Point

    func distance(to p: Point) -> Double { p.x * cos(theta) + p.y * sin(theta) - rho }

    func intersection(_ other: Line) -> Point? {
      let (c1, s1, c2, s2) = (cos(theta), sin(theta), cos(other.theta), sin(other.theta))
      let det = c1 * s2 - s1 * c2
      guard abs(det) > 1e-6 else { return nil }
      return Point((rho * s2 - other.rho * s1) / det, (c1 * other.rho - c2 * rho) / det)
    }
  }

  let field: GradientField
  let edges: [Int]
  let thetaBins = 360
  let rhoOffset: Int
  let rhoBins: Int

  init(field: GradientField, edges: [Int]) {
    self.field = field
    self.edges = edges
    let diagonal = Int((Double(field.width * field.width + field.height * field.height)).squareRoot()) / 2 + 2
    rhoOffset = diagonal
    rhoBins = 2 * diagonal + 1
  }

  /// Lines by votes, at most `perDirection` of them within any 30° of direction, so a texture
  /// (wood grain, a barcode's bars) cannot crowd out the card's other sides.
  func strongest(count: Int, minimumVotes: Int, perDirection: Int = 8) -> [Line] {
    var accumulator = [Int32](repeating: 0, count: thetaBins * rhoBins)
    let cosines = (0..<thetaBins).map { cos(Double($0) * 2 * .pi / Double(thetaBins)) }
    let sines = (0..<thetaBins).map { sin(Double($0) * 2 * .pi / Double(thetaBins)) }
    for i in edges {
      let x = Double(i % field.width), y = Double(i / field.width)
      // The signed gradient direction (dark → bright) is consistent along a step edge, so θ
      // runs over the full circle and a near-vertical edge never splits across a wrap.
      var angle = atan2(Double(field.gy[i]), Double(field.gx[i]))
      if angle < 0 { angle += 2 * .pi }
      let center = Int((angle / (2 * .pi) * Double(thetaBins)).rounded()) % thetaBins
      for d in -3...3 {
        let t = (center + d + thetaBins) % thetaBins
        // ρ in bins of 2 px: a long edge whose angle falls between two θ bins drifts across a
        // couple of pixels of ρ, and its votes should not be split.
        let rho = Int(((x * cosines[t] + y * sines[t]) / 2).rounded()) + rhoOffset
        accumulator[t * rhoBins + rho] += 1
      }
    }
    var peaks: [(t: Int, r: Int, votes: Int32)] = []
    for t in 0..<thetaBins {
      for r in 0..<rhoBins {
        let v = accumulator[t * rhoBins + r]
        if v >= Int32(minimumVotes) { peaks.append((t, r, v)) }
      }
    }
    peaks.sort { ($0.votes, $1.t, $1.r) > ($1.votes, $0.t, $0.r) }
    var chosen: [(t: Int, r: Int, votes: Int32)] = []
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
    return chosen.map { peak in
      let theta = Double(peak.t) * 2 * .pi / Double(thetaBins)
      let rho = Double(peak.r - rhoOffset) * 2
      return Line(theta: theta, rho: rho, votes: Int(peak.votes), anchor: anchor(theta: theta, rho: rho))
    }
  }

  /// The mean position of edge pixels on the line, a point of its visible segment.
  private func anchor(theta: Double, rho: Double) -> Point {
    var sx = 0.0, sy = 0.0, n = 0.0
    for i in edges {
      let x = Double(i % field.width), y = Double(i / field.width)
      if abs(x * cos(theta) + y * sin(theta) - rho) < 1.5 {
        sx += x
        sy += y
        n += 1
      }
    }
    if n == 0 { return Point(rho * cos(theta), rho * sin(theta)) }
    return Point(sx / n, sy / n)
  }
}

/// Re-fits each side of a quad to the strongest edge across it, with sub-pixel precision.
struct EdgeRefiner {
  let gray: Bitmap

  func refine(_ quad: [Point]) -> [Point]? {
    var lines: [(a: Double, b: Double, c: Double)] = []  // a x + b y = c, (a, b) unit
    let searchRadius = max(3.0, Double(max(gray.width, gray.height)) / 320)
    for s in 0..<4 {
      let p = quad[s], q = quad[(s + 1) % 4]
      let length = Quad.distance(p, q)
      guard length > 8 else { return nil }
      let nx = -(q.y - p.y) / length, ny = (q.x - p.x) / length
      var points: [Point] = []
      let samples = 48
      for k in 0..<samples {
        let t = 0.1 + 0.8 * (Double(k) + 0.5) / Double(samples)
        let cx = p.x + (q.x - p.x) * t, cy = p.y + (q.y - p.y) * t
        var bestOffset = 0.0, bestValue = 0.0
        var values: [Double] = []
        let steps = Int(searchRadius * 2)
        for step in 0...steps {
          let offset = -searchRadius + Double(step)
          values.append(derivative(cx + nx * offset, cy + ny * offset, nx, ny))
        }
        for (index, value) in values.enumerated() where value > bestValue {
          bestValue = value
          bestOffset = -searchRadius + Double(index)
          // Parabolic interpolation of the peak for sub-pixel position.
          if index > 0 && index < values.count - 1 {
            let l = values[index - 1], r = values[index + 1]
            let denominator = l - 2 * value + r
            if denominator < 0 { bestOffset += 0.5 * (l - r) / denominator }
          }
        }
        if bestValue > 8 { points.append(Point(cx + nx * bestOffset, cy + ny * bestOffset)) }
      }
      guard points.count >= 8, var line = fitLine(points) else { return nil }
      // One round of outlier rejection: fingers, glare and rounded corners.
      let kept = points.filter { abs(line.a * $0.x + line.b * $0.y - line.c) < 1.5 }
      if kept.count >= 8, let refit = fitLine(kept) { line = refit }
      lines.append(line)
    }
    var corners: [Point] = []
    for s in 0..<4 {
      let l1 = lines[(s + 3) % 4], l2 = lines[s]
      let det = l1.a * l2.b - l1.b * l2.a
      guard abs(det) > 1e-6 else { return nil }
      corners.append(Point((l1.c * l2.b - l1.b * l2.c) / det, (l1.a * l2.c - l1.c * l2.a) / det))
    }
    // Refinement must not move a corner far: that means it latched onto another edge.
    for (old, new) in zip(quad, corners) where Quad.distance(old, new) > searchRadius * 4 {
      return nil
    }
    return corners
  }

  /// Absolute brightness derivative along (nx, ny) at a point, by central differences.
  private func derivative(_ x: Double, _ y: Double, _ nx: Double, _ ny: Double) -> Double {
    abs(value(x + nx, y + ny) - value(x - nx, y - ny))
  }

  private func value(_ x: Double, _ y: Double) -> Double {
    let xi = min(gray.width - 2, max(0, Int(x))), yi = min(gray.height - 2, max(0, Int(y)))
    let fx = min(1, max(0, x - Double(xi))), fy = min(1, max(0, y - Double(yi)))
    let i = yi * gray.width + xi
    let p = gray.pixels
    let top = Double(p[i]) * (1 - fx) + Double(p[i + 1]) * fx
    let bottom = Double(p[i + gray.width]) * (1 - fx) + Double(p[i + gray.width + 1]) * fx
    return top * (1 - fy) + bottom * fy
  }

  /// Total least squares line through points.
  private func fitLine(_ points: [Point]) -> (a: Double, b: Double, c: Double)? {
    let n = Double(points.count)
    let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
    var sxx = 0.0, syy = 0.0, sxy = 0.0
    for p in points {
      sxx += (p.x - mx) * (p.x - mx)
      syy += (p.y - my) * (p.y - my)
      sxy += (p.x - mx) * (p.y - my)
    }
    // The normal is the eigenvector of the smaller eigenvalue of the scatter matrix.
    let angle = 0.5 * atan2(2 * sxy, sxx - syy)
    let (a, b) = (-sin(angle), cos(angle))
    return (a, b, a * mx + b * my)
  }
}
