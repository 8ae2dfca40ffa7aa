@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Receipt rows as OCR would give them: one word box per space-separated token, 20 px per
/// character, rows 40 px apart, all read with the same confidence.
func receiptRows(_ texts: [String], confidence: Double = 90) -> [ReceiptLine] {
  texts.enumerated().map { index, text in
    var x = 0.0
    let words = text.split(separator: " ").map { token -> TesseractEngine.Item in
      defer { x += Double(token.count + 1) * 20 }
      return TesseractEngine.Item(
        text: String(token), box: [x, Double(index) * 40, Double(token.count) * 20, 30],
        confidence: confidence)
    }
    return ReceiptLine(words: words)
  }
}
