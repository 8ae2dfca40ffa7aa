import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

final class NameLineBoxTests: XCTestCase {
  /// A 400 × 120 page of one grey level with rectangles of another, as (columns, rows).
  private func page(background: UInt8 = 230, ink: UInt8 = 20, _ blocks: [(Range<Int>, Range<Int>)]) -> Bitmap
  {
    var image = Bitmap(width: 400, height: 120, format: .gray, fill: background)
    for (columns, rows) in blocks {
      for y in rows {
        for x in columns { image.pixels[y * 400 + x] = ink }
      }
    }
    return image
  }

  /// Six "letters" 20 px tall on the baseline at row 70, 14 px wide with 6 px between them:
  /// columns 150 to 264.
  private let word = (0..<6).map { (150 + 20 * $0..<164 + 20 * $0, 50..<70) }

  func testALogoBesideTheNameIsLeftOut() {
    // A logo 44 px tall, set 16 px (0.8 letter heights) before the word: the page layout took it in.
    let image = page([(90..<134, 38..<82)] + word)
    let box = NameLineBox().fitted(Box(x: 90, y: 38, width: 174, height: 44), in: image)
    XCTAssertEqual(box, Box(x: 150, y: 50, width: 114, height: 20))
  }

  func testACapitalTallerThanALetterNextToTheWordIsKept() {
    // A capital 34 px tall (1.7 x-heights) 4 px (0.2 letter heights) before a lower-case word:
    // too tall for a letter of the line, but it touches the word, as no logo does.
    let image = page([(132..<146, 36..<70)] + word)
    let box = NameLineBox().fitted(Box(x: 132, y: 36, width: 132, height: 34), in: image)
    XCTAssertEqual(box, Box(x: 132, y: 36, width: 132, height: 34))
  }

  func testAShortRunSetApartAtTheEndIsLeftOut() {
    // One mark of the letters' size 40 px (two letter heights) after the word.
    let image = page(word + [(304..<318, 50..<70)])
    let box = NameLineBox().fitted(Box(x: 150, y: 48, width: 168, height: 24), in: image)
    XCTAssertEqual(box.x + box.width, 264)
  }

  func testALetterTheBoxEndedShortOfIsTakenIn() {
    let image = page(word)
    let box = NameLineBox().fitted(Box(x: 150, y: 50, width: 94, height: 20), in: image)
    XCTAssertEqual(box, Box(x: 150, y: 50, width: 114, height: 20))
  }

  func testLightTypeOnADarkPanel() {
    let image = page(background: 40, ink: 220, word)
    let box = NameLineBox().fitted(Box(x: 150, y: 50, width: 94, height: 20), in: image)
    XCTAssertEqual(box, Box(x: 150, y: 50, width: 114, height: 20))
  }

  func testAnAccentOverTheLettersStaysInTheBox() {
    let image = page(word + [(172..<178, 43..<47)])
    let box = NameLineBox().fitted(Box(x: 150, y: 48, width: 114, height: 24), in: image)
    XCTAssertEqual(box.y, 43)
  }

  func testTooFewPiecesKeepTheBox() {
    let image = page(Array(word.prefix(2)))
    let given = Box(x: 140, y: 45, width: 60, height: 30)
    XCTAssertEqual(NameLineBox().fitted(given, in: image), given)
  }
}
