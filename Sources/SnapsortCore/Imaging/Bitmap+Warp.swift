extension Bitmap {
  /// Samples the quadrilateral `quad` (corners of the output's top-left, top-right,
  /// bottom-right, bottom-left, in this image's pixels) into an upright `width` × `height` image.
  ///
  /// When the card is larger in the source than the output, the region under the quad is first
  /// reduced with the area-averaging resize (so shrinking does not alias) to about the output's
  /// scale where the card is smallest; each output pixel is then one bilinear sample, or the mean
  /// of 2 × 2 where perspective leaves the near side still much larger. Enlarging is bilinear,
  /// so it does not block.
  public func warped(quad: [Point], width: Int, height: Int) -> Bitmap? {
    let corners = [
      Point(0, 0), Point(Double(width), 0), Point(Double(width), Double(height)), Point(0, Double(height)),
    ]
    guard quad.count == 4, Homography(from: corners, to: quad) != nil else { return nil }
    // Source pixels per output pixel along each side; the smallest sets the pre-reduction.
    let scales = [
      Quad.distance(quad[0], quad[1]) / Double(width), Quad.distance(quad[3], quad[2]) / Double(width),
      Quad.distance(quad[0], quad[3]) / Double(height), Quad.distance(quad[1], quad[2]) / Double(height),
    ]
    let smallest = scales.min()!, largest = scales.max()!
    var source = self
    var local = quad
    if smallest > 1.5 {
      let xs = quad.map(\.x), ys = quad.map(\.y)
      let x0 = Swift.max(0, Int(xs.min()!.rounded(.down)) - 2),
        y0 = Swift.max(0, Int(ys.min()!.rounded(.down)) - 2)
      let x1 = Swift.min(self.width, Int(xs.max()!.rounded(.up)) + 2)
      let y1 = Swift.min(self.height, Int(ys.max()!.rounded(.up)) + 2)
      if x1 - x0 >= 2, y1 - y0 >= 2 {
        let region = cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let factor = smallest
        let reduced = region.resized(
          width: Swift.max(2, Int((Double(region.width) / factor).rounded())),
          height: Swift.max(2, Int((Double(region.height) / factor).rounded())))
        let sx = Double(reduced.width) / Double(region.width),
          sy = Double(reduced.height) / Double(region.height)
        source = reduced
        local = quad.map { Point(($0.x - Double(x0)) * sx, ($0.y - Double(y0)) * sy) }
      }
    }
    guard let map = Homography(from: corners, to: local) else { return nil }
    let remaining = smallest > 1.5 ? largest / smallest : largest
    return source.sampled(map, width: width, height: height, grid: remaining > 1.6 ? 2 : 1)
  }

  /// Bilinear sampling of this image at `map` applied to each output pixel (its `grid` × `grid`
  /// sub-samples averaged).
  private func sampled(_ map: Homography, width: Int, height: Int, grid: Int) -> Bitmap {
    let c = channels
    let m = map.m
    let sw = self.width, sh = self.height
    let maxX = Float(sw - 1), maxY = Float(sh - 1)
    let weight = 1 / Float(grid * grid)
    return Bitmap(width: width, height: height, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        var acc = SIMD4<Float>()
        for y in 0..<height {
          for x in 0..<width {
            acc = SIMD4<Float>()
            for gy in 0..<grid {
              let v = Double(y) + (Double(gy) + 0.5) / Double(grid)
              for gx in 0..<grid {
                let u = Double(x) + (Double(gx) + 0.5) / Double(grid)
                let w = m[6] * u + m[7] * v + m[8]
                // Pixel centres sit at +0.5: convert the continuous position to sample space.
                let fxs = Float((m[0] * u + m[1] * v + m[2]) / w - 0.5)
                let fys = Float((m[3] * u + m[4] * v + m[5]) / w - 0.5)
                let sx = Swift.min(maxX, Swift.max(0, fxs)), sy = Swift.min(maxY, Swift.max(0, fys))
                let x0 = Int(sx), y0 = Int(sy)
                let x1 = Swift.min(sw - 1, x0 + 1), y1 = Swift.min(sh - 1, y0 + 1)
                let fx = sx - Float(x0), fy = sy - Float(y0)
                let i00 = (y0 * sw + x0) * c, i01 = (y0 * sw + x1) * c
                let i10 = (y1 * sw + x0) * c, i11 = (y1 * sw + x1) * c
                let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
                if c == 3 {
                  let p00 = SIMD4<Float>(Float(src[i00]), Float(src[i00 + 1]), Float(src[i00 + 2]), 0)
                  let p01 = SIMD4<Float>(Float(src[i01]), Float(src[i01 + 1]), Float(src[i01 + 2]), 0)
                  let p10 = SIMD4<Float>(Float(src[i10]), Float(src[i10 + 1]), Float(src[i10 + 2]), 0)
                  let p11 = SIMD4<Float>(Float(src[i11]), Float(src[i11 + 1]), Float(src[i11 + 2]), 0)
                  acc += p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11
                } else {
                  acc[0] +=
                    Float(src[i00]) * w00 + Float(src[i01]) * w01 + Float(src[i10]) * w10 + Float(src[i11])
                    * w11
                }
              }
            }
            let base = (y * width + x) * c
            for k in 0..<c { out[base + k] = Self.clampToByte(acc[k] * weight) }
          }
        }
      }
    }
  }

  /// The rectangle at (x, y) of the given size, which must lie inside the image.
  func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
    let c = channels
    return Bitmap(width: width, height: height, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        for row in 0..<height {
          let from = src.baseAddress! + ((y + row) * self.width + x) * c
          (out.baseAddress! + row * width * c).initialize(from: from, count: width * c)
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
