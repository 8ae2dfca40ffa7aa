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
    let rowLength = newWidth * c
    // Horizontal pass into floats, then a vertical pass that accumulates whole rows (which the
    // compiler vectorises) into bytes.
    var intermediate = [Float](repeating: 0, count: rowLength * height)
    pixels.withUnsafeBufferPointer { src in
      intermediate.withUnsafeMutableBufferPointer { mid in
        horizontal.weights.withUnsafeBufferPointer { weights in
          for y in 0..<height {
            let srcRow = src.baseAddress! + y * width * c
            let midRow = mid.baseAddress! + y * rowLength
            for x in 0..<newWidth {
              let start = horizontal.starts[x]
              let first = horizontal.weightOffsets[x]
              let count = horizontal.weightOffsets[x + 1] - first
              for k in 0..<c {
                var sum: Float = 0
                var p = srcRow + start * c + k
                for w in 0..<count {
                  sum += weights[first + w] * Float(p.pointee)
                  p += c
                }
                midRow[x * c + k] = sum
              }
            }
          }
        }
      }
    }
    return Bitmap(width: newWidth, height: newHeight, format: format) { out in
      intermediate.withUnsafeBufferPointer { mid in
        var accumulator = [Float](repeating: 0, count: rowLength)
        accumulator.withUnsafeMutableBufferPointer { acc in
          for y in 0..<newHeight {
            acc.update(repeating: 0)
            var row = vertical.starts[y]
            for w in vertical.weightOffsets[y]..<vertical.weightOffsets[y + 1] {
              let weight = vertical.weights[w]
              let base = mid.baseAddress! + row * rowLength
              for i in 0..<rowLength { acc[i] += weight * base[i] }
              row += 1
            }
            let outRow = out.baseAddress! + y * rowLength
            for i in 0..<rowLength {
              outRow[i] = UInt8(Swift.max(0, Swift.min(255, acc[i] + 0.5)))
            }
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
