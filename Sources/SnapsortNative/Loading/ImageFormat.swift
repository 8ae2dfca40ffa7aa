import Foundation

/// The image formats snapsort recognises as inputs, by extension or by signature.
public enum ImageFormat: String, Sendable, CaseIterable {
  case jpeg, png, webp, heic, gif, bmp, tiff

  /// Formats that have a decoder; the others are recognised (so they get a record) but fail
  /// with a clear message.
  public var isDecodable: Bool {
    switch self {
    case .jpeg, .png, .webp, .heic: return true
    case .gif, .bmp, .tiff: return false
    }
  }

  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "heic", "heif", "hif": self = .heic
    case "gif": self = .gif
    case "bmp": self = .bmp
    case "tif", "tiff": self = .tiff
    default: return nil
    }
  }

  /// Recognises a format from the first bytes of a file (at least 12 are needed for all).
  public init?(signature bytes: some Collection<UInt8>) {
    let b = Array(bytes.prefix(12))
    func starts(_ prefix: [UInt8]) -> Bool {
      b.count >= prefix.count && Array(b.prefix(prefix.count)) == prefix
    }
    if starts([0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if b.count >= 12, starts(Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) {
      self = .webp
    } else if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8),
      ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif"].contains(
        String(decoding: b[8..<12], as: UTF8.self))
    {
      self = .heic
    } else if starts(Array("GIF8".utf8)) {
      self = .gif
    } else if starts([0x42, 0x4D]) && b.count >= 6 {
      self = .bmp
    } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
      self = .tiff
    } else {
      return nil
    }
  }

  public var displayName: String {
    switch self {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .webp: return "WebP"
    case .heic: return "HEIC"
    case .gif: return "GIF"
    case .bmp: return "BMP"
    case .tiff: return "TIFF"
    }
  }
}
