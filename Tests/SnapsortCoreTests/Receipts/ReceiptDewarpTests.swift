import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// Wavy lines of print straightened, straight ones left alone.
final class ReceiptDewarpTests: XCTestCase {
  private let dewarp = ReceiptDewarp(strips: 8, minimumCorrelation: 0.5, minimumShare: 0.08)

  /// A page of "words" (dark blocks 12 rows high, with gaps between them) on lines 24 rows
  /// apart, each column's print moved down by `bend(x)` rows.
  private func page(width: Int = 400, height: Int = 480, bend: (Int) -> Int) -> Bitmap {
    var pixels = [UInt8](repeating: 230, count: width * height)
    for line in stride(from: 24, to: height - 36, by: 24) {
      for x in 8..<(width - 8) where (x / 20) % 3 != 2 && (x / 3) % 2 == 0 {
        for y in (line + bend(x))..<(line + bend(x) + 12) { pixels[y * width + x] = 40 }
      }
    }
    return Bitmap(width: width, height: height, format: .gray, pixels: pixels)
  }

  /// The rows of one column that hold ink.
  private func inkRows(_ image: Bitmap, column x: Int) -> [Int] {
    (0..<image.height).filter { image.pixels[$0 * image.width + x] < 128 }
  }

  func testAStraightPageIsReturnedAsItWas() {
    let flat = page { _ in 0 }
    XCTAssertEqual(dewarp.straightened(flat, pitch: 24).pixels, flat.pixels)
  }

  func testLinesBentDownOnTheRightAreStraightened() {
    // The right half's print 7 rows lower than the left's, more than a quarter of the spacing.
    let bent = page { x in x >= 200 ? 7 : 0 }
    let left = 30, right = 366
    XCTAssertNotEqual(inkRows(bent, column: left).first, inkRows(bent, column: right).first)
    let straight = dewarp.straightened(bent, pitch: 24)
    let leftRows = inkRows(straight, column: left), rightRows = inkRows(straight, column: right)
    XCTAssertFalse(rightRows.isEmpty)
    XCTAssertEqual(
      Double(leftRows.first ?? 0), Double(rightRows.first ?? 99), accuracy: 1.5,
      "the right half's first line is moved up to the left's")
    XCTAssertEqual(Double(leftRows.count), Double(rightRows.count), accuracy: 12)
  }

  func testOffsetsOfStripsWithoutPrintAreFilledFromTheirNeighbours() {
    XCTAssertEqual(ReceiptDewarp.filled([2, nil, 6, 4]), [-2, 0, 2, 0])
    XCTAssertEqual(ReceiptDewarp.filled([nil, nil]), [0, 0])
    XCTAssertEqual(ReceiptDewarp.filled([nil, 3, 3]), [0, 0, 0])
  }
}
