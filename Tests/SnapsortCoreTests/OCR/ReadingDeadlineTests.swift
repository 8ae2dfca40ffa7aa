import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// Tesseract readings stop on the thread's CPU time, not the wall clock, so that a busy machine
/// gets the same records as an idle one.
final class ReadingDeadlineTests: XCTestCase {
  private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/ocr")

  /// A page of many words: the fixture card tiled four by four.
  private func longPage() throws -> Bitmap {
    let item = PhotoItem(
      relativePath: "ahlens", url: Self.fixtures.appendingPathComponent("ahlens.png"), outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    let card = try item.pixels().analysis.grayscale()
    var page = Bitmap(width: card.width * 4, height: card.height * 4, format: .gray, fill: 255)
    for tile in 0..<16 {
      let (left, top) = (tile % 4 * card.width, tile / 4 * card.height)
      for y in 0..<card.height {
        let row = (top + y) * page.width + left
        page.pixels[row..<row + card.width] = card.pixels[y * card.width..<(y + 1) * card.width]
      }
    }
    return page
  }

  func testTimeOffTheCPUDoesNotCount() {
    let start = ThreadCPUClock.milliseconds()
    Thread.sleep(forTimeInterval: 0.2)
    XCTAssertLessThan(ThreadCPUClock.milliseconds() - start, 50)
    var sum = 0.0
    for index in 0..<20_000_000 { sum += Double(index & 7) }
    XCTAssertGreaterThan(sum, 0)
    XCTAssertGreaterThan(ThreadCPUClock.milliseconds() - start, 1)
  }

  func testADeadlineStopsALongReading() throws {
    let engine = try TesseractEngine(languages: "eng")
    let page = try longPage()
    let whole = engine.recognize(page, segmentation: .sparseText, deadline: 60_000)
    XCTAssertFalse(whole.timedOut)
    let start = ThreadCPUClock.milliseconds()
    let cut = engine.recognize(page, segmentation: .sparseText, deadline: 1)
    let spent = ThreadCPUClock.milliseconds() - start
    XCTAssertTrue(cut.timedOut)
    XCTAssertLessThan(cut.words.filter { $0.confidence > 0 }.count, whole.words.count / 2)
    XCTAssertLessThan(spent, 0.9 * wholeCost(engine, page))
  }

  /// CPU milliseconds of the whole reading.
  private func wholeCost(_ engine: TesseractEngine, _ page: Bitmap) -> Double {
    let start = ThreadCPUClock.milliseconds()
    _ = engine.recognize(page, segmentation: .sparseText, deadline: 60_000)
    return ThreadCPUClock.milliseconds() - start
  }

  func testTheWallGuardIsGenerous() {
    XCTAssertEqual(TesseractEngine.wallGuard(5000), 100_000)
    XCTAssertEqual(TesseractEngine.wallGuard(1), 10_000)
    XCTAssertEqual(TesseractEngine.wallGuard(Int.max / 2), Int(Int32.max))
  }
}
