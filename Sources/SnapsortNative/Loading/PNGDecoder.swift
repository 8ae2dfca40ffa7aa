import CPNG

/// libpng's simplified `png_image` API: error codes instead of longjmp, and every bit depth,
/// palette and alpha variant converted to 8-bit grey or RGB for us.
package enum PNGDecoder: ImageDecoder {
  /// PNG_FORMAT_FLAG_COLOR; the PNG_FORMAT_* macros built from it do not import into Swift.
  private static let colorFlag: UInt32 = 0x02

  package static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader {
    let image = try PNGImage(data)
    return ImageHeader(
      format: .png, width: Int(image.pointer.pointee.width), height: Int(image.pointer.pointee.height),
      orientation: 1)
  }

  package static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap {
    try decodeWarning(data, reduction: reduction).0
  }

  package static func decodeWarning(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> (
    Bitmap, [String]
  ) {
    let image = try PNGImage(data)
    let isColor = image.pointer.pointee.format & colorFlag != 0
    image.pointer.pointee.format = isColor ? colorFlag : 0  // PNG_FORMAT_RGB or PNG_FORMAT_GRAY
    let format: Bitmap.Format = isColor ? .rgb : .gray
    let width = Int(image.pointer.pointee.width), height = Int(image.pointer.pointee.height)
    // Transparent areas are composited on white, as a viewer shows a screenshot.
    var background = png_color(red: 255, green: 255, blue: 255)
    var succeeded = false
    let bitmap = Bitmap(width: width, height: height, format: format) { out in
      succeeded =
        png_image_finish_read(
          image.pointer, &background, out.baseAddress, Int32(width * format.rawValue), nil)
        != 0
      if !succeeded { out.update(repeating: 0) }
    }
    guard succeeded else { throw ImageDecodeError("corrupt PNG: \(image.message)") }
    // libpng decodes through some damage (an ancillary chunk's CRC error drops that chunk) and
    // says so with PNG_IMAGE_WARNING and the message; a damaged IDAT fails above.
    guard image.pointer.pointee.warning_or_error & warningFlag != 0 else { return (bitmap, []) }
    return (bitmap, ["damaged PNG data: libpng warned: \(image.message)"])
  }

  /// PNG_IMAGE_WARNING in `png_image.warning_or_error`.
  private static let warningFlag: UInt32 = 1
}

/// Owns one `png_image` at a fixed address: libpng keeps a pointer to it (its error handler
/// finds the image through it), so the struct must never be copied while libpng holds state.
final class PNGImage {
  let pointer: UnsafeMutablePointer<png_image>

  init(_ data: UnsafeRawBufferPointer) throws {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: png_image())
    pointer.pointee.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(pointer, data.baseAddress, data.count) != 0 else {
      throw ImageDecodeError("not a readable PNG: \(message)")
    }
  }

  deinit {
    // "png_image_free ... frees any data allocated by a read", and is a no-op after a completed
    // png_image_finish_read, per png.h.
    png_image_free(pointer)
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  var message: String {
    withUnsafeBytes(of: &pointer.pointee.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
