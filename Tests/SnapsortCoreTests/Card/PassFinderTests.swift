import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// A wallet pass on screenshots drawn in code: a tall rounded panel centred on a phone's screen,
/// and the screens and frames that are no pass (a card, cards stacked with gaps, a photo's frame).
final class PassFinderTests: XCTestCase {
  private typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)

  /// A light-theme screen of `width` × `height` with rounded panels in a brand colour, a white
  /// code panel inside each, a dark image band across each from `band` rows below its top for 130
  /// rows when given, and slight noise as a JPEG leaves.
  private func screen(width: Int = 400, height: Int = 860, panels: [Box], band: Int? = nil) -> Bitmap {
    let radius = 24
    var seed: UInt32 = 7
    return Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          var colour: (UInt8, UInt8, UInt8) = (242, 242, 247)
          for b in panels where Self.inside(x, y, b, radius: radius) {
            let code = x > b.x0 + 60 && x < b.x1 - 60 && y > b.y1 - 140 && y < b.y1 - 40
            colour = code ? (255, 255, 255) : (190, 40, 50)
            if let band, y >= b.y0 + band, y < b.y0 + band + 130 { colour = (30, 60, 35) }
          }
          let i = (y * width + x) * 3
          for (k, value) in [colour.0, colour.1, colour.2].enumerated() {
            seed = seed &* 1_103_515_245 &+ 12345
            out[i + k] = UInt8(clamping: Int(value) + Int(seed >> 16) % 3 - 1)
          }
        }
      }
    }
  }

  private static func inside(_ x: Int, _ y: Int, _ b: Box, radius: Int) -> Bool {
    guard x >= b.x0, x < b.x1, y >= b.y0, y < b.y1 else { return false }
    let cx = min(max(x, b.x0 + radius), b.x1 - 1 - radius)
    let cy = min(max(y, b.y0 + radius), b.y1 - 1 - radius)
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius
  }

  func testFindsTheWholePass() throws {
    let quad = try XCTUnwrap(PassFinder(image: screen(panels: [(16, 120, 384, 640)])).find()).quad
    let expected = [Point(16, 120), Point(384, 120), Point(384, 640), Point(16, 640)]
    for (found, truth) in zip(quad, expected) {
      XCTAssertEqual(found.x, truth.x, accuracy: 1.5)
      XCTAssertEqual(found.y, truth.y, accuracy: 1.5)
    }
  }

  func testAnIDOneCardIsNoPass() {
    // 368 wide, as tall as ID-1: too flat for a pass.
    XCTAssertNil(PassFinder(image: screen(panels: [(16, 140, 384, 372)])).find())
  }

  func testCardsStackedWithGapsAreNoPass() {
    // Three cards one under another, 20 pixels apart: no run of steps down the whole height.
    let cards: [Box] = [(16, 120, 384, 352), (16, 372, 384, 604), (16, 624, 384, 856)]
    XCTAssertNil(PassFinder(image: screen(panels: cards)).find())
  }

  func testAnOffCentrePanelIsNoPass() {
    XCTAssertNil(PassFinder(image: screen(panels: [(16, 120, 360, 640)])).find())
  }

  func testAPhotoFrameIsNotSearched() {
    // A 3:4 portrait photo holding the same panel.
    XCTAssertNil(PassFinder(image: screen(width: 600, height: 800, panels: [(24, 120, 576, 740)])).find())
  }

  func testABandInsideThePassIsPartOfIt() {
    // An ID-1 "card" from the band's top down, flush with the pass's sides: the band meets the
    // sides with no corner, so the sides step on through its top and foot.
    let image = screen(panels: [(16, 120, 384, 640)], band: 70)
    let pass = [Point(16, 120), Point(384, 120), Point(384, 640), Point(16, 640)]
    let band = [Point(16, 190), Point(384, 190), Point(384, 422), Point(16, 422)]
    XCTAssertTrue(PassFinder(image: image).isBandInside(band, of: pass))
    XCTAssertTrue(PassFinder(image: image).isOwnPart(band, of: pass))
  }

  func testACardAboveAPanelIsNoPartOfIt() {
    // A card with its own rounded corners touching a panel below: its foot breaks the sides' steps.
    let image = screen(panels: [(16, 120, 384, 352), (16, 352, 384, 760)])
    let tall = [Point(16, 120), Point(384, 120), Point(384, 760), Point(16, 760)]
    let card = [Point(16, 120), Point(384, 120), Point(384, 352), Point(16, 352)]
    XCTAssertFalse(PassFinder(image: image).isOwnPart(card, of: tall))
  }
}
