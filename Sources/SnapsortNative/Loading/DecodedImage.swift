/// What a decoder knows from the header, before any pixels are decoded.
public struct ImageHeader: Sendable, Equatable {
  public var format: ImageFormat
  /// Stored size, before EXIF orientation.
  public var width: Int
  public var height: Int
  /// EXIF orientation (1 when absent or already applied by the decoder, as libheif does).
  public var orientation: Int
  /// When the photo was taken (`YYYY-MM-DD`, EXIF's capture date), when the file says.
  public var captureDay: String? = nil
}

/// A decoder for one format: a header first (for the pixel limit), then pixels at a reduction.
package protocol ImageDecoder {
  static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader
  /// Decodes stored pixels (before orientation), reduced by `1/reduction` when the format can do
  /// that cheaply (JPEG's DCT scaling); other formats ignore `reduction`.
  static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap
  /// `decode` with what the decoder warned of on the way: damaged data it decoded through (a
  /// libjpeg "Corrupt JPEG data" warning, a PNG chunk with a bad CRC), in words for the record.
  static func decodeWarning(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> (Bitmap, [String])
}

extension ImageDecoder {
  /// Decoders that cannot tell damage they decoded through from none say nothing.
  package static func decodeWarning(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> (
    Bitmap, [String]
  ) {
    (try decode(data, reduction: reduction), [])
  }
}
