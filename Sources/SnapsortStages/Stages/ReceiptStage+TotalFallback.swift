import Foundation
import SnapsortImaging
import SnapsortNative

extension ReceiptStage {
  /// With no total after every other reading, reads the flattened page once more laid out
  /// differently (`total_fallback_segmentation`, one block) and takes the total the extractor
  /// chooses there: a column layout that drops or splits the total's row often keeps it read as
  /// a block (`bench/receipts/total_readings.py`). Only the total is taken; its line points into
  /// the other reading's rows, so it is kept as text.
  ///
  /// - Parameter cpuStart: the worker thread's CPU clock (ms) when the receipt's reading began:
  ///   the reading gets what is left of `total_fallback_cpu_ms` from then, and is not started
  ///   when nothing is.
  /// - Returns: a note when a total was taken.
  func readTotalAgain(
    _ receipt: inout ReceiptRecord, page: Bitmap?, turn: Turn?, engine: TesseractEngine, item: PhotoItem,
    latestDate: String?, cpuStart: Double
  ) -> String? {
    guard receipt.total == nil, options.totalFallbackSegmentation != 0, let page,
      let segmentation = TesseractEngine.PageSegmentation(rawValue: Int32(options.totalFallbackSegmentation))
    else { return nil }
    let left = Double(options.totalFallbackCpuMs) - (ThreadCPUClock.milliseconds() - cpuStart)
    let deadline = Int(min(left, Double(options.timeoutMs), item.secondsRemaining * 1000))
    guard deadline > 0 else { return nil }
    let scale = options.totalFallbackScale
    let scaled =
      scale < 1
      ? page.resized(
        width: max(8, Int((Double(page.width) * scale).rounded())),
        height: max(8, Int((Double(page.height) * scale).rounded()))) : page
    let image = turn.map { scaled.applyingOrientation($0.orientation) } ?? scaled
    let result = engine.recognize(
      image, segmentation: segmentation, deadline: deadline, invertUnsureLines: options.invertUnsureLines)
    let other = extractor.extract(ReceiptLine.rows(from: result.words), latestDate: latestDate)
    guard let total = other.total, let field = other.fields?["total"] else { return nil }
    receipt.total = total
    var fields = receipt.fields ?? [:]
    fields["total"] = ReceiptField(
      value: field.value, confidence: field.confidence, line: nil, reading: "block",
      source: other.lineText(field.line))
    receipt.fields = fields
    receipt.recheckAmounts()
    receipt.refreshConfidence()
    return "the total was read from the page read again as one block (no other reading gave one)"
  }
}
