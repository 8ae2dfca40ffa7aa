import Foundation
import SnapsortImaging
import SnapsortNative

/// Pixel operations receipts need: a global (Otsu) threshold, Sauvola binarisation for faded
/// thermal paper, the line pitch of printed text, the bright paper region and the skew angle.
public enum ReceiptImaging {
  // MARK: - Thresholds

  /// How many pixels of a grey bitmap have each of the 256 values.
  static func histogram(_ gray: Bitmap) -> [Int] {
    var counts = [Int](repeating: 0, count: 256)
    for value in gray.pixels { counts[Int(value)] += 1 }
    return counts
  }

  /// The lowest grey value with more than `share` of the pixels at or below it.
  static func percentile(_ histogram: [Int], _ share: Double) -> Int {
    let target = Int(Double(histogram.reduce(0, +)) * share)
    var seen = 0
    for value in 0..<256 {
      seen += histogram[value]
      if seen > target { return value }
    }
    return 255
  }

  /// Otsu's threshold of a grey bitmap: pixels above it are the brighter class.
  public static func otsu(_ gray: Bitmap) -> Int {
    otsu(histogram(gray), upTo: 255)
  }

  /// Otsu's threshold of the values `0...upTo` of a histogram: the split of those pixels alone
  /// into a darker and a brighter class.
  static func otsu(_ histogram: [Int], upTo top: Int) -> Int {
    let total = Double(histogram[0...top].reduce(0, +))
    var sum = 0.0
    for i in 0...top { sum += Double(i * histogram[i]) }
    var weightBelow = 0.0, sumBelow = 0.0, best = 0.0, threshold = 127
    for t in 0...top {
      weightBelow += Double(histogram[t])
      if weightBelow == 0 { continue }
      let weightAbove = total - weightBelow
      if weightAbove == 0 { break }
      sumBelow += Double(t * histogram[t])
      let meanBelow = sumBelow / weightBelow, meanAbove = (sum - sumBelow) / weightAbove
      let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
      if between > best {
        best = between
        threshold = t
      }
    }
    return threshold
  }

  /// Sauvola's local threshold `mean · (1 + k · (sd / 128 − 1))` over a square window of
  /// `2 · radius + 1` pixels: ink is 0, paper 255.
  ///
  /// A global threshold loses faint thermal print next to dark print and keeps the show-through
  /// of the back side; a local one that also weighs the local contrast does neither.
  public static func sauvola(_ gray: Bitmap, radius: Int, k: Double) -> Bitmap {
    precondition(gray.format == .gray)
    let w = gray.width, h = gray.height
    // Each column's sum of values and of squares over the window's rows, moved down one row at a
    // time: memory for a few rows instead of two integral images of the page (16 bytes a pixel,
    // 160 MB for a 10-megapixel receipt). Sums stay integers, so every threshold is the one the
    // integral images gave.
    let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4 * w + 2)
    defer { sums.deallocate() }
    sums.initialize(repeating: 0)
    let columnSums = sums.baseAddress!, columnSquares = columnSums + w
    let prefixSums = columnSquares + w, prefixSquares = prefixSums + w + 1
    var top = 0, bottom = 0
    return Bitmap(width: w, height: h, format: .gray) { out in
      gray.pixels.withUnsafeBufferPointer { src in
        for y in 0..<h {
          let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
          for (row, sign) in (bottom..<y1).map({ ($0, 1) }) + (top..<y0).map({ ($0, -1) }) {
            for x in 0..<w {
              let v = Int(src[row * w + x])
              columnSums[x] += sign * v
              columnSquares[x] += sign * v * v
            }
          }
          bottom = max(bottom, y1)
          top = max(top, y0)
          for x in 0..<w {
            prefixSums[x + 1] = prefixSums[x] + columnSums[x]
            prefixSquares[x + 1] = prefixSquares[x] + columnSquares[x]
          }
          for x in 0..<w {
            let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
            let n = Double((y1 - y0) * (x1 - x0))
            let mean = Double(prefixSums[x1] - prefixSums[x0]) / n
            let variance = max(0, Double(prefixSquares[x1] - prefixSquares[x0]) / n - mean * mean)
            let threshold = mean * (1 + k * (variance.squareRoot() / 128 - 1))
            out[y * w + x] = Double(src[y * w + x]) > threshold ? 255 : 0
          }
        }
      }
    }
  }

  /// Grey levels mapped so the darkest 0.5 % of pixels become black and the median (the paper)
  /// white: faded print gains the contrast tesseract's own threshold needs. `black` and `white`
  /// are the shares of pixels darker than the levels mapped to black and to white.
  public static func stretched(_ gray: Bitmap, black: Double = 0.005, white: Double = 0.5) -> Bitmap {
    let counts = histogram(gray)
    let low = percentile(counts, black), high = percentile(counts, white)
    guard high - low >= 8 else { return gray }
    let table = (0..<256).map { value in
      UInt8(max(0, min(255, (value - low) * 255 / (high - low))))
    }
    var copy = gray
    copy.pixels.withUnsafeMutableBufferPointer { p in
      for i in p.indices { p[i] = table[Int(p[i])] }
    }
    return copy
  }

  /// Dark strokes thinned by `radius` pixels: each pixel the lightest of the square around it.
  /// A logo's heavy type reads as blots until its strokes are as thin as text's.
  public static func thinned(_ gray: Bitmap, radius: Int) -> Bitmap {
    guard radius > 0 else { return gray }
    let width = gray.width, height = gray.height
    var across = [UInt8](repeating: 0, count: width * height)
    var result = gray
    gray.pixels.withUnsafeBufferPointer { source in
      for y in 0..<height {
        let row = y * width
        for x in 0..<width {
          var lightest: UInt8 = 0
          for u in max(0, x - radius)...min(width - 1, x + radius) {
            lightest = max(lightest, source[row + u])
          }
          across[row + x] = lightest
        }
      }
    }
    result.pixels.withUnsafeMutableBufferPointer { target in
      for y in 0..<height {
        for x in 0..<width {
          var lightest: UInt8 = 0
          for v in max(0, y - radius)...min(height - 1, y + radius) {
            lightest = max(lightest, across[v * width + x])
          }
          target[y * width + x] = lightest
        }
      }
    }
    return result
  }

  /// Each pixel divided by the paper's brightness around it: the shading of a photo (a shadow,
  /// a lamp's falloff, a curl) and dark surroundings beyond the paper turn white, and print keeps
  /// its grey edges. The paper's brightness is the brightest pixel of `block`-sized blocks,
  /// widened by a block on every side so a block inside a bold word still sees paper, and
  /// interpolated between block centres.
  ///
  /// Tesseract thresholds a grey page globally (Otsu): on an evenly lit scan grey reads better
  /// than any binarisation of ours, but under a shadow a global threshold loses whole lines.
  public static func evenlyLit(_ gray: Bitmap, block: Int) -> Bitmap {
    precondition(gray.format == .gray)
    let w = gray.width, h = gray.height, block = max(2, block)
    let gw = (w + block - 1) / block, gh = (h + block - 1) / block
    var maxima = [Int](repeating: 0, count: gw * gh)
    gray.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        let row = (y / block) * gw
        for cell in 0..<gw {
          var brightest = UInt8(0)
          for x in (cell * block)..<min(w, cell * block + block) { brightest = max(brightest, p[y * w + x]) }
          maxima[row + cell] = max(maxima[row + cell], Int(brightest))
        }
      }
    }
    var paper = maxima
    for gy in 0..<gh {
      for gx in 0..<gw {
        var best = 0
        for ny in max(0, gy - 1)...min(gh - 1, gy + 1) {
          for nx in max(0, gx - 1)...min(gw - 1, gx + 1) { best = max(best, maxima[ny * gw + nx]) }
        }
        paper[gy * gw + gx] = max(best, 1)
      }
    }
    // Bilinear between block centres, in fixed point (8 fractional bits); columns' cells and
    // weights are the same on every row.
    func cells(_ n: Int, _ count: Int) -> (low: [Int], high: [Int], weight: [Int]) {
      var low = [Int](repeating: 0, count: n), high = low, weight = low
      for i in 0..<n {
        let f = max(0, min(Double(count - 1), (Double(i) + 0.5) / Double(block) - 0.5))
        low[i] = Int(f)
        high[i] = min(count - 1, low[i] + 1)
        weight[i] = Int((f - Double(low[i])) * 256)
      }
      return (low, high, weight)
    }
    let columns = cells(w, gw), rows = cells(h, gh)
    var gain = [Int](repeating: 0, count: w)
    return Bitmap(width: w, height: h, format: .gray) { out in
      gray.pixels.withUnsafeBufferPointer { p in
        for y in 0..<h {
          let top = rows.low[y] * gw, bottom = rows.high[y] * gw, wy = rows.weight[y]
          for x in 0..<w {
            let x0 = columns.low[x], x1 = columns.high[x], wx = columns.weight[x]
            let upper = paper[top + x0] * (256 - wx) + paper[top + x1] * wx
            let lower = paper[bottom + x0] * (256 - wx) + paper[bottom + x1] * wx
            // 255 / background in 16 fractional bits: a multiply per pixel, not a division.
            gain[x] = (255 << 16) / max(1, (upper * (256 - wy) + lower * wy) >> 16)
          }
          let row = y * w
          for x in 0..<w {
            out[row + x] = UInt8(min(255, (Int(p[row + x]) * gain[x]) >> 16))
          }
        }
      }
    }
  }

  /// Paints the large dark regions that touch the image's edge in the paper's grey: a scanner's
  /// black lid beyond a torn or narrow receipt, a table at a scan's edge. They are no print, and
  /// left in they set the darkest percentiles the contrast stretch works from and tesseract's own
  /// threshold, which then reads faint print as nothing at all (SROIE's dot-matrix receipts).
  /// A region is cleared only when it is larger than `minimumArea` pixels, so a glyph printed
  /// against the edge stays, and when its median grey is below `coreShare` of the paper's: a
  /// lid or a surface is far darker than the paper, while the shaded part of a folded receipt
  /// photographed under a lamp's falloff (two thirds of the paper's grey, with its print) falls
  /// below the three quarters that catch a lid's rim, and was painted out with its print.
  /// Returns how many pixels were painted.
  @discardableResult
  public static func clearDarkBorders(_ gray: inout Bitmap, minimumArea: Int, coreShare: Double = 0.5) -> Int
  {
    precondition(gray.format == .gray)
    let w = gray.width, h = gray.height
    guard w > 2, h > 2 else { return 0 }
    let paper = percentile(histogram(gray), 0.5)
    // Below three quarters of the paper's grey: also the blurred rim between lid and paper.
    let dark = UInt8(paper * 3 / 4)
    var state = [UInt8](repeating: 0, count: w * h)  // 1 queued, 2 cleared
    var painted = 0
    gray.pixels.withUnsafeMutableBufferPointer { p in
      var component: [Int] = []
      var stack: [Int] = []
      func visit(_ j: Int) {
        if state[j] == 0 && p[j] < dark {
          state[j] = 1
          stack.append(j)
        }
      }
      func flood(from start: Int) {
        guard state[start] == 0, p[start] < dark else { return }
        component.removeAll(keepingCapacity: true)
        state[start] = 1
        stack.append(start)
        while let i = stack.popLast() {
          component.append(i)
          let x = i % w
          if x > 0 { visit(i - 1) }
          if x < w - 1 { visit(i + 1) }
          if i >= w { visit(i - w) }
          if i + w < w * h { visit(i + w) }
        }
        guard component.count >= minimumArea,
          Double(medianValue(of: component, in: p)) < coreShare * Double(paper)
        else { return }
        painted += paint(component, grey: UInt8(paper), width: w, height: h, state: &state, pixels: p)
      }
      for x in 0..<w {
        flood(from: x)
        flood(from: (h - 1) * w + x)
      }
      for y in 0..<h {
        flood(from: y * w)
        flood(from: y * w + w - 1)
      }
    }
    return painted
  }

  /// Paints the region at `indices` and two pixels around it (its anti-aliased rim would read as
  /// a rule) in `grey`, marking them 2 in `state`; returns how many pixels were newly painted.
  private static func paint(
    _ indices: [Int], grey: UInt8, width w: Int, height h: Int, state: inout [UInt8],
    pixels p: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var painted = 0
    for i in indices {
      let x = i % w, y = i / w
      for dy in -2...2 where y + dy >= 0 && y + dy < h {
        for dx in -2...2 where x + dx >= 0 && x + dx < w {
          let j = (y + dy) * w + x + dx
          if state[j] != 2 {
            state[j] = 2
            p[j] = grey
            painted += 1
          }
        }
      }
    }
    return painted
  }

  /// The median grey of the pixels at `indices`.
  static func medianValue(of indices: [Int], in pixels: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var counts = [Int](repeating: 0, count: 256)
    for i in indices { counts[Int(pixels[i])] += 1 }
    return percentile(counts, 0.5)
  }

  // MARK: - Text rows

  /// Count of ink pixels (value < 128) per column: `rowInk` of the image turned a quarter,
  /// without making the turned copy.
  public static func columnInk(_ binary: Bitmap) -> [Int] {
    var ink = [Int](repeating: 0, count: binary.width)
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<binary.height {
        let row = y * binary.width
        for x in 0..<binary.width where p[row + x] < 128 { ink[x] += 1 }
      }
    }
    return ink
  }

  /// Count of ink pixels (value < 128) per row.
  public static func rowInk(_ binary: Bitmap) -> [Int] {
    var ink = [Int](repeating: 0, count: binary.height)
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<binary.height {
        var count = 0
        for x in 0..<binary.width where p[y * binary.width + x] < 128 { count += 1 }
        ink[y] = count
      }
    }
    return ink
  }

  /// The distance between printed lines: the first strong peak of the row-ink profile's
  /// autocorrelation, or nil when the profile has no period (no text rows).
  public static func linePitch(rowInk: [Int], minimum: Int = 6, maximum: Int = 400) -> Int? {
    guard rowInk.count > minimum * 3 else { return nil }
    let mean = Double(rowInk.reduce(0, +)) / Double(rowInk.count)
    let p = rowInk.map { Double($0) - mean }
    let upper = min(maximum, p.count / 2)
    guard upper > minimum + 1 else { return nil }
    var correlation = [Double](repeating: 0, count: upper + 1)
    for lag in (minimum - 1)...upper {
      var s = 0.0
      for i in 0..<(p.count - lag) { s += p[i] * p[i + lag] }
      correlation[lag] = s
    }
    var peaks: [(value: Double, lag: Int)] = []
    for lag in minimum..<upper
    where correlation[lag] > correlation[lag - 1] && correlation[lag] >= correlation[lag + 1] {
      if correlation[lag] > 0 { peaks.append((correlation[lag], lag)) }
    }
    guard let strongest = peaks.map(\.value).max() else { return nil }
    // Multiples of the pitch correlate almost as well as the pitch itself: take the first peak
    // that is at least half as strong as the strongest.
    return peaks.first { $0.value >= 0.5 * strongest }?.lag
  }

  /// The typical height of a printed row (capitals' top to descenders' bottom): the median of
  /// the bands of rows with ink, or nil when fewer than five bands stand apart.
  ///
  /// Measured directly, unlike the line pitch, whose autocorrelation peaks also at fractions of
  /// the true spacing on monospaced print and left some receipts scaled 2× too large or small.
  public static func rowHeight(rowInk: [Int], width: Int) -> Int? {
    let heights = textBands(rowInk: rowInk, width: width, minimumHeight: 3).map(\.count).sorted()
    guard heights.count >= 5 else { return nil }
    return heights[heights.count / 2]
  }

  /// Runs of rows with ink, as half-open ranges, ignoring runs thinner than `minimumHeight`.
  public static func textBands(rowInk: [Int], width: Int, minimumHeight: Int = 2) -> [Range<Int>] {
    let threshold = max(1, width / 100)
    var bands: [Range<Int>] = []
    var start: Int?
    for (y, count) in rowInk.enumerated() {
      if count >= threshold {
        if start == nil { start = y }
      } else if let s = start {
        if y - s >= minimumHeight { bands.append(s..<y) }
        start = nil
      }
    }
    if let s = start, rowInk.count - s >= minimumHeight { bands.append(s..<rowInk.count) }
    return bands
  }

  // MARK: - Paper

  /// The largest bright region of an image (the paper of a receipt photographed on a darker
  /// surface), as its four extreme corners in the bitmap's pixels.
  public struct PaperRegion: Sendable, Equatable {
    /// Top-left, top-right, bottom-right, bottom-left.
    public var quad: [Point]
    /// The region's pixels as a share of the image.
    public var areaShare: Double
    /// The region's pixels as a share of its quad (1 for a clean rectangle).
    public var fill: Double
    /// Long side over short side of the quad.
    public var aspect: Double
    /// Whether the quad is taller than wide.
    public var portrait: Bool
    /// The image edges the region reaches.
    public var edges: Edges
    /// The shorter over the longer of each pair of opposite sides, the smaller of the two:
    /// near 1 for a sheet seen whole (even at a slant), low for a lit part that a fold's shade
    /// cut a corner from.
    public var sides: Double = 1

    /// How much the region is like a sheet of paper: its fill times `sides`.
    public var squareness: Double { fill * sides }

    public struct Edges: OptionSet, Sendable, Equatable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      public static let top = Edges(rawValue: 1)
      public static let bottom = Edges(rawValue: 2)
      public static let left = Edges(rawValue: 4)
      public static let right = Edges(rawValue: 8)
    }
  }

  /// Finds the largest 4-connected region brighter than Otsu's threshold.
  public static func paper(in gray: Bitmap) -> PaperRegion? {
    guard gray.width > 4, gray.height > 4 else { return nil }
    return region(largestRegion(gray, above: UInt8(otsu(gray))), width: gray.width, height: gray.height)
  }

  /// The paper as `paper(in:)` finds it, grown over its shaded part when that reads better.
  ///
  /// A crease or fold in a photographed receipt shades a strip of the paper below Otsu's
  /// threshold, and the largest bright region is then only the lit part: the flattened page
  /// loses a column of print. The lit region grows into the pixels connected to it that are
  /// brighter than a lower threshold: the one splitting the darker class again (shaded paper
  /// from the surface), and `shadeSteps - 1` more between it and Otsu's. A grown region can be
  /// taken when it is `minimumGrowth` times the lit one or more, `plausible` says it can be a
  /// receipt, and it reaches no edge of the image the lit region does not: a surface's bright
  /// grain (wood, marble) spreads to the image's edges, the shaded part of a receipt
  /// photographed whole does not. Of those, the largest is taken, grown at the lowest threshold
  /// or at least as much like a sheet of paper (`PaperRegion.squareness`) as the lit region: a
  /// fold's shade that the lowest threshold cannot take without the surface (it reaches an edge)
  /// cuts a corner off the lit region, which a higher one gives back. That is only so when the
  /// lit region is itself `plausible`: when it is not (a receipt filling the photo, its paper run
  /// into a light surface), a region grown above the lowest threshold is shaped by where the
  /// surface's grain happens to cross the threshold, and can cut a corner off the receipt.
  public static func paper(
    in gray: Bitmap, growingIntoShade minimumGrowth: Double, shadeSteps: Int = 4,
    plausible: (PaperRegion) -> Bool
  ) -> PaperRegion? {
    guard gray.width > 4, gray.height > 4 else { return nil }
    let counts = histogram(gray)
    let threshold = otsu(counts, upTo: 255)
    let lit = largestRegion(gray, above: UInt8(threshold))
    guard let litRegion = region(lit, width: gray.width, height: gray.height) else { return nil }
    let shade = otsu(counts, upTo: threshold)
    // Above the lowest threshold, growth only gives back a corner a plausible lit region lost.
    let steps = plausible(litRegion) ? max(1, shadeSteps) : 1
    var best = litRegion
    for step in 0..<steps {
      let level = UInt8(shade + (threshold - shade) * step / steps)
      guard let grown = region(grow(lit, in: gray, above: level), width: gray.width, height: gray.height),
        grown.areaShare >= minimumGrowth * litRegion.areaShare, plausible(grown),
        grown.edges.isSubset(of: litRegion.edges), step == 0 || grown.squareness >= litRegion.squareness,
        grown.areaShare > best.areaShare
      else { continue }
      best = grown
    }
    return best
  }

  /// The largest 4-connected region of pixels brighter than `threshold`, as a mask.
  static func largestRegion(_ gray: Bitmap, above threshold: UInt8) -> [Bool] {
    let w = gray.width, h = gray.height
    var label = [Int32](repeating: 0, count: w * h)
    var bestLabel: Int32 = 0, bestArea = 0
    var next: Int32 = 1
    var stack: [Int] = []
    gray.pixels.withUnsafeBufferPointer { p in
      for start in 0..<(w * h) where label[start] == 0 && p[start] > threshold {
        label[start] = next
        stack.append(start)
        var area = 0
        while let i = stack.popLast() {
          area += 1
          let x = i % w, y = i / w
          if x > 0, label[i - 1] == 0, p[i - 1] > threshold { label[i - 1] = next; stack.append(i - 1) }
          if x < w - 1, label[i + 1] == 0, p[i + 1] > threshold { label[i + 1] = next; stack.append(i + 1) }
          if y > 0, label[i - w] == 0, p[i - w] > threshold { label[i - w] = next; stack.append(i - w) }
          if y < h - 1, label[i + w] == 0, p[i + w] > threshold { label[i + w] = next; stack.append(i + w) }
        }
        if area > bestArea {
          bestArea = area
          bestLabel = next
        }
        next += 1
      }
    }
    return label.map { $0 == bestLabel && bestArea > 0 }
  }

  /// `seed` with the 4-connected pixels brighter than `threshold` it reaches.
  static func grow(_ seed: [Bool], in gray: Bitmap, above threshold: UInt8) -> [Bool] {
    let w = gray.width, h = gray.height
    var mask = seed
    var stack = seed.indices.filter { seed[$0] }
    gray.pixels.withUnsafeBufferPointer { p in
      func visit(_ n: Int) {
        guard !mask[n], p[n] > threshold else { return }
        mask[n] = true
        stack.append(n)
      }
      while let i = stack.popLast() {
        let x = i % w, y = i / w
        if x > 0 { visit(i - 1) }
        if x < w - 1 { visit(i + 1) }
        if y > 0 { visit(i - w) }
        if y < h - 1 { visit(i + w) }
      }
    }
    return mask
  }

  /// A region's four extreme corners, its shares and the image edges it reaches; nil when empty.
  static func region(_ mask: [Bool], width w: Int, height h: Int) -> PaperRegion? {
    // Extreme points along the diagonals are the corners of a convex four-sided region.
    var tl = (Double.infinity, Point(0, 0)), br = (-Double.infinity, Point(0, 0))
    var tr = (-Double.infinity, Point(0, 0)), bl = (Double.infinity, Point(0, 0))
    var area = 0
    var edges: PaperRegion.Edges = []
    for y in 0..<h {
      for x in 0..<w where mask[y * w + x] {
        area += 1
        let s = Double(x + y), d = Double(x - y)
        let point = Point(Double(x), Double(y))
        if s < tl.0 { tl = (s, point) }
        if s > br.0 { br = (s, Point(Double(x + 1), Double(y + 1))) }
        if d > tr.0 { tr = (d, Point(Double(x + 1), Double(y))) }
        if d < bl.0 { bl = (d, Point(Double(x), Double(y + 1))) }
        if y == 0 { edges.insert(.top) }
        if y == h - 1 { edges.insert(.bottom) }
        if x == 0 { edges.insert(.left) }
        if x == w - 1 { edges.insert(.right) }
      }
    }
    guard area > 0 else { return nil }
    let quad = [tl.1, tr.1, br.1, bl.1]
    let quadArea = max(1, Quad.area(quad))
    let top = Quad.distance(quad[0], quad[1]), bottom = Quad.distance(quad[3], quad[2])
    let left = Quad.distance(quad[0], quad[3]), right = Quad.distance(quad[1], quad[2])
    let width = (top + bottom) / 2, height = (left + right) / 2
    func ratio(_ a: Double, _ b: Double) -> Double { min(a, b) / max(1, max(a, b)) }
    let sides = min(ratio(top, bottom), ratio(left, right))
    return PaperRegion(
      quad: quad, areaShare: Double(area) / Double(w * h), fill: min(1, Double(area) / quadArea),
      aspect: max(width, height) / max(1, min(width, height)), portrait: height >= width, edges: edges,
      sides: sides)
  }

  // MARK: - Skew

  /// The rotation (degrees, clockwise positive) that makes text rows horizontal: the angle whose
  /// sheared row profile is the most peaked, searched within ±`range`.
  public static func skew(_ binary: Bitmap, range: Double = 6, step: Double = 0.25) -> Double {
    let w = binary.width, h = binary.height
    var inkPoints: [(Double, Double)] = []
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        for x in 0..<w where p[y * w + x] < 128 { inkPoints.append((Double(x), Double(y))) }
      }
    }
    guard inkPoints.count > 50 else { return 0 }
    var bestAngle = 0.0, bestScore = -1.0
    var angle = -range
    var bins = [Double](repeating: 0, count: h + 2 * w + 2)
    while angle <= range + 1e-9 {
      let t = tan(angle * .pi / 180)
      for i in bins.indices { bins[i] = 0 }
      let offset = Double(w)
      for (x, y) in inkPoints {
        let row = Int(y - x * t + offset)
        if row >= 0 && row < bins.count { bins[row] += 1 }
      }
      var score = 0.0
      for i in 1..<bins.count {
        let d = bins[i] - bins[i - 1]
        score += d * d
      }
      if score > bestScore {
        bestScore = score
        bestAngle = angle
      }
      angle += step
    }
    return bestAngle
  }
}
