extension Bitmap {
  /// Samples the quadrilateral `quad` (corners of the output's top-left, top-right,
  /// bottom-right, bottom-left, in this image's pixels) into an upright `width` × `height` image.
  ///
  /// Each output pixel averages a grid of source samples as large as the local reduction (up to
  /// 4 × 4), so shrinking does not alias; enlarging is bilinear, so it does not block.
  public func warped(quad: [Point], width: Int, height: Int) -> Bitmap? {
    let corners = [
      Point(0, 0), Point(Double(width), 0), Point(Double(width), Double(height)), Point(0, Double(height)),
    ]
    guard let map = Homography(from: corners, to: quad) else { return nil }
    let reduction = max(
      Quad.distance(quad[0], quad[1]) / Double(width), Quad.distance(quad[3], quad[2]) / Double(width),
      Quad.distance(quad[0], quad[3]) / Double(height), Quad.distance(quad[1], quad[2]) / Double(height))
    let grid = max(1, min(4, Int(reduction.rounded(.up))))
    let c = channels
    let m = map.m
    return Bitmap(width: width, height: height, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        var sums = [Double](repeating: 0, count: c)
        for y in 0..<height {
          for x in 0..<width {
            for k in 0..<c { sums[k] = 0 }
            for gy in 0..<grid {
              for gx in 0..<grid {
                let u = Double(x) + (Double(gx) + 0.5) / Double(grid)
                let v = Double(y) + (Double(gy) + 0.5) / Double(grid)
                let w = m[6] * u + m[7] * v + m[8]
                // Pixel centres sit at +0.5: convert the continuous position to sample space.
                let sx = (m[0] * u + m[1] * v + m[2]) / w - 0.5
                let sy = (m[3] * u + m[4] * v + m[5]) / w - 0.5
                let x0 = Swift.max(0, Swift.min(self.width - 1, Int(sx.rounded(.down))))
                let y0 = Swift.max(0, Swift.min(self.height - 1, Int(sy.rounded(.down))))
                let x1 = Swift.min(self.width - 1, x0 + 1), y1 = Swift.min(self.height - 1, y0 + 1)
                let fx = Swift.max(0, Swift.min(1, sx - Double(x0))),
                  fy = Swift.max(0, Swift.min(1, sy - Double(y0)))
                for k in 0..<c {
                  let a = Double(src[(y0 * self.width + x0) * c + k]),
                    b = Double(src[(y0 * self.width + x1) * c + k])
                  let d = Double(src[(y1 * self.width + x0) * c + k]),
                    e = Double(src[(y1 * self.width + x1) * c + k])
                  sums[k] += (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy
                }
              }
            }
            let base = (y * width + x) * c
            let n = Double(grid * grid)
            for k in 0..<c { out[base + k] = UInt8(Swift.max(0, Swift.min(255, (sums[k] / n).rounded()))) }
          }
        }
      }
    }
  }

  /// The image turned by 180°.
  public func rotated180() -> Bitmap {
    let c = channels
    return Bitmap(width: width, height: height, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        let count = width * height
        for i in 0..<count {
          let j = count - 1 - i
          for k in 0..<c { out[j * c + k] = src[i * c + k] }
        }
      }
    }
  }
}
