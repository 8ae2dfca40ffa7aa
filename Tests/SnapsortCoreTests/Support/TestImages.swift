import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

/// Images built in code for tests.
enum TestImages {
  /// An RGB image whose quadrants differ (red top-left, green top-right, blue bottom-left, white
  /// bottom-right), so any flip or rotation is visible.
  static func quadrants(width: Int = 64, height: Int = 48) -> Bitmap {
    Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          let colour: (UInt8, UInt8, UInt8)
          switch (x < width / 2, y < height / 2) {
          case (true, true): colour = (220, 20, 20)
          case (false, true): colour = (20, 200, 20)
          case (true, false): colour = (20, 20, 220)
          case (false, false): colour = (250, 250, 250)
          }
          let i = (y * width + x) * 3
          out[i] = colour.0
          out[i + 1] = colour.1
          out[i + 2] = colour.2
        }
      }
    }
  }

  static func temporaryDirectory(_ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent(
        "snapsort-tests-\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Inserts an APP1 Exif segment with the given orientation right after a JPEG's SOI marker.
  static func jpeg(_ data: Data, withOrientation orientation: UInt16) -> Data {
    var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big-endian, IFD0 at 8
    tiff += [0, 1]  // one entry
    tiff += [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1]  // orientation, SHORT, count 1
    tiff += [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
    tiff += [0, 0, 0, 0]  // no next IFD
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    var out = Data(data.prefix(2))
    out.append(contentsOf: segment)
    out.append(data.dropFirst(2))
    return out
  }

  /// The mean colour of a region, for tolerant pixel checks on lossy formats.
  static func meanColour(_ bitmap: Bitmap, x: Int, y: Int, size: Int = 4) -> [Double] {
    var sums = [Double](repeating: 0, count: bitmap.channels)
    for yy in y..<(y + size) {
      for xx in x..<(x + size) {
        for c in 0..<bitmap.channels {
          sums[c] += Double(bitmap.pixels[(yy * bitmap.width + xx) * bitmap.channels + c])
        }
      }
    }
    return sums.map { $0 / Double(size * size) }
  }
}
