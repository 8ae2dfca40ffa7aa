import Foundation
import SnapsortStages

/// The bars of a linear barcode, as modules (true = dark), for the report to draw.
///
/// EAN-13, EAN-8, UPC-A (and ISBN-13) and Code 128 are encoded here from their specifications;
/// other symbologies (QR, PDF417, Data Matrix, Aztec, Code 39, …) get nil and the report shows
/// their value as text instead.
public enum BarcodeDrawing {
  public static func modules(symbology: String, value: String) -> [Bool]? {
    switch Symbology(rawValue: symbology) {
    case .ean13, .isbn13: return ean(value, length: 13)
    case .upca: return ean("0" + value, length: 13)
    case .ean8: return ean(value, length: 8)
    case .code128: return code128(value)
    default: return nil
    }
  }

  /// An SVG drawing of the bars with the value under them, or nil.
  public static func svg(symbology: String, value: String, moduleWidth: Double = 2, height: Double = 60)
    -> String?
  {
    guard let modules = modules(symbology: symbology, value: value) else { return nil }
    let quiet = 10.0
    let width = (Double(modules.count) + 2 * quiet) * moduleWidth
    var rects = ""
    var index = 0
    while index < modules.count {
      guard modules[index] else {
        index += 1
        continue
      }
      var end = index
      while end < modules.count && modules[end] { end += 1 }
      rects +=
        "<rect x=\"\((quiet + Double(index)) * moduleWidth)\" y=\"0\" width=\"\(Double(end - index) * moduleWidth)\" height=\"\(height)\"/>"
      index = end
    }
    return """
      <svg class="bars" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height + 16)" width="\(width)" \
      height="\(height + 16)" role="img"><rect width="100%" height="100%" fill="#fff"/><g fill="#000">\(rects)</g>\
      <text x="\(width / 2)" y="\(height + 13)" text-anchor="middle" font-family="monospace" font-size="12">\
      \(HTMLText.escape(value))</text></svg>
      """
  }

  // MARK: - EAN / UPC

  private static let leftOdd = [
    "0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111",
    "0001011",
  ]
  /// First digit of an EAN-13 → parity of the next six (L = odd, G = even).
  private static let parity = [
    "LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL",
  ]

  static func ean(_ value: String, length: Int) -> [Bool]? {
    let digits = value.compactMap(\.wholeNumberValue)
    guard digits.count == length, value.count == length else { return nil }
    let right = leftOdd.map { String($0.map { $0 == "0" ? "1" : "0" }) }
    let even = right.map { String($0.reversed()) }
    var pattern = "101"
    let half = length == 13 ? Array(digits[1...6]) : Array(digits[0..<4])
    let second = length == 13 ? Array(digits[7...12]) : Array(digits[4..<8])
    let parities = length == 13 ? Array(parity[digits[0]]) : Array(repeating: Character("L"), count: 4)
    for (digit, kind) in zip(half, parities) { pattern += kind == "L" ? leftOdd[digit] : even[digit] }
    pattern += "01010"
    for digit in second { pattern += right[digit] }
    pattern += "101"
    return pattern.map { $0 == "1" }
  }

  // MARK: - Code 128

  /// Bar and space widths of the 107 Code 128 symbols (103–105 start A/B/C, 106 stop).
  public static let code128Widths: [String] = [
    "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
    "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
    "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
    "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
    "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
    "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
    "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
    "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
    "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
    "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
    "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
  ]

  /// Code set C for an all-digit value of even length, code set B otherwise (printable ASCII).
  static func code128(_ value: String) -> [Bool]? {
    guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) else {
      return nil
    }
    var codes: [Int]
    if value.count % 2 == 0 && value.allSatisfy(\.isASCII) && value.allSatisfy(\.isNumber) {
      let digits = value.compactMap(\.wholeNumberValue)
      codes = [105] + stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 10 + digits[$0 + 1] }
    } else {
      codes = [104] + value.unicodeScalars.map { Int($0.value) - 32 }
    }
    let checksum =
      codes.enumerated().reduce(0) { sum, pair in sum + pair.element * max(pair.offset, 1) } % 103
    codes += [checksum, 106]
    var modules: [Bool] = []
    for code in codes {
      for (index, width) in code128Widths[code].enumerated() {
        modules += Array(repeating: index % 2 == 0, count: width.wholeNumberValue!)
      }
    }
    return modules
  }
}

/// Escaping for text that goes into HTML: OCR text and file names are untrusted.
public enum HTMLText {
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        // Control characters other than tab and newline have no business in a page.
        if scalar.value < 32 && scalar != "\t" && scalar != "\n" {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
