import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The upright check's score: confidently read letters and digits, so that a few confident
/// scraps of a page read sideways do not outweigh a blurred upright page's many unsure words.
final class ReceiptUprightTests: XCTestCase {
  private func words(_ pairs: [(String, Double)]) -> [TesseractEngine.Item] {
    pairs.map {
      TesseractEngine.Item(text: $0.0, box: Box(x: 0, y: 0, width: 10, height: 10), confidence: $0.1)
    }
  }

  func testTheScoreCountsLettersAndDigitsOfConfidentWordsOnly() {
    let upright = ReceiptUpright(confidentAt: 70, lead: 1)
    let read = words([("Kartoffeln", 88), ("2,49", 75), ("x", 95), ("~.", 99), ("Summe", 40)])
    XCTAssertEqual(upright.score(read), 10 + 3, "one-character and unsure words do not count")
  }

  /// A blurred upright page reads many words at middling confidence; turned, a few scraps read
  /// confidently. The old mean-confidence rule took the turn, the count does not.
  func testAFewConfidentScrapsDoNotTurnABlurredPage() {
    let blurred = words(
      (0..<30).map { ($0 % 2 == 0 ? "Chicken" : "12.50", $0 % 3 == 0 ? 72.0 : 55.0) })
    let sideways = words([("FON", 82), ("ers", 78), ("puel", 75), ("ee", 10)])
    let defaults = ReceiptStage.Options()
    let upright = ReceiptUpright(confidentAt: defaults.turnConfidentAt, lead: defaults.turnLead)
    let scores = [blurred, sideways].map(upright.score)
    XCTAssertNil(upright.chosen(scores))
    let mean = { (w: [TesseractEngine.Item]) in w.map(\.confidence).reduce(0, +) / Double(w.count) }
    XCTAssertGreaterThan(mean(Array(sideways.prefix(3))), mean(blurred) + 15, "the old rule would turn it")
  }

  func testATurnIsTakenOnlyByTheFittedLead() {
    let upright = ReceiptUpright(confidentAt: 70, lead: 1)
    XCTAssertEqual(
      upright.chosen([10, 0, 21, 3]), 2, "upside down: the half turn reads twice as much and one more")
    XCTAssertNil(upright.chosen([10, 0, 20, 3]), "not quite twice and one more")
    XCTAssertNil(upright.chosen([0, 0, 0, 0]), "nothing read any way")
    XCTAssertEqual(upright.chosen([0, 1, 0, 0]), 1)
    XCTAssertNil(upright.chosen([40]), "the page as it is only")
  }

  func testTheTurnOptionsAreDecodedAndValidated() throws {
    let set = try OptionsDecoder.decode(
      ReceiptStage.Options.self, from: ["turn_confident_at": 80, "turn_lead": 0.5], path: "stages[2]")
    XCTAssertEqual(set.turnConfidentAt, 80)
    XCTAssertEqual(set.turnLead, 0.5)
    XCTAssertNoThrow(try ReceiptStage.validate(set, context: StageContext()))
    var wrong = set
    wrong.turnLead = -1
    XCTAssertThrowsError(try ReceiptStage.validate(wrong, context: StageContext()))
    wrong = set
    wrong.turnConfidentAt = 120
    XCTAssertThrowsError(try ReceiptStage.validate(wrong, context: StageContext())) { error in
      XCTAssertEqual(
        (error as? ConfigError)?.path, "turn_confident_at", "the error names the option at fault")
    }
  }

  /// SNAPSORT_UPRIGHT_TRACE's line is what bench/receipts/fit_upright.py splits: seven
  /// tab-separated fields, the words last as JSON `[text, confidence, x, y, width, height]`.
  func testTheTraceLineHasTheFieldsTheFitScriptReads() throws {
    let trace = ReceiptStage.UprightTrace(item: "a/receipt.jpg", firstConfidence: 41.5, dated: false)
    let line = try XCTUnwrap(trace.line(degrees: 90, side: 800, words: words([("Summe", 88)])))
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    XCTAssertEqual(Array(fields.prefix(6)), ["UPRIGHT", "a/receipt.jpg", "41.5", "false", "90", "800"])
    let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fields[6].utf8)) as? [[Any]])
    XCTAssertEqual(list.count, 1)
    XCTAssertEqual(list[0][0] as? String, "Summe")
    XCTAssertEqual(list[0][1] as? Double, 88)
    XCTAssertEqual(list[0].count, 6)
  }
}
