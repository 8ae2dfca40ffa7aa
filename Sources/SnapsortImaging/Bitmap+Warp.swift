import SnapsortNative

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
    var spare: [UInt8] = []
    return warped(quad: quad, width: width, height: height, reductionBuffer: &spare)
  }

  /// `warped(quad:width:height:)` with the pre-reduced region written into `reductionBuffer`,
  /// which is left holding it for the next call: a worker warping photo after photo then reuses
  /// one buffer instead of faulting in a fresh mapping of a few megabytes each time.
  package func warped(quad: [Point], width: Int, height: Int, reductionBuffer: inout [UInt8]) -> Bitmap? {
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
        let regionWidth = x1 - x0, regionHeight = y1 - y0
        let factor = smallest
        let reduced = resized(
          x: x0, y: y0, width: regionWidth, height: regionHeight,
          to: Swift.max(2, Int((Double(regionWidth) / factor).rounded())),
          Swift.max(2, Int((Double(regionHeight) / factor).rounded())), recycling: Self.take(&reductionBuffer)
        )
        let sx = Double(reduced.width) / Double(regionWidth),
          sy = Double(reduced.height) / Double(regionHeight)
        source = reduced
        local = quad.map { Point(($0.x - Double(x0)) * sx, ($0.y - Double(y0)) * sy) }
      }
    }
    guard let map = Homography(from: corners, to: local) else { return nil }
    let remaining = smallest > 1.5 ? largest / smallest : largest
    let crop = source.sampled(map, width: width, height: height, grid: remaining > 1.6 ? 2 : 1)
    // Kept for the next call, unless it is the image itself, which is not ours to keep.
    if (source.width, source.height) != (self.width, self.height) { reductionBuffer = source.pixels }
    return crop
  }

  /// Bilinear sampling of this image at `map` applied to each output pixel (its `grid` × `grid`
  /// sub-samples averaged).
  private func sampled(_ map: Homography, width: Int, height: Int, grid: Int) -> Bitmap {
    let c = channels
    let sw = self.width, sh = self.height
    let maxX = Float(sw - 1), maxY = Float(sh - 1)
    let weight = 1 / Float(grid * grid)
    let offsets = (0..<grid).map { (Double($0) + 0.5) / Double(grid) }
    // One output row's sums, sub-row by sub-row: each pixel still adds its sub-samples in the
    // same order, while the inner loop runs along a row where only `u` changes.
    var sums = [SIMD4<Float>](repeating: SIMD4(), count: width)
    return Bitmap(width: width, height: height, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        sums.withUnsafeMutableBufferPointer { sums in
          let p = src.baseAddress!
          for y in 0..<height {
            sums.update(repeating: SIMD4())
            for gy in 0..<grid {
              let row = HomographyRow(map, v: Double(y) + offsets[gy])
              for x in 0..<width {
                var acc = sums[x]
                for gx in 0..<grid {
                  let source = row.apply(Double(x) + offsets[gx])
                  // Pixel centres sit at +0.5: convert the continuous position to sample space.
                  let fxs = Float(source.x - 0.5), fys = Float(source.y - 0.5)
                  let sx = Swift.min(maxX, Swift.max(0, fxs)), sy = Swift.min(maxY, Swift.max(0, fys))
                  let x0 = Int(sx), y0 = Int(sy)
                  let fx = sx - Float(x0), fy = sy - Float(y0)
                  // The next column and row, or the same at the last one.
                  let right = x0 < sw - 1 ? c : 0, down = y0 < sh - 1 ? sw * c : 0
                  let i00 = (y0 * sw + x0) * c
                  let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
                  if c == 3 {
                    acc +=
                      Self.rgb(p + i00) * w00 + Self.rgb(p + i00 + right) * w01
                      + Self.rgb(p + i00 + down) * w10 + Self.rgb(p + i00 + down + right) * w11
                  } else {
                    acc[0] +=
                      Float(p[i00]) * w00 + Float(p[i00 + right]) * w01 + Float(p[i00 + down]) * w10
                      + Float(p[i00 + down + right]) * w11
                  }
                }
                sums[x] = acc
              }
            }
            let target = out.baseAddress! + y * width * c
            if c == 3 {
              for x in 0..<width {
                let mean = sums[x] * weight
                target[3 * x] = Self.clampToByte(mean[0])
                target[3 * x + 1] = Self.clampToByte(mean[1])
                target[3 * x + 2] = Self.clampToByte(mean[2])
              }
            } else {
              for x in 0..<width { target[x] = Self.clampToByte(sums[x][0] * weight) }
            }
          }
        }
      }
    }
  }

  @inline(__always)
  private static func rgb(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float> {
    SIMD4<Float>(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), 0)
  }

  /// The rectangle at (x, y) of the given size, which must lie inside the image.
  package func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
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
