extension Bitmap {
  /// A copy whose longest side is at most `maxSide`, or self when it already fits.
  public func fitting(maxSide: Int) -> Bitmap {
    let longest = Swift.max(width, height)
    guard longest > maxSide, maxSide > 0 else { return self }
    let scale = Double(maxSide) / Double(longest)
    return resized(
      width: Swift.max(1, Int((Double(width) * scale).rounded())),
      height: Swift.max(1, Int((Double(height) * scale).rounded())))
  }

  /// Resamples to the given size with a separable triangle filter whose support widens when
  /// shrinking, so reductions average every source pixel (no aliasing) and enlargements are
  /// bilinear.
  public func resized(width newWidth: Int, height newHeight: Int) -> Bitmap {
    if newWidth == width && newHeight == height { return self }
    let horizontal = ResampleKernel(source: width, destination: newWidth)
    let vertical = ResampleKernel(source: height, destination: newHeight)
    let c = channels
    // Horizontal pass into floats, then vertical pass into bytes.
    var intermediate = [Float](repeating: 0, count: newWidth * height * c)
    pixels.withUnsafeBufferPointer { src in
      intermediate.withUnsafeMutableBufferPointer { mid in
        for y in 0..<height {
          let srcRow = y * width * c
          let midRow = y * newWidth * c
          for x in 0..<newWidth {
            let start = horizontal.starts[x]
            let weights = horizontal.weightOffsets[x]..<horizontal.weightOffsets[x + 1]
            for k in 0..<c {
              var sum: Float = 0
              var i = start
              for w in weights {
                sum += horizontal.weights[w] * Float(src[srcRow + i * c + k])
                i += 1
              }
              mid[midRow + x * c + k] = sum
            }
          }
        }
      }
    }
    return Bitmap(width: newWidth, height: newHeight, format: format) { out in
      intermediate.withUnsafeBufferPointer { mid in
        let rowLength = newWidth * c
        var accumulator = [Float](repeating: 0, count: rowLength)
        for y in 0..<newHeight {
          for i in 0..<rowLength { accumulator[i] = 0 }
          var row = vertical.starts[y]
          for w in vertical.weightOffsets[y]..<vertical.weightOffsets[y + 1] {
            let weight = vertical.weights[w]
            let base = row * rowLength
            for i in 0..<rowLength { accumulator[i] += weight * mid[base + i] }
            row += 1
          }
          let outRow = y * rowLength
          for i in 0..<rowLength {
            out[outRow + i] = UInt8(Swift.max(0, Swift.min(255, accumulator[i].rounded())))
          }
        }
      }
    }
  }
}

/// Precomputed filter taps for one axis of a resize.
struct ResampleKernel {
  var starts: [Int] = []
  var weightOffsets: [Int] = [0]
  var weights: [Float] = []

  init(source: Int, destination: Int) {
    let scale = Double(source) / Double(destination)
    let support = Swift.max(1.0, scale)
    for d in 0..<destination {
      let center = (Double(d) + 0.5) * scale - 0.5
      let first = Swift.max(0, Int((center - support).rounded(.up)))
      let last = Swift.min(source - 1, Int((center + support).rounded(.down)))
      var taps: [Double] = []
      for s in first...Swift.max(first, last) {
        taps.append(Swift.max(0, 1 - abs(Double(s) - center) / support))
      }
      var total = taps.reduce(0, +)
      if total <= 0 {
        taps = [1]
        total = 1
      }
      starts.append(first)
      weights.append(contentsOf: taps.map { Float($0 / total) })
      weightOffsets.append(weights.count)
    }
  }
}
