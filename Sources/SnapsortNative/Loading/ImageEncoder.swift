import CJPEG
import CPNG
import CWebP
import Foundation

/// Encoders for the files snapsort writes (crops, thumbnails) and for tests that build inputs in
/// code.
public enum ImageEncoder {
  public static func jpeg(_ bitmap: Bitmap, quality: Int = 90, progressive: Bool = false) throws -> Data {
    Data(try JPEGDecoder.encode(bitmap, quality: quality, progressive: progressive))
  }

  /// PNG through libpng's simplified writer. `sixteenBit` writes 16-bit samples (for tests of
  /// the 16-bit read path); `palette` writes a colour-mapped image when the bitmap has ≤ 256
  /// colours.
  public static func png(_ bitmap: Bitmap, sixteenBit: Bool = false) throws -> Data {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(bitmap.width)
    image.height = UInt32(bitmap.height)
    let colorFlag: UInt32 = bitmap.format == .rgb ? 0x02 : 0  // PNG_FORMAT_FLAG_COLOR
    let linearFlag: UInt32 = 0x04  // PNG_FORMAT_FLAG_LINEAR: 16-bit samples
    var size: Int = 0
    if sixteenBit {
      // Linear 16-bit input: expand each 8-bit sRGB-ish value to 16 bits as is.
      let wide = bitmap.pixels.map { UInt16($0) * 257 }
      image.format = colorFlag | linearFlag
      let stride = Int32(bitmap.rowBytes)
      guard
        png_image_write_to_memory(&image, nil, &size, 0, wide, stride, nil) != 0, size > 0
      else { throw ImageDecodeError("PNG encoding failed") }
      var out = Data(count: size)
      let ok = out.withUnsafeMutableBytes {
        png_image_write_to_memory(&image, $0.baseAddress, &size, 0, wide, stride, nil)
      }
      guard ok != 0 else { throw ImageDecodeError("PNG encoding failed") }
      return out.prefix(size)
    }
    image.format = colorFlag
    let stride = Int32(bitmap.rowBytes)
    guard png_image_write_to_memory(&image, nil, &size, 0, bitmap.pixels, stride, nil) != 0, size > 0
    else { throw ImageDecodeError("PNG encoding failed") }
    var out = Data(count: size)
    let ok = out.withUnsafeMutableBytes {
      png_image_write_to_memory(&image, $0.baseAddress, &size, 0, bitmap.pixels, stride, nil)
    }
    guard ok != 0 else { throw ImageDecodeError("PNG encoding failed") }
    return out.prefix(size)
  }

  /// Lossy WebP (RGB).
  public static func webp(_ bitmap: Bitmap, quality: Float = 85) throws -> Data {
    let rgb = bitmap.rgb()
    var output: UnsafeMutablePointer<UInt8>?
    let size = WebPEncodeRGB(
      rgb.pixels, Int32(rgb.width), Int32(rgb.height), Int32(rgb.rowBytes), quality, &output)
    // WebPEncodeRGB's buffer is released with WebPFree, per encode.h.
    defer { WebPFree(output) }
    guard size > 0, let output else { throw ImageDecodeError("WebP encoding failed") }
    return Data(bytes: output, count: size)
  }
}

extension ImageEncoder {
  /// A CMYK JPEG (as print workflows write them), for tests of the CMYK read path. libjpeg writes
  /// an Adobe marker, so `cmyk` holds Adobe's inverted samples (0 = full ink, 255 = none).
  public static func cmykJPEG(width: Int, height: Int, cmyk: [UInt8], quality: Int = 90) throws -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = cmyk.withUnsafeBufferPointer { pixels in
      snapsort_jpeg_encode(
        pixels.baseAddress, Int32(width), Int32(height), 4, Int32(quality), 0, &output, &size, &message,
        message.count)
    }
    // libjpeg's jpeg_mem_dest allocates with malloc; the caller frees.
    defer { free(output) }
    guard status == SNAPSORT_JPEG_OK, let output else { throw ImageDecodeError("CMYK JPEG encoding failed") }
    return Data(bytes: output, count: Int(size))
  }
}
