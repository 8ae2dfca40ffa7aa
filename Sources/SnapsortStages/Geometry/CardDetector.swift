import Foundation
import SnapsortImaging
import SnapsortNative

/// Finds the quadrilateral of an ID-1 card (85.60 × 53.98 mm) in an image.
///
/// Straight step edges in any colour channel (thin lines such as tile grout, barcode bars and text are left out) are
/// found by a Hough transform on a reduced copy; pairs of roughly parallel lines are
/// combined into quadrilaterals, which are ranked by how much of each side edges cover (one side
/// may be half hidden by a thumb), whether the lines stop at the corners (a card's sides do; tile
/// joints and table edges run on), the aspect after undoing the perspective, the area, the
/// contrast across the border and a mild preference for the middle of the frame; a nearly as good
/// quad around the winner (the card around its code panel) replaces it. The winner's sides are re-fitted to sub-pixel edge positions on
/// the full analysis image. Rounded corners do not matter: the corners are where the straight
/// sides meet.
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
  /// How far outside the frame, as a share of its width and height, a corner may lie: a card
  /// held close runs off the photo's edge. At 0.04, 17 of the 22 misses on 200 rendered train
  /// photos (`bench/gen --split train --seed 8102`) were cards with a corner further out.
  public var frameMargin = 0.2

  public init() {}

  public func detect(in image: Bitmap) -> Result? {
    detect(in: image, workspace: Workspace())
  }

  /// `detect(in:)` with the buffers of `workspace`, which one worker keeps from photo to photo.
  func detect(in image: Bitmap, workspace: Workspace) -> Result? {
    let small = workspace.searchCopy(of: image, maxSide: searchSide)
    guard small.width >= 32, small.height >= 32 else { return nil }
    let scale = Double(image.width) / Double(small.width)
    let field = workspace.field
    field.update(smoothing: small)
    field.edgePixels(into: &workspace.edges)
    guard workspace.edges.count > 50 else { return nil }
    let lines = HoughLines(field: field, edges: workspace.edges).strongest(
      count: 48, minimumVotes: max(16, min(small.width, small.height) / 20), perDirection: 12,
      accumulator: &workspace.votes)
    guard lines.count >= 4 else { return nil }
    var candidates = candidateQuads(lines, width: small.width, height: small.height)
    let evaluated = candidates.count
    // Contrast across the border is dearer to measure: only for the front runners.
    candidates.sort { $0.score > $1.score }
    let finalists = Self.finalists(
      candidates.prefix(24), lines: lines, field: field, width: Double(small.width),
      height: Double(small.height))
    guard let best = finalists.max(by: { $0.score < $1.score }), best.score >= minimumScore * 0.5 else {
      return nil
    }
    let card = Self.cardHolding(best, among: finalists)
    let scaled = card.quad.map { Point(($0.x + 0.5) * scale - 0.5, ($0.y + 0.5) * scale - 0.5) }
    let refined = EdgeRefiner(image: image).refine(scaled) ?? scaled
    return Result(
      quad: Quad.clockwise(refined), confidence: min(1, 2 * card.score), candidates: evaluated)
  }

  /// A quad of four lines and its score before the border's contrast is measured; its sides are
  /// indices into the lines, in the order a1, b1, a2, b2.
  typealias Candidate = (quad: [Point], sides: SIMD4<Int>, score: Double)

  /// Every quad two pairs of parallel lines make that is in the frame, convex, of a plausible
  /// size, angles and aspect, and supported by edges along its sides.
  private func candidateQuads(_ lines: [HoughLines.Line], width: Int, height: Int) -> [Candidate] {
    let imageArea = Double(width * height)
    let pairs = parallelPairs(lines, minimumSeparation: Double(min(width, height)) * 0.08)
    var candidates: [Candidate] = []
    let (w, h) = (Double(width), Double(height))
    let (mx, my) = (w * frameMargin, h * frameMargin)
    // One quad array rewritten for every combination: most fail a test before they are kept,
    // and a fresh array each time was a good part of this loop's cost.
    var quad = [Point](repeating: Point(0, 0), count: 4)
    for i in 0..<pairs.count {
      for j in (i + 1)..<pairs.count {
        let sides = SIMD4(pairs[i].0, pairs[j].0, pairs[i].1, pairs[j].1)
        let (a1, b1) = (lines[sides[0]].equation, lines[sides[1]].equation)
        let (a2, b2) = (lines[sides[2]].equation, lines[sides[3]].equation)
        guard abs(a1.c * b1.c + a1.s * b1.s) < cos(50 * Double.pi / 180) else { continue }
        // Cheap tests on the bare corners first: most line combinations fail one of them.
        guard let p0 = b2.intersection(a1), let p1 = a1.intersection(b1), let p2 = b1.intersection(a2),
          let p3 = a2.intersection(b2)
        else { continue }
        func inFrame(_ p: Point) -> Bool { p.x > -mx && p.y > -my && p.x < w + mx && p.y < h + my }
        guard inFrame(p0), inFrame(p1), inFrame(p2), inFrame(p3) else { continue }
        (quad[0], quad[1], quad[2], quad[3]) = (p0, p1, p2, p3)
        let area = Quad.area(quad)
        guard area > imageArea * 0.03, area < imageArea * 1.05, Quad.isConvex(quad) else { continue }
        guard anglesPlausible(quad) else { continue }
        let aspect = aspectScore(quad, width: width, height: height)
        guard aspect > 0.05 else { continue }
        let support = sideSupport(lines, sides, quad, width: width, height: height)
        guard support.sides > 0.2 else { continue }
        let fraction = area / imageArea
        let score =
          support.sides * (1 - 0.8 * support.runOn) * (0.3 + 0.7 * aspect)
          * (0.55 + 0.45 * min(1, fraction / 0.3).squareRoot())
        candidates.append((quad, sides, score))
      }
    }
    return candidates
  }

  /// The front runners scored again with the contrast across their border, the lines that run
  /// on past their corners, and their place in the frame.
  static func finalists(
    _ candidates: ArraySlice<Candidate>, lines: [HoughLines.Line], field: GradientField, width: Double,
    height: Double
  ) -> [(quad: [Point], score: Double)] {
    var finalists: [(quad: [Point], score: Double)] = []
    for candidate in candidates {
      let contrast = field.borderContrast(candidate.quad)
      let breaks = Self.breaks(lines, candidate.sides, candidate.quad)
      let score =
        candidate.score * (0.7 + 0.3 * contrast) * pow(0.85, Double(breaks))
        * Self.centrality(candidate.quad, width: width, height: height)
      finalists.append((candidate.quad, score))
    }
    return finalists
  }

  /// A card's code panel or a label on it is a rectangle of its own, sometimes with cleaner
  /// edges than the card (a white panel on a black card under a steep tilt): a nearly as good
  /// quad around the winner is the card holding it.
  static func cardHolding(
    _ best: (quad: [Point], score: Double), among finalists: [(quad: [Point], score: Double)]
  ) -> (quad: [Point], score: Double) {
    finalists.filter({ holds($0.quad, best.quad) && $0.score >= 0.75 * best.score })
      .max(by: { $0.score < $1.score }) ?? best
  }

  // MARK: - Candidate geometry

  /// A mild prior for the card near the middle of the frame, where people hold what they
  /// photograph: 1 at the centre, 0.85 with the quad's centre at a corner of the image. It
  /// settles near ties, such as a business card at the edge against the card itself.
  static func centrality(_ quad: [Point], width: Double, height: Double) -> Double {
    let cx = (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4 - width / 2
    let cy = (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4 - height / 2
    let offset = min(1, ((cx * cx + cy * cy) / (width * width / 4 + height * height / 4)).squareRoot())
    return 1 - 0.15 * offset
  }

  /// `outer` surrounds `inner` entirely and is at least twice its area.
  static func holds(_ outer: [Point], _ inner: [Point]) -> Bool {
    Quad.area(outer) >= 2 * Quad.area(inner) && inner.allSatisfy { Quad.contains(outer, $0) }
  }

  /// Indices of roughly parallel lines far enough apart to be opposite sides.
  private func parallelPairs(_ lines: [HoughLines.Line], minimumSeparation: Double) -> [(Int, Int)] {
    var pairs: [(Int, Int)] = []
    for i in 0..<lines.count {
      for j in (i + 1)..<lines.count {
        let difference = abs(angleBetween(lines[i].theta, lines[j].theta))
        // Perspective makes opposite sides converge; up to ~25° apart at a 35° tilt.
        guard difference < 35 * .pi / 180 else { continue }
        // Distance between the lines measured at the midpoint of the first line's segment.
        let gap = abs(lines[j].distance(to: lines[i].anchor))
        guard gap > minimumSeparation else { continue }
        pairs.append((i, j))
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

  /// How much of each side edge pixels cover, and how far the side's line runs on past the
  /// corners.
  ///
  /// Near the corners the card is rounded, so the ends of each side are left out. One side may
  /// be half covered (a thumb, glare) without penalty; the rest must be well covered.
  private func sideSupport(
    _ lines: [HoughLines.Line], _ sides: SIMD4<Int>, _ quad: [Point], width: Int, height: Int
  ) -> (sides: Double, runOn: Double) {
    // Runs for thousands of quads per image: no arrays made here.
    var shares = SIMD4<Double>()
    var runOn = 0.0
    for k in 0..<4 {
      let line = sides[k]
      let a = lines[line].position(of: quad[k]), b = lines[line].position(of: quad[(k + 1) % 4])
      let lo = min(a, b), hi = max(a, b), length = hi - lo
      let inner = lines[line].coverage(from: lo + 0.07 * length, to: hi - 0.07 * length)
      // Coverage counts only where the line is in the image; a side mostly outside the frame
      // is a guess, so at least half of it must be seen to count in full.
      shares[k] = inner.length > 0 ? inner.covered / max(inner.length, 0.43 * length) : 0
      // Past each corner, a stretch a fifth of the side long, clipped to the image.
      var beyond = 0.0
      func extend(from: Double, to: Double) {
        guard let clipped = clip(lines[line], from: from, to: to, width: width, height: height) else {
          return
        }
        let run = lines[line].coverage(from: clipped.0, to: clipped.1)
        if run.length > 3 { beyond = max(beyond, run.covered / (0.18 * length)) }
      }
      extend(from: lo - 0.22 * length, to: lo - 0.04 * length)
      extend(from: hi + 0.04 * length, to: hi + 0.22 * length)
      runOn += min(1, beyond) / 4
    }
    // The two smallest shares, as sorting the four would give them.
    var smallest = Double.infinity, second = Double.infinity
    for k in 0..<4 {
      if shares[k] < smallest {
        second = smallest
        smallest = shares[k]
      } else if shares[k] < second {
        second = shares[k]
      }
    }
    // Summed from the first, as `reduce(0, +)` over the four did: the same rounding.
    let mean = (shares[0] + shares[1] + shares[2] + shares[3]) / 4
    // The weakest side may be half hidden; below that, the quad is doubtful.
    let weakest = min(1, smallest / 0.5)
    return (mean * weakest.squareRoot() * min(1, second / 0.6), runOn)
  }

  /// Gaps in the sides beyond one per side: a thumb or a patch of glare interrupts a card's side
  /// once, while a side pieced together from several things in a row (a card, a code panel and
  /// list rows aligned on one margin in a screenshot) has a gap between each.
  static func breaks(_ lines: [HoughLines.Line], _ sides: SIMD4<Int>, _ quad: [Point]) -> Int {
    var total = 0
    for k in 0..<4 {
      let line = lines[sides[k]]
      let a = line.position(of: quad[k]), b = line.position(of: quad[(k + 1) % 4])
      let lo = min(a, b), hi = max(a, b), length = hi - lo
      let gaps = line.gaps(
        from: lo + 0.07 * length, to: hi - 0.07 * length, minimum: max(3, 0.03 * length))
      total += max(0, gaps - 1)
    }
    return total
  }

  /// The part of the stretch `from…to` along the line that lies inside the image.
  private func clip(_ line: HoughLines.Line, from: Double, to: Double, width: Int, height: Int) -> (
    Double, Double
  )? {
    let c = line.c, s = line.s
    var lo = from, hi = to
    // x(t) = ρc − t s, y(t) = ρs + t c, each kept within [2, size − 3].
    func keep(base: Double, slope: Double, limit: Double) -> Bool {
      if abs(slope) < 1e-9 { return base >= 2 && base <= limit }
      let t1 = (2 - base) / slope, t2 = (limit - base) / slope
      lo = max(lo, min(t1, t2))
      hi = min(hi, max(t1, t2))
      return true
    }
    guard keep(base: line.rho * c, slope: -s, limit: Double(width - 3)),
      keep(base: line.rho * s, slope: c, limit: Double(height - 3))
    else { return nil }
    return hi > lo ? (lo, hi) : nil
  }

  private func anglesPlausible(_ quad: [Point]) -> Bool {
    for i in 0..<4 {
      let a = quad[(i + 3) % 4], b = quad[i], c = quad[(i + 1) % 4]
      let v1 = (a.x - b.x, a.y - b.y), v2 = (c.x - b.x, c.y - b.y)
      let cosine =
        (v1.0 * v2.0 + v1.1 * v2.1)
        / ((v1.0 * v1.0 + v1.1 * v1.1).squareRoot() * (v2.0 * v2.0 + v2.1 * v2.1).squareRoot())
      if abs(cosine) > cos(40 * Double.pi / 180) { return false }
    }
    return true
  }

  /// How close the quad's aspect, once the perspective is undone, is to the card's, in log space.
  func aspectScore(_ quad: [Point], width: Int, height: Int) -> Double {
    guard let ratio = Self.rectifiedAspect(quad, width: width, height: height) else { return 0 }
    let error = log(ratio / Self.cardAspect) / 0.13
    return exp(-error * error)
  }

  /// The long-to-short side ratio of the rectangle whose perspective image `quad` is, assuming a
  /// camera with square pixels centred on the image (Zhang and He, "Whiteboard scanning and image
  /// enhancement", 2007); the mean of opposite sides when the view is too nearly frontal for a
  /// focal length to be found.
  static func rectifiedAspect(_ quad: [Point], width: Int, height: Int) -> Double? {
    let cx = Double(width) / 2, cy = Double(height) / 2, unit = Double(max(width, height))
    // m1 top-left, m2 top-right, m3 bottom-left, m4 bottom-right (any consistent labelling).
    // SIMD3 rather than arrays: this runs for every candidate quad, thousands per image.
    func lift(_ p: Point) -> SIMD3<Double> { SIMD3((p.x - cx) / unit, (p.y - cy) / unit, 1.0) }
    let (m1, m2, m4, m3) = (lift(quad[0]), lift(quad[1]), lift(quad[2]), lift(quad[3]))
    func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
      SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    let c14 = cross(m1, m4)
    let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
    guard abs(d2) > 1e-12, abs(d3) > 1e-12 else { return nil }
    let k2 = dot(c14, m3) / d2, k3 = dot(c14, m2) / d3
    let n2 = k2 * m2 - m1, n3 = k3 * m3 - m1
    var w2 = n2.x * n2.x + n2.y * n2.y, h2 = n3.x * n3.x + n3.y * n3.y
    let denominator = n2.z * n3.z
    if abs(denominator) > 1e-9 {
      let f2 = -(n2.x * n3.x + n2.y * n3.y) / denominator
      // A focal length between a fifth and five times the image's size; else near-affine.
      if f2 > 0.04 && f2 < 25 {
        w2 += n2.z * n2.z * f2
        h2 += n3.z * n3.z * f2
      } else {
        return simpleAspect(quad)
      }
    }
    guard w2 > 0, h2 > 0 else { return nil }
    let ratio = (w2 / h2).squareRoot()
    return max(ratio, 1 / ratio)
  }

  private static func simpleAspect(_ quad: [Point]) -> Double? {
    let s0 = Quad.distance(quad[0], quad[1]), s1 = Quad.distance(quad[1], quad[2])
    let s2 = Quad.distance(quad[2], quad[3]), s3 = Quad.distance(quad[3], quad[0])
    let a = (s0 + s2) / 2, b = (s1 + s3) / 2
    guard min(a, b) > 1 else { return nil }
    return max(a, b) / min(a, b)
  }
}
