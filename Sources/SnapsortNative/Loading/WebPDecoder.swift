import CWebP

/// libwebp's one-call decoder into a buffer we own.
package enum WebPDecoder: ImageDecoder {
  package static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader {
    let (width, height) = try size(of: data)
    return ImageHeader(format: .webp, width: width, height: height, orientation: 1)
  }

  package static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap {
    let (width, height) = try size(of: data)
    var succeeded = false
    let bitmap = Bitmap(width: width, height: height, format: .rgb) { out in
      let result = WebPDecodeRGBInto(
        data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, out.baseAddress,
        out.count, Int32(width * 3))
      succeeded = result != nil
      if !succeeded { out.update(repeating: 0) }
    }
    guard succeeded else {
      throw ImageDecodeError("corrupt or truncated WebP: the image data could not be decoded")
    }
    return bitmap
  }

  private static func size(of data: UnsafeRawBufferPointer) throws -> (Int, Int) {
    var width: Int32 = 0, height: Int32 = 0
    guard
      WebPGetInfo(data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, &width, &height) != 0,
      width > 0, height > 0
    else {
      throw ImageDecodeError("not a readable WebP: the header is missing or damaged")
    }
    return (Int(width), Int(height))
  }
}
