import XCTest

@testable import SnapsortCore
@testable import SnapsortNative
@testable import SnapsortStages

/// Which way up a card crop's type reads: tesseract on flat card crops rendered by
/// `scripts/render_samples.py --fixtures`, as they are and turned by 180°.
final class TextOrientationTests: XCTestCase {
  /// The crop prepared as the warp stage reads it: the ocr stage's flattened grey.
  private func grayCrop(_ name: String) throws -> Bitmap {
    let url = OCRStageTests.fixtures.appendingPathComponent(name)
    let item = PhotoItem(relativePath: name, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    return TextContrast.flattened(try item.pixels().analysis.grayscale())
  }

  /// An upright crop reads more confident letters as it is; the same crop turned reads more
  /// turned, each by at least the warp stage's lead.
  func testTypeReadsMoreLettersTheRightWayUp() throws {
    let reader = TextOrientation(engine: try TesseractEngine(languages: "eng"), height: 224, sureAt: nil)
    let lead = WarpStage.Options().textOrientationLead
    let upright = try grayCrop("kaffeeroesterei.png")
    let asIs = try XCTUnwrap(reader.read(upright, deadline: 10_000))
    XCTAssertEqual(asIs.verdict(lead: lead), false, "upright \(asIs.upright), turned \(asIs.turned ?? -1)")
    let turned = try XCTUnwrap(reader.read(upright.rotated180(), deadline: 10_000))
    XCTAssertEqual(
      turned.verdict(lead: lead), true, "upright \(turned.upright), turned \(turned.turned ?? -1)")
  }

  /// A crop that reads as many letters as `sureAt` as it is is not read turned, and is upright.
  func testASureUprightReadingSkipsTheTurnedOne() throws {
    let sureAt = WarpStage.Options().textOrientationSureAt
    let reader = TextOrientation(engine: try TesseractEngine(languages: "eng"), height: 224, sureAt: sureAt)
    let reading = try XCTUnwrap(reader.read(try grayCrop("kaffeeroesterei.png"), deadline: 10_000))
    XCTAssertGreaterThanOrEqual(reading.upright, sureAt)
    XCTAssertNil(reading.turned)
    XCTAssertEqual(reading.verdict(lead: WarpStage.Options().textOrientationLead), false)
  }

  /// The reading of the way chosen, which the ocr stage takes as its coarse reading, has its boxes
  /// in the crop's pixels, and the crop turned, read turned, gives the upright crop's words.
  func testReadingsAreInTheCropsPixelsEitherWayUp() throws {
    let reader = TextOrientation(engine: try TesseractEngine(languages: "eng"), height: 224, sureAt: nil)
    let upright = try grayCrop("kaffeeroesterei.png")
    let asIs = try XCTUnwrap(reader.readings(upright, deadline: 10_000))
    let pageWidth = Double(upright.width * 224 / upright.height)
    let right = asIs.upright.lines.map { $0.box.x + $0.box.width }.max() ?? 0
    XCTAssertGreaterThan(right, pageWidth, "boxes in the 224-row page's pixels")
    XCTAssertLessThanOrEqual(right, Double(upright.width) + 1)
    let turned = try XCTUnwrap(reader.readings(upright.rotated180(), deadline: 10_000))
    let confident = { (result: TesseractEngine.Result?) in
      Set((result?.words ?? []).filter { $0.confidence >= 70 }.map(\.text))
    }
    let words = confident(asIs.upright)
    XCTAssertFalse(words.isEmpty)
    XCTAssertGreaterThanOrEqual(
      words.intersection(confident(turned.turned)).count * 2, words.count, "\(words) against turned")
  }
}
