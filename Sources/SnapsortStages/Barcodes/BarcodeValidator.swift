import SnapsortImaging

/// Whether a decoded value can be what its symbology encodes, and when two reads are one code.
///
/// Both decoders check their own error correction; these checks catch what a misread of a
/// linear code can still produce: a wrong check digit, a character its symbology cannot carry,
/// a length it does not allow.
public enum BarcodeValidator {
  public static func accepts(_ record: BarcodeRecord) -> Bool {
    let value = record.value
    guard !value.isEmpty, record.checksumOK != false else { return false }
    let scalars = value.unicodeScalars
    let isDigits = scalars.allSatisfy { ("0"..."9").contains($0) }
    switch Symbology(rawValue: record.symbology) ?? .unknown {
    case .ean13, .isbn13: return isDigits && value.count == 13
    case .ean8, .upce: return isDigits && value.count == 8
    case .upca: return isDigits && value.count == 12
    case .i25:
      // Interleaved 2 of 5 encodes digit pairs; short reads of it are the classic false
      // positive on stripes, so fewer than 6 digits are refused (zbar's own minimum).
      return isDigits && value.count % 2 == 0 && value.count >= 6
    case .code128:
      // Code sets A–C plus FNC4 reach exactly ISO 8859-1.
      return scalars.allSatisfy { $0.value <= 0xFF }
    case .code39, .code93:
      return scalars.allSatisfy { $0.value < 0x80 }
    case .codabar:
      let allowed = Set("0123456789-$:/.+ABCDTN*E".unicodeScalars)
      return value.count >= 2 && scalars.allSatisfy { allowed.contains($0) }
    default:
      return true
    }
  }

  /// The key under which two reads are the same code: a retail code by its GTIN (zbar reports a
  /// UPC-E as its UPC-A expansion, zxing as printed), anything else by symbology and value.
  public static func identity(_ record: BarcodeRecord) -> String {
    if let gtin = record.gtin { return "gtin:" + gtin }
    return record.symbology + "\u{0}" + (record.bytes ?? record.value)
  }
}
