import CJPEG

/// libjpeg-turbo through the CJPEG shim, which turns libjpeg's longjmp into return codes.
package enum JPEGDecoder: ImageDecoder {
  package static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader {
    let info = try probe(data, reduction: 1)
    return ImageHeader(
      format: .jpeg, width: Int(info.source_width), height: Int(info.source_height),
      orientation: EXIFReader.orientation(inJPEG: data), captureDay: EXIFReader.captureDay(inJPEG: data))
  }

  package static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap {
    try decodeWarning(data, reduction: reduction).0
  }

  package static func decodeWarning(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> (
    Bitmap, [String]
  ) {
    let info = try probe(data, reduction: reduction)
    let width = Int(info.output_width), height = Int(info.output_height)
    let format: Bitmap.Format = info.output_channels == 1 ? .gray : .rgb
    var message = [CChar](repeating: 0, count: 256)
    var warnings: Int32 = 0
    var status: Int32 = 0
    let bitmap = Bitmap(width: width, height: height, format: format) { out in
      status = snapsort_jpeg_decode(
        data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, Int32(reduction),
        out.baseAddress, out.count, &warnings, &message, message.count)
      if status != SNAPSORT_JPEG_OK { out.update(repeating: 0) }
    }
    guard status == SNAPSORT_JPEG_OK else {
      throw ImageDecodeError("corrupt JPEG: \(String(cBuffer: message))")
    }
    // libjpeg pads a truncated stream with grey and only warns; that is not a usable photo.
    if warnings > 0 && isTruncated(data) {
      throw ImageDecodeError("truncated JPEG: the file ends before the image data does")
    }
    // Damage libjpeg decoded through (a scan that breaks off into garbage and resumes at a marker)
    // leaves wrong pixels behind: the photo is usable, but the record says it is damaged.
    guard warnings > 0 else { return (bitmap, []) }
    let times = warnings == 1 ? "once" : "\(warnings) times"
    return (bitmap, ["damaged JPEG data: libjpeg warned \(times), first: \(String(cBuffer: message))"])
  }

  /// Encodes pixels as a JPEG file (for card crops).
  static func encode(_ bitmap: Bitmap, quality: Int = 90, progressive: Bool = false) throws -> [UInt8] {
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
      snapsort_jpeg_encode(
        pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.channels),
        Int32(quality), progressive ? 1 : 0, &output, &size, &message, message.count)
    }
    // libjpeg's jpeg_mem_dest allocates with malloc; the caller frees.
    defer { free(output) }
    guard status == SNAPSORT_JPEG_OK, let output else {
      throw ImageDecodeError("JPEG encoding failed: \(String(cBuffer: message))")
    }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }

  private static func probe(_ data: UnsafeRawBufferPointer, reduction: Int) throws
    -> snapsort_jpeg_info
  {
    var info = snapsort_jpeg_info()
    var message = [CChar](repeating: 0, count: 256)
    let status = snapsort_jpeg_probe(
      data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, Int32(reduction), &info,
      &message, message.count)
    guard status == SNAPSORT_JPEG_OK else {
      throw ImageDecodeError("not a readable JPEG: \(String(cBuffer: message))")
    }
    return info
  }

  /// A complete JPEG ends with the EOI marker (FF D9), allowing for trailing padding.
  private static func isTruncated(_ data: UnsafeRawBufferPointer) -> Bool {
    var end = data.count
    while end > 2 && (data[end - 1] == 0 || data[end - 1] == 0x0A || data[end - 1] == 0x0D) { end -= 1 }
    return !(end >= 2 && data[end - 2] == 0xFF && data[end - 1] == 0xD9)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
