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

  /// Scaled by `factor` (bilinear up, area-averaged down); at least 1 × 1.
  public func scaled(by factor: Double) -> Bitmap {
    resized(
      width: Swift.max(1, Int((Double(width) * factor).rounded())),
      height: Swift.max(1, Int((Double(height) * factor).rounded())))
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
