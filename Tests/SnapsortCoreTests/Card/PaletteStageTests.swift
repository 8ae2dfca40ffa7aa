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

  private func run(_ crop: Bitmap, options: PaletteStage.Options = .init()) throws -> CardRecord {
    let item = PhotoItem(relativePath: "x", url: URL(fileURLWithPath: "/x"), outputDirectory: nil)
    item.artifacts.write(CardCrop(image: crop, quad: [], file: nil))
    try PaletteStage(options: options, context: StageContext()).process(item)
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

  /// A background lit from one side runs from dark to light blue: k-means cuts it into colours
  /// at either end, the largest area of one colour is the whole of it, and its median is the
  /// middle of the ramp. A white panel covers a quarter of the card.
  func testAGradientBackgroundIsOneAreaWhoseMedianIsTheFirstBackground() throws {
    let ramp = card { x, y in
      if (150..<450).contains(y) && (250..<760).contains(x) { return (250, 250, 250) }
      let t = Double(x) / 1011
      return (UInt8(20 + 60 * t), UInt8(60 + 90 * t), UInt8(140 + 100 * t))
    }
    let record = try run(ramp)
    let middle = CIELAB.lab(r: 50 / 255, g: 105 / 255, b: 190 / 255)
    let background = try XCTUnwrap(record.backgrounds?.first.flatMap(CIELAB.lab(hex:)))
    XCTAssertLessThan(CIELAB.distance(background, middle), 6, "\(record.backgrounds ?? [])")
    let largestCluster = try XCTUnwrap(record.colors?.first.flatMap { CIELAB.lab(hex: $0.hex) })
    XCTAssertGreaterThan(CIELAB.distance(largestCluster, middle), 6, "k-means alone cuts the ramp")
    var clustersOnly = PaletteStage.Options()
    clustersOnly.areaStep = 0
    XCTAssertEqual(try run(ramp, options: clustersOnly).backgrounds?.first, record.colors?.first?.hex)
  }

  func testTheLargerOfTwoFlatAreasIsTheFirstBackground() throws {
    // Red over the upper 40 %, dark grey below: the grey area is the card's background.
    let record = try run(card { _, y in y < 255 ? (200, 16, 46) : (40, 40, 40) })
    let background = try XCTUnwrap(record.backgrounds?.first.flatMap(CIELAB.lab(hex:)))
    XCTAssertLessThan(CIELAB.distance(background, CIELAB.lab(hex: "#282828")!), 1)
  }

  func testDeterministic() throws {
    let noisy = card { x, y in (UInt8((x * 7 + y * 3) % 256), UInt8((x * 13) % 256), UInt8((y * 5) % 256)) }
    XCTAssertEqual(try run(noisy), try run(noisy))
  }
}
