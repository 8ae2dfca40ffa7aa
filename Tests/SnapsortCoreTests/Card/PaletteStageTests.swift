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

  /// The white balance of every eighth pixel of `image` in each direction.
  private func balance(of image: Bitmap) -> CardWhiteBalance? {
    var linear: [SIMD3<Double>] = []
    var lab: [CIELAB.Lab] = []
    for y in stride(from: 0, to: image.height, by: 8) {
      for x in stride(from: 0, to: image.width, by: 8) {
        let i = (y * image.width + x) * 3
        let light = SIMD3((0..<3).map { CIELAB.linear(Double(image.pixels[i + $0]) / 255) })
        linear.append(light)
        lab.append(CIELAB.lab(linearR: light.x, linearG: light.y, linearB: light.z))
      }
    }
    return CardWhiteBalance.estimate(linear: linear, lab: lab)
  }

  private func run(
    _ crop: Bitmap, quad: [Point] = [], options: PaletteStage.Options = .init()
  ) throws -> CardRecord {
    let item = PhotoItem(relativePath: "x", url: URL(fileURLWithPath: "/x"), outputDirectory: nil)
    item.artifacts.write(CardCrop(image: crop, quad: quad, file: nil))
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

  func testAnAreaOfManyColoursGivesTheMedianOfEachSRGBChannel() throws {
    // Five colours joined into one area (a step no neighbours differ by): the median of each sRGB
    // channel is (50, 60, 60), a dark grey-green, where the medians of L, a and b would give a
    // mid-lightness olive none of them is near.
    let rgb: [(Double, Double, Double)] = [
      (230, 40, 40), (40, 200, 60), (50, 60, 220), (240, 230, 60), (20, 20, 20),
    ]
    var grid = SampleGrid(width: 5, height: 1)
    grid.colours = rgb.map { CIELAB.lab(r: $0.0 / 255, g: $0.1 / 255, b: $0.2 / 255) }
    grid.glare = Array(repeating: false, count: 5)
    let colour = try XCTUnwrap(grid.largestAreaColour(step: 300))
    XCTAssertEqual(CIELAB.hex(colour), "#323c3c")
  }

  /// A light-blue card (#7fa6c9) with a white code panel and dark print, photographed under a warm
  /// light: each channel scaled in linear light (red 0.92, green 0.81, blue 0.72), as a tungsten
  /// lamp and a slightly dark exposure do. The card's own white gives the cast back.
  private func warmCard() -> Bitmap {
    func lit(_ value: Double, _ gain: Double) -> UInt8 {
      let light = CIELAB.linear(value / 255) * gain
      let encoded = light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055
      return UInt8((min(max(encoded, 0), 1) * 255).rounded())
    }
    return card { x, y in
      let colour: (Double, Double, Double)
      if (380..<600).contains(y) && (250..<760).contains(x) {
        // The code panel, with bars across its middle.
        colour =
          (430..<550).contains(y) && (300..<710).contains(x) && (x / 9) % 2 == 0
          ? (20, 20, 20) : (255, 255, 255)
      } else if (60..<120).contains(y) && (60..<520).contains(x) && (x / 14) % 3 != 0 {
        colour = (30, 30, 40)
      } else {
        colour = (127, 166, 201)
      }
      return (lit(colour.0, 0.92), lit(colour.1, 0.81), lit(colour.2, 0.72))
    }
  }

  func testAWarmCastIsTakenOffByTheCardsWhite() throws {
    let brand = CIELAB.lab(hex: "#7fa6c9")!
    let photo = warmCard()
    let background = try XCTUnwrap(try run(photo).backgrounds?.first.flatMap(CIELAB.lab(hex:)))
    XCTAssertLessThan(CIELAB.distance(background, brand), 4)
    var unbalanced = PaletteStage.Options()
    unbalanced.whiteBalance = false
    let cast = try XCTUnwrap(try run(photo, options: unbalanced).backgrounds?.first.flatMap(CIELAB.lab(hex:)))
    XCTAssertGreaterThan(CIELAB.distance(cast, brand), 8, "the cast moves the colour without the balance")
  }

  func testACardSquareToTheImageIsNotBalanced() throws {
    // The same colours on a card drawn square to the screen: an app's own tint, not a lamp's.
    let square = [Point(100, 200), Point(1112, 200), Point(1112, 838), Point(100, 838)]
    let tilted = [Point(100, 200), Point(1110, 240), Point(1085, 876), Point(76, 836)]
    XCTAssertTrue(PaletteStage.isSquareToFrame(square))
    XCTAssertFalse(PaletteStage.isSquareToFrame(tilted))
    var unbalanced = PaletteStage.Options()
    unbalanced.whiteBalance = false
    let photo = warmCard()
    XCTAssertEqual(try run(photo, quad: square).backgrounds, try run(photo, options: unbalanced).backgrounds)
    XCTAssertNotEqual(
      try run(photo, quad: tilted).backgrounds, try run(photo, options: unbalanced).backgrounds)
  }

  func testACardWithoutWhiteKeepsItsColours() throws {
    // A cream card with brown print: no near-neutral light area to take for white, so nothing is
    // balanced (a cream taken for white would turn blue-grey).
    let cream = card { x, y in (60..<120).contains(y) && x < 500 ? (90, 60, 30) : (243, 229, 171) }
    XCTAssertNil(balance(of: cream))
    let background = try XCTUnwrap(try run(cream).backgrounds?.first)
    XCTAssertLessThan(CIELAB.distance(CIELAB.lab(hex: background)!, CIELAB.lab(hex: "#f3e5ab")!), 1)
  }

  func testAScreenshotsNeutralWhiteChangesNothing() throws {
    // A white panel exactly white: the balance is one on every channel.
    let screen = card { x, y in
      (300..<500).contains(y) && (300..<700).contains(x) ? (250, 250, 250) : (200, 16, 46)
    }
    let balance = try XCTUnwrap(balance(of: screen))
    XCTAssertEqual(balance, CardWhiteBalance(red: 1, green: 1, blue: 1))
  }

  func testDeterministic() throws {
    let noisy = card { x, y in (UInt8((x * 7 + y * 3) % 256), UInt8((x * 13) % 256), UInt8((y * 5) % 256)) }
    XCTAssertEqual(try run(noisy), try run(noisy))
  }
}
