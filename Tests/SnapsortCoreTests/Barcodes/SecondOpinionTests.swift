import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// A linear code read once gets a second look at its surroundings cut upright and sharpened along
/// its rows (bench/barcodes/FINDINGS.md §7e).
final class SecondOpinionTests: XCTestCase {
  func testTheReadLineFollowsTheScanLine() throws {
    let line = try XCTUnwrap(BarcodeScanner.ReadLine([Point(100, 100), Point(300, 200)]))
    XCTAssertEqual(line.centre, Point(200, 150))
    XCTAssertEqual(line.angle, atan2(100, 200), accuracy: 1e-9)
    XCTAssertEqual(line.length, (200.0 * 200 + 100 * 100).squareRoot(), accuracy: 1e-9)
    // A zbar box, longer than it is high: its long side.
    let box = try XCTUnwrap(
      BarcodeScanner.ReadLine([Point(0, 0), Point(80, 0), Point(80, 20), Point(0, 20)]))
    XCTAssertEqual(box.angle, 0, accuracy: 1e-9)
    XCTAssertEqual(box.length, 80, accuracy: 1e-9)
    XCTAssertNil(BarcodeScanner.ReadLine([Point(1, 1)]))
  }

  /// Bars 2 px wide blurred until the gaps are grey: sharpening along the rows brings the gaps back
  /// to near white and the bars to near black; across the rows nothing changes.
  func testSharpeningAlongTheRowsSeparatesBlurredBars() {
    let bars = Bitmap(width: 64, height: 12, format: .gray) { out in
      for y in 0..<12 { for x in 0..<64 { out[y * 64 + x] = (x / 2) % 2 == 0 ? 0 : 255 } }
    }
    let blurred = bars.blurred()
    func spread(_ image: Bitmap) -> Int {
      let row = image.pixels[(6 * 64 + 16)..<(6 * 64 + 48)]
      return Int(row.max()!) - Int(row.min()!)
    }
    XCTAssertLessThan(spread(blurred), 120, "the blur greys the 2 px gaps")
    XCTAssertGreaterThan(spread(blurred.sharpenedAlongRows(sigma: 1, amount: 4, smoothing: 9)), 200)
    let lying = Bitmap(width: 12, height: 64, format: .gray) { out in
      for y in 0..<64 { for x in 0..<12 { out[y * 12 + x] = blurred.pixels[x * 64 + y] } }
    }
    XCTAssertEqual(lying.sharpenedAlongRows(sigma: 1, amount: 4, smoothing: 1).pixels, lying.pixels)
  }

  /// Bars lying along the rows are transposed to stand; standing bars stay, and the mapping leads back
  /// to the same pixel.
  func testBarsAreTurnedToStand() {
    let lying = Bitmap(width: 40, height: 30, format: .gray) { out in
      for y in 0..<30 { for x in 0..<40 { out[y * 40 + x] = (y / 3) % 2 == 0 ? 0 : 255 } }
    }
    let (standing, toSource) = lying.barsStanding(mapping: { $0 })
    XCTAssertEqual(standing.width, 30)
    XCTAssertEqual(standing.height, 40)
    let source = toSource(Point(10.5, 20.5))
    let turnedValue = standing.pixels[20 * standing.width + 10]
    XCTAssertEqual(turnedValue, lying.pixels[Int(source.y) * 40 + Int(source.x)])
    let (same, _) = standing.barsStanding(mapping: { $0 })
    XCTAssertEqual(same.pixels, standing.pixels)
  }

  /// The sample screenshot's Code 39, turned and blurred: one read of it, then the second look
  /// confirms it; a wrong value read once at the same place is contradicted by the right one the
  /// look reads, and so nothing is reported.
  func testTheSecondLookConfirmsARightReadAndWithholdsAWrongOne() throws {
    let screenshot = try ZXingReaderTests.gray("samples/screenshots/screenshot-03-light.png")
    let scanner = try BarcodeScanner(strategy: .init())
    var plain = BarcodeScanner.Findings(expectedCodes: 1)
    scanner.scan(screenshot, toImage: { $0 }, into: &plain, looks: .first)
    let code = try XCTUnwrap(plain.records.first)
    let line = try XCTUnwrap(code.quad.flatMap { BarcodeScanner.ReadLine($0.corners) })
    let (turned, toScreenshot) = screenshot.rotated(degrees: 12)
    let blurred = turned.blurred().blurred().blurred()
    // The read's place in the turned image: its scan line's ends turned with it.
    let radians = 12 * Double.pi / 180
    let toTurned = { (p: Point) -> Point in
      let dx = p.x - Double(screenshot.width) / 2, dy = p.y - Double(screenshot.height) / 2
      return Point(
        Double(turned.width) / 2 + dx * cos(radians) - dy * sin(radians),
        Double(turned.height) / 2 + dx * sin(radians) + dy * cos(radians))
    }
    let half = line.length / 2
    let ends = [-half, half].map { t in
      toTurned(Point(line.centre.x + t * cos(line.angle), line.centre.y + t * sin(line.angle)))
    }
    let back = toScreenshot(ends[0])
    XCTAssertEqual(back.x, line.centre.x - half * cos(line.angle), accuracy: 0.01)

    var right = code
    right.quad = Quad(ends)
    var once = BarcodeScanner.Findings(expectedCodes: 1)
    once.add(right, source: 1)
    XCTAssertEqual(once.records, [], "one read is not a code")
    scanner.secondOpinions(blurred, into: &once) { true }
    XCTAssertEqual(once.records.map(\.value), ["KR20931"])

    var wrong = BarcodeNormalizer.record(symbology: .code39, text: "KR20937", bytes: [], binary: false)
    wrong.decoder = "zxing"
    wrong.quad = Quad(ends)
    var misread = BarcodeScanner.Findings(expectedCodes: 1)
    misread.add(wrong, source: 1)
    scanner.secondOpinions(blurred, into: &misread) { true }
    XCTAssertFalse(misread.records.contains { $0.value == "KR20937" })
  }
}
