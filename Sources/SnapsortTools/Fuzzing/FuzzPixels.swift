import Foundation
import SnapsortNative
import SnapsortOutputs

/// Fuzz inputs for the decoders that take pixels rather than files (zbar, zxing-cpp, tesseract):
/// two bytes of width, then grey pixels row by row; the height is what the bytes fill.
///
/// The width and height are what such an input varies most (a 1-pixel-high scan line, a 1-pixel
/// column, a long strip), so they come from the input rather than being fixed.
enum FuzzPixels {
  static let headerBytes = 2

  /// The bitmap an input describes, or nil when it holds no whole row or more than `maxPixels`.
  static func bitmap(_ data: Data, maxPixels: Int) -> Bitmap? {
    guard data.count > headerBytes else { return nil }
    let bytes = [UInt8](data)
    let width = 1 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 4096
    let height = (bytes.count - headerBytes) / width
    guard height >= 1, width * height <= maxPixels else { return nil }
    let pixels = Array(bytes[headerBytes..<(headerBytes + width * height)])
    return Bitmap(width: width, height: height, format: .gray, pixels: pixels)
  }

  /// The input that describes `bitmap` (grey).
  static func encode(_ bitmap: Bitmap) -> Data {
    precondition(bitmap.format == .gray && bitmap.width <= 4096)
    let stored = bitmap.width - 1
    var data = Data([UInt8(stored >> 8), UInt8(stored & 0xFF)])
    for y in 0..<bitmap.height {
      let start = y * bitmap.rowBytes
      data.append(contentsOf: bitmap.pixels[start..<(start + bitmap.width)])
    }
    return data
  }

  /// Bars of a linear code, `moduleWidth` pixels per module and `rows` high, with a quiet zone.
  static func bars(symbology: String, value: String, moduleWidth: Int = 2, rows: Int = 12) -> Bitmap? {
    guard let modules = BarcodeDrawing.modules(symbology: symbology, value: value) else { return nil }
    let quiet = 10
    let width = (modules.count + 2 * quiet) * moduleWidth
    let row = (0..<width).map { x -> UInt8 in
      let module = x / moduleWidth - quiet
      return modules.indices.contains(module) && modules[module] ? 0 : 255
    }
    return Bitmap(
      width: width, height: rows, format: .gray, pixels: Array((0..<rows).map { _ in row }.joined()))
  }

  /// Text in a 5×7 dot face, `scale` pixels per dot, dark on white: a seed tesseract reads.
  static func text(_ text: String, scale: Int = 6) -> Bitmap {
    let glyphWidth = 6 * scale
    let margin = 4 * scale
    let width = text.count * glyphWidth + 2 * margin
    let height = 7 * scale + 2 * margin
    var pixels = [UInt8](repeating: 255, count: width * height)
    for (index, character) in text.enumerated() {
      guard let rows = dotFace[character] else { continue }
      for (row, bits) in rows.enumerated() {
        for column in 0..<5 where bits & (0x10 >> column) != 0 {
          for dy in 0..<scale {
            let y = margin + row * scale + dy
            let x = margin + index * glyphWidth + column * scale
            for dx in 0..<scale { pixels[y * width + x + dx] = 0 }
          }
        }
      }
    }
    return Bitmap(width: width, height: height, format: .gray, pixels: pixels)
  }

  /// Rows of five dots (most significant of the low five bits on the left).
  static let dotFace: [Character: [UInt8]] = [
    "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
    "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
    "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
    "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
    "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
    "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
    "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
    "L": [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
    "T": [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
    "O": [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
    "H": [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
    " ": [0, 0, 0, 0, 0, 0, 0],
  ]
}
