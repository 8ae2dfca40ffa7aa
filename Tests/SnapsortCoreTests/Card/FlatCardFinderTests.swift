import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The exact-step finder on screenshots built in code: a card two levels off the theme's
/// background, a white code panel and list rows below it.
final class FlatCardFinderTests: XCTestCase {
  private struct Box {
    var x0: Int, y0: Int, x1: Int, y1: Int, radius: Int
    var colour: (UInt8, UInt8, UInt8)

    func contains(_ x: Int, _ y: Int) -> Bool {
      guard x >= x0, x < x1, y >= y0, y < y1 else { return false }
      // Rounded corners: outside the quarter circle in each corner is background.
      let cx = min(max(x, x0 + radius), x1 - 1 - radius), cy = min(max(y, y0 + radius), y1 - 1 - radius)
      let dx = x - cx, dy = y - cy
      return dx * dx + dy * dy <= radius * radius
    }
  }

  private func screenshot(
    background: (UInt8, UInt8, UInt8), card: (UInt8, UInt8, UInt8), noise: Int = 0,
    noisyRow: (Int) -> Bool = { _ in true }
  ) -> (Bitmap, [Point]) {
    let width = 585, height = 1266
    let cardBox = Box(x0: 30, y0: 190, x1: 555, y1: 190 + 331, radius: 20, colour: card)
    // Drawn last to first: the card's own white panel and the text blocks sit on top of it.
    let boxes = [
      Box(x0: 160, y0: 430, x1: 425, y1: 500, radius: 0, colour: (255, 255, 255)),
      Box(x0: 60, y0: 220, x1: 300, y1: 260, radius: 0, colour: (230, 230, 230)),
      cardBox,
      Box(x0: 32, y0: 560, x1: 552, y1: 765, radius: 15, colour: (255, 255, 255)),
      Box(x0: 30, y0: 805, x1: 555, y1: 870, radius: 12, colour: (34, 34, 38)),
      Box(x0: 30, y0: 885, x1: 555, y1: 950, radius: 12, colour: (34, 34, 38)),
    ]
    var seed: UInt32 = 7
    let image = Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          let colour = boxes.first { $0.contains(x, y) }?.colour ?? background
          let i = (y * width + x) * 3
          for (k, value) in [colour.0, colour.1, colour.2].enumerated() {
            seed = seed &* 1_103_515_245 &+ 12345
            let jitter = noise == 0 || !noisyRow(y) ? 0 : Int(seed >> 16) % (2 * noise + 1) - noise
            out[i + k] = UInt8(clamping: Int(value) + jitter)
          }
        }
      }
    }
    let truth = [Point(30, 190), Point(555, 190), Point(555, 521), Point(30, 521)]
    return (image, truth)
  }

  func testFindsANearBlackCardOnADarkThemeToThePixel() throws {
    let (image, truth) = screenshot(background: (18, 18, 20), card: (17, 17, 17))
    let result = try XCTUnwrap(FlatCardFinder().find(in: image))
    for (found, expected) in zip(result.quad, truth) {
      XCTAssertEqual(found.x, expected.x, accuracy: 1)
      XCTAssertEqual(found.y, expected.y, accuracy: 1)
    }
  }

  func testFindsAWhiteCardOnALightTheme() throws {
    let (image, truth) = screenshot(background: (242, 242, 247), card: (250, 250, 250))
    let result = try XCTUnwrap(FlatCardFinder().find(in: image))
    XCTAssertGreaterThan(Quad.iou(result.quad, truth), 0.99)
  }

  func testLeavesNoisyPhotosToTheGeneralDetector() {
    // Sensor noise of a couple of levels: no exact steps to trust.
    let (image, _) = screenshot(background: (120, 110, 100), card: (0, 90, 170), noise: 2)
    XCTAssertNil(FlatCardFinder().find(in: image))
  }

  func testAPhotoSmoothedOverMostOfItsRowsIsNotFlat() {
    // A motion-blurred photo: noise left in three rows of ten, so about seven in ten pixels equal
    // their neighbour; rendered screenshots measure 0.95 and more.
    let (photo, _) = screenshot(
      background: (120, 110, 100), card: (0, 90, 170), noise: 2, noisyRow: { $0 % 10 < 3 })
    XCTAssertFalse(FlatCardFinder().isFlat(photo))
    let (screen, _) = screenshot(background: (242, 242, 247), card: (250, 250, 250))
    XCTAssertTrue(FlatCardFinder().isFlat(screen))
  }

  func testAScreenshotWithoutACardShapedRectangleGivesNothing() {
    // The same screen with the card drawn square: no rectangle of the card's aspect.
    let (image, _) = screenshot(background: (18, 18, 20), card: (18, 18, 20))
    XCTAssertNil(FlatCardFinder().find(in: image))
  }
}
