import Foundation
import SnapsortImaging
import SnapsortNative

#if canImport(Glibc)
  import Glibc
#endif

/// Needs nothing; produces `ImageFile` (content hash, image size, format remarks: written even
/// when decoding fails) and `ImagePixels`.
///
/// Reads the file, hashes it, checks the pixel limit from the header, and decodes a reduced
/// analysis copy (JPEG DCT scaling); the full-resolution image is decoded only if a later stage
/// asks for it.
public final class LoadStage: Stage {
  public static let name = "load"
  public static let summary =
    "Decode JPEG, PNG, WebP or HEIC with EXIF orientation; shrink-on-load analysis copy; pixel limit"
  public static let needs: [any Artifact.Type] = []
  public static let produces: [any Artifact.Type] = [ImageFile.self, ImagePixels.self]

  public struct Options: StageOptions, Equatable {
    /// Larger images are refused from their header, before any pixel is decoded.
    public var maxPixels: Int = 100_000_000
    /// Longest side of the analysis copy that detection stages work on.
    public var analysisMaxSide: Int = 1600
    /// Images whose longer side is shorter than this cannot hold a card or a code. The shorter
    /// side may be a single pixel: a strip cut along a linear code's scan line (69 × 1) holds it.
    public var minSide: Int = 8
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard options.maxPixels > 0 else { throw ConfigError(path: "max_pixels", "must be positive") }
    guard options.analysisMaxSide >= 64 else {
      throw ConfigError(path: "analysis_max_side", "must be at least 64")
    }
    guard options.minSide >= 1 else { throw ConfigError(path: "min_side", "must be at least 1") }
  }

  private let options: Options

  public init(options: Options, context: StageContext) throws {
    self.options = options
  }

  public func process(_ item: PhotoItem) throws {
    let data = try item.bytes()
    var file = ImageFile(data: data, sha256: FileBytes.sha256(of: data))
    // The file's facts reach the record whatever happens below.
    defer { item.artifacts.write(file) }
    guard !data.isEmpty else { throw StageFailure("empty file (0 bytes)") }

    let claimed = ImageFormat(fileExtension: item.url.pathExtension)
    guard let format = ImageFormat(signature: data.prefix(12)) else {
      let what = claimed.map { "its extension says \($0.displayName), but " } ?? ""
      throw StageFailure("not an image: \(what)its first bytes match no supported image format")
    }
    if let claimed, claimed != format {
      file.notes.append("content is \(format.displayName) although the extension says \(claimed.displayName)")
    }
    guard format.isDecodable else {
      throw StageFailure("\(format.displayName) images are not supported (use JPEG, PNG, WebP or HEIC)")
    }
    let decoder = Self.decoder(for: format)

    let header = try data.withUnsafeBytes { try decoder.header(of: $0) }
    let pixels = header.width * header.height
    guard pixels <= options.maxPixels else {
      throw StageFailure(
        "image is \(header.width) × \(header.height) (\(Self.megapixels(pixels)) MP), over the limit of "
          + "\(Self.megapixels(options.maxPixels)) MP set by max_pixels")
    }
    guard max(header.width, header.height) >= options.minSide, min(header.width, header.height) >= 1 else {
      throw StageFailure(
        "image is only \(header.width) × \(header.height) pixels, too small to hold a card or a code "
          + "(min_side \(options.minSide), the longer side)")
    }
    let swapsAxes = header.orientation >= 5
    let width = swapsAxes ? header.height : header.width
    let height = swapsAxes ? header.width : header.height
    file.info = ImageInfo(
      width: width, height: height, orientation: header.orientation, format: format.rawValue)

    let reduction = Self.reduction(for: header, format: format, maxSide: options.analysisMaxSide)
    let (stored, warnings) = try data.withUnsafeBytes { try decoder.decodeWarning($0, reduction: reduction) }
    file.warnings = warnings
    let decoded = stored.applyingOrientation(header.orientation)
    let analysis = decoded.fitting(maxSide: options.analysisMaxSide)
    item.artifacts.write(
      ImagePixels(
        analysis: analysis, analysisScale: Double(width) / Double(analysis.width),
        full: reduction == 1 ? decoded : nil, captureDay: header.captureDay,
        decodeFull: {
          try data.withUnsafeBytes { try decoder.decode($0, reduction: 1) }.applyingOrientation(
            header.orientation)
        }))
  }

  /// The largest JPEG DCT reduction that still leaves at least `maxSide` pixels on the long side.
  static func reduction(for header: ImageHeader, format: ImageFormat, maxSide: Int) -> Int {
    guard format == .jpeg else { return 1 }
    let longest = max(header.width, header.height)
    for denominator in [8, 4, 2] where longest / denominator >= maxSide {
      return denominator
    }
    return 1
  }

  package static func decoder(for format: ImageFormat) -> any ImageDecoder.Type {
    switch format {
    case .jpeg: return JPEGDecoder.self
    case .png: return PNGDecoder.self
    case .webp: return WebPDecoder.self
    default: return HEIFDecoder.self
    }
  }

  private static func megapixels(_ pixels: Int) -> String {
    String(format: "%.1f", Double(pixels) / 1_000_000)
  }
}
