import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// Lines of ink found in pixels drawn here: blocks the size of capitals, in rows.
final class TextLineFinderTests: XCTestCase {
  /// A 1012 × 638 crop of `ground`, with `panel` over its top half.
  private func crop(ground: [UInt8], panel: [UInt8]) -> Bitmap {
    var image = Bitmap(width: 1012, height: 638, format: .rgb, fill: 0)
    for y in 0..<638 {
      for x in 0..<1012 {
        let colour = y < 300 ? panel : ground
        for c in 0..<3 { image.pixels[(y * 1012 + x) * 3 + c] = colour[c] }
      }
    }
    return image
  }

  /// Letter-sized blocks with word spaces: `count` of `width` × `height` from `x` on, `gap` apart,
  /// hollow inside a `stroke` wide.
  private func draw(
    _ image: inout Bitmap, x: Int, y: Int, count: Int, width: Int, height: Int, gap: Int, colour: [UInt8],
    stroke: Int = 8
  ) {
    for index in 0..<count {
      let left = x + index * (width + gap)
      for row in y..<(y + height) {
        // Hollow letters, an O's worth of ink: solid blocks are panels, not type.
        for column in left..<(left + width)
        where row < y + stroke || row >= y + height - stroke || column < left + stroke
          || column >= left + width - stroke
        {
          for c in 0..<3 { image.pixels[(row * image.width + column) * 3 + c] = colour[c] }
        }
      }
    }
  }

  /// White type on a pale yellow panel differs from it by less than the luma contrast the finder
  /// asks for; in the colourfulness map it is ink less colourful than its ground, where it is.
  func testWhiteTypeOnAPaleColourPanelIsFound() throws {
    var image = crop(ground: [255, 255, 255], panel: [255, 240, 140])
    draw(&image, x: 120, y: 80, count: 6, width: 40, height: 60, gap: 14, colour: [255, 255, 255])
    let lines = TextLineFinder().lines(in: image)
    let line = try XCTUnwrap(lines.first { abs($0.box.y - 80) < 6 && abs($0.box.x - 120) < 6 }, "\(lines)")
    XCTAssertEqual(line.box.height, 60, accuracy: 6)
    XCTAssertEqual(line.box.width, 6 * 40 + 5 * 14, accuracy: 8)
    XCTAssertEqual(line.ink, .init(colourfulness: true, light: false))
    XCTAssertEqual(line.components, 6)
  }

  /// Two rows of dark type, a name and small print under it, are two lines, the name first.
  func testRowsOfTypeAreSeparateLinesTallestFirst() {
    var image = crop(ground: [255, 255, 255], panel: [255, 255, 255])
    draw(&image, x: 100, y: 60, count: 5, width: 44, height: 70, gap: 12, colour: [20, 20, 20])
    draw(&image, x: 100, y: 400, count: 12, width: 18, height: 28, gap: 6, colour: [20, 20, 20], stroke: 4)
    let lines = TextLineFinder().lines(in: image)
    XCTAssertEqual(lines.count, 2, "\(lines)")
    XCTAssertEqual(lines.first?.box.y ?? 0, 60, accuracy: 6)
    XCTAssertEqual(lines.first?.ink, .init(colourfulness: false, light: false))
    XCTAssertEqual(lines.last?.box.y ?? 0, 400, accuracy: 6)
  }

  /// A pass's crop keeps its own proportions: its header's type, small against the whole pass's
  /// height, is found when its sizes are taken of a card as wide as the pass, not of the pass.
  func testAPassHeaderIsFoundAgainstACardAsWideAsThePass() {
    let width = 704, height = 915
    var image = Bitmap(width: width, height: height, format: .rgb, fill: 255)
    for y in 0..<120 {
      for x in 0..<width {
        for (c, value) in [220, 0, 20].enumerated() { image.pixels[(y * width + x) * 3 + c] = UInt8(value) }
      }
    }
    draw(&image, x: 110, y: 46, count: 6, width: 18, height: 26, gap: 6, colour: [255, 255, 255], stroke: 4)
    let card = NameLineCandidates.cardHeight(width: Double(width), height: Double(height))
    XCTAssertEqual(card, Double(width) / CardDetector.cardAspect, accuracy: 1e-9)
    XCTAssertFalse(TextLineFinder().lines(in: image).contains { abs($0.box.y - 46) < 6 })
    let lines = TextLineFinder().lines(luma: image.grayscale(), colourfulness: nil, cardHeight: card)
    let line = lines.first { abs($0.box.y - 46) < 6 && abs($0.box.x - 110) < 6 }
    XCTAssertEqual(line?.components, 6, "\(lines)")
  }

  /// A card crop is its own card height: its sizes are taken of its height as before.
  func testACardCropIsItsOwnCardHeight() {
    XCTAssertEqual(NameLineCandidates.cardHeight(width: 1012, height: 638), 638)
    XCTAssertEqual(NameLineCandidates.cardHeight(width: 1600, height: 638), 638)
  }

  /// Barcode bars side by side are not a line of type.
  func testBarcodeBarsAreNoLine() {
    var image = crop(ground: [255, 255, 255], panel: [255, 255, 255])
    for index in 0..<30 {
      draw(&image, x: 300 + index * 14, y: 420, count: 1, width: 6, height: 120, gap: 0, colour: [0, 0, 0])
    }
    XCTAssertEqual(TextLineFinder().lines(in: image).count, 0)
  }
}
