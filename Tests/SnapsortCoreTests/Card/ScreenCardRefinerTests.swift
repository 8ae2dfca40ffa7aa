import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The card's own edge inside its drop shadow, on screenshots drawn in code: a card with rounded
/// corners and a header band over a soft shadow that falls mostly below it.
final class ScreenCardRefinerTests: XCTestCase {
  private let card = (x0: 40, y0: 200, x1: 680, y1: 200 + 404)

  /// A light-theme screen: the shadow a blurred dark rectangle offset down (darkest at the card,
  /// fading over `blur` pixels), the card drawn over it with a band across its top.
  private func screenshot(
    blur: Double, shadowAlpha: Double, jpegNoise: Bool = false, panel: Bool = false,
    whiteFooter: Bool = false, toolbar: Bool = false, glow: Bool = false,
    background: Double = 242
  ) -> Bitmap {
    let width = 720, height = 1400, radius = 40, drop = 24.0
    let cardColour: (UInt8, UInt8, UInt8) = (30, 90, 160)
    let band: (UInt8, UInt8, UInt8) = (200, 40, 40)
    var seed: UInt32 = 11
    return Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          var colour: (UInt8, UInt8, UInt8)
          if toolbar, y < 150 {
            // An app's toolbar across the screen's top, in a colour of its own.
            colour = (60, 60, 200)
          } else if panel, self.inPanel(x, y) {
            // A white code panel of the card's own shape below it, bars across its middle.
            let bar = y > self.panel.y0 + 120 && y < self.panel.y1 - 120 && x > 120 && x < 600 && x % 9 < 4
            colour = bar ? (0, 0, 0) : (255, 255, 255)
          } else if glow, !self.inCard(x, y, radius: radius), self.inGlow(x, y) {
            // A flat glow around the card, 12 levels off the theme, its outer edge a rectangle of
            // the card's aspect larger than the card.
            let value = UInt8(clamping: Int(background) - 12)
            colour = (value, value, value)
          } else if self.inCard(x, y, radius: radius) {
            colour = y < self.card.y0 + 90 ? band : cardColour
            // A white strip along the card's foot (holder and number rows on some cards).
            if whiteFooter, y >= self.card.y1 - 60 { colour = (255, 255, 255) }
          } else {
            // Distance outside the shadow's rectangle (the card moved down by `drop`).
            let dx = max(Double(self.card.x0) - Double(x), 0, Double(x) - Double(self.card.x1))
            let dy = max(Double(self.card.y0) + drop - Double(y), 0, Double(y) - Double(self.card.y1) - drop)
            let outside = (dx * dx + dy * dy).squareRoot()
            let shade = shadowAlpha * max(0, 1 - outside / blur)
            let value = UInt8(clamping: Int((background * (1 - shade)).rounded()))
            colour = (value, value, value)
          }
          let i = (y * width + x) * 3
          for (k, value) in [colour.0, colour.1, colour.2].enumerated() {
            seed = seed &* 1_103_515_245 &+ 12345
            let jitter = jpegNoise ? Int(seed >> 16) % 5 - 2 : 0
            out[i + k] = UInt8(clamping: Int(value) + jitter)
          }
        }
      }
    }
  }

  private let panel = (x0: 40, y0: 660, x1: 680, y1: 660 + 404)

  private func inPanel(_ x: Int, _ y: Int) -> Bool {
    x >= panel.x0 && x < panel.x1 && y >= panel.y0 && y < panel.y1
  }

  private let glowBox = (x0: 28, y0: 193, x1: 692, y1: 612)

  private func inGlow(_ x: Int, _ y: Int) -> Bool {
    x >= glowBox.x0 && x < glowBox.x1 && y >= glowBox.y0 && y < glowBox.y1
  }

  private func inCard(_ x: Int, _ y: Int, radius: Int) -> Bool {
    guard x >= card.x0, x < card.x1, y >= card.y0, y < card.y1 else { return false }
    let cx = min(max(x, card.x0 + radius), card.x1 - 1 - radius)
    let cy = min(max(y, card.y0 + radius), card.y1 - 1 - radius)
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius
  }

  private var truth: [Point] {
    [
      Point(Double(card.x0), Double(card.y0)), Point(Double(card.x1), Double(card.y0)),
      Point(Double(card.x1), Double(card.y1)), Point(Double(card.x0), Double(card.y1)),
    ]
  }

  private func assertCorners(
    _ found: [Point]?, within tolerance: Double, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let found = try XCTUnwrap(found, file: file, line: line)
    for (point, expected) in zip(found, truth) {
      XCTAssertEqual(point.x, expected.x, accuracy: tolerance, file: file, line: line)
      XCTAssertEqual(point.y, expected.y, accuracy: tolerance, file: file, line: line)
    }
  }

  func testMovesAQuadAroundCardAndShadowInToTheCardsEdge() throws {
    let image = screenshot(blur: 60, shadowAlpha: 0.6)
    // The quad a gradient detector gives: the card with the shadow's reach, most at the bottom.
    let coarse = [Point(12, 186), Point(708, 186), Point(708, 686), Point(12, 686)]
    XCTAssertLessThan(Quad.iou(coarse, truth), 0.8)
    try assertCorners(ScreenCardRefiner(image: image).refine(coarse), within: 1)
  }

  func testFindsTheEdgeThroughNoiseLikeAJPEGs() throws {
    let image = screenshot(blur: 40, shadowAlpha: 0.8, jpegNoise: true)
    let coarse = [Point(20, 190), Point(700, 190), Point(700, 660), Point(20, 660)]
    try assertCorners(ScreenCardRefiner(image: image).refine(coarse), within: 1)
  }

  func testACorrectQuadStaysAndTheBandInsideIsNotTakenForTheTop() throws {
    // The band's lower edge is a straight step right across the card, a stronger one than the
    // card's top against the light background; taking it would break the card's aspect.
    let image = screenshot(blur: 30, shadowAlpha: 0.5)
    try assertCorners(ScreenCardRefiner(image: image).refine(truth), within: 1)
  }

  func testATiltedQuadIsLeftToThePhotoRefiner() {
    let image = screenshot(blur: 30, shadowAlpha: 0.5)
    let tilted = [Point(40, 200), Point(680, 230), Point(660, 634), Point(20, 604)]
    XCTAssertNil(ScreenCardRefiner(image: image).refine(tilted))
  }

  func testTheStageFindsTheCardNotItsShadowInALosslessScreenshot() throws {
    // The exact-step finder alone takes in the shadow's rows, each differing from the last.
    let image = screenshot(blur: 60, shadowAlpha: 0.6)
    let flat = try XCTUnwrap(FlatCardFinder().find(in: image))
    let refined = ScreenCardRefiner(image: image).refine(flat.quad)
    try assertCorners(refined, within: 1)
  }

  func testTheCardAboveAWhitePanelOfItsShapeWins() throws {
    let image = screenshot(blur: 20, shadowAlpha: 0.4, panel: true)
    let panelQuad = [Point(40, 660), Point(680, 660), Point(680, 1064), Point(40, 1064)]
    let refiner = ScreenCardRefiner(image: image)
    try assertCorners(refiner.cardAbove(panelQuad), within: 1)
    // The card itself has nothing of its shape above it: it stays.
    XCTAssertNil(refiner.cardAbove(truth))
  }

  func testTheTopCardOfAListWinsOverTheOneAboveTheQuad() throws {
    // The quad lies on a row at the list's foot; above it the white panel of the card's shape,
    // above that the card: the first search above stops at the panel, the next one finds the card.
    let image = screenshot(blur: 20, shadowAlpha: 0.4, panel: true)
    let rowQuad = [Point(40, 1120), Point(680, 1120), Point(680, 1300), Point(40, 1300)]
    try assertCorners(ScreenCardRefiner(image: image).cardAbove(rowQuad), within: 1)
  }

  func testAFaintFootEdgeIsFoundBesideAStrongBandInsideTheCard() throws {
    // White foot on a light theme: 15 levels at the card's bottom, 225 at the strip's top edge
    // inside it, both within the bottom side's search.
    let image = screenshot(blur: 1, shadowAlpha: 0, whiteFooter: true, background: 240)
    let coarse = [Point(34, 194), Point(686, 194), Point(686, 610), Point(34, 610)]
    try assertCorners(ScreenCardRefiner(image: image).refine(coarse), within: 1)
  }

  func testTheCardAboveAPanelWhoseQuadStartsInsideTheCardsFoot() throws {
    // The panel's quad, fitted through its shadow's blur, begins a few pixels above the card's
    // lower edge.
    let image = screenshot(blur: 20, shadowAlpha: 0.4, panel: true)
    let panelQuad = [Point(40, 600), Point(680, 600), Point(680, 1064), Point(40, 1064)]
    try assertCorners(ScreenCardRefiner(image: image).cardAbove(panelQuad), within: 1)
  }

  func testTheCardAboveAPanelWinsOverALargerShapeThroughTheScreensEdges() throws {
    // The panel's quad, widened by its glow, spans the screen: the strip above it runs from edge
    // to edge, and the screen's two edges (no step at all) with the toolbar's foot and the
    // card's bottom make a rectangle of the card's aspect larger than the card.
    let image = screenshot(blur: 20, shadowAlpha: 0.4, panel: true, toolbar: true)
    let panelQuad = [Point(0, 660), Point(720, 660), Point(720, 1064), Point(0, 1064)]
    try assertCorners(ScreenCardRefiner(image: image).cardAbove(panelQuad), within: 1)
  }

  func testTheCardAboveAPanelIsPlacedFromItsAspectWhenItsFootMakesNoStep() throws {
    // A white foot on a near-white theme (5 levels, under the smallest step) and no shadow: the
    // card's bottom is nowhere, its top and sides are clear.
    let image = screenshot(blur: 1, shadowAlpha: 0, panel: true, whiteFooter: true, background: 250)
    let panelQuad = [Point(40, 660), Point(680, 660), Point(680, 1064), Point(40, 1064)]
    let refiner = ScreenCardRefiner(image: image)
    try assertCorners(refiner.cardAbove(panelQuad), within: 1)
    // Nothing with sides stands above the card itself.
    XCTAssertNil(refiner.cardAbove(truth))
    // With no side placed (no share of rows can reach 1.01) the card is not found: its foot has no step.
    var strict = refiner
    strict.sideRun = 1.01
    XCTAssertNil(strict.cardAbove(panelQuad))
  }

  func testTheCardAtTheTopOfAQuadThatRunsOnIntoThePanelBelow() throws {
    // The card and the panel below it share their sides: one tall quad around both.
    let image = screenshot(blur: 20, shadowAlpha: 0.4, panel: true)
    let merged = [Point(40, 200), Point(680, 200), Point(680, 1064), Point(40, 1064)]
    let refiner = ScreenCardRefiner(image: image)
    try assertCorners(refiner.cardAtTop(merged), within: 1)
    // A quad of the card's own shape is not looked into.
    XCTAssertNil(refiner.cardAtTop(truth))
  }

  func testTheScreensEdgesDoNotMakeACardOfTheToolbarsFootAndTheCardsBottom() throws {
    // A card inside the screen, its shadow fading out before the screen's edges: the quad a
    // detector gives spans the screen from the toolbar's foot down, and the screen's two edges
    // (no step) with the toolbar's foot and the card's bottom have the card's aspect and a larger
    // area. The card's bottom does not reach the screen's edges, so those edges are no sides.
    let image = screenshot(blur: 20, shadowAlpha: 0.4, toolbar: true)
    let coarse = [Point(0, 150), Point(720, 150), Point(720, 610), Point(0, 610)]
    try assertCorners(ScreenCardRefiner(image: image).refine(coarse), within: 1)
  }

  func testACardRunningOffTheLeftEdgeIsPlacedFromItsAspect() throws {
    // The same screen scrolled 100 pixels to the left: the card's left side is 60 pixels beyond
    // the screen's edge, and its top and bottom run to it.
    let full = screenshot(blur: 20, shadowAlpha: 0.4)
    let shift = 100
    let image = Bitmap(width: full.width - shift, height: full.height, format: .rgb) { out in
      for y in 0..<full.height {
        for x in 0..<(full.width - shift) {
          for k in 0..<3 {
            out[(y * (full.width - shift) + x) * 3 + k] = full.pixels[(y * full.width + x + shift) * 3 + k]
          }
        }
      }
    }
    let visible = [Point(0, 196), Point(584, 196), Point(584, 610), Point(0, 610)]
    let found = try XCTUnwrap(ScreenCardRefiner(image: image).refine(visible))
    let expected = truth.map { Point($0.x - Double(shift), $0.y) }
    for (point, corner) in zip(found, expected) {
      XCTAssertEqual(point.x, corner.x, accuracy: 1.5)
      XCTAssertEqual(point.y, corner.y, accuracy: 1)
    }
    // On the whole screen the same quad's left side is inside the card, not at the screen's edge:
    // nothing is placed beyond the edge.
    let inside = visible.map { Point($0.x + Double(shift), $0.y) }
    if let refined = ScreenCardRefiner(image: full).refine(inside) {
      XCTAssertGreaterThanOrEqual(refined.map(\.x).min() ?? -1, 0)
    }
  }

  func testTheCardsOwnSidesWinOverALargerRectangleThroughAFaintGlowsEdge() throws {
    // The glow's edge steps by 12 levels, the card's sides by 190 and more: weighed by its weakest
    // step, the glow's larger rectangle of the card's aspect loses to the card.
    let image = screenshot(blur: 1, shadowAlpha: 0, glow: true)
    let coarse = [
      Point(Double(glowBox.x0), Double(glowBox.y0)), Point(Double(glowBox.x1), Double(glowBox.y0)),
      Point(Double(glowBox.x1), Double(glowBox.y1)), Point(Double(glowBox.x0), Double(glowBox.y1)),
    ]
    try assertCorners(ScreenCardRefiner(image: image).refine(coarse), within: 1)
    // Unweighed, the larger rectangle wins.
    var unweighed = ScreenCardRefiner(image: image)
    unweighed.stepWeight = 1
    let found = try XCTUnwrap(unweighed.refine(coarse))
    XCTAssertEqual(found[0].x, Double(glowBox.x0), accuracy: 1)
    XCTAssertEqual(found[2].y, Double(glowBox.y1), accuracy: 1)
  }

  /// `image` with a white rectangle (a barcode's panel, a logo) painted over x 260..<460, y 380..<480.
  private func withPanel(_ image: Bitmap) -> Bitmap {
    Bitmap(width: image.width, height: image.height, format: .rgb) { out in
      for i in 0..<image.pixels.count { out[i] = image.pixels[i] }
      for y in 380..<480 {
        for x in 260..<460 {
          for k in 0..<3 { out[(y * image.width + x) * 3 + k] = 255 }
        }
      }
    }
  }

  func testAQuadThatIsOnlyAPieceOfTheCardGrowsOutToTheCard() throws {
    let image = withPanel(screenshot(blur: 20, shadowAlpha: 0.4))
    let piece = [Point(260, 380), Point(460, 380), Point(460, 480), Point(260, 480)]
    let refiner = ScreenCardRefiner(image: image)
    try assertCorners(refiner.cardAround(piece), within: 1)
    // A quad as wide as a card on the screen is no piece of one.
    XCTAssertNil(refiner.cardAround(truth))
  }

  func testAPieceWithNoCardAroundItStays() {
    // The same white rectangle on the bare theme: no four strong steps of the card's aspect.
    let bare = Bitmap(width: 720, height: 1400, format: .rgb) { out in
      for i in 0..<(720 * 1400 * 3) { out[i] = 242 }
    }
    let piece = [Point(260, 380), Point(460, 380), Point(460, 480), Point(260, 480)]
    XCTAssertNil(ScreenCardRefiner(image: withPanel(bare)).cardAround(piece))
  }
}
