import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The kind evidence counts rows of faint print, which a receipt reduced to fit a wide scan's
/// page becomes, and does not make rows of a blank page's grain.
final class KindEvidenceContrastTests: XCTestCase {
  /// A light page with sensor grain, and `rows` lines of thin words printed `ink` levels darker.
  private func page(rows: Int, ink: Int, seed: UInt64) -> Bitmap {
    var random = SeededGenerator(seed: seed)
    let width = 400, height = 800
    var page = Bitmap(width: width, height: height, format: .gray, fill: 0)
    for i in page.pixels.indices { page.pixels[i] = UInt8(246 + Int.random(in: 0...6, using: &random)) }
    for row in 0..<rows {
      let top = 30 + row * 36
      var x = 20 + (row % 4) * 12
      while x + 50 < width - 20 {
        // Letters of two-pixel strokes: a stem every 5 px and a bar across the word's middle.
        for y in top..<(top + 11) {
          for dx in stride(from: 0, to: 40, by: 5) {
            page.pixels[y * width + x + dx] = UInt8(250 - ink)
            page.pixels[y * width + x + dx + 1] = UInt8(250 - ink)
          }
        }
        for dx in 0..<40 { page.pixels[(top + 5) * width + x + dx] = UInt8(250 - ink) }
        x += 55 + (row * 7 + x) % 20
      }
    }
    return page
  }

  func testFaintPrintStillHasItsRows() {
    let faint = KindEvidence.rows(in: page(rows: 20, ink: 40, seed: 1))
    XCTAssertGreaterThanOrEqual(faint.textRows, 18, "20 lines printed 40 levels darker than the paper")
  }

  func testTheGrainOfABlankPageMakesNoRows() {
    let blank = KindEvidence.rows(in: page(rows: 0, ink: 0, seed: 2))
    XCTAssertLessThanOrEqual(blank.textRows, 1)
  }
}
