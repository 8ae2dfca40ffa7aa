import SnapsortNative
import XCTest

@testable import SnapsortStages

/// Issue #23: with no total or no date from any reading, the receipt stage reads the page once
/// more as one block, within the receipt's budget of pixels read, and takes only the fields missing.
final class ReceiptFallbackReadingTests: XCTestCase {
  func testTheFallbackOptionsAreDecodedAndValidated() throws {
    let defaults = ReceiptStage.Options()
    XCTAssertEqual(
      defaults.fallbackReadingSegmentation, 6, "one block, as bench/receipts/total_readings.py chose")
    XCTAssertEqual(defaults.fallbackReadingMegapixels, 13, "fitted by bench/receipts/fit_fallback_budget.py")
    XCTAssertEqual(defaults.fallbackReadingScale, 0.7)
    XCTAssertEqual(defaults.fallbackReadingSecondScale, 1)
    XCTAssertEqual(
      defaults.fallbackReadingSecondMegapixels, 2.1, "fitted by fit_fallback_budget.py --cascade 0.7 1")
    let off = try OptionsDecoder.decode(
      ReceiptStage.Options.self,
      from: [
        "fallback_reading_segmentation": 0, "fallback_reading_megapixels": 1.5, "fallback_reading_scale": 0.5,
        "fallback_reading_second_scale": 0, "fallback_reading_second_megapixels": 0,
      ],
      path: "stages[2]")
    XCTAssertEqual(off.fallbackReadingSegmentation, 0)
    XCTAssertEqual(off.fallbackReadingMegapixels, 1.5)
    XCTAssertEqual(off.fallbackReadingScale, 0.5)
    XCTAssertEqual(off.fallbackReadingSecondScale, 0, "0: no second reading")
    XCTAssertEqual(off.fallbackReadingSecondMegapixels, 0)
    XCTAssertNoThrow(try ReceiptStage.validate(off, context: StageContext()))
    for (path, change) in [
      (
        "fallback_reading_segmentation",
        { (o: inout ReceiptStage.Options) in o.fallbackReadingSegmentation = 7 }
      ),
      (
        "fallback_reading_megapixels", { (o: inout ReceiptStage.Options) in o.fallbackReadingMegapixels = -1 }
      ),
      ("fallback_reading_scale", { (o: inout ReceiptStage.Options) in o.fallbackReadingScale = 1.5 }),
      (
        "fallback_reading_second_scale",
        { (o: inout ReceiptStage.Options) in o.fallbackReadingSecondScale = 1.5 }
      ),
      (
        "fallback_reading_second_megapixels",
        { (o: inout ReceiptStage.Options) in o.fallbackReadingSecondMegapixels = -1 }
      ),
    ] {
      var wrong = off
      change(&wrong)
      XCTAssertThrowsError(try ReceiptStage.validate(wrong, context: StageContext())) { error in
        XCTAssertEqual((error as? ConfigError)?.path, path, "the error names the option at fault")
      }
    }
  }

  /// The CPU budget it had before was replaced by one in pixels: a config that still sets it is
  /// told which option to use.
  func testTheRetiredCPUBudgetIsRefusedNamingItsSuccessor() {
    for old in ["fallback_reading_cpu_ms", "total_fallback_cpu_ms"] {
      XCTAssertThrowsError(
        try OptionsDecoder.decode(ReceiptStage.Options.self, from: [old: 2_000], path: "stages[2]")
      ) { error in
        let error = error as? ConfigError
        XCTAssertEqual(error?.path, "stages[2].\(old)")
        XCTAssertTrue(
          error?.description.contains("fallback_reading_megapixels") ?? false, "\(String(describing: error))")
      }
    }
  }

  private func block(total: String?, date: String?) -> ReceiptRecord {
    var other = ReceiptRecord()
    other.text = [
      TextLine(
        text: "Date: 23/03/2018 TOTAL 12.50", box: Box(x: 0, y: 0, width: 100, height: 10), confidence: 90)
    ]
    var fields: [String: ReceiptField] = [:]
    if let total {
      other.total = Money(recordString: total)
      fields["total"] = ReceiptField(value: total, confidence: 0.8, line: 0)
    }
    if let date {
      other.date = date
      other.time = "10:15"
      fields["date"] = ReceiptField(value: date, confidence: 0.7, line: 0)
    }
    other.fields = fields
    return other
  }

  func testOnlyTheMissingFieldsAreTakenFromTheBlockReading() {
    var receipt = ReceiptRecord()
    receipt.total = Money(recordString: "9.90")
    receipt.fields = ["total": ReceiptField(value: "9.90", confidence: 0.9, line: 3)]
    let notes = ReceiptStage.takeMissing(&receipt, from: block(total: "12.50", date: "2018-03-23"))
    XCTAssertEqual(receipt.total, Money(recordString: "9.90"), "a total already read is never replaced")
    XCTAssertEqual(receipt.fields?["total"]?.reading, nil)
    XCTAssertEqual(receipt.date, "2018-03-23")
    XCTAssertEqual(receipt.time, "10:15")
    XCTAssertEqual(receipt.fields?["date"]?.reading, "block")
    XCTAssertNil(receipt.fields?["date"]?.line, "the line is the other reading's, kept as text")
    XCTAssertEqual(receipt.fields?["date"]?.source, "Date: 23/03/2018 TOTAL 12.50")
    XCTAssertEqual(notes.count, 1)
    XCTAssertTrue(notes[0].hasPrefix("the date was read"))
  }

  func testOneReadingGivesBothFieldsAndADateReadIsKept() {
    var missing = ReceiptRecord()
    let both = ReceiptStage.takeMissing(&missing, from: block(total: "12.50", date: "2018-03-23"))
    XCTAssertEqual(missing.total, Money(recordString: "12.50"))
    XCTAssertEqual(missing.date, "2018-03-23")
    XCTAssertEqual(both.count, 2)

    var dated = ReceiptRecord()
    dated.date = "2018-03-22"
    dated.fields = ["date": ReceiptField(value: "2018-03-22", confidence: 0.9, line: 1)]
    let notes = ReceiptStage.takeMissing(&dated, from: block(total: nil, date: "2018-03-23"))
    XCTAssertEqual(dated.date, "2018-03-22", "a date already read is never replaced")
    XCTAssertEqual(dated.fields?["date"]?.line, 1)
    XCTAssertTrue(notes.isEmpty)
  }
}
