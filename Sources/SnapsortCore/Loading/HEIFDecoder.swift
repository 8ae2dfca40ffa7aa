import CHeif

/// HEIC/HEIF (what iPhones save) through libheif. libheif applies the file's rotation and
/// mirroring itself, so the header reports orientation 1.
enum HEIFDecoder: ImageDecoder {
  static func header(of data: UnsafeRawBufferPointer) throws -> ImageHeader {
    let file = try HEIFFile(data)
    let handle = try file.primaryImage()
    return ImageHeader(
      format: .heic, width: Int(heif_image_handle_get_width(handle.pointer)),
      height: Int(heif_image_handle_get_height(handle.pointer)), orientation: 1)
  }

  static func decode(_ data: UnsafeRawBufferPointer, reduction: Int) throws -> Bitmap {
    let file = try HEIFFile(data)
    let handle = try file.primaryImage()
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
