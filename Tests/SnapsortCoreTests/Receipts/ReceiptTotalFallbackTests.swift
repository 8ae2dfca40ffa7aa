import XCTest

@testable import SnapsortStages

/// Issue #23: with no total from any reading, the receipt stage reads the page once more as one
/// block, within the receipt's CPU budget.
final class ReceiptTotalFallbackTests: XCTestCase {
  func testTheFallbackOptionsAreDecodedAndValidated() throws {
    let defaults = ReceiptStage.Options()
    XCTAssertEqual(
      defaults.totalFallbackSegmentation, 6, "one block, as bench/receipts/total_readings.py chose")
    XCTAssertEqual(defaults.totalFallbackCpuMs, 2_000, "the receipt's CPU budget of issue #28")
    XCTAssertEqual(defaults.totalFallbackScale, 1)
    let off = try OptionsDecoder.decode(
      ReceiptStage.Options.self,
      from: ["total_fallback_segmentation": 0, "total_fallback_cpu_ms": 1_500, "total_fallback_scale": 0.5],
      path: "stages[2]")
    XCTAssertEqual(off.totalFallbackSegmentation, 0)
    XCTAssertEqual(off.totalFallbackCpuMs, 1_500)
    XCTAssertEqual(off.totalFallbackScale, 0.5)
    XCTAssertNoThrow(try ReceiptStage.validate(off, context: StageContext()))
    for (path, change) in [
      ("total_fallback_segmentation", { (o: inout ReceiptStage.Options) in o.totalFallbackSegmentation = 7 }),
      ("total_fallback_cpu_ms", { (o: inout ReceiptStage.Options) in o.totalFallbackCpuMs = -1 }),
      ("total_fallback_scale", { (o: inout ReceiptStage.Options) in o.totalFallbackScale = 1.5 }),
    ] {
      var wrong = off
      change(&wrong)
      XCTAssertThrowsError(try ReceiptStage.validate(wrong, context: StageContext())) { error in
        XCTAssertEqual((error as? ConfigError)?.path, path, "the error names the option at fault")
      }
    }
  }
}
