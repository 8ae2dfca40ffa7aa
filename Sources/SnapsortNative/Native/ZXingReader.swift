import CZXing

/// Reads barcodes with zxing-cpp 1.4 through the `CZXing` shim. The library's read functions
/// keep no state between calls, so one reader may be shared; each call's result list is a C
/// allocation freed before the call returns.
public final class ZXingReader: Sendable {
  /// A symbol as zxing reports it, before normalisation.
  public struct Symbol: Sendable, Equatable {
    /// One `ZXing::BarcodeFormat` bit.
    public var format: UInt32
    public var text: String
    public var bytes: [UInt8]
    /// `ZXing::ContentType`: 0 text, 1 binary, 2 mixed, 3 GS1, 4 ISO 15434, 5 unknown ECI.
    public var contentType: Int
    /// Top-left, top-right, bottom-right, bottom-left of the symbol as read.
    public var points: [Point]
    public var symbologyIdentifier: String
  }

  /// Why a read gave nothing back (an empty list is not an error).
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable { case invalidInput, exception, assertion, outOfMemory }
    public var kind: Kind
    public var message: String
    public var description: String { "zxing-cpp: \(message)" }
  }

  public struct Options: Sendable, Equatable {
    /// `ZXing::BarcodeFormat` bits; 0 reads every format.
    public var formats: UInt32 = 0
    public var tryHarder = true
    public var tryRotate = true
    /// Also read 3×-averaged copies while the longer side exceeds 500 px (zxing's own pyramid,
    /// rebuilt in the shim so that merging layers cannot trip the library's assertion).
    public var tryDownscale = true
    public var isPure = false
    public var binarizer: Binarizer = .localAverage
    /// `ReadBarcodes` (plural) rather than the first symbol only.
    public var multiple = false
    public init() {}
  }

  public enum Binarizer: Int32, Sendable, Equatable {
    case localAverage = 0, globalHistogram = 1, fixedThreshold = 2
  }

  /// `ZXing::BarcodeFormat` values.
  public enum Format {
    public static let aztec: UInt32 = 1 << 0
    public static let codabar: UInt32 = 1 << 1
    public static let code39: UInt32 = 1 << 2
    public static let code93: UInt32 = 1 << 3
    public static let code128: UInt32 = 1 << 4
    public static let dataBar: UInt32 = 1 << 5
    public static let dataBarExpanded: UInt32 = 1 << 6
    public static let dataMatrix: UInt32 = 1 << 7
    public static let ean8: UInt32 = 1 << 8
    public static let ean13: UInt32 = 1 << 9
    public static let itf: UInt32 = 1 << 10
    public static let maxiCode: UInt32 = 1 << 11
    public static let pdf417: UInt32 = 1 << 12
    public static let qrCode: UInt32 = 1 << 13
    public static let upca: UInt32 = 1 << 14
    public static let upce: UInt32 = 1 << 15
    public static let microQRCode: UInt32 = 1 << 16
    /// Every format a card wallet (Catima, Card Snap) stores.
    public static let wallet: UInt32 =
      aztec | codabar | code39 | code93 | code128 | dataMatrix | ean8 | ean13 | itf | pdf417 | qrCode
      | upca | upce
    public static let linear: UInt32 = codabar | code39 | code93 | code128 | ean8 | ean13 | itf | upca | upce
  }

  public let options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// The linked library's version, e.g. "1.4.0".
  public static var libraryVersion: String { String(cString: snapsort_zxing_version()) }

  /// Reads a grey bitmap.
  ///
  /// - Throws: `Failure` when the library rejected the input, threw, or failed an assertion.
  public func read(_ gray: Bitmap) throws(Failure) -> [Symbol] {
    precondition(gray.format == .gray, "zxing reads 8-bit grey images here")
    var c = snapsort_zxing_options()
    c.formats = options.formats
    c.try_harder = options.tryHarder ? 1 : 0
    c.try_rotate = options.tryRotate ? 1 : 0
    c.try_downscale = options.tryDownscale ? 1 : 0
    c.is_pure = options.isPure ? 1 : 0
    c.binarizer = options.binarizer.rawValue
    c.multiple = options.multiple ? 1 : 0
    let list = gray.pixels.withUnsafeBufferPointer { pixels in
      snapsort_zxing_read(pixels.baseAddress, Int32(gray.width), Int32(gray.height), Int32(gray.width), &c)
    }
    return try Self.symbols(from: list)
  }

  /// Calls abort() under the shim's guard: the error that comes back is what a failed assertion
  /// inside the library becomes.
  static func abortUnderGuardForTesting() throws(Failure) {
    _ = try symbols(from: snapsort_zxing_abort_for_testing())
  }

  private static func symbols(from list: UnsafeMutablePointer<snapsort_zxing_results>?) throws(Failure)
    -> [Symbol]
  {
    guard let list else { throw Failure(kind: .outOfMemory, message: "out of memory") }
    // snapsort_zxing_read's counterpart, per snapsort_zxing.h: frees every symbol's text and bytes.
    defer { snapsort_zxing_free(list) }
    let results = list.pointee
    if results.status != Int32(SNAPSORT_ZXING_OK) {
      let message = withUnsafeBytes(of: results.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      let kind: Failure.Kind
      switch results.status {
      case Int32(SNAPSORT_ZXING_INVALID_INPUT): kind = .invalidInput
      case Int32(SNAPSORT_ZXING_ABORTED): kind = .assertion
      case Int32(SNAPSORT_ZXING_OUT_OF_MEMORY): kind = .outOfMemory
      default: kind = .exception
      }
      throw Failure(kind: kind, message: message)
    }
    var symbols: [Symbol] = []
    for i in 0..<Int(results.count) {
      let s = results.symbols[i]
      let text =
        s.text.map {
          String(
            decoding: UnsafeBufferPointer(
              start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: s.text_length),
            as: UTF8.self)
        } ?? ""
      let bytes = s.bytes.map { Array(UnsafeBufferPointer(start: $0, count: s.bytes_length)) } ?? []
      let p = s.points
      let points = [
        Point(Double(p.0), Double(p.1)), Point(Double(p.2), Double(p.3)), Point(Double(p.4), Double(p.5)),
        Point(Double(p.6), Double(p.7)),
      ]
      let identifier = withUnsafeBytes(of: s.symbology_identifier) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      symbols.append(
        Symbol(
          format: s.format, text: text, bytes: bytes, contentType: Int(s.content_type), points: points,
          symbologyIdentifier: identifier))
    }
    return symbols
  }
}
