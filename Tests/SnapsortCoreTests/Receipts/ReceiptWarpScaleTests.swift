import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// `receipt_warp` measures the line pitch of a receipt on a page much wider than itself (a flatbed
/// scan of the whole glass) on a probe of the print alone, as fine as a scan of the receipt alone.
final class ReceiptWarpScaleTests: XCTestCase {
  /// A grey receipt of `rows` printed lines `pitch` px apart, 300 px wide, on a white page
  /// `across` times as wide, near its right edge.
  private func receipt(rows: Int, pitch: Int, across: Int) -> Bitmap {
    let width = 300 * across, height = rows * pitch + 200
    var page = Bitmap(width: width, height: height, format: .gray, fill: 255)
    let left = width - 340
    for row in 0..<rows {
      var x = left + 10 + (row % 3) * 7
      while x + 30 < left + 290 {
        for y in (100 + row * pitch)..<(100 + row * pitch + pitch / 2) {
          for dx in 0..<22 { page.pixels[y * width + x + dx] = 20 }
        }
        x += 30 + (row + x) % 11
      }
    }
    return page
  }

  /// The page's own probe (`probeWidth` across, Sauvola as the stage makes it) and its scale.
  private func pageProbe(_ page: Bitmap) -> (binary: Bitmap, scale: Double) {
    let scale = min(1, ReceiptWarpStage.probeWidth / Double(page.width))
    let small = page.resized(width: Int(Double(page.width) * scale), height: Int(Double(page.height) * scale))
    return (ReceiptImaging.sauvola(small, radius: 12, k: 0.3), scale)
  }

  private func corners(_ page: Bitmap) -> [Point] {
    let w = Double(page.width), h = Double(page.height)
    return [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)]
  }

  func testTheLinePitchOfAReceiptOnAWidePageIsMeasuredOnItsPrintAtFullSize() throws {
    let page = receipt(rows: 30, pitch: 18, across: 10)
    let probe = pageProbe(page)
    let print = ReceiptWarpStage.printProbe(page, quad: corners(page), probe: probe, gain: 1.3, sauvolaK: 0.3)
    XCTAssertEqual(print.scale, 1, "the print is 300 px across: probed at its own size")
    XCTAssertLessThan(print.binary.width, 320, "the blank page beside the print is left out")
    let pitch = try XCTUnwrap(ReceiptImaging.linePitch(rowInk: ReceiptImaging.rowInk(print.binary)))
    XCTAssertEqual(Double(pitch) / print.scale, 18, accuracy: 1)
    // On the page's probe the lines are 5.4 px apart, below the pitch's shortest lag.
    let coarse = ReceiptImaging.linePitch(rowInk: ReceiptImaging.rowInk(probe.binary)).map {
      Double($0) / probe.scale
    }
    XCTAssertNotEqual(coarse ?? 0, 18, accuracy: 3, "the page's probe does not find the pitch")
  }

  func testAPageThatIsMostlyPrintOrTurnedOffKeepsItsProbe() {
    let alone = receipt(rows: 30, pitch: 18, across: 1)
    let probe = pageProbe(alone)
    let kept = ReceiptWarpStage.printProbe(
      alone, quad: corners(alone), probe: probe, gain: 1.3, sauvolaK: 0.3)
    XCTAssertEqual(kept.scale, probe.scale)
    XCTAssertEqual(kept.binary.pixels, probe.binary.pixels)
    let wide = receipt(rows: 30, pitch: 18, across: 10)
    let wideProbe = pageProbe(wide)
    let off = ReceiptWarpStage.printProbe(wide, quad: corners(wide), probe: wideProbe, gain: 0, sauvolaK: 0.3)
    XCTAssertEqual(off.scale, wideProbe.scale, "print_probe_gain 0 measures on the page's probe")
  }

  func testThePrintProbeGainIsValidated() throws {
    var options = ReceiptWarpStage.Options()
    for good in [0, 1, 1.3, 16] {
      options.printProbeGain = good
      XCTAssertNoThrow(try ReceiptWarpStage.validate(options, context: StageContext()))
    }
    for bad in [-1, 0.5, 17] {
      options.printProbeGain = bad
      XCTAssertThrowsError(try ReceiptWarpStage.validate(options, context: StageContext()))
    }
  }
}
