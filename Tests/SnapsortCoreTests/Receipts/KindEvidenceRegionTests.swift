import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The rows of a receipt whose bright region is only part of its paper (the lit end of a shaded
/// receipt) are counted around all the image's ink, and the row profile's faster walk over the ink
/// pixels gives the profile the walk over every pixel gave.
final class KindEvidenceRegionTests: XCTestCase {
  /// A receipt of `rows` lines on a grey table; all of it but its last fifth in shade, so the
  /// brightest region is that fifth alone.
  private func shadedReceipt(rows: Int) -> Bitmap {
    let width = 700, height = 1000
    var image = Bitmap(width: width, height: height, format: .gray, fill: 150)
    let left = 150, right = 550, top = 60, bottom = 940
    let lit = bottom - (bottom - top) / 5
    for y in top..<bottom {
      for x in left..<right { image.pixels[y * width + x] = y >= lit ? 245 : 175 }
    }
    for row in 0..<rows {
      let y0 = top + 40 + row * 38
      var x = left + 30 + (row % 3) * 10
      while x + 60 < right - 30 {
        for y in y0..<(y0 + 14) {
          for dx in stride(from: 0, to: 48, by: 6) {
            let i = y * width + x + dx
            image.pixels[i] = image.pixels[i] - 100
            image.pixels[i + 1] = image.pixels[i + 1] - 100
          }
        }
        x += 70 + (row * 13 + x) % 25
      }
    }
    return image
  }

  func testRowsOfAReceiptLitAtOneEndAreAllCounted() {
    let image = shadedReceipt(rows: 21)
    let evidence = KindEvidence.measure(image)
    XCTAssertLessThan(evidence.paperShare, 0.15, "the bright region is the lit end alone: \(evidence)")
    XCTAssertGreaterThanOrEqual(evidence.textRows, 15, "21 lines printed: \(evidence)")
  }

  func testTheRowProfileOverInkPixelsIsTheProfileOverAllPixels() {
    var random = SeededGenerator(seed: 3)
    var binary = Bitmap(width: 90, height: 70, format: .gray, fill: 255)
    for i in binary.pixels.indices where Int.random(in: 0..<10, using: &random) == 0 { binary.pixels[i] = 0 }
    let ink = LevelRows.inkPixels(binary)
    for slope in [-0.1, 0, 0.14] {
      let offsets = (0..<binary.width).map { Int((Double($0 - binary.width / 2) * slope).rounded()) }
      var expected = [Int](repeating: 0, count: binary.height)
      for y in 0..<binary.height {
        for x in 0..<binary.width where binary.pixels[y * binary.width + x] < 128 {
          let row = y - offsets[x]
          if row >= 0 && row < binary.height { expected[row] += 1 }
        }
      }
      XCTAssertEqual(
        LevelRows.rowInk(ink, offsets: offsets, height: binary.height), expected, "slope \(slope)")
    }
  }
}
