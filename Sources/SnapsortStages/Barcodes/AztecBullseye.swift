import Foundation
import SnapsortImaging
import SnapsortNative

/// Finds Aztec bullseyes that zxing-cpp 1.4's detector misses (a few degrees turned, mild
/// perspective, soft module edges: aztec-2 of the training folders) and rectifies each symbol to
/// an upright, square copy that the library's own detector then reads.
///
/// The bullseye is found as ZXing's detector finds it: a dark module with at least three equal,
/// alternating runs on either side along a row and along the column through it (rings seen
/// across a turned square keep equal runs). Rays from its centre give the edges of the rings at
/// 3.5 and 5.5 modules (compact and full-range symbols share the inner rings); a quadrilateral
/// fitted to one edge maps the rings to module coordinates. That map, extrapolated over the whole
/// symbol, drifts; so the symbol's outer edges are fitted on a first rectified copy and the final
/// copy is warped from those four corners.
struct AztecBullseye {
  /// A symbol's rectified copy and how its pixels map back to the scanned image's.
  struct Rectified {
    var image: Bitmap
    var toSource: Homography
  }

  /// Pixels per module of the copy handed to zxing, and its quiet zone in modules.
  static let pixelsPerModule = 6.0
  static let quietModules = 3.0
  /// Ring edges fitted, in modules from the centre: the inner edge of ring 4 (compact and full)
  /// and of ring 6 (full-range only; on a compact symbol it fails the fit or reads nothing).
  static let ringEdges: [(transition: Int, radius: Double)] = [(4, 3.5), (6, 5.5)]

  let gray: Bitmap
  private let luma: [Float]

  init(_ gray: Bitmap) {
    self.gray = gray
    self.luma = gray.pixels.map(Float.init)
  }

  /// Rectified copies for up to `limit` bullseyes, strongest first (empty when none is found).
  func rectified(limit: Int = 2) -> [Rectified] {
    var copies: [Rectified] = []
    for centre in BullseyeCentres(gray).find().prefix(limit) {
      let threshold = localThreshold(around: centre.point, module: centre.module)
      let edges = rayEdges(from: centre.point, module: centre.module, threshold: threshold)
      for (transition, radius) in Self.ringEdges {
        guard let quad = Self.fittedQuad(edges[transition] ?? [], centre: centre.point),
          let rings = Homography(from: Self.square(radius), to: quad)
        else { continue }
        let reach = extent(rings, threshold: threshold)
        guard let outer = outerCorners(rings, reach: reach, threshold: threshold) else { continue }
        // The module grid sampled at each module's centre, then the plain warp: blur that
        // merges modules in the warp (aztec-2/17, 19) is split by the grid's threshold.
        let grid = render(corners: outer.corners, modules: outer.modules, scale: 3, threshold: threshold)
        let warp = render(corners: outer.corners, modules: outer.modules, scale: Self.pixelsPerModule)
        copies += [grid, warp].compactMap { $0 }
      }
    }
    return copies
  }

  static func square(_ radius: Double) -> [Point] {
    [Point(-radius, -radius), Point(radius, -radius), Point(radius, radius), Point(-radius, radius)]
  }

  /// Bilinear grey value at a continuous position (pixel centres at +0.5); nil outside.
  func sample(_ p: Point) -> Float? {
    let x = p.x - 0.5, y = p.y - 0.5
    guard x >= 0, y >= 0, x < Double(gray.width - 1), y < Double(gray.height - 1) else { return nil }
    let x0 = Int(x), y0 = Int(y)
    let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
    let i = y0 * gray.width + x0
    let top = luma[i] * (1 - fx) + luma[i + 1] * fx
    let bottom = luma[i + gray.width] * (1 - fx) + luma[i + gray.width + 1] * fx
    return top * (1 - fy) + bottom * fy
  }

  /// Midway between the 10th and 90th percentile of the bullseye's neighbourhood: the rings hold
  /// as much dark as light, so it splits them under uneven light.
  private func localThreshold(around centre: Point, module: Double) -> Float {
    let r = Int(module * 4)
    let x0 = max(0, Int(centre.x) - r), x1 = min(gray.width, Int(centre.x) + r)
    let y0 = max(0, Int(centre.y) - r), y1 = min(gray.height, Int(centre.y) + r)
    var values: [Float] = []
    for y in y0..<y1 { for x in x0..<x1 { values.append(luma[y * gray.width + x]) } }
    guard !values.isEmpty else { return 128 }
    values.sort()
    return (values[values.count / 10] + values[values.count * 9 / 10]) / 2
  }

  /// Along 90 rays from the (dark) centre, the position of each of the first six dark/light
  /// transitions, interpolated to where the grey level crosses the threshold.
  private func rayEdges(from centre: Point, module: Double, threshold: Float) -> [Int: [Point]] {
    var edges: [Int: [Point]] = [:]
    let step = 0.25
    guard let first = sample(centre), first < threshold else { return edges }
    for k in 0..<90 {
      let angle = 2 * Double.pi * Double(k) / 90
      let (dx, dy) = (cos(angle), sin(angle))
      var previous = first, wasDark = true, transitions = 0, t = 0.0
      while t < module * 8, transitions < 6 {
        t += step
        guard let value = sample(Point(centre.x + dx * t, centre.y + dy * t)) else { break }
        if (value < threshold) != wasDark {
          transitions += 1
          let fraction = value == previous ? 0.5 : Double((threshold - previous) / (value - previous))
          let at = t - step + step * fraction
          edges[transitions, default: []].append(Point(centre.x + dx * at, centre.y + dy * at))
          wasDark.toggle()
        }
        previous = value
      }
    }
    return edges
  }

  /// The quadrilateral through points on a square ring's edge: corners first taken as the
  /// farthest points (from the centre, from that corner, from their diagonal on either side),
  /// then each side refitted to the points of its middle 60 % and the sides intersected.
  static func fittedQuad(_ points: [Point], centre: Point) -> [Point]? {
    guard points.count >= 12 else { return nil }
    let a = points.max { Quad.distance($0, centre) < Quad.distance($1, centre) }!
    let c = points.max { Quad.distance($0, a) < Quad.distance($1, a) }!
    let side: (Point) -> Double = { p in (c.x - a.x) * (p.y - a.y) - (c.y - a.y) * (p.x - a.x) }
    let b = points.max { side($0) < side($1) }!, d = points.min { side($0) < side($1) }!
    let angle: (Point) -> Double = { atan2($0.y - centre.y, $0.x - centre.x) }
    let corners = [a, b, c, d].sorted { angle($0) < angle($1) }
    var lines: [FittedLine] = []
    for k in 0..<4 {
      let start = angle(corners[k]), span = angle(corners[(k + 1) % 4]) - start
      let width = span < 0 ? span + 2 * Double.pi : span
      let middle = points.filter { p in
        var offset = angle(p) - start
        if offset < 0 { offset += 2 * Double.pi }
        return offset > 0.2 * width && offset < 0.8 * width
      }
      guard let line = FittedLine(fittedTo: middle) else { return nil }
      lines.append(line)
    }
    let quad = (0..<4).compactMap { lines[($0 + 3) % 4].intersection(lines[$0]) }
    guard quad.count == 4, Quad.isConvex(quad) else { return nil }
    return quad
  }

  /// The outermost square ring (in modules) that still holds dark modules: the symbol ends where
  /// two consecutive rings are (almost) all light.
  private func extent(_ rings: Homography, threshold: Float) -> Int {
    var last = 5, empty = 0
    for k in 5..<80 {
      var dark = 0, inside = 0, total = 0
      for t in -k...k {
        for (x, y) in [(t, -k), (t, k), (-k, t), (k, t)] {
          total += 1
          guard let value = sample(rings.apply(Point(Double(x), Double(y)))) else { continue }
          inside += 1
          if value < threshold { dark += 1 }
        }
      }
      if inside * 2 < total { break }
      if Double(dark) < 0.04 * Double(inside) {
        empty += 1
        if empty >= 2 { break }
      } else {
        empty = 0
        last = k
      }
    }
    return last
  }

  /// The symbol's four outer corners in the image and its size in modules: its outermost dark
  /// pixels per row and column on a first copy rectified from the rings, with a line fitted to
  /// each side's outer envelope; the size measured between them, snapped to a size Aztec has.
  private func outerCorners(_ rings: Homography, reach: Int, threshold: Float) -> (
    corners: [Point], modules: Int
  )? {
    let scale = 4.0, modules = 2 * reach + 1
    let half = Double(modules) / 2
    guard let first = render(corners: Self.square(half).map(rings.apply), modules: modules, scale: scale)
    else { return nil }
    let margin = Int(Self.quietModules * scale), size = first.image.width
    let lines = EnvelopeSides(
      dark: first.image.pixels.map { Float($0) < threshold }, size: size, inner: margin..<(size - margin)
    ).fitted(tolerance: 0.6 * scale)
    guard let lines else { return nil }
    let corners = (0..<4).compactMap { lines[($0 + 3) % 4].intersection(lines[$0]) }
    guard corners.count == 4, Quad.isConvex(corners) else { return nil }
    let measured =
      (0..<4).map { Quad.distance(corners[$0], corners[($0 + 1) % 4]) }.reduce(0, +) / (4 * scale)
    let snapped = Self.symbolSizes.min { abs(Double($0) - measured) < abs(Double($1) - measured) }!
    return (corners.map(first.toSource.apply), snapped)
  }

  /// The side lengths Aztec symbols have, in modules: compact 15-27, full-range 19-151 (the
  /// reference grid adds a module every 16).
  static let symbolSizes = [
    15, 19, 23, 27, 31, 37, 41, 45, 49, 53, 57, 61, 67, 71, 75, 79, 83, 87, 91, 95, 101, 105, 109, 113,
    117, 121, 125, 131, 135, 139, 143, 147, 151,
  ]

  /// The symbol whose outer corners are `corners` (top-left first, clockwise), `modules` wide,
  /// warped upright at `scale` pixels per module inside a white quiet zone; with a `threshold`,
  /// each module is one sample at its centre, made black or white.
  private func render(corners: [Point], modules: Int, scale: Double, threshold: Float? = nil) -> Rectified? {
    let quiet = Self.quietModules * scale
    let size = Int((Double(modules) * scale + 2 * quiet).rounded())
    guard size > 0, size <= 2400 else { return nil }
    let far = Double(size) - quiet
    let square = [Point(quiet, quiet), Point(far, quiet), Point(far, far), Point(quiet, far)]
    guard let map = Homography(from: square, to: corners) else { return nil }
    let image = Bitmap(width: size, height: size, format: .gray) { out in
      for v in 0..<size {
        for u in 0..<size {
          out[v * size + u] = pixel(
            at: Point(Double(u) + 0.5, Double(v) + 0.5), map, grid: (quiet, scale, modules), threshold)
        }
      }
    }
    return Rectified(image: image, toSource: map)
  }

  /// One pixel of a rendered copy: the warped grey level, or its module's centre thresholded.
  private func pixel(
    at p: Point, _ map: Homography, grid: (quiet: Double, scale: Double, modules: Int), _ threshold: Float?
  ) -> UInt8 {
    guard let threshold else {
      return sample(map.apply(p)).map { UInt8(max(0, min(255, $0.rounded()))) } ?? 255
    }
    let column = Int(((p.x - grid.quiet) / grid.scale).rounded(.down))
    let row = Int(((p.y - grid.quiet) / grid.scale).rounded(.down))
    guard (0..<grid.modules).contains(column), (0..<grid.modules).contains(row) else { return 255 }
    let centre = Point(
      grid.quiet + (Double(column) + 0.5) * grid.scale, grid.quiet + (Double(row) + 0.5) * grid.scale)
    guard let value = sample(map.apply(centre)) else { return 255 }
    return value < threshold ? 0 : 255
  }
}
