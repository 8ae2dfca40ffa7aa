@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Receipt rows as OCR would give them: one word box per space-separated token, 20 px per
/// character, rows 40 px apart, all read with the same confidence. With `indented`, rows start a
/// character in from the page's edge and a row's leading spaces move its first word right (a
/// character is two thirds of the 30 px row height).
func receiptRows(_ texts: [String], confidence: Double = 90, indented: Bool = false) -> [ReceiptLine] {
  texts.enumerated().map { index, text in
    var x = indented ? Double(1 + text.prefix { $0 == " " }.count) * 20 : 0
    let words = text.split(separator: " ").map { token -> TesseractEngine.Item in
      defer { x += Double(token.count + 1) * 20 }
      return TesseractEngine.Item(
        text: String(token), box: [x, Double(index) * 40, Double(token.count) * 20, 30],
        confidence: confidence)
    }
    return ReceiptLine(words: words)
  }
}
