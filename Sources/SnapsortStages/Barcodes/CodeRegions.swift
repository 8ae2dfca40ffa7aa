import Foundation
import SnapsortImaging
import SnapsortNative

/// Where in a grey image a code may be: blocks of dense, strong gradient joined into regions, each
/// with the direction of its edges (bars, or a 2-D code's module grid, modulo 90°).
///
/// zxing-cpp 1.4's Aztec detector misses large codes turned a few degrees; the same code cut out
/// and turned upright reads (bench/barcodes/FINDINGS.md, "region deskew": aztec-2/06, 07, 10,
/// 11, 13).
public enum CodeRegions {
  public struct Region: Sendable, Equatable {
    /// The rotated rectangle around the region, clockwise from the corner that is top-left once
    /// turned upright, in image pixels.
    public var corners: [Point]
    /// The edges' direction in degrees (−45…45).
    public var angle: Double
    public var width: Double
    public var height: Double
    /// The region's own four corners (clockwise from top-left, moved out by the same quiet zone): the
    /// outermost blocks along the rectangle's diagonals, so a code seen at a slant keeps its
    /// trapezoid, which the rectangle squares off.
    public var outline: [Point]

    /// The region with its outline as corners and the outline's mean side lengths as size:
    /// cut out `upright`, it is the code rectified for perspective.
    public var rectified: Region {
      func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
      }
      let o = outline
      return Region(
        corners: o, angle: angle, width: (distance(o[0], o[1]) + distance(o[3], o[2])) / 2,
        height: (distance(o[1], o[2]) + distance(o[0], o[3])) / 2, outline: o)
    }
  }

  /// Regions of at least `minimumBlocks` blocks of `block` × `block` pixels whose mean gradient is
  /// strong, the largest first (at most `limit`). With `reach` 0 a region's blocks touch by a
  /// side; with `reach` n a block joins any strong block up to n blocks away in each direction,
  /// which keeps a 2-D code with quiet patches in one piece (aztec-2/11, 17 fall apart into three
  /// regions otherwise).
  public static func find(
    in gray: Bitmap, block: Int = 8, minimumBlocks: Int = 6, limit: Int = 3, reach: Int = 0
  ) -> [Region] {
    precondition(gray.format == .gray)
    guard let field = BlockGradients(gray, block: block) else { return [] }
    let area = Double(block * block)
    let strongest = field.energy.max() ?? 0
    // A code's blocks are full of strong edges; text and photo texture mostly are not.
    let threshold = max(24 * area, 0.35 * strongest)
    return field.strongRegions(threshold: threshold, reach: reach).filter { $0.blocks.count >= minimumBlocks }
      .sorted { $0.weight > $1.weight }.prefix(limit)
      .map { field.rectangle(around: $0.blocks) }
  }

  /// The evidence that an image holds a code at all, for stopping a scan's retries early: how many
  /// blocks the largest 8-connected group of code-like blocks has. A block is code-like when its
  /// mean gradient per pixel is at least `energy` and its edges agree in direction (bars in 2θ, a
  /// module grid in 4θ) by at least `coherence` of their magnitude. Unlike `find`'s threshold,
  /// which is relative to the image's strongest block, these are absolute, so an image without a
  /// code can score zero.
  public static func codeLikeBlocks(in gray: Bitmap, energy: Double, coherence: Double, block: Int = 8) -> Int
  {
    precondition(gray.format == .gray)
    guard let field = BlockGradients(gray, block: block) else { return 0 }
    return field.largestGroup(
      where: field.codeLike(energy: energy * Double(block * block), coherence: coherence))
  }

  /// `codeLikeBlocks` for every pair of the given energies and coherences, in that order (energy
  /// major), from one pass over the pixels: what bench/barcodes/fit_code_gate.py fits the gate on.
  public static func codeLikeBlocks(in gray: Bitmap, energies: [Double], coherences: [Double], block: Int = 8)
    -> [Int]
  {
    guard let field = BlockGradients(gray, block: block) else {
      return energies.flatMap { _ in coherences.map { _ in 0 } }
    }
    return energies.flatMap { e in
      coherences.map { c in
        field.largestGroup(where: field.codeLike(energy: e * Double(block * block), coherence: c))
      }
    }
  }

  /// The region cut out upright at `scale` times its size; `toSource` maps a point of the cut back
  /// to the image's pixels. Nil when the region is degenerate.
  public static func upright(_ region: Region, of gray: Bitmap, scale: Double = 1)
    -> (image: Bitmap, toSource: (Point) -> Point)?
  {
    let w = max(8, Int((region.width * scale).rounded())), h = max(8, Int((region.height * scale).rounded()))
    guard w * h <= 16_000_000 else { return nil }
    let out = [Point(0, 0), Point(Double(w), 0), Point(Double(w), Double(h)), Point(0, Double(h))]
    guard let back = Homography(from: out, to: region.corners) else { return nil }
    let c = back
    let image = Bitmap(width: w, height: h, format: .gray) { dst in
      gray.pixels.withUnsafeBufferPointer { src in
        let gw = gray.width, gh = gray.height
        for y in 0..<h {
          for x in 0..<w {
            let p = c.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
            let sx = p.x - 0.5, sy = p.y - 0.5
            let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
            // Outside the image is white: a quiet zone.
            guard ix >= 0, iy >= 0, ix < gw - 1, iy < gh - 1 else {
              dst[y * w + x] = 255
              continue
            }
            let fx = sx - Double(ix), fy = sy - Double(iy)
            let i = iy * gw + ix
            let top = Double(src[i]) * (1 - fx) + Double(src[i + 1]) * fx
            let bottom = Double(src[i + gw]) * (1 - fx) + Double(src[i + gw + 1]) * fx
            dst[y * w + x] = UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
          }
        }
      }
    }
    return (image, { back.apply($0) })
  }
}

extension Bitmap {
  /// Gaussian blur with σ ≈ 1 (the binomial kernel 1 4 6 4 1 over rows, then columns): removes
  /// the aliasing of a resampled print before a global threshold (upca-4/1, 2, 6).
  public func blurred() -> Bitmap {
    precondition(format == .gray)
    let w = width, h = height
    guard w >= 5, h >= 5 else { return self }
    var rows = [UInt16](repeating: 0, count: w * h)
    pixels.withUnsafeBufferPointer { src in
      for y in 0..<h {
        let r = y * w
        for x in 0..<w {
          let a = Int(src[r + Swift.max(0, x - 2)]), b = Int(src[r + Swift.max(0, x - 1)])
          let c = Int(src[r + x]), d = Int(src[r + Swift.min(w - 1, x + 1)]),
            e = Int(src[r + Swift.min(w - 1, x + 2)])
          rows[r + x] = UInt16(a + 4 * b + 6 * c + 4 * d + e)
        }
      }
    }
    return Bitmap(width: w, height: h, format: .gray) { out in
      for y in 0..<h {
        let a = Swift.max(0, y - 2) * w, b = Swift.max(0, y - 1) * w, c = y * w
        let d = Swift.min(h - 1, y + 1) * w, e = Swift.min(h - 1, y + 2) * w
        for x in 0..<w {
          let sum =
            Int(rows[a + x]) + 4 * Int(rows[b + x]) + 6 * Int(rows[c + x]) + 4 * Int(rows[d + x])
            + Int(rows[e + x])
          out[c + x] = UInt8(clamping: (sum + 128) / 256)
        }
      }
    }
  }
}

/// Per block of a grey image: the summed gradient magnitude and the gradient direction taken four
/// times (cos 4θ, sin 4θ weighted by magnitude), so that bars and a square grid's two edge
/// directions agree.
private struct BlockGradients {
  let block: Int
  let columns: Int
  let rows: Int
  var energy: [Double]
  var cos4: [Double]
  var sin4: [Double]
  /// The direction taken twice: bars agree, a square grid's two directions cancel.
  var cos2: [Double]
  var sin2: [Double]

  init?(_ gray: Bitmap, block: Int) {
    let w = gray.width, h = gray.height
    let bw = w / block, bh = h / block
    guard bw >= 3, bh >= 3 else { return nil }
    self.block = block
    columns = bw
    rows = bh
    energy = [Double](repeating: 0, count: bw * bh)
    cos4 = [Double](repeating: 0, count: bw * bh)
    sin4 = [Double](repeating: 0, count: bw * bh)
    cos2 = [Double](repeating: 0, count: bw * bh)
    sin2 = [Double](repeating: 0, count: bw * bh)
    gray.pixels.withUnsafeBufferPointer { p in
      for y in 1..<(bh * block - 1) where y < h - 1 {
        for x in 1..<(bw * block - 1) where x < w - 1 {
          let gx = Double(Int(p[y * w + x + 1]) - Int(p[y * w + x - 1]))
          let gy = Double(Int(p[(y + 1) * w + x]) - Int(p[(y - 1) * w + x]))
          let m2 = gx * gx + gy * gy
          guard m2 > 0 else { continue }
          let b = (y / block) * bw + x / block
          let m = m2.squareRoot()
          energy[b] += m
          let c2 = (gx * gx - gy * gy) / m2, s2 = 2 * gx * gy / m2
          cos4[b] += m * (c2 * c2 - s2 * s2)
          sin4[b] += m * 2 * s2 * c2
          cos2[b] += m * c2
          sin2[b] += m * s2
        }
      }
    }
  }

  /// Per block, whether its summed gradient reaches `energy` and its directions agree by
  /// `coherence` (bars or a grid).
  func codeLike(energy minimum: Double, coherence: Double) -> [Bool] {
    energy.indices.map { b in
      let e = energy[b]
      guard e >= minimum, e > 0 else { return false }
      let bars = (cos2[b] * cos2[b] + sin2[b] * sin2[b]).squareRoot() / e
      let grid = (cos4[b] * cos4[b] + sin4[b] * sin4[b]).squareRoot() / e
      return max(bars, grid) >= coherence
    }
  }

  /// The number of blocks in the largest 8-connected group of marked blocks.
  func largestGroup(where marked: [Bool]) -> Int {
    var seen = [Bool](repeating: false, count: marked.count)
    var largest = 0
    for start in marked.indices where marked[start] && !seen[start] {
      var stack = [start], size = 0
      seen[start] = true
      while let b = stack.popLast() {
        size += 1
        let bx = b % columns, by = b / columns
        for dy in -1...1 {
          for dx in -1...1 {
            let nx = bx + dx, ny = by + dy
            guard nx >= 0, ny >= 0, nx < columns, ny < rows else { continue }
            let n = ny * columns + nx
            if marked[n] && !seen[n] {
              seen[n] = true
              stack.append(n)
            }
          }
        }
      }
      largest = max(largest, size)
    }
    return largest
  }

  /// The groups of blocks at or above `threshold` (4-connected, or within `reach` blocks), in scan
  /// order, with their summed energy.
  func strongRegions(threshold: Double, reach: Int = 0) -> [(blocks: [Int], weight: Double)] {
    let bw = columns, bh = rows
    let neighbours =
      reach == 0
      ? [(1, 0), (-1, 0), (0, 1), (0, -1)]
      : (-reach...reach).flatMap { dy in (-reach...reach).map { dx in (dx, dy) } }.filter { $0 != (0, 0) }
    var label = [Int](repeating: -1, count: bw * bh)
    var regions: [(blocks: [Int], weight: Double)] = []
    for start in 0..<(bw * bh) where energy[start] >= threshold && label[start] < 0 {
      var stack = [start], blocks: [Int] = []
      label[start] = regions.count
      while let b = stack.popLast() {
        blocks.append(b)
        let bx = b % bw, by = b / bw
        for (dx, dy) in neighbours {
          let nx = bx + dx, ny = by + dy
          guard nx >= 0, ny >= 0, nx < bw, ny < bh else { continue }
          let n = ny * bw + nx
          if label[n] < 0 && energy[n] >= threshold {
            label[n] = regions.count
            stack.append(n)
          }
        }
      }
      regions.append((blocks, blocks.reduce(0) { $0 + energy[$1] }))
    }
    return regions
  }

  /// The rectangle around `blocks` turned to their edges' direction: the blocks' corners' bounding
  /// box in the rotated frame, grown by a block and a fifth for the quiet zone, back in image
  /// pixels.
  func rectangle(around blocks: [Int]) -> CodeRegions.Region {
    let c = blocks.reduce(0) { $0 + cos4[$1] }, s = blocks.reduce(0) { $0 + sin4[$1] }
    let theta = atan2(s, c) / 4
    let ct = cos(theta), st = sin(theta)
    var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
    // Per diagonal direction (top-left, top-right, bottom-right, bottom-left in the turned frame),
    // the block corner furthest along it.
    let diagonals: [(Double, Double)] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    var extreme = [(u: Double, v: Double, reach: Double)](repeating: (0, 0, -.infinity), count: 4)
    let side = Double(block)
    for b in blocks {
      let x0 = Double((b % columns) * block), y0 = Double((b / columns) * block)
      for (x, y) in [(x0, y0), (x0 + side, y0), (x0, y0 + side), (x0 + side, y0 + side)] {
        let u = x * ct + y * st, v = -x * st + y * ct
        minU = min(minU, u)
        maxU = max(maxU, u)
        minV = min(minV, v)
        maxV = max(maxV, v)
        for (k, (du, dv)) in diagonals.enumerated() where du * u + dv * v > extreme[k].reach {
          extreme[k] = (u, v, du * u + dv * v)
        }
      }
    }
    let margin = side + 0.2 * max(maxU - minU, maxV - minV)
    minU -= margin
    maxU += margin
    minV -= margin
    maxV += margin
    func point(_ u: Double, _ v: Double) -> Point { Point(u * ct - v * st, u * st + v * ct) }
    return CodeRegions.Region(
      corners: [point(minU, minV), point(maxU, minV), point(maxU, maxV), point(minU, maxV)],
      angle: theta * 180 / .pi, width: maxU - minU, height: maxV - minV,
      outline: zip(extreme, diagonals).map { e, d in point(e.u + d.0 * margin, e.v + d.1 * margin) })
  }
}
