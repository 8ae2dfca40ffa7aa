import Foundation
import SnapsortImaging
import SnapsortNative

extension ReceiptStage {
  /// With no total or no date after every other reading, reads the flattened page once more laid
  /// out differently (`fallback_reading_segmentation`, one block) and takes the missing fields
  /// the extractor chooses there: a column layout that drops or splits the total's or the date's
  /// row often keeps it read as a block (`bench/receipts/total_readings.py`,
  /// `bench/receipts/date_fallback.py`). One reading serves both fields, and a field the other
  /// readings gave is never replaced: on training receipts the block reading disagrees with a
  /// right total as often as it mends a wrong one.
  ///
  /// - Parameter pixelsRead: the pixels the receipt's other readings sent to tesseract: with the
  ///   page's, past `fallback_reading_megapixels` the page is not read again, and a note says so
  ///   (for the second scale's reading, `fallback_reading_second_megapixels`, no note: the first
  ///   one was read).
  /// - Returns: a note for each field taken, or the note that the page was not read.
  func readMissingAgain(
    _ receipt: inout ReceiptRecord, page: Bitmap?, turn: Turn?, engine: TesseractEngine, item: PhotoItem,
    latestDate: String?, pixelsRead: Int
  ) -> [String] {
    guard receipt.total == nil || receipt.date == nil, options.fallbackReadingSegmentation != 0, let page,
      let segmentation = TesseractEngine.PageSegmentation(
        rawValue: Int32(options.fallbackReadingSegmentation))
    else { return [] }
    // A print that the smaller page loses is sometimes read whole at a larger one, so a reading
    // that took nothing is followed by one at the second scale, within its own budget: on training
    // receipts it pays only where the pages are small.
    let scales =
      [options.fallbackReadingScale]
      + (options.fallbackReadingSecondScale > 0 ? [options.fallbackReadingSecondScale] : [])
    var read = pixelsRead
    for (pass, scale) in scales.enumerated() {
      // Sized first: the page is resampled only when the budget lets it be read.
      let size =
        scale < 1 ? page.scaledSize(by: scale, minimumSide: 8) : (width: page.width, height: page.height)
      let pixels = size.width * size.height
      let budget = pass == 0 ? options.fallbackReadingMegapixels : options.fallbackReadingSecondMegapixels
      guard Double(read + pixels) <= budget * 1e6 else {
        guard pass == 0 else { return [] }
        return [
          "the page was not read again as one block for the missing total or date: "
            + String(
              format:
                "the other readings read %.2f Mpx and this one would read %.2f more, past %g (fallback_reading_megapixels)",
              Double(read) / 1e6, Double(pixels) / 1e6, options.fallbackReadingMegapixels)
        ]
      }
      // The work bound above is the normal one; this deadline only guards against a reading that
      // runs away.
      let deadline = Int(min(Double(options.timeoutMs), item.secondsRemaining * 1000))
      guard deadline > 0 else { return [] }
      let scaled = scale < 1 ? page.scaled(by: scale, minimumSide: 8) : page
      let image = turn.map { scaled.applyingOrientation($0.orientation) } ?? scaled
      let result = engine.recognize(
        image, segmentation: segmentation, deadline: deadline, invertUnsureLines: options.invertUnsureLines)
      let other = extractor.extract(ReceiptLine.rows(from: result.words), latestDate: latestDate)
      let notes = Self.takeMissing(&receipt, from: other)
      guard notes.isEmpty else { return notes }
      read += pixels
    }
    return []
  }

  /// The total and the date of `other` (the block reading) that `receipt` lacks, marked
  /// `reading: "block"`; their lines point into the other reading's rows, so each is kept as
  /// text. A field `receipt` has is left as it is.
  ///
  /// - Returns: a note for each field taken.
  static func takeMissing(_ receipt: inout ReceiptRecord, from other: ReceiptRecord) -> [String] {
    var notes: [String] = []
    let hadTotal = receipt.total != nil
    var fields = receipt.fields ?? [:]
    if receipt.total == nil, let total = other.total, let field = other.fields?["total"] {
      receipt.total = total
      fields["total"] = ReceiptField(
        value: field.value, confidence: field.confidence, line: nil, reading: "block",
        source: other.lineText(field.line))
      notes.append("the total was read from the page read again as one block (no other reading gave one)")
    }
    if receipt.date == nil, let date = other.date, let field = other.fields?["date"] {
      receipt.date = date
      if receipt.time == nil { receipt.time = other.time }
      fields["date"] = ReceiptField(
        value: field.value, confidence: field.confidence, line: nil, reading: "block",
        source: other.lineText(field.line))
      notes.append("the date was read from the page read again as one block (no other reading gave one)")
    }
    guard !notes.isEmpty else { return [] }
    receipt.fields = fields
    if !hadTotal, receipt.total != nil { receipt.recheckAmounts() }
    receipt.refreshConfidence()
    return notes
  }
}
