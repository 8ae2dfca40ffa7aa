import Foundation
import SnapsortImaging
import SnapsortNative

/// Smoothed image with its Sobel gradient.
///
/// A class recomputed in place by `update(smoothing:)`: one worker keeps one field, so its planes
/// (about ten of a megabyte each at the default search side) are allocated once rather than mapped
/// and faulted in afresh for every photo, which cost a fifth of the detection time.
final class GradientField {
  private(set) var width = 0
  private(set) var height = 0
  private(set) var gx: [Float] = []
  private(set) var gy: [Float] = []
  private(set) var magnitude: [Float] = []
  /// Magnitude above which a pixel counts as an edge.
  private(set) var threshold: Float = 0

  /// Per-pixel index of the channel whose gradient is strongest there.
  private(set) var channelOf: [UInt8] = []
  /// Smoothed channels (one for grey, R, G, B for colour), one plane after another, in 1/256 of
  /// a grey level.
  ///
  /// The blur is [1 2 1] / 4 four times (twice across, twice down), so every smoothed value is a
  /// whole number of 256ths no larger than 255: integers hold it exactly, and so does a Float
  /// computed the same way. Integer planes give the same values as Float arithmetic, at half the
  /// memory traffic and twice the lanes per vector.
  private(set) var smoothed: [UInt16] = []
  private(set) var channelCount = 0
  private var rowPass: [UInt16] = []
  private var magnitudeSample: [Float] = []

  init() {}

  /// A field of one image. The image should be at least 3 × 3.
  convenience init(smoothing image: Bitmap) {
    self.init()
    update(smoothing: image)
  }

  /// Gradients of each colour channel, keeping at each pixel the strongest: a yellow card on
  /// beige tiles or a blue card on blue fabric differ in hue far more than in brightness.
  /// The image should be at least 3 × 3; the buffers are reused when the size allows.
  func update(smoothing image: Bitmap) {
    width = image.width
    height = image.height
    channelCount = image.channels
    let w = width, h = height, c = channelCount, count = w * h
    Self.resize(&gx, to: count, fill: 0)
    Self.resize(&gy, to: count, fill: 0)
    Self.resize(&magnitude, to: count, fill: 0)
    Self.resize(&channelOf, to: count, fill: 0)
    Self.resize(&smoothed, to: count * c, fill: 0)
    Self.resize(&rowPass, to: count, fill: 0)
    image.pixels.withUnsafeBufferPointer { src in
      smoothed.withUnsafeMutableBufferPointer { planes in
        rowPass.withUnsafeMutableBufferPointer { temp in
          let base = planes.baseAddress!
          if c == 3 {
            for i in 0..<count {
              base[i] = UInt16(src[3 * i])
              base[count + i] = UInt16(src[3 * i + 1])
              base[2 * count + i] = UInt16(src[3 * i + 2])
            }
          } else {
            for i in 0..<count { base[i] = UInt16(src[i]) }
          }
          for channel in 0..<c {
            let plane = base + channel * count
            // [1 2 1] twice is [1 4 6 4 1]: smooth enough that the step test below sees steps.
            // Each pass multiplies by four instead of dividing, so after the four passes the plane
            // is in 256ths of a level (at most 65 280: no overflow).
            for _ in 0..<2 {
              Self.blurRows(plane, into: temp.baseAddress!, width: w, height: h)
              Self.blurColumns(temp.baseAddress!, into: plane, width: w, height: h)
            }
          }
        }
      }
    }
    sobel()
    // An edge is stronger than most of the image (the 85th percentile) and well above the noise
    // (four times the median); but a dense texture such as a barcode panel filling a seventh of
    // a screenshot must not hide a faint card border, so a step of about ten levels always counts.
    magnitudeSample.removeAll(keepingCapacity: true)
    for i in stride(from: 0, to: count, by: 7) { magnitudeSample.append(magnitude[i]) }
    let noise = max(4, 4 * magnitudeSample.selectElement(atRank: magnitudeSample.count / 2))
    threshold = max(
      noise, min(24, magnitudeSample.selectElement(atRank: Int(Double(magnitudeSample.count - 1) * 0.85))))
  }

  /// Makes `values` hold `count` elements equal to `fill`, keeping its storage when it is large
  /// enough already.
  private static func resize<T>(_ values: inout [T], to count: Int, fill: T) {
    if values.count == count {
      values.withUnsafeMutableBufferPointer { $0.update(repeating: fill) }
    } else {
      values = [T](repeating: fill, count: count)
    }
  }

  /// `[1 2 1]` along each row, the edge pixel repeated beyond the ends; values four times larger.
  private static func blurRows(
    _ p: UnsafeMutablePointer<UInt16>, into t: UnsafeMutablePointer<UInt16>, width w: Int, height h: Int
  ) {
    for y in 0..<h {
      let source = p + y * w, target = t + y * w
      target[0] = 3 &* source[0] &+ source[1]
      var x = 1
      // Sixteen pixels at a time: written out, because the compiler left the plain loop scalar.
      while x + 16 <= w - 1 {
        let sum = load(source + x - 1) &+ load(source + x) &* 2 &+ load(source + x + 1)
        UnsafeMutableRawPointer(target + x).storeBytes(of: sum, as: SIMD16<UInt16>.self)
        x += 16
      }
      while x < w - 1 {
        target[x] = source[x - 1] &+ 2 &* source[x] &+ source[x + 1]
        x += 1
      }
      target[w - 1] = source[w - 2] &+ 3 &* source[w - 1]
    }
  }

  /// `[1 2 1]` down each column, the edge row repeated beyond the ends; values four times larger.
  private static func blurColumns(
    _ t: UnsafeMutablePointer<UInt16>, into b: UnsafeMutablePointer<UInt16>, width w: Int, height h: Int
  ) {
    for y in 0..<h {
      let above = t + max(0, y - 1) * w, row = t + y * w, below = t + min(h - 1, y + 1) * w
      let target = b + y * w
      var x = 0
      while x + 16 <= w {
        let sum = load(above + x) &+ load(row + x) &* 2 &+ load(below + x)
        UnsafeMutableRawPointer(target + x).storeBytes(of: sum, as: SIMD16<UInt16>.self)
        x += 16
      }
      while x < w {
        target[x] = above[x] &+ 2 &* row[x] &+ below[x]
        x += 1
      }
    }
  }

  @inline(__always)
  private static func load(_ p: UnsafeMutablePointer<UInt16>) -> SIMD16<UInt16> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self)
  }

  /// Sobel on each smoothed plane, keeping at each pixel the channel with the largest magnitude
  /// (the first on a tie); the one-pixel frame stays zero.
  private func sobel() {
    let w = width, h = height, c = channelCount, count = w * h
    smoothed.withUnsafeBufferPointer { planes in
      gx.withUnsafeMutableBufferPointer { gxp in
        gy.withUnsafeMutableBufferPointer { gyp in
          magnitude.withUnsafeMutableBufferPointer { mp in
            channelOf.withUnsafeMutableBufferPointer { cp in
              let source = planes.baseAddress!
              let target = SobelTarget(
                gx: gxp.baseAddress!, gy: gyp.baseAddress!, magnitude: mp.baseAddress!,
                channel: cp.baseAddress!)
              for y in 1..<(h - 1) {
                var x = 1
                while x + 8 <= w - 1 {
                  Self.sobel8(source, at: y * w + x, width: w, channels: c, planeSize: count, into: target)
                  x += 8
                }
                while x < w - 1 {
                  Self.sobel1(source, at: y * w + x, width: w, channels: c, planeSize: count, into: target)
                  x += 1
                }
              }
            }
          }
        }
      }
    }
  }

  /// The planes `sobel()` writes, each pixel's strongest gradient and the channel it is in.
  private struct SobelTarget {
    let gx: UnsafeMutablePointer<Float>
    let gy: UnsafeMutablePointer<Float>
    let magnitude: UnsafeMutablePointer<Float>
    let channel: UnsafeMutablePointer<UInt8>
  }

  /// Sobel at the eight pixels from `i` on, in vectors.
  @inline(__always)
  private static func sobel8(
    _ planes: UnsafePointer<UInt16>, at i: Int, width w: Int, channels c: Int, planeSize count: Int,
    into target: SobelTarget
  ) {
    var bestX = SIMD8<Float>(), bestY = SIMD8<Float>(), bestM = SIMD8<Float>()
    var band = SIMD8<Int32>()
    for channel in 0..<c {
      let b = planes + channel * count + i
      func load(_ offset: Int) -> SIMD8<Int32> {
        SIMD8<Int32>(
          truncatingIfNeeded: UnsafeRawPointer(b + offset).loadUnaligned(as: SIMD8<UInt16>.self)
        )
      }
      let sx =
        (load(-w + 1) &+ 2 &* load(1) &+ load(w + 1))
        &- (load(-w - 1) &+ 2 &* load(-1) &+ load(w - 1))
      let sy =
        (load(w - 1) &+ 2 &* load(w) &+ load(w + 1))
        &- (load(-w - 1) &+ 2 &* load(-w) &+ load(-w + 1))
      let dx = SIMD8<Float>(sx) * (1 / 256), dy = SIMD8<Float>(sy) * (1 / 256)
      let m = (dx * dx + dy * dy).squareRoot()
      let stronger = m .> bestM
      bestX.replace(with: dx, where: stronger)
      bestY.replace(with: dy, where: stronger)
      bestM.replace(with: m, where: stronger)
      band.replace(with: Int32(channel), where: stronger)
    }
    UnsafeMutableRawPointer(target.gx + i).storeBytes(of: bestX, as: SIMD8<Float>.self)
    UnsafeMutableRawPointer(target.gy + i).storeBytes(of: bestY, as: SIMD8<Float>.self)
    UnsafeMutableRawPointer(target.magnitude + i).storeBytes(of: bestM, as: SIMD8<Float>.self)
    UnsafeMutableRawPointer(target.channel + i).storeBytes(
      of: SIMD8<UInt8>(truncatingIfNeeded: band), as: SIMD8<UInt8>.self)
  }

  /// Sobel at pixel `i` alone, for the ends of rows that are not a whole vector; `target`'s
  /// magnitude there must start at zero.
  @inline(__always)
  private static func sobel1(
    _ planes: UnsafePointer<UInt16>, at i: Int, width w: Int, channels c: Int, planeSize count: Int,
    into target: SobelTarget
  ) {
    for channel in 0..<c {
      let b = planes + channel * count
      func at(_ j: Int) -> Int32 { Int32(b[j]) }
      let sx =
        (at(i - w + 1) + 2 * at(i + 1) + at(i + w + 1))
        - (at(i - w - 1) + 2 * at(i - 1) + at(i + w - 1))
      let sy =
        (at(i + w - 1) + 2 * at(i + w) + at(i + w + 1))
        - (at(i - w - 1) + 2 * at(i - w) + at(i - w + 1))
      let dx = Float(sx) * (1 / 256), dy = Float(sy) * (1 / 256)
      let m = (dx * dx + dy * dy).squareRoot()
      if m > target.magnitude[i] {
        target.gx[i] = dx
        target.gy[i] = dy
        target.magnitude[i] = m
        target.channel[i] = UInt8(channel)
      }
    }
  }

  /// Pixels that are local maxima of the gradient across the edge, above the threshold, and on a
  /// step between two surfaces rather than on a thin line, as indices into the image; `result` is
  /// overwritten (its storage is reused).
  ///
  /// Grout between tiles, barcode bars, text strokes and woven fabric are lines: a few pixels
  /// on, the brightness is back where it was. A card's border is a step that stays: the
  /// difference across it a few pixels out is as large as right at the edge.
  func edgePixels(into result: inout [Int]) {
    result.removeAll(keepingCapacity: true)
    let reach: Float = 4
    let w = width, h = height, count = w * h
    smoothed.withUnsafeBufferPointer { planes in
      gx.withUnsafeBufferPointer { gx in
        gy.withUnsafeBufferPointer { gy in
          magnitude.withUnsafeBufferPointer { magnitude in
            channelOf.withUnsafeBufferPointer { channelOf in
              for y in 2..<(h - 2) {
                for x in 2..<(w - 2) {
                  let i = y * w + x
                  let m = magnitude[i]
                  guard m >= threshold else { continue }
                  let ax = abs(gx[i]), ay = abs(gy[i])
                  let (n1, n2): (Int, Int)
                  if ax > 2.4 * ay {
                    (n1, n2) = (i - 1, i + 1)
                  } else if ay > 2.4 * ax {
                    (n1, n2) = (i - w, i + w)
                  } else if (gx[i] > 0) == (gy[i] > 0) {
                    (n1, n2) = (i - w - 1, i + w + 1)
                  } else {
                    (n1, n2) = (i - w + 1, i + w - 1)
                  }
                  guard m >= magnitude[n1] && m > magnitude[n2] else { continue }
                  let ux = gx[i] / m, uy = gy[i] / m
                  let px = Double(x), py = Double(y)
                  let smooth = UnsafeBufferPointer(rebasing: planes[(Int(channelOf[i]) * count)...])
                  let near =
                    sample(smooth, px + Double(ux), py + Double(uy))
                    - sample(smooth, px - Double(ux), py - Double(uy))
                  let far =
                    sample(smooth, px + Double(ux * reach), py + Double(uy * reach))
                    - sample(smooth, px - Double(ux * reach), py - Double(uy * reach))
                  if far >= 0.9 * near { result.append(i) }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Pixels that are edges (see `edgePixels(into:)`).
  func edgePixels() -> [Int] {
    var result: [Int] = []
    edgePixels(into: &result)
    return result
  }

  /// Bilinear sample of one smoothed plane, in grey levels.
  func sample(_ plane: UnsafeBufferPointer<UInt16>, _ x: Double, _ y: Double) -> Float {
    let xi = min(width - 2, max(0, Int(x))), yi = min(height - 2, max(0, Int(y)))
    let fx = Float(min(1, max(0, x - Double(xi)))), fy = Float(min(1, max(0, y - Double(yi))))
    let i = yi * width + xi
    // Scaling by 1/256 is exact, so these are the smoothed Float values themselves.
    func value(_ j: Int) -> Float { Float(plane[j]) * (1 / 256) }
    let top = value(i) * (1 - fx) + value(i + 1) * fx
    let bottom = value(i + width) * (1 - fx) + value(i + width + 1) * fx
    return top * (1 - fy) + bottom * fy
  }

  /// Mean difference (the largest over the channels) just inside and just outside the border, 0…1.
  func borderContrast(_ quad: [Point]) -> Double {
    let centre = Quad.centre(quad), cx = centre.x, cy = centre.y
    let count = width * height
    var total = 0.0
    var samples = 0
    smoothed.withUnsafeBufferPointer { planes in
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
          var largest: Float = 0
          for channel in 0..<channelCount {
            let plane = UnsafeBufferPointer(rebasing: planes[(channel * count)..<((channel + 1) * count)])
            largest = max(
              largest, abs(sample(plane, inside.0, inside.1) - sample(plane, outside.0, outside.1)))
          }
          total += Double(largest)
          samples += 1
        }
      }
    }
    return samples == 0 ? 0 : min(1, total / Double(samples) / 40)
  }
}
