import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// A wallet pass is cropped as the screen shows it: upright, in its own proportions, with about
/// as many pixels as a card's crop; the same corners taken for a card give the landscape ID-1 crop.
final class WarpStagePassTests: XCTestCase {
  private func crop(of quad: [Point], shape: CardShape) throws -> CardCrop {
    let url = ClassifyStageTests.root.appendingPathComponent("samples/screenshots/screenshot-01-light.png")
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    item.artifacts.write(CardGeometry(quad: quad, confidence: 0.9, reason: nil, shape: shape))
    try WarpStage(options: .init(), context: StageContext()).process(item)
    return try XCTUnwrap(item.artifacts[CardCrop.self])
  }

  func testAPassKeepsItsPortraitProportionsAndCorners() throws {
    // 300 wide, 450 tall: a pass half again as tall as it is wide.
    let quad = [Point(100, 200), Point(400, 200), Point(400, 650), Point(100, 650)]
    let pass = try crop(of: quad, shape: .pass)
    XCTAssertEqual(Double(pass.image.height) / Double(pass.image.width), 1.5, accuracy: 0.01)
    let options = WarpStage.Options()
    XCTAssertEqual(
      Double(pass.image.width * pass.image.height), Double(options.width * options.height),
      accuracy: 0.01 * Double(options.width * options.height))
    XCTAssertEqual(pass.quad, quad, "a pass is not turned: its top-left corner stays first")
    let card = try crop(of: quad, shape: .card)
    XCTAssertEqual([card.image.width, card.image.height], [options.width, options.height])
    XCTAssertNotEqual(card.quad, quad, "a portrait quad taken for a card starts at another corner")
  }
}

/// The grey crop and flattened page the warp stage hands to the ocr stage are those the ocr
/// stage would make from the crop itself: never the pixels of the crop before it was turned.
final class WarpStagePreparedTests: XCTestCase {
  func testPreparedPagesMatchTheCropAsWritten() throws {
    let url = ClassifyStageTests.root.appendingPathComponent("samples/screenshots/screenshot-01-light.png")
    let corners = [Point(60, 300), Point(700, 300), Point(700, 700), Point(60, 700)]
    var handed = 0
    // As detected, and the same card taken from its opposite corner (upside down).
    for quad in [corners, Array(corners[2...] + corners[..<2])] {
      let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
      try LoadStage(options: .init(), context: StageContext()).process(item)
      item.artifacts.write(CardGeometry(quad: quad, confidence: 0.9, reason: nil, shape: .card))
      try WarpStage(options: .init(), context: StageContext()).process(item)
      let crop = try XCTUnwrap(item.artifacts[CardCrop.self])
      guard let prepared = crop.prepared else { continue }
      handed += 1
      XCTAssertEqual(prepared.gray, crop.image.grayscale())
      if let flattened = prepared.flattened {
        XCTAssertEqual(flattened, TextContrast.flattened(crop.image.grayscale()))
      }
    }
    XCTAssertGreaterThan(handed, 0, "the crop as detected is upright: its grey page is handed on")
  }
}

/// A quad square to the image is a card drawn on a screen, which shows it upright: without a
/// barcode's vote it is kept as detected and not read for which way is up (the ocr stage makes
/// the coarse reading then); a tilted quad, or the rule turned off, is read.
final class WarpStageScreenTests: XCTestCase {
  private func crop(of quad: [Point], squareUprightDegrees: Double) throws -> CardCrop {
    let url = ClassifyStageTests.root.appendingPathComponent("samples/screenshots/screenshot-01-light.png")
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    item.artifacts.write(CardGeometry(quad: quad, confidence: 0.9, reason: nil, shape: .card))
    var options = WarpStage.Options()
    options.squareUprightDegrees = squareUprightDegrees
    try WarpStage(options: options, context: StageContext()).process(item)
    return try XCTUnwrap(item.artifacts[CardCrop.self])
  }

  func testASquareQuadIsKeptAsDetectedUnread() throws {
    let corners = [Point(60, 300), Point(700, 300), Point(700, 700), Point(60, 700)]
    let upsideDown = Array(corners[2...] + corners[..<2])
    for quad in [corners, upsideDown] {
      let crop = try crop(of: quad, squareUprightDegrees: 0.25)
      XCTAssertEqual(crop.quad, quad)
      XCTAssertNil(crop.reading)
      XCTAssertNil(crop.prepared?.flattened)
      XCTAssertNotNil(try self.crop(of: quad, squareUprightDegrees: -1).reading, "read when the rule is off")
    }
    let tilted = [Point(60, 300), Point(700, 330), Point(681, 730), Point(41, 700)]
    XCTAssertNotNil(try crop(of: tilted, squareUprightDegrees: 0.25).reading, "a tilted quad is read")
  }
}
