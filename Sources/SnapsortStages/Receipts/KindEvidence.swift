import Foundation
import SnapsortImaging
import SnapsortNative

/// Cheap image evidence of what a photo shows: the bright paper region's shape, how many
/// text-like rows it holds at a regular pitch, and how many of them end in a right-hand column.
public struct KindEvidence: Sendable, Equatable, Codable {
  /// The bright region's share of the image.
  public var paperShare: Double
  /// Long over short side of the bright region.
  public var paperAspect: Double
  /// Rows of text-like height inside the region.
  public var textRows: Int
  /// Share of those rows with ink both in the left third and the right fifth (item and price).
  public var rightColumnShare: Double
  /// Share of those rows inked across less than half the width between their ends (text with
  /// gaps, not bars or pictures).
  public var textLikeShare: Double

  enum CodingKeys: String, CodingKey {
    case paperShare = "paper_share"
    case paperAspect = "paper_aspect"
    case textRows = "text_rows"
    case rightColumnShare = "right_column_share"
    case textLikeShare = "text_like_share"
  }

  /// Side of the reduced copy the evidence is measured on.
  public static let side = 800

  /// Measures the evidence on a reduced grey copy of `image`.
  public static func measure(_ image: Bitmap) -> KindEvidence {
    let gray = image.grayscale().fitting(maxSide: side)
    let paper = ReceiptImaging.paper(in: gray.fitting(maxSide: 300))
    let scale = Double(gray.width) / Double(gray.fitting(maxSide: 300).width)
    var x0 = 0, y0 = 0, x1 = gray.width, y1 = gray.height
    if let paper, paper.areaShare > 0.08 {
      // The rectangle inside the quad, so the background around a tilted paper adds no rows.
      let q = paper.quad.map { Point($0.x * scale, $0.y * scale) }
      let marginX = 0.02 * Double(gray.width), marginY = 0.02 * Double(gray.height)
      x0 = max(0, Int(max(q[0].x, q[3].x) + marginX))
      x1 = min(gray.width, Int(min(q[1].x, q[2].x) - marginX))
      y0 = max(0, Int(max(q[0].y, q[1].y) + marginY))
      y1 = min(gray.height, Int(min(q[2].y, q[3].y) - marginY))
    }
    let w = x1 - x0, h = y1 - y0
    guard w > 16, h > 16 else {
      return KindEvidence(
        paperShare: paper?.areaShare ?? 0, paperAspect: paper?.aspect ?? 1, textRows: 0, rightColumnShare: 0,
        textLikeShare: 0)
    }
    let region = Bitmap(width: w, height: h, format: .gray) { out in
      for y in 0..<h {
        for x in 0..<w { out[y * w + x] = gray.pixels[(y + y0) * gray.width + x + x0] }
      }
    }
    let binary = ReceiptImaging.sauvola(region, radius: 12, k: 0.3)
    let bands = ReceiptImaging.textBands(rowInk: ReceiptImaging.rowInk(binary), width: w)
    // Text rows on a receipt or a card are a small fraction of the region's height each.
    let rows = bands.filter { $0.count >= 3 && $0.count <= max(6, h / 12) }
    var rightColumn = 0, textLike = 0
    for band in rows {
      var columns = [Bool](repeating: false, count: w)
      for y in band {
        for x in 0..<w where binary.pixels[y * w + x] < 128 { columns[x] = true }
      }
      guard let first = columns.firstIndex(of: true), let last = columns.lastIndex(of: true) else { continue }
      let inked = columns[first...last].filter { $0 }.count
      if Double(inked) < 0.8 * Double(last - first + 1) { textLike += 1 }
      let left = columns[0..<(w / 3)].contains(true)
      let right = columns[(w * 4 / 5)..<(w - max(1, w / 50))].contains(true)
      if left && right { rightColumn += 1 }
    }
    return KindEvidence(
      paperShare: Rounding.thousandths(paper?.areaShare ?? 0),
      paperAspect: Rounding.hundredths(paper?.aspect ?? 1), textRows: rows.count,
      rightColumnShare: rows.isEmpty ? 0 : Rounding.hundredths(Double(rightColumn) / Double(rows.count)),
      textLikeShare: rows.isEmpty ? 0 : Rounding.hundredths(Double(textLike) / Double(rows.count)))
  }

  /// The kind the evidence points to, with a confidence.
  public func decide() -> (kind: Kind, confidence: Double) {
    // A receipt: many rows of text, most of them gapped like words, a good part of them with a
    // price at the right. A card or a screenshot holds a handful of text rows.
    let textual = Double(textRows) * textLikeShare
    if textual >= 14 && rightColumnShare >= 0.2 { return (.receipt, min(0.99, 0.6 + textual / 100)) }
    if textual >= 24 { return (.receipt, 0.6) }
    // A long paper strip filling most of the frame is a receipt even when its print is too
    // faint to count rows; a phone screenshot (19.5 : 9 ≈ 2.17) is not that long.
    if paperAspect >= 2.6 && paperShare >= 0.5 { return (.receipt, 0.55) }
    return (.card, textual < 8 ? 0.8 : 0.55)
  }
}
