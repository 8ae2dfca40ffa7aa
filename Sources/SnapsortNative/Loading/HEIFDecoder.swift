import CHeif
import Foundation

/// HEIC/HEIF (what iPhones save) through libheif. libheif applies the file's rotation and
/// mirroring itself, so the header reports orientation 1.
package enum HEIFDecoder: ImageDecoder {
  package static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader {
    let file = try HEIFFile(data)
    let handle = try file.primaryImage()
    return ImageHeader(
      format: .heic, width: Int(heif_image_handle_get_width(handle.pointer)),
      height: Int(heif_image_handle_get_height(handle.pointer)), orientation: 1)
  }

  package static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap {
    let graph = HEIFItemGraph(data)
    if let refusal = graph.refusal() {
      throw ImageDecodeError("corrupt HEIC: \(refusal), which libheif would follow without end")
    }
    let file = try HEIFFile(data)
    let handle = try file.primaryImage()
    // The header's size is what the pixel limit checked; libheif would allocate a larger canvas.
    if let refusal = graph.canvasRefusal(
      width: Int(heif_image_handle_get_width(handle.pointer)),
      height: Int(heif_image_handle_get_height(handle.pointer)))
    {
      throw ImageDecodeError("corrupt HEIC: \(refusal)")
    }
    var image: OpaquePointer?
    try HEIFFile.check(
      heif_decode_image(handle.pointer, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil),
      doing: "decode")
    guard let image else { throw ImageDecodeError("corrupt HEIC: no image was decoded") }
    // heif_decode_image hands us a new image that we release.
    defer { heif_image_release(image) }
    let width = Int(heif_image_get_width(image, heif_channel_interleaved))
    let height = Int(heif_image_get_height(image, heif_channel_interleaved))
    var stride: Int32 = 0
    guard width > 0, height > 0,
      let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)
    else { throw ImageDecodeError("corrupt HEIC: the decoded image has no pixels") }
    return Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        let row = UnsafeBufferPointer(start: plane + y * Int(stride), count: width * 3)
        _ = UnsafeMutableBufferPointer(rebasing: out[(y * width * 3)..<((y + 1) * width * 3)]).initialize(
          from: row)
      }
    }
  }
}

/// Owns one `heif_context`, freed in `deinit`.
final class HEIFFile {
  let context: OpaquePointer

  init(_ data: UnsafeRawBufferPointer) throws {
    guard let context = heif_context_alloc() else {
      throw ImageDecodeError("libheif could not allocate a context")
    }
    self.context = context
    // "without_copy": the bytes must outlive the context, which they do (both live in this call).
    try Self.check(
      heif_context_read_from_memory_without_copy(context, data.baseAddress, data.count, nil), doing: "read")
  }

  deinit {
    // heif_context_alloc's counterpart, per heif.h.
    heif_context_free(context)
  }

  func primaryImage() throws -> HEIFImageHandle {
    var handle: OpaquePointer?
    try Self.check(
      heif_context_get_primary_image_handle(context, &handle), doing: "find the primary image in")
    guard let handle else { throw ImageDecodeError("corrupt HEIC: no primary image") }
    return HEIFImageHandle(handle, owner: self)
  }

  static func check(_ error: heif_error, doing action: String) throws {
    guard error.code != heif_error_Ok else { return }
    let detail = error.message.map { String(cString: $0) } ?? "unknown error"
    throw ImageDecodeError("corrupt HEIC: libheif could not \(action) the file (\(detail))")
  }
}

/// Owns one `heif_image_handle`, released in `deinit`; keeps its context alive.
final class HEIFImageHandle {
  let pointer: OpaquePointer
  private let owner: HEIFFile
  init(_ pointer: OpaquePointer, owner: HEIFFile) {
    self.pointer = pointer
    self.owner = owner
  }
  deinit {
    // "has to be released with heif_image_handle_release()", per heif.h.
    heif_image_handle_release(pointer)
  }
}

extension ImageEncoder {
  /// HEIC (HEVC via libheif's x265 plugin), as iPhones save photos; for tests and sample files.
  public static func heic(_ bitmap: Bitmap, quality: Int = 80) throws -> Data {
    let rgb = bitmap.rgb()
    var image: OpaquePointer?
    try HEIFFile.check(
      heif_image_create(
        Int32(rgb.width), Int32(rgb.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image),
      doing: "create an image for")
    guard let image else { throw ImageDecodeError("libheif could not create an image") }
    // heif_image_create's image is released with heif_image_release, per heif.h.
    defer { heif_image_release(image) }
    try HEIFFile.check(
      heif_image_add_plane(image, heif_channel_interleaved, Int32(rgb.width), Int32(rgb.height), 8),
      doing: "add a plane to")
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
      throw ImageDecodeError("libheif gave no plane to write")
    }
    rgb.pixels.withUnsafeBufferPointer { source in
      for y in 0..<rgb.height {
        (plane + y * Int(stride)).update(from: source.baseAddress! + y * rgb.rowBytes, count: rgb.rowBytes)
      }
    }
    guard let context = heif_context_alloc() else {
      throw ImageDecodeError("libheif could not allocate a context")
    }
    // heif_context_alloc's counterpart, per heif.h.
    defer { heif_context_free(context) }
    var encoder: OpaquePointer?
    try HEIFFile.check(
      heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder),
      doing: "find an HEVC encoder for")
    guard let encoder else { throw ImageDecodeError("libheif has no HEVC encoder") }
    // Encoders from heif_context_get_encoder_for_format are released by the caller, per heif.h.
    defer { heif_encoder_release(encoder) }
    try HEIFFile.check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), doing: "set the quality of")
    try HEIFFile.check(heif_context_encode_image(context, image, encoder, nil, nil), doing: "encode")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-\(UUID().uuidString).heic")
    defer { try? FileManager.default.removeItem(at: url) }
    try HEIFFile.check(heif_context_write_to_file(context, url.path), doing: "write")
    return try Data(contentsOf: url)
  }
}
