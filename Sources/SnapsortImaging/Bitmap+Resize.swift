import SnapsortNative

extension Bitmap {
  /// A copy whose longest side is at most `maxSide`, or self when it already fits.
  public func fitting(maxSide: Int) -> Bitmap {
    fitting(maxSide: maxSide, recycling: [])
  }

  /// `fitting(maxSide:)` written into `storage` when a copy is made (see
  /// `init(width:height:format:recycling:initializingWith:)`).
  public func fitting(maxSide: Int, recycling storage: consuming [UInt8]) -> Bitmap {
    let longest = Swift.max(width, height)
    guard longest > maxSide, maxSide > 0 else { return self }
    let scale = Double(maxSide) / Double(longest)
    return resized(
      width: Swift.max(1, Int((Double(width) * scale).rounded())),
      height: Swift.max(1, Int((Double(height) * scale).rounded())), recycling: storage)
  }

  /// A copy scaled by `scale` (bilinear up, area-averaged down), each side at least `minimumSide`
  /// pixels.
  public func scaled(by scale: Double, minimumSide: Int = 1) -> Bitmap {
    let size = scaledSize(by: scale, minimumSide: minimumSide)
    return resized(width: size.width, height: size.height)
  }

  /// The size `scaled(by:minimumSide:)` gives, without resampling.
  public func scaledSize(by scale: Double, minimumSide: Int = 1) -> (width: Int, height: Int) {
    (
      Swift.max(minimumSide, Int((Double(width) * scale).rounded())),
      Swift.max(minimumSide, Int((Double(height) * scale).rounded()))
    )
  }

  /// Resamples to the given size with a separable triangle filter whose support widens when
  /// shrinking, so reductions average every source pixel (no aliasing) and enlargements are
  /// bilinear.
  public func resized(width newWidth: Int, height newHeight: Int) -> Bitmap {
    resized(width: newWidth, height: newHeight, recycling: [])
  }

  /// `resized(width:height:)` written into `storage` (see
  /// `init(width:height:format:recycling:initializingWith:)`).
  public func resized(width newWidth: Int, height newHeight: Int, recycling storage: consuming [UInt8])
    -> Bitmap
  {
    if newWidth == width && newHeight == height { return self }
    return resized(x: 0, y: 0, width: width, height: height, to: newWidth, newHeight, recycling: storage)
  }

  /// The rectangle at (x, y) of the given size, which must lie inside the image, resampled to
  /// `newWidth` × `newHeight` as `resized(width:height:)` would resample its `cropped` copy, without
  /// making that copy.
  package func resized(
    x: Int, y: Int, width regionWidth: Int, height regionHeight: Int, to newWidth: Int, _ newHeight: Int,
    recycling storage: consuming [UInt8] = []
  ) -> Bitmap {
    precondition(x >= 0 && y >= 0 && x + regionWidth <= width && y + regionHeight <= height)
    let horizontal = ResampleKernel(source: regionWidth, destination: newWidth)
    let vertical = ResampleKernel(source: regionHeight, destination: newHeight)
    let c = channels
    let sourceRow = regionWidth * c
    let sourceStride = width * c
    // Vertical pass first: whole rows are weighted and summed, a loop the compiler vectorises,
    // and the slower horizontal pass then runs only on the output rows. One output row at a
    // time through a single row buffer that stays in cache: a whole intermediate image (29 MB
    // of floats for a 12 MP photo) cost more in page faults and zeroing than the arithmetic.
    // One float of padding: a pixel's channels are read four at a time.
    var row = [Float](repeating: 0, count: sourceRow + 1)
    return Bitmap(width: newWidth, height: newHeight, format: format, recycling: storage) { out in
      pixels.withUnsafeBufferPointer { src in
        let origin = src.baseAddress! + y * sourceStride + x * c
        row.withUnsafeMutableBufferPointer { mid in
          horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
              horizontal.weightOffsets.withUnsafeBufferPointer { offsets in
                for outY in 0..<newHeight {
                  let rowIn = mid.baseAddress!
                  rowIn.update(repeating: 0, count: sourceRow)
                  var sourceY = vertical.starts[outY]
                  for w in vertical.weightOffsets[outY]..<vertical.weightOffsets[outY + 1] {
                    Self.accumulate(
                      rowIn, origin + sourceY * sourceStride, weight: vertical.weights[w], count: sourceRow)
                    sourceY += 1
                  }
                  Self.resampleRow(
                    rowIn, into: out.baseAddress! + outY * newWidth * c, width: newWidth, channels: c,
                    weights: weights, starts: starts, offsets: offsets)
                }
              }
            }
          }
        }
      }
    }
  }

  /// The horizontal pass over one row of vertically summed floats: each output pixel the
  /// weighted sum of its taps, rounded and clamped to a byte.
  @inline(__always)
  private static func resampleRow(
    _ rowIn: UnsafeMutablePointer<Float>, into rowOut: UnsafeMutablePointer<UInt8>, width: Int,
    channels c: Int,
    weights: UnsafeBufferPointer<Float>, starts: UnsafeBufferPointer<Int>, offsets: UnsafeBufferPointer<Int>
  ) {
    for x in 0..<width {
      let first = offsets[x]
      let count = offsets[x + 1] - first
      var p = rowIn + starts[x] * c
      if c == 3 {
        // R, G and B in the lanes of one vector (the fourth lane reads the next pixel, or the
        // row's padding, and is dropped): the same sums per channel.
        var sum = SIMD4<Float>()
        for w in 0..<count {
          sum +=
            SIMD4(repeating: weights[first + w])
            * UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
          p += 3
        }
        // Lane by lane: SIMD clamping and conversion are generic code, far slower.
        rowOut[3 * x] = clampToByte(sum[0])
        rowOut[3 * x + 1] = clampToByte(sum[1])
        rowOut[3 * x + 2] = clampToByte(sum[2])
      } else {
        var sum: Float = 0
        for w in 0..<count {
          sum += weights[first + w] * p[0]
          p += 1
        }
        rowOut[x] = clampToByte(sum)
      }
    }
  }

  /// `target[i] += weight * source[i]`, eight lanes at a time.
  @inline(__always)
  static func accumulate(
    _ target: UnsafeMutablePointer<Float>, _ source: UnsafePointer<UInt8>, weight: Float, count: Int
  ) {
    var i = 0
    let lanes = SIMD8<Float>(repeating: weight)
    while i + 8 <= count {
      let bytes = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt8>.self)
      let sum =
        UnsafeRawPointer(target + i).loadUnaligned(as: SIMD8<Float>.self)
        + lanes * SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: bytes))
      UnsafeMutableRawPointer(target + i).storeBytes(of: sum, as: SIMD8<Float>.self)
      i += 8
    }
    while i < count {
      target[i] += weight * Float(source[i])
      i += 1
    }
  }

  @inline(__always)
  static func clampToByte(_ value: Float) -> UInt8 {
    UInt8(Swift.max(0, Swift.min(255, value + 0.5)))
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

extension Bitmap {
  /// The mean of each `factor` × `factor` block (a partial block at the right or bottom edge is
  /// dropped): a fast reduction by a whole factor, for analysis copies where speed matters more
  /// than the exact size.
  public func boxReduced(by factor: Int) -> Bitmap {
    boxReduced(by: factor, recycling: [])
  }

  /// `boxReduced(by:)` written into `storage` when a copy is made (see
  /// `init(width:height:format:recycling:initializingWith:)`).
  public func boxReduced(by factor: Int, recycling storage: consuming [UInt8]) -> Bitmap {
    guard factor > 1, width >= factor, height >= factor else { return self }
    let newWidth = width / factor, newHeight = height / factor, c = channels
    let area = factor * factor
    // The rounded mean of every possible block sum, looked up: a division per output byte was
    // most of this function's time.
    let means = (0...(255 * area)).map { UInt8(($0 + area / 2) / area) }
    // The block's rows are summed first, byte by byte along whole rows (a loop the compiler
    // vectorises), and only then the columns of each block.
    let used = newWidth * factor * c
    var rowSums = [UInt32](repeating: 0, count: used)
    return Bitmap(width: newWidth, height: newHeight, format: format, recycling: storage) { out in
      pixels.withUnsafeBufferPointer { src in
        means.withUnsafeBufferPointer { mean in
          rowSums.withUnsafeMutableBufferPointer { sums in
            let acc = sums.baseAddress!
            for y in 0..<newHeight {
              let first = src.baseAddress! + y * factor * width * c
              for i in 0..<used { acc[i] = UInt32(first[i]) }
              for row in 1..<factor {
                let next = first + row * width * c
                for i in 0..<used { acc[i] &+= UInt32(next[i]) }
              }
              let target = out.baseAddress! + y * newWidth * c
              // The channel loop and the halving case written out: the general loops cost most
              // of this function's time.
              if c == 3 && factor == 2 {
                Self.sumColumns(acc, into: target, count: newWidth, factor: 2, mean: mean)
              } else if c == 3 {
                Self.sumColumns(acc, into: target, count: newWidth, factor: factor, mean: mean)
              } else {
                for x in 0..<newWidth {
                  for k in 0..<c {
                    var total = 0
                    var s = acc + x * factor * c + k
                    for _ in 0..<factor {
                      total &+= Int(s.pointee)
                      s += c
                    }
                    target[x * c + k] = mean[total]
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// The block means of one row of RGB blocks, from their columns' sums.
  @inline(__always)
  private static func sumColumns(
    _ sums: UnsafeMutablePointer<UInt32>, into target: UnsafeMutablePointer<UInt8>, count: Int, factor: Int,
    mean: UnsafeBufferPointer<UInt8>
  ) {
    for x in 0..<count {
      var s = sums + x * factor * 3
      var r = 0, g = 0, b = 0
      for _ in 0..<factor {
        r &+= Int(s[0])
        g &+= Int(s[1])
        b &+= Int(s[2])
        s += 3
      }
      target[3 * x] = mean[r]
      target[3 * x + 1] = mean[g]
      target[3 * x + 2] = mean[b]
    }
  }
}
