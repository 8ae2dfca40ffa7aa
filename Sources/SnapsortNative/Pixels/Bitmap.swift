/// An 8-bit interleaved raster: one channel (grey) or three (RGB), rows packed without padding.
///
/// Every stage reads and writes this one type, so a decoder's output flows into detection,
/// warping and the native scanners without conversion layers.
public struct Bitmap: Sendable, Equatable {
  public enum Format: Int, Sendable {
    case gray = 1
    case rgb = 3
  }

  public let width: Int
  public let height: Int
  public let format: Format
  public var pixels: [UInt8]

  public var channels: Int { format.rawValue }
  public var rowBytes: Int { width * format.rawValue }
  public var pixelCount: Int { width * height }

  public init(width: Int, height: Int, format: Format, pixels: [UInt8]) {
    precondition(pixels.count == width * height * format.rawValue, "pixel count mismatch")
    self.width = width
    self.height = height
    self.format = format
    self.pixels = pixels
  }

  /// A bitmap filled with one value per channel.
  public init(width: Int, height: Int, format: Format, fill: UInt8 = 0) {
    self.init(
      width: width, height: height, format: format,
      pixels: [UInt8](repeating: fill, count: width * height * format.rawValue))
  }

  /// Builds a bitmap by letting `body` fill an uninitialised buffer of the right size.
  public init(
    width: Int, height: Int, format: Format,
    initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    let count = width * height * format.rawValue
    let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      try body(buffer)
      initialized = count
    }
    self.init(width: width, height: height, format: format, pixels: pixels)
  }

  /// Builds a bitmap in `storage` (reused when it is the only reference to its buffer and large
  /// enough; its contents are overwritten) by letting `body` fill it.
  ///
  /// For a worker that makes a bitmap of the same size for every photo: a fresh buffer of a
  /// megabyte is a mapping of its own whose pages fault in again each time.
  public init(
    width: Int, height: Int, format: Format, recycling storage: consuming [UInt8],
    initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    let count = width * height * format.rawValue
    var pixels = storage
    if pixels.count > count {
      pixels.removeLast(pixels.count - count)
    } else if pixels.count < count {
      pixels.append(contentsOf: repeatElement(0, count: count - pixels.count))
    }
    try pixels.withUnsafeMutableBufferPointer { try body($0) }
    self.init(width: width, height: height, format: format, pixels: pixels)
  }

  /// The buffer, leaving an empty one behind, so that the caller holds its only reference and
  /// can pass it as `recycling` storage without a copy.
  package static func take(_ buffer: inout [UInt8]) -> [UInt8] {
    var taken: [UInt8] = []
    swap(&taken, &buffer)
    return taken
  }

  /// Luma (BT.601 weights, integer arithmetic), or self when already grey.
  public func grayscale() -> Bitmap {
    grayscale(recycling: [])
  }

  /// `grayscale()` written into `storage` when a copy is made (see
  /// `init(width:height:format:recycling:initializingWith:)`).
  public func grayscale(recycling storage: consuming [UInt8]) -> Bitmap {
    if format == .gray { return self }
    return Bitmap(width: width, height: height, format: .gray, recycling: storage) { out in
      pixels.withUnsafeBufferPointer { rgb in
        for i in 0..<pixelCount {
          let r = UInt32(rgb[3 * i]), g = UInt32(rgb[3 * i + 1]), b = UInt32(rgb[3 * i + 2])
          out[i] = UInt8((r * 77 + g * 150 + b * 29 + 128) >> 8)
        }
      }
    }
  }

  /// Three channels, replicating grey when needed.
  public func rgb() -> Bitmap {
    if format == .rgb { return self }
    return Bitmap(width: width, height: height, format: .rgb) { out in
      pixels.withUnsafeBufferPointer { gray in
        for i in 0..<pixelCount {
          out[3 * i] = gray[i]
          out[3 * i + 1] = gray[i]
          out[3 * i + 2] = gray[i]
        }
      }
    }
  }

  /// Every byte replaced by 255 − byte (a dark-on-light code becomes light-on-dark).
  public func inverted() -> Bitmap {
    var copy = self
    copy.pixels.withUnsafeMutableBufferPointer { buffer in
      for i in buffer.indices { buffer[i] = 255 &- buffer[i] }
    }
    return copy
  }

  @inline(__always)
  public func gray(x: Int, y: Int) -> UInt8 {
    precondition(format == .gray)
    return pixels[y * width + x]
  }
}
