import XCTest

@testable import SnapsortCore
@testable import SnapsortNative
@testable import SnapsortStages

/// Which way up a card crop's type reads: tesseract on flat card crops rendered by
/// `scripts/render_samples.py --fixtures`, as they are and turned by 180°.
final class TextOrientationTests: XCTestCase {
  private func grayCrop(_ name: String) throws -> Bitmap {
    let url = OCRStageTests.fixtures.appendingPathComponent(name)
    let item = PhotoItem(relativePath: name, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    return try item.pixels().analysis.grayscale()
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
}
