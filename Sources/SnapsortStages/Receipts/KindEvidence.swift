import Foundation
import SnapsortImaging
import SnapsortNative

/// Cheap image evidence of what a photo shows: the bright paper region's shape, how many
/// text-like rows it holds and how tall they are next to it, how many of them end in a
/// right-hand column, and how colourful the photo is. `KindModel` weighs it.
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
  /// The rows' median height over the region's height: a receipt's lines are a small fraction
  /// of a long page, a card's a large one of a short card.
  public var rowHeight: Double?
  /// Share of the region's pixels that binarise to ink.
  public var inkShare: Double?
  /// Mean saturation of the photo, (max − min) / 255 per pixel: paper and print are grey, cards
  /// and apps mostly are not.
  public var colorfulness: Double?
  /// Long over short side of the whole image.
  public var imageAspect: Double?

  enum CodingKeys: String, CodingKey {
    case paperShare = "paper_share"
    case paperAspect = "paper_aspect"
    case textRows = "text_rows"
    case rightColumnShare = "right_column_share"
    case textLikeShare = "text_like_share"
    case rowHeight = "row_height"
    case inkShare = "ink_share"
    case colorfulness
    case imageAspect = "image_aspect"
  }

  /// Longest side of the region the rows are counted on.
  public static let side = 800
  /// Below this shorter side an image holds no row of text to count.
  public static let minimumSide = 32

  /// Measures the evidence on `image` (the analysis copy): the paper is found on a small grey
  /// copy, and its rectangle cut from the full analysis copy before reducing, so a receipt that
  /// fills a fifth of a wide scan keeps rows tall enough to count.
  public static func measure(_ image: Bitmap) -> KindEvidence {
    let gray = image.grayscale()
    let small = gray.fitting(maxSide: 300)
    let paper = ReceiptImaging.paper(in: small)
    let region = paperRectangle(paper, scale: Double(gray.width) / Double(small.width), in: gray)
      .fitting(maxSide: side)
    var evidence = rows(in: region)
    evidence.paperShare = Rounding.thousandths(paper?.areaShare ?? 0)
    evidence.paperAspect = Rounding.hundredths(paper?.aspect ?? 1)
    evidence.colorfulness = Rounding.thousandths(colorfulness(of: image.fitting(maxSide: 300)))
    let long = Double(max(image.width, image.height)), short = Double(max(1, min(image.width, image.height)))
    evidence.imageAspect = Rounding.hundredths(long / short)
    return evidence
  }

  /// The rectangle inside the paper's quad (so the background around a tilted paper adds no
  /// rows), or the whole image when no paper region stands out.
  static func paperRectangle(_ paper: ReceiptImaging.PaperRegion?, scale: Double, in gray: Bitmap) -> Bitmap {
    guard let paper, paper.areaShare > 0.08 else { return gray }
    let q = paper.quad.map { Point($0.x * scale, $0.y * scale) }
    let marginX = 0.02 * Double(gray.width), marginY = 0.02 * Double(gray.height)
    let x0 = max(0, Int(max(q[0].x, q[3].x) + marginX))
    let x1 = min(gray.width, Int(min(q[1].x, q[2].x) - marginX))
    let y0 = max(0, Int(max(q[0].y, q[1].y) + marginY))
    let y1 = min(gray.height, Int(min(q[2].y, q[3].y) - marginY))
    guard x1 - x0 > 32, y1 - y0 > 32 else { return gray }
    return gray.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The row evidence of a grey region; the paper fields are left at zero.
  static func rows(in region: Bitmap) -> KindEvidence {
    let w = region.width, h = region.height
    var evidence = KindEvidence(
      paperShare: 0, paperAspect: 1, textRows: 0, rightColumnShare: 0, textLikeShare: 0, rowHeight: 0,
      inkShare: 0)
    guard w > 16, h > 16 else { return evidence }
    let binary = ReceiptImaging.sauvola(region, radius: 12, k: 0.3)
    let level = LevelRows(binary)
    let bands = ReceiptImaging.textBands(rowInk: level.rowInk, width: w)
    // Text rows on a receipt or a card are a small fraction of the region's height each.
    let rows = bands.filter { $0.count >= 3 && $0.count <= max(6, h / 12) }
    var rightColumn = 0, textLike = 0
    for band in rows {
      let columns = level.inkedColumns(in: band)
      guard let first = columns.firstIndex(of: true), let last = columns.lastIndex(of: true) else { continue }
      let inked = columns[first...last].filter { $0 }.count
      if Double(inked) < 0.8 * Double(last - first + 1) { textLike += 1 }
      let left = columns[0..<(w / 3)].contains(true)
      let right = columns[(w * 4 / 5)..<(w - max(1, w / 50))].contains(true)
      if left && right { rightColumn += 1 }
    }
    evidence.textRows = rows.count
    if !rows.isEmpty {
      evidence.rightColumnShare = Rounding.hundredths(Double(rightColumn) / Double(rows.count))
      evidence.textLikeShare = Rounding.hundredths(Double(textLike) / Double(rows.count))
      let heights = rows.map(\.count).sorted()
      evidence.rowHeight = Rounding.thousandths(Double(heights[heights.count / 2]) / Double(h))
    }
    let ink = binary.pixels.reduce(0) { $0 + ($1 < 128 ? 1 : 0) }
    evidence.inkShare = Rounding.thousandths(Double(ink) / Double(binary.pixelCount))
    return evidence
  }

  /// Mean (max − min) / 255 over the pixels of a colour image; 0 for grey.
  static func colorfulness(of image: Bitmap) -> Double {
    guard image.format == .rgb, image.pixelCount > 0 else { return 0 }
    var total = 0
    image.pixels.withUnsafeBufferPointer { p in
      for i in stride(from: 0, to: p.count, by: 3) {
        let r = p[i], g = p[i + 1], b = p[i + 2]
        total += Int(max(r, g, b)) - Int(min(r, g, b))
      }
    }
    return Double(total) / Double(image.pixelCount) / 255
  }
}

/// The rows of a binarised region along the direction its print runs: a photo taken at a slant
/// tilts the lines, and a tilted line's ink smears over the rows of its neighbours. The shear
/// (−8…8°, by degree) whose row-ink profile is sharpest (largest sum of squares) is taken.
struct LevelRows {
  let binary: Bitmap
  /// Rows to add at column x to follow a line: (x − width / 2) · tan(angle).
  let offsets: [Int]
  let rowInk: [Int]

  init(_ binary: Bitmap) {
    self.binary = binary
    var best: (score: Double, offsets: [Int], ink: [Int])?
    // Level first, so that a tilt replaces it only with a strictly sharper profile.
    for degrees in [0.0] + stride(from: -8.0, through: 8.0, by: 1.0).filter({ $0 != 0 }) {
      let slope = tan(degrees * .pi / 180)
      let offsets = (0..<binary.width).map { Int((Double($0 - binary.width / 2) * slope).rounded()) }
      let ink = Self.rowInk(binary, offsets: offsets)
      let score = ink.reduce(0.0) { $0 + Double($1) * Double($1) }
      if best == nil || score > best!.score { best = (score, offsets, ink) }
    }
    offsets = best!.offsets
    rowInk = best!.ink
  }

  static func rowInk(_ binary: Bitmap, offsets: [Int]) -> [Int] {
    let w = binary.width, h = binary.height
    var ink = [Int](repeating: 0, count: h)
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        for x in 0..<w where p[y * w + x] < 128 {
          let row = y - offsets[x]
          if row >= 0 && row < h { ink[row] += 1 }
        }
      }
    }
    return ink
  }

  /// Which columns hold ink in the sheared rows `band`.
  func inkedColumns(in band: Range<Int>) -> [Bool] {
    let w = binary.width, h = binary.height
    var columns = [Bool](repeating: false, count: w)
    binary.pixels.withUnsafeBufferPointer { p in
      for row in band {
        for x in 0..<w {
          let y = row + offsets[x]
          if y >= 0 && y < h && p[y * w + x] < 128 { columns[x] = true }
        }
      }
    }
    return columns
  }
}
