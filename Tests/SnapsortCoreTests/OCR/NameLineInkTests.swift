import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

final class NameLineInkTests: XCTestCase {
  /// A 60 × 30 cut of one grey level with rectangles of another (`ink`), as (columns, rows).
  private func cut(background: UInt8, ink: UInt8, _ blocks: [(Range<Int>, Range<Int>)]) -> Bitmap {
    var image = Bitmap(width: 60, height: 30, format: .gray, fill: background)
    for (columns, rows) in blocks {
      for y in rows {
        for x in columns { image.pixels[y * 60 + x] = ink }
      }
    }
    return image
  }

  /// "Letters" in the middle and a bar along the top edge.
  private let lettersAndBar = [(20..<40, 10..<20), (0..<60, 0..<3)]

  func testDarkInkStaysAndTheEdgeBarGoes() {
    let out = NameLineInk.prepared(cut(background: 200, ink: 40, lettersAndBar), band: 6..<24)
    XCTAssertEqual(out.pixels[15 * 60 + 30], 40, "the letters keep their grey")
    XCTAssertEqual(out.pixels[1 * 60 + 30], 200, "the bar over the top edge is painted over")
    XCTAssertEqual(out.pixels[25 * 60 + 5], 200)
  }

  func testLightInkOnDarkIsFoundByTheBorder() {
    let out = NameLineInk.prepared(cut(background: 30, ink: 230, lettersAndBar), band: 6..<24)
    XCTAssertEqual(out.pixels[15 * 60 + 30], 230, "light type is the ink and stays")
    XCTAssertEqual(out.pixels[1 * 60 + 30], 30, "the light bar is painted in the dark field's level")
  }

  func testInkTouchingOnlyTheSidesIsKept() {
    let out = NameLineInk.prepared(cut(background: 220, ink: 20, [(0..<4, 8..<22)]), band: 6..<24)
    XCTAssertEqual(out.pixels[15 * 60 + 1], 20, "a letter cut at the side is still read")
  }

  func testALetterReachingTheEdgeFromInsideTheBoxIsKept() {
    // A tilted line's last letter: rows 4 to 29, mostly within the box's rows 6 to 23.
    let out = NameLineInk.prepared(cut(background: 220, ink: 20, [(40..<46, 4..<30)]), band: 6..<24)
    XCTAssertEqual(out.pixels[15 * 60 + 42], 20)
    XCTAssertEqual(out.pixels[29 * 60 + 42], 20)
  }
}
