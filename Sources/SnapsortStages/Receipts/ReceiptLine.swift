import Foundation
import SnapsortImaging
import SnapsortNative

/// One printed row of a receipt, rebuilt from tesseract's word boxes: words whose vertical
/// extents overlap belong together, read left to right, however tesseract split the page into
/// blocks (a price column becomes part of its row again).
public struct ReceiptLine: Sendable, Equatable {
  public var text: String
  /// `[x, y, width, height]` in the flattened receipt's pixels.
  public var box: Box
  /// Mean word confidence (0–100).
  public var confidence: Double
  public var words: [TesseractEngine.Item]

  public init(words: [TesseractEngine.Item]) {
    let sorted = words.sorted { $0.box.x < $1.box.x }
    self.words = sorted
    text = sorted.map(\.text).joined(separator: " ")
    let left = sorted.map { $0.box.x }.min() ?? 0, top = sorted.map { $0.box.y }.min() ?? 0
    let right = sorted.map { $0.box.x + $0.box.width }.max() ?? 0
    let bottom = sorted.map { $0.box.y + $0.box.height }.max() ?? 0
    box = Box(x: left, y: top, width: right - left, height: bottom - top)
    confidence = sorted.isEmpty ? 0 : sorted.map(\.confidence).reduce(0, +) / Double(sorted.count)
  }

  /// A row known only as one piece of text: a stored record's line, or a line read again alone.
  public init(text: String, box: Box, confidence: Double) {
    self.init(words: [TesseractEngine.Item(text: text, box: box, confidence: confidence)])
  }

  /// Groups words into rows, top to bottom.
  public static func rows(from words: [TesseractEngine.Item]) -> [ReceiptLine] {
    // Specks and bars that tesseract reads as a lone symbol carry no text.
    let kept = words.filter { word in
      word.confidence >= 15 || word.text.contains(where: { $0.isLetter || $0.isNumber })
    }
    let heights = kept.map { $0.box.height }.sorted()
    let typical = heights.isEmpty ? 1 : heights[heights.count / 2]
    var rows: [(top: Double, bottom: Double, words: [TesseractEngine.Item])] = []
    for word in kept.sorted(by: { $0.box.y + $0.box.height / 2 < $1.box.y + $1.box.height / 2 }) {
      // A word much taller than the text (a logo, a stamp) is measured by its centre only.
      let height = min(word.box.height, typical * 1.5)
      let centre = word.box.y + word.box.height / 2
      let top = centre - height / 2, bottom = centre + height / 2
      var joined = false
      for index in rows.indices.suffix(3).reversed() {
        let overlap = min(bottom, rows[index].bottom) - max(top, rows[index].top)
        let smaller = min(bottom - top, rows[index].bottom - rows[index].top)
        let collides = rows[index].words.contains { other in
          min(word.box.x + word.box.width, other.box.x + other.box.width) - max(word.box.x, other.box.x)
            > 0.3 * min(word.box.width, other.box.width)
        }
        if overlap > 0.5 * smaller && !collides {
          rows[index].words.append(word)
          rows[index].top = min(rows[index].top, top)
          rows[index].bottom = max(rows[index].bottom, bottom)
          joined = true
          break
        }
      }
      if !joined { rows.append((top, bottom, [word])) }
    }
    return rows.sorted { $0.top < $1.top }.map { ReceiptLine(words: $0.words) }
  }
}
