import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// What the ocr stage's coarse-reading trace (`SNAPSORT_COARSE_TRACE`) measures: the name model's
/// probability of the page reading's best candidate.
final class CoarseTraceTests: XCTestCase {
  private func reader() throws -> CardNameReader {
    CardNameReader(
      model: try NameModel.load(from: StageContext().resolve(NameModel.bundledFileName)), nameEngine: nil,
      rereads: 0, lineHeight: 48)
  }

  private func line(_ text: String, box: Box, confidence: Double = 92) -> TesseractEngine.Item {
    TesseractEngine.Item(text: text, box: box, confidence: confidence)
  }

  func testABrandInLargeTypeAtTheTopIsSurerThanSmallPrintAlone() throws {
    let page = Bitmap(width: 1012, height: 638, format: .gray, fill: 255)
    let small = line("Member since 2019", box: Box(x: 60, y: 560, width: 300, height: 18))
    let brand = line("Kruidvat", box: Box(x: 60, y: 60, width: 300, height: 60))
    let reader = try reader()
    let smallOnly = reader.bestPageProbability(
      TesseractEngine.Result(lines: [small], words: [small], timedOut: false), of: page)
    let withBrand = reader.bestPageProbability(
      TesseractEngine.Result(lines: [brand, small], words: [brand, small], timedOut: false), of: page)
    XCTAssertGreaterThan(withBrand, smallOnly)
    XCTAssertGreaterThan(withBrand, 0.5)
  }

  func testAnEmptyPageOrNoModelIsNeverSure() throws {
    let page = Bitmap(width: 1012, height: 638, format: .gray, fill: 255)
    let empty = TesseractEngine.Result(lines: [], words: [], timedOut: false)
    XCTAssertEqual(try reader().bestPageProbability(empty, of: page), 0)
    let brand = line("Kruidvat", box: Box(x: 60, y: 60, width: 300, height: 60))
    let noModel = CardNameReader(model: nil, nameEngine: nil, rereads: 0, lineHeight: 48)
    XCTAssertEqual(
      noModel.bestPageProbability(
        TesseractEngine.Result(lines: [brand], words: [brand], timedOut: false), of: page),
      0)
  }
}
