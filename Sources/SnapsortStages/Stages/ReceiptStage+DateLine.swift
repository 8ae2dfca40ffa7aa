import Foundation
import SnapsortImaging
import SnapsortNative

extension ReceiptStage {
  /// With no date read, reads the lines that may print one (`DateLineVote`) again on their own,
  /// three ways each, and takes the date two of a line's re-readings give: the page is extracted
  /// again with the line's text replaced, so the date is chosen as any page's date is (its order,
  /// labels, and no day after the photo).
  func rereadDateLines(
    _ receipt: inout ReceiptRecord, on page: Bitmap, engine: TesseractEngine, latestDate: String?,
    deadline: Int
  ) {
    guard deadline > 0, receipt.date == nil, let text = receipt.text else { return }
    let rows = text.map { ReceiptLine(text: $0.text, box: $0.box, confidence: $0.confidence) }
    for index in DateLineVote.lines(text) {
      let readings = Self.lineCrops(text[index].box, of: page).map { image in
        engine.recognize(
          image, segmentation: .singleLine, deadline: deadline, invertUnsureLines: options.invertUnsureLines
        ).text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      let extracted = readings.map { reading -> ReceiptRecord in
        var replaced = rows
        replaced[index] = ReceiptLine(text: reading, box: text[index].box, confidence: text[index].confidence)
        return extractor.extract(replaced, latestDate: latestDate)
      }
      // Only a date read from the re-read line itself counts, and not one that contradicts the
      // page's own clean reading of the line.
      let dates = zip(readings, extracted).map { reading, receipt -> String? in
        guard receipt.fields?["date"]?.line == index,
          !DateLineVote.contradicts(
            page: text[index].text, reread: reading, isDate: { isDate($0, latestDate: latestDate) })
        else { return nil }
        return receipt.date
      }
      guard let date = DateLineVote.decide(dates), let winner = dates.firstIndex(of: date),
        let field = extracted[winner].fields?["date"]
      else { continue }
      receipt.date = date
      receipt.time = extracted[winner].time
      var fields = receipt.fields ?? [:]
      fields["date"] = ReceiptField(
        value: date, confidence: min(field.confidence, 0.6), line: index, reading: "line",
        source: readings[winner])
      receipt.fields = fields
      receipt.dateRejected = nil
      receipt.refreshConfidence()
      return
    }
  }

  /// Whether `text` alone reads as a date the receipt can carry.
  private func isDate(_ text: String, latestDate: String?) -> Bool {
    let line = ReceiptLine(text: text, box: Box(x: 0, y: 0, width: 1, height: 1), confidence: 90)
    return extractor.extract([line], latestDate: latestDate).date != nil
  }
}
