import Foundation
import SnapsortNative

/// Image preparations that help a decoder on photos: each returns a new grey bitmap of the same
/// size unless it says otherwise.
extension Bitmap {
  /// Unsharp mask over a 3 × 3 box: restores edges that blur or JPEG smeared, which decides
  /// whether thin bars of a linear code still separate.
  public func sharpened(amount: Int = 2) -> Bitmap {
    precondition(format == .gray)
    guard width >= 3, height >= 3 else { return self }
    let w = width, h = height
    return Bitmap(width: w, height: h, format: .gray) { out in
      pixels.withUnsafeBufferPointer { src in
        for y in 0..<h {
          let y0 = Swift.max(0, y - 1), y1 = Swift.min(h - 1, y + 1)
          for x in 0..<w {
            let x0 = Swift.max(0, x - 1), x1 = Swift.min(w - 1, x + 1)
            var sum = 0
            for yy in y0...y1 {
              let row = yy * w
              for xx in x0...x1 { sum += Int(src[row + xx]) }
            }
            let count = (y1 - y0 + 1) * (x1 - x0 + 1)
            let centre = Int(src[y * w + x])
            let value = centre + amount * (centre - sum / count)
            out[y * w + x] = UInt8(clamping: value)
          }
        }
      }
    }
  }

  /// For a linear code turned so that its bars stand upright: each column averaged over
  /// `smoothing` rows (the bars do not change along a column, the noise and JPEG blocks do), then
  /// sharpened along the rows by `amount` times its difference from a Gaussian blur of `sigma`
  /// px, which undoes as much of a photo's blur as separates thin gaps from thin bars again.
  public func sharpenedAlongRows(sigma: Double, amount: Double, smoothing: Int) -> Bitmap {
    precondition(format == .gray)
    let w = width, h = height, half = smoothing / 2
    guard w >= 3, h >= 1 else { return self }
    var smooth = [Float](repeating: 0, count: w * h)
    pixels.withUnsafeBufferPointer { src in
      for y in 0..<h {
        let y0 = Swift.max(0, y - half), y1 = Swift.min(h - 1, y + half)
        let scale = 1 / Float(y1 - y0 + 1)
        for x in 0..<w {
          var sum = 0
          for yy in y0...y1 { sum += Int(src[yy * w + x]) }
          smooth[y * w + x] = Float(sum) * scale
        }
      }
    }
    let radius = Swift.max(1, Int((3 * sigma).rounded(.up)))
    var kernel = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
    let total = kernel.reduce(0, +)
    kernel = kernel.map { $0 / total }
    let gain = Float(amount)
    return Bitmap(width: w, height: h, format: .gray) { out in
      for y in 0..<h {
        let row = y * w
        for x in 0..<w {
          var blurred: Float = 0
          for k in -radius...radius {
            blurred += kernel[k + radius] * smooth[row + Swift.min(w - 1, Swift.max(0, x + k))]
          }
          let centre = smooth[row + x]
          out[row + x] = UInt8(clamping: Int((centre + gain * (centre - blurred)).rounded()))
        }
      }
    }
  }

  /// The image transposed when its edges run mostly along the rows (a linear code's bars
  /// lying down), so that its bars stand; `mapping` is composed with the turn.
  public func barsStanding(mapping: @escaping (Point) -> Point) -> (image: Bitmap, toSource: (Point) -> Point)
  {
    precondition(format == .gray)
    var across = 0, along = 0
    pixels.withUnsafeBufferPointer { p in
      for y in 1..<Swift.max(1, height) {
        for x in 1..<Swift.max(1, width) {
          let centre = Int(p[y * width + x])
          across += abs(centre - Int(p[y * width + x - 1]))
          along += abs(centre - Int(p[(y - 1) * width + x]))
        }
      }
    }
    guard along > across else { return (self, mapping) }
    // Transposed rather than turned: exact, and a linear code reads in either direction.
    let source = self
    let transposed = Bitmap(width: height, height: width, format: .gray) { out in
      for y in 0..<source.width {
        for x in 0..<source.height { out[y * source.height + x] = source.pixels[x * source.width + y] }
      }
    }
    return (transposed, { mapping(Point($0.y, $0.x)) })
  }

  /// Levels stretched so that the `clip` share of darkest pixels turns black and of lightest
  /// white, then raised to `gamma` (above 1 darkens the middle tones).
  public func contrastStretched(clip: Double, gamma: Double) -> Bitmap {
    precondition(format == .gray)
    var histogram = [Int](repeating: 0, count: 256)
    for p in pixels { histogram[Int(p)] += 1 }
    let cut = Int(Double(pixels.count) * clip)
    var low = 0, seen = 0
    while low < 255 && seen + histogram[low] <= cut {
      seen += histogram[low]
      low += 1
    }
    var high = 255
    seen = 0
    while high > low && seen + histogram[high] <= cut {
      seen += histogram[high]
      high -= 1
    }
    let range = Double(Swift.max(1, high - low))
    var table = [UInt8](repeating: 0, count: 256)
    for v in 0..<256 {
      let t = Swift.min(1, Swift.max(0, Double(v - low) / range))
      table[v] = UInt8((255 * pow(t, gamma)).rounded())
    }
    return Bitmap(width: width, height: height, format: .gray, pixels: pixels.map { table[Int($0)] })
  }

  /// Rows (or columns) repeated until both sides reach `minimumSide`, for a strip a few pixels
  /// high; `toSource` maps a point of the result back. Unchanged when both sides are long enough.
  public func thickened(minimumSide: Int) -> (image: Bitmap, toSource: @Sendable (Point) -> Point) {
    let ry = height < minimumSide ? (minimumSide + height - 1) / height : 1
    let rx = width < minimumSide ? (minimumSide + width - 1) / width : 1
    guard rx > 1 || ry > 1 else { return (self, { $0 }) }
    let source = self
    let image = Bitmap(width: width * rx, height: height * ry, format: .gray) { out in
      let w = source.width * rx
      for y in 0..<(source.height * ry) {
        for x in 0..<w { out[y * w + x] = source.pixels[(y / ry) * source.width + x / rx] }
      }
    }
    let fx = Double(rx), fy = Double(ry)
    return (image, { Point($0.x / fx, $0.y / fy) })
  }

  /// Rotated by `degrees` about the centre onto a canvas large enough to hold all of it, the
  /// corners filled white (quiet zone); `toSource` maps a point of the result back.
  public func rotated(degrees: Double) -> (image: Bitmap, toSource: @Sendable (Point) -> Point) {
    precondition(format == .gray)
    let radians = degrees * .pi / 180
    let c = cos(radians), s = sin(radians)
    let w = Double(width), h = Double(height)
    let nw = Int((abs(w * c) + abs(h * s)).rounded(.up))
    let nh = Int((abs(w * s) + abs(h * c)).rounded(.up))
    let (cx, cy) = (w / 2, h / 2)
    let (ncx, ncy) = (Double(nw) / 2, Double(nh) / 2)
    let toSource: @Sendable (Point) -> Point = { p in
      let dx = p.x - ncx, dy = p.y - ncy
      return Point(cx + dx * c + dy * s, cy - dx * s + dy * c)
    }
    let image = Bitmap(width: nw, height: nh, format: .gray) { out in
      pixels.withUnsafeBufferPointer { src in
        for y in 0..<nh {
          for x in 0..<nw {
            let p = toSource(Point(Double(x) + 0.5, Double(y) + 0.5))
            let sx = p.x - 0.5, sy = p.y - 0.5
            let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
            if ix < 0 || iy < 0 || ix >= width - 1 || iy >= height - 1 {
              out[y * nw + x] = 255
              continue
            }
            let fx = sx - Double(ix), fy = sy - Double(iy)
            let i = iy * width + ix
            let top = Double(src[i]) * (1 - fx) + Double(src[i + 1]) * fx
            let bottom = Double(src[i + width]) * (1 - fx) + Double(src[i + width + 1]) * fx
            out[y * nw + x] = UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
          }
        }
      }
    }
    return (image, toSource)
  }
}
