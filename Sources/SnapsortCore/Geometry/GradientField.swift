import Foundation

/// Smoothed image with its Sobel gradient.
struct GradientField {
  let width: Int
  let height: Int
  let gx: [Float]
  let gy: [Float]
  let magnitude: [Float]
  /// Magnitude above which a pixel counts as an edge.
  let threshold: Float

  /// Per-pixel index of the channel whose gradient is strongest there.
  let channelOf: [UInt8]
  /// Smoothed channels (one for grey, R, G, B for colour).
  let channels: [[Float]]

  /// Gradients of each colour channel, keeping at each pixel the strongest: a yellow card on
  /// beige tiles or a blue card on blue fabric differ in hue far more than in brightness.
  /// The image should be at least 3 × 3.
  init(smoothing image: Bitmap) {
    width = image.width
    height = image.height
    let w = width, h = height, c = image.channels
    var channels: [[Float]] = []
    var gx = [Float](repeating: 0, count: w * h)
    var gy = [Float](repeating: 0, count: w * h)
    var magnitude = [Float](repeating: 0, count: w * h)
    var channelOf = [UInt8](repeating: 0, count: w * h)
    var temp = [Float](repeating: 0, count: w * h)
    for channel in 0..<c {
      // A plane of its own per channel, kept in `channels`: one plane reused across channels was
      // copied on its next write because the kept array still shared it.
      var plane = image.pixels.withUnsafeBufferPointer { src in
        [Float](unsafeUninitializedCapacity: w * h) { p, initialized in
          for i in 0..<(w * h) { p[i] = Float(src[i * c + channel]) }
          initialized = w * h
        }
      }
      // Separable blur, then Sobel; raw buffers and no clamping inside the rows because this
      // runs on every pixel.
      // [1 2 1] twice is [1 4 6 4 1]: smooth enough that the step test below sees steps.
      for _ in 0..<2 {
        plane.withUnsafeBufferPointer { p in
          temp.withUnsafeMutableBufferPointer { t in
            for y in 0..<h {
              let row = y * w
              t[row] = (3 * p[row] + p[row + 1]) / 4
              for x in 1..<(w - 1) { t[row + x] = (p[row + x - 1] + 2 * p[row + x] + p[row + x + 1]) / 4 }
              t[row + w - 1] = (p[row + w - 2] + 3 * p[row + w - 1]) / 4
            }
          }
        }
        temp.withUnsafeBufferPointer { t in
          plane.withUnsafeMutableBufferPointer { b in
            for y in 0..<h {
              let r0 = max(0, y - 1) * w, r1 = y * w, r2 = min(h - 1, y + 1) * w
              for x in 0..<w { b[r1 + x] = (t[r0 + x] + 2 * t[r1 + x] + t[r2 + x]) / 4 }
            }
          }
        }
      }
      plane.withUnsafeBufferPointer { b in
        gx.withUnsafeMutableBufferPointer { gxp in
          gy.withUnsafeMutableBufferPointer { gyp in
            magnitude.withUnsafeMutableBufferPointer { mp in
              channelOf.withUnsafeMutableBufferPointer { cp in
                let band = UInt8(channel)
                for y in 1..<(h - 1) {
                  var x = 1
                  // Eight pixels at a time, the same arithmetic in the same order as the
                  // scalar loop below, so the results are identical.
                  while x + 8 <= w - 1 {
                    let i = y * w + x
                    func load(_ offset: Int) -> SIMD8<Float> {
                      UnsafeRawPointer(b.baseAddress! + i + offset).loadUnaligned(as: SIMD8<Float>.self)
                    }
                    let dx =
                      (load(-w + 1) + 2 * load(1) + load(w + 1)) - (load(-w - 1) + 2 * load(-1) + load(w - 1))
                    let dy =
                      (load(w - 1) + 2 * load(w) + load(w + 1)) - (load(-w - 1) + 2 * load(-w) + load(-w + 1))
                    let m = (dx * dx + dy * dy).squareRoot()
                    func update(
                      _ target: UnsafeMutableBufferPointer<Float>, _ value: SIMD8<Float>,
                      _ where: SIMDMask<SIMD8<Int32>>
                    ) {
                      let raw = UnsafeMutableRawPointer(target.baseAddress! + i)
                      let old = raw.loadUnaligned(as: SIMD8<Float>.self)
                      raw.storeBytes(of: old.replacing(with: value, where: `where`), as: SIMD8<Float>.self)
                    }
                    let stronger =
                      m .> UnsafeRawPointer(mp.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
                    if any(stronger) {
                      update(gxp, dx, stronger)
                      update(gyp, dy, stronger)
                      update(mp, m, stronger)
                      for lane in 0..<8 where stronger[lane] { cp[i + lane] = band }
                    }
                    x += 8
                  }
                  while x < w - 1 {
                    let i = y * w + x
                    let dx =
                      (b[i - w + 1] + 2 * b[i + 1] + b[i + w + 1])
                      - (b[i - w - 1] + 2 * b[i - 1] + b[i + w - 1])
                    let dy =
                      (b[i + w - 1] + 2 * b[i + w] + b[i + w + 1])
                      - (b[i - w - 1] + 2 * b[i - w] + b[i - w + 1])
                    let m = (dx * dx + dy * dy).squareRoot()
                    if m > mp[i] {
                      gxp[i] = dx
                      gyp[i] = dy
                      mp[i] = m
                      cp[i] = band
                    }
                    x += 1
                  }
                }
              }
            }
          }
        }
      }
      channels.append(plane)
    }
    // An edge is stronger than most of the image (the 85th percentile) and well above the noise
    // (four times the median); but a dense texture such as a barcode panel filling a seventh of
    // a screenshot must not hide a faint card border, so a step of about ten levels always counts.
    var sample = stride(from: 0, to: magnitude.count, by: 7).map { magnitude[$0] }
    let noise = max(4, 4 * Self.select(&sample, rank: sample.count / 2))
    threshold = max(noise, min(24, Self.select(&sample, rank: Int(Double(sample.count - 1) * 0.85))))
    self.channels = channels
    self.channelOf = channelOf
    self.gx = gx
    self.gy = gy
    self.magnitude = magnitude
  }

  /// The value at `rank` of `values` sorted ascending (Hoare's selection; `values` is
  /// reordered): the same value a full sort gives, without sorting tens of thousands of them.
  static func select(_ values: inout [Float], rank: Int) -> Float {
    var lo = 0, hi = values.count - 1
    while lo < hi {
      let pivot = values[(lo + hi) / 2]
      var i = lo, j = hi
      while i <= j {
        while values[i] < pivot { i += 1 }
        while values[j] > pivot { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if rank <= j {
        hi = j
      } else if rank >= i {
        lo = i
      } else {
        return values[rank]
      }
    }
    return values[rank]
  }

  /// Pixels that are local maxima of the gradient across the edge, above the threshold, and on a
  /// step between two surfaces rather than on a thin line.
  ///
  /// Grout between tiles, barcode bars, text strokes and woven fabric are lines: a few pixels
  /// on, the brightness is back where it was. A card's border is a step that stays: the
  /// difference across it a few pixels out is as large as right at the edge.
  func edgePixels() -> [Int] {
    var result: [Int] = []
    let reach: Float = 4
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
        guard m >= magnitude[n1] && m > magnitude[n2] else { continue }
        let ux = gx[i] / m, uy = gy[i] / m
        let px = Double(x), py = Double(y)
        let smooth = channels[Int(channelOf[i])]
        let near =
          sample(smooth, px + Double(ux), py + Double(uy)) - sample(smooth, px - Double(ux), py - Double(uy))
        let far =
          sample(smooth, px + Double(ux * reach), py + Double(uy * reach))
          - sample(smooth, px - Double(ux * reach), py - Double(uy * reach))
        if far >= 0.9 * near { result.append(i) }
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

  /// Mean difference (the largest over the channels) just inside and just outside the border, 0…1.
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
        total += Double(
          channels.map { abs(sample($0, inside.0, inside.1) - sample($0, outside.0, outside.1)) }.max() ?? 0)
        count += 1
      }
    }
    return count == 0 ? 0 : min(1, total / Double(count) / 40)
  }
}
