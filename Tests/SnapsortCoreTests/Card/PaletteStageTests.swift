import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class PaletteStageTests: XCTestCase {
  private func card(_ fill: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Bitmap {
    Bitmap(width: 1012, height: 638, format: .rgb) { out in
      for y in 0..<638 {
        for x in 0..<1012 {
          let (r, g, b) = fill(x, y)
          out[(y * 1012 + x) * 3] = r
          out[(y * 1012 + x) * 3 + 1] = g
          out[(y * 1012 + x) * 3 + 2] = b
        }
      }
    }
  }

  private func run(_ crop: Bitmap) throws -> CardRecord {
    let item = PhotoItem(relativePath: "x", url: URL(fileURLWithPath: "/x"), outputDirectory: nil)
    item.artifacts.write(CardCrop(image: crop, quad: [], file: nil))
    try PaletteStage(options: .init(), context: StageContext()).process(item)
    return try XCTUnwrap(item.record.card)
  }

  func testTwoColourCardGivesBothWithTheirShares() throws {
    // Green with a yellow band over the lower 30 %.
    let record = try run(card { _, y in y > 446 ? (242, 196, 0) : (0, 106, 58) })
    let colors = try XCTUnwrap(record.colors)
    XCTAssertEqual(colors.count, 2, "\(colors)")
    XCTAssertLessThan(
      CIELAB.distance(CIELAB.lab(hex: colors[0].hex)!, CIELAB.lab(hex: "#006a3a")!), 1)
    XCTAssertEqual(colors[0].share, 0.7, accuracy: 0.05)
    XCTAssertLessThan(
      CIELAB.distance(CIELAB.lab(hex: colors[1].hex)!, CIELAB.lab(hex: "#f2c400")!), 1)
    XCTAssertEqual(record.headerColor, colors[0].hex)
    XCTAssertEqual(record.backgrounds?.count, 2)
  }

  func testKeepsABrandStripeBrokenByACodePanel() throws {
    // Black, a white code panel in the middle, and a red stripe 24 px high either side of it:
    // about 2.5 % of the sampled area, less than the 3 % that used to fold it into black.
    let record = try run(
      card { x, y in
        if (250..<450).contains(y) && (300..<700).contains(x) { return (245, 245, 245) }
        if (300..<324).contains(y) { return (200, 16, 46) }
        return (15, 15, 15)
      })
    let colors = try XCTUnwrap(record.colors)
    let red = CIELAB.lab(hex: "#c8102e")!
    XCTAssertTrue(
      colors.contains { CIELAB.distance(CIELAB.lab(hex: $0.hex)!, red) < 3 }, "\(colors)")
  }

  func testAllWhiteCardInventsNoColours() throws {
    let record = try run(card { _, _ in (250, 250, 250) })
    XCTAssertEqual(record.colors?.map(\.hex), ["#fafafa"])
    XCTAssertEqual(record.colors?.first?.share, 1)
  }

  func testAWhiteHalfOfTheCardIsAColourNotGlare() throws {
    // A screenshot's card: the lower half pure white, as an app draws it; nothing is blown out.
    let record = try run(card { _, y in y > 319 ? (255, 255, 255) : (235, 37, 68) })
    let colors = try XCTUnwrap(record.colors)
    XCTAssertEqual(colors.count, 2, "\(colors)")
    let white = try XCTUnwrap(colors.first { CIELAB.lab(hex: $0.hex)!.l > 99 }, "\(colors)")
    XCTAssertEqual(white.share, 0.5, accuracy: 0.05)
  }

  func testASmallPatchOfGlareIsLeftOut() throws {
    // A blown-out highlight over a tenth of a blue card: light, not a colour of the card.
    let record = try run(card { x, y in x < 320 && y < 200 ? (255, 255, 255) : (0, 70, 160) })
    XCTAssertEqual(record.colors?.count, 1, "\(record.colors ?? [])")
  }

  func testDeterministic() throws {
    let noisy = card { x, y in (UInt8((x * 7 + y * 3) % 256), UInt8((x * 13) % 256), UInt8((y * 5) % 256)) }
    XCTAssertEqual(try run(noisy), try run(noisy))
  }
}
