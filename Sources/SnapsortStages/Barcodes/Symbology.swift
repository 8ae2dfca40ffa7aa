import SnapsortNative

/// The one symbology vocabulary of records (DESIGN.md names), with Catima's names for export.
public enum Symbology: String, Sendable, CaseIterable, Codable {
  case qr, ean13, ean8, upca, upce, code128, code39, code93, codabar, i25, pdf417
  case datamatrix, aztec, databar, databarExpanded = "databar_expanded", isbn10, isbn13
  case microqr, unknown

  /// The name Catima's export uses (com.google.zxing.BarcodeFormat), or nil when Catima cannot
  /// store it.
  public var catimaName: String? {
    switch self {
    case .qr: return "QR_CODE"
    case .ean13, .isbn13: return "EAN_13"
    case .ean8: return "EAN_8"
    case .upca: return "UPC_A"
    case .upce: return "UPC_E"
    case .code128: return "CODE_128"
    case .code39: return "CODE_39"
    case .code93: return "CODE_93"
    case .codabar: return "CODABAR"
    case .i25: return "ITF"
    case .pdf417: return "PDF_417"
    case .datamatrix: return "DATA_MATRIX"
    case .aztec: return "AZTEC"
    case .databar, .databarExpanded, .isbn10, .microqr, .unknown: return nil
    }
  }

  /// zbar's `zbar_symbol_type_t` values.
  public init(zbarType: Int32) {
    switch zbarType {
    case 8: self = .ean8
    case 9: self = .upce
    case 10: self = .isbn10
    case 12: self = .upca
    case 13: self = .ean13
    case 14: self = .isbn13
    case 25: self = .i25
    case 34: self = .databar
    case 35: self = .databarExpanded
    case 38: self = .codabar
    case 39: self = .code39
    case 57: self = .pdf417
    case 64: self = .qr
    case 93: self = .code93
    case 128: self = .code128
    default: self = .unknown
    }
  }

  /// zxing-cpp's `ZXing::BarcodeFormat` bits.
  public init(zxingFormat: UInt32) {
    typealias F = ZXingReader.Format
    switch zxingFormat {
    case F.aztec: self = .aztec
    case F.codabar: self = .codabar
    case F.code39: self = .code39
    case F.code93: self = .code93
    case F.code128: self = .code128
    case F.dataBar: self = .databar
    case F.dataBarExpanded: self = .databarExpanded
    case F.dataMatrix: self = .datamatrix
    case F.ean8: self = .ean8
    case F.ean13: self = .ean13
    case F.itf: self = .i25
    case F.pdf417: self = .pdf417
    case F.qrCode: self = .qr
    case F.upca: self = .upca
    case F.upce: self = .upce
    case F.microQRCode: self = .microqr
    default: self = .unknown
    }
  }

  /// Retail codes whose last digit is a mod-10 check digit.
  public var isRetail: Bool {
    switch self {
    case .ean13, .ean8, .upca, .upce, .isbn13: return true
    default: return false
    }
  }
}
