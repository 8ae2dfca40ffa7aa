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
  /// Mean saturation inside the paper rectangle alone: a receipt's paper stays grey on a
  /// colourful table, a card's face does not.
  public var paperColorfulness: Double?
  /// Share of the rows that start within a fiftieth of the width of the most common start: a
  /// receipt's lines are flush left, a card's few lines are placed one by one.
  public var leftAlignedShare: Double?
  /// Share of the rows that end within a fiftieth of the width of the most common end (a
  /// right-aligned price column).
  public var rightAlignedShare: Double?
  /// (third − first quartile) / median of the rows' heights: one printer font gives rows of one
  /// height, a card mixes a large name with small print.
  public var rowHeightSpread: Double?
  /// Median distance from one row's top to the next over the median row height: printed lines
  /// follow each other closely, an app's detail rows and a card's lines stand apart.
  public var rowPitch: Double?
  /// Height over width of the box around all rows: a receipt's text is a tall column wherever
  /// the paper is on the page, a card's text a wide block.
  public var textBlockAspect: Double?

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
    case paperColorfulness = "paper_colorfulness"
    case leftAlignedShare = "left_aligned_share"
    case rightAlignedShare = "right_aligned_share"
    case rowHeightSpread = "row_height_spread"
    case rowPitch = "row_pitch"
    case textBlockAspect = "text_block_aspect"
  }

  /// Longest side of the region the rows are counted on.
  public static let side = 800
  /// Fewer rows than this in the paper region send the count to the whole image's ink as well
  /// (chosen by cross-validation on the training data, bench/kind/README.md).
  static let fewRows = 5
  /// Sauvola's `k` where the rows are counted. The contrast stretch takes its black from the
  /// darkest half percent, which on some scans is a torn edge or a pen mark, leaving the print
  /// grey 150 to 200 on white; at 0.3 its strokes stay above the threshold (chosen over 0.3 by
  /// cross-validation on the training data, bench/kind/README.md).
  static let rowSauvolaK = 0.2
  /// Below this shorter side an image holds no row of text to count.
  public static let minimumSide = 32

  /// Measures the evidence on `image` (the analysis copy): the paper is found on a small grey
  /// copy, the box around the ink inside it too, and that box is cut from the full analysis copy
  /// before reducing, so a receipt that fills a fifth of a wide scan keeps rows tall enough to
  /// count.
  public static func measure(_ image: Bitmap) -> KindEvidence {
    let gray = image.grayscale()
    let small = gray.fitting(maxSide: 300)
    let paper = ReceiptImaging.paper(in: small)
    let scale = Double(gray.width) / Double(small.width)
    let rectangle = paperRectangle(paper, scale: scale, in: gray)
    let ink = inkMask(small)
    let whole: Box = (0, 0, gray.width, gray.height)
    var evidence = rows(
      in: gray, around: inkBox(in: ink, within: rectangle ?? whole, scale: scale) ?? rectangle)
    // The bright region can be only part of the paper: the lit half of a shaded receipt, a patch
    // of a blotchy scan, or a strip that the table's bright grain joins. Few rows in it are then
    // no evidence of a card; the rows around all the image's ink count when there are more.
    if rectangle != nil, evidence.textRows < fewRows {
      let around = rows(in: gray, around: inkBox(in: ink, within: whole, scale: scale))
      if around.textRows > evidence.textRows { evidence = around }
    }
    evidence.paperShare = Rounding.thousandths(paper?.areaShare ?? 0)
    evidence.paperAspect = Rounding.hundredths(paper?.aspect ?? 1)
    let colour = image.fitting(maxSide: 300)
    evidence.colorfulness = Rounding.thousandths(colorfulness(of: colour))
    let paperColour =
      rectangle.map {
        image.resized(
          x: $0.x, y: $0.y, width: $0.width, height: $0.height,
          to: max(1, $0.width * colour.width / image.width), max(1, $0.height * colour.height / image.height))
      } ?? colour
    evidence.paperColorfulness = Rounding.thousandths(colorfulness(of: paperColour))
    let long = Double(max(image.width, image.height)), short = Double(max(1, min(image.width, image.height)))
    evidence.imageAspect = Rounding.hundredths(long / short)
    return evidence
  }

  /// The rectangle inside the paper's quad (so the background around a tilted paper adds no
  /// rows), in `gray`'s pixels, or nil when no paper region stands out (the whole image counts).
  static func paperRectangle(_ paper: ReceiptImaging.PaperRegion?, scale: Double, in gray: Bitmap) -> Box? {
    guard let paper, paper.areaShare > 0.08 else { return nil }
    let q = paper.quad.map { Point($0.x * scale, $0.y * scale) }
    let marginX = 0.02 * Double(gray.width), marginY = 0.02 * Double(gray.height)
    let x0 = max(0, Int(max(q[0].x, q[3].x) + marginX))
    let x1 = min(gray.width, Int(min(q[1].x, q[2].x) - marginX))
    let y0 = max(0, Int(max(q[0].y, q[1].y) + marginY))
    let y1 = min(gray.height, Int(min(q[2].y, q[3].y) - marginY))
    guard x1 - x0 > 32, y1 - y0 > 32 else { return nil }
    return (x0, y0, x1 - x0, y1 - y0)
  }

  /// A rectangle of an image: its top-left corner and size in pixels.
  typealias Box = (x: Int, y: Int, width: Int, height: Int)

  /// The box around the ink inside `box` (in the pixels of the image whose small copy's
  /// `inkMask` is `binary`, reduced by `scale`), from the 1st to the 99th percentile of the ink
  /// along each axis so that a speck on the glass does not stretch it: where the text is, however
  /// much light page or table lies around it, so that a receipt in a corner of a wide scan keeps
  /// rows tall enough to count.
  static func inkBox(in binary: Bitmap, within box: Box, scale: Double) -> Box? {
    let x0 = min(binary.width - 1, Int(Double(box.x) / scale))
    let y0 = min(binary.height - 1, Int(Double(box.y) / scale))
    let x1 = max(x0 + 1, min(binary.width, Int((Double(box.x + box.width) / scale).rounded(.up))))
    let y1 = max(y0 + 1, min(binary.height, Int((Double(box.y + box.height) / scale).rounded(.up))))
    var columns = [Int](repeating: 0, count: binary.width), rows = [Int](repeating: 0, count: binary.height)
    var total = 0
    binary.pixels.withUnsafeBufferPointer { p in
      for y in y0..<y1 {
        for x in x0..<x1 where p[y * binary.width + x] < 128 {
          columns[x] += 1
          rows[y] += 1
          total += 1
        }
      }
    }
    guard total >= 20 else { return nil }
    let across = percentileRange(columns, total: total), down = percentileRange(rows, total: total)
    // A few pixels of the small copy around the ink, so the outermost strokes are whole.
    let left = max(box.x, Int(Double(across.lowerBound - 3) * scale))
    let top = max(box.y, Int(Double(down.lowerBound - 3) * scale))
    let right = min(box.x + box.width, Int(Double(across.upperBound + 4) * scale))
    let bottom = min(box.y + box.height, Int(Double(down.upperBound + 4) * scale))
    guard right - left > 32, bottom - top > 32 else { return nil }
    return (left, top, right - left, bottom - top)
  }

  /// The ink of the small grey copy that `inkBox` looks for the text in.
  static func inkMask(_ small: Bitmap) -> Bitmap {
    ReceiptImaging.sauvola(contrasted(small), radius: 6, k: 0.3)
  }

  /// The row evidence of the part of `gray` in `box` (all of it when nil), reduced to `side`.
  static func rows(in gray: Bitmap, around box: Box?) -> KindEvidence {
    let b = box ?? (0, 0, gray.width, gray.height)
    let longest = max(b.width, b.height)
    guard longest > side else {
      return rows(in: box == nil ? gray : gray.cropped(x: b.x, y: b.y, width: b.width, height: b.height))
    }
    // Reduced straight from the box, as `fitting` reduces its cropped copy, without the copy.
    let scale = Double(side) / Double(longest)
    let width = max(1, Int((Double(b.width) * scale).rounded()))
    let height = max(1, Int((Double(b.height) * scale).rounded()))
    return rows(in: gray.resized(x: b.x, y: b.y, width: b.width, height: b.height, to: width, height))
  }

  /// `gray` with its darkest and lightest half percent of pixels made black and white. Sauvola's
  /// threshold assumes print spans the grey range: faint print on a scan that was reduced to fit
  /// a wide page (grey 200 on white) stays above it and no row is found.
  static func contrasted(_ gray: Bitmap) -> Bitmap {
    ReceiptImaging.stretched(gray, black: 0.005, white: 0.995)
  }

  /// The indices from where 1 % of `total` lies before to where 1 % lies after.
  static func percentileRange(_ counts: [Int], total: Int) -> ClosedRange<Int> {
    var seen = 0, low = 0, high = counts.count - 1
    for (i, count) in counts.enumerated() {
      seen += count
      if seen * 100 > total {
        low = i
        break
      }
    }
    seen = 0
    for i in counts.indices.reversed() {
      seen += counts[i]
      if seen * 100 > total {
        high = i
        break
      }
    }
    return low...max(low, high)
  }

  /// The row evidence of a grey region; the paper fields are left at zero.
  static func rows(in region: Bitmap) -> KindEvidence {
    let w = region.width, h = region.height
    var evidence = KindEvidence(
      paperShare: 0, paperAspect: 1, textRows: 0, rightColumnShare: 0, textLikeShare: 0, rowHeight: 0,
      inkShare: 0)
    guard w > 16, h > 16 else { return evidence }
    let binary = withoutVerticalRules(ReceiptImaging.sauvola(contrasted(region), radius: 12, k: rowSauvolaK))
    let level = LevelRows(binary)
    let bands = ReceiptImaging.textBands(rowInk: level.rowInk, width: w)
    // Text rows on a receipt or a card are a small fraction of the region's height each.
    let rows = bands.filter { $0.count >= 3 && $0.count <= max(6, h / 12) }
    var rightColumn = 0, textLike = 0
    var spans: [RowSpan] = []
    for band in rows {
      let columns = level.inkedColumns(in: band)
      guard let first = columns.firstIndex(of: true), let last = columns.lastIndex(of: true) else { continue }
      spans.append(RowSpan(band: band, first: first, last: last))
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
    evidence.addLayout(of: spans, width: w)
    let ink = binary.pixels.reduce(0) { $0 + ($1 < 128 ? 1 : 0) }
    evidence.inkShare = Rounding.thousandths(Double(ink) / Double(binary.pixelCount))
    return evidence
  }

  /// `binary` with the columns that are ink in most rows made white: the dark border of a scan,
  /// a table's edge beside the paper or a ruled line runs through every row of text and would
  /// join them all into one band.
  static func withoutVerticalRules(_ binary: Bitmap) -> Bitmap {
    let w = binary.width, h = binary.height
    var columnInk = [Int](repeating: 0, count: w)
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        for x in 0..<w where p[y * w + x] < 128 { columnInk[x] += 1 }
      }
    }
    let rules = columnInk.indices.filter { columnInk[$0] * 2 > h }
    guard !rules.isEmpty else { return binary }
    var cleaned = binary
    cleaned.pixels.withUnsafeMutableBufferPointer { p in
      for y in 0..<h {
        for x in rules { p[y * w + x] = 255 }
      }
    }
    return cleaned
  }

  /// The layout of the rows: how many share a left or a right edge, how alike their heights
  /// are, how closely they follow each other and the shape of the block they make.
  mutating func addLayout(of spans: [RowSpan], width: Int) {
    guard !spans.isEmpty else { return }
    let tolerance = max(2, width / 50)
    leftAlignedShare = Rounding.hundredths(Self.modalShare(spans.map(\.first), tolerance: tolerance))
    rightAlignedShare = Rounding.hundredths(Self.modalShare(spans.map(\.last), tolerance: tolerance))
    let heights = spans.map(\.band.count).sorted()
    let median = Double(heights[heights.count / 2])
    rowHeightSpread = Rounding.hundredths(
      Double(heights[heights.count * 3 / 4] - heights[heights.count / 4]) / median)
    let pitches = zip(spans.dropFirst(), spans).map { $0.band.lowerBound - $1.band.lowerBound }.sorted()
    rowPitch = Rounding.hundredths(pitches.isEmpty ? 0 : Double(pitches[pitches.count / 2]) / median)
    let blockWidth = spans.map(\.last).max()! - spans.map(\.first).min()! + 1
    let blockHeight = spans.last!.band.upperBound - spans.first!.band.lowerBound
    textBlockAspect = Rounding.hundredths(Double(blockHeight) / Double(max(1, blockWidth)))
  }

  /// The largest share of `positions` within `tolerance` of one of them.
  static func modalShare(_ positions: [Int], tolerance: Int) -> Double {
    let best = positions.map { centre in positions.filter { abs($0 - centre) <= tolerance }.count }.max() ?? 0
    return Double(best) / Double(max(1, positions.count))
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

/// A text row: its sheared rows and its first and last inked columns.
struct RowSpan {
  let band: Range<Int>
  let first: Int
  let last: Int
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
    let ink = Self.inkPixels(binary)
    var best: (score: Double, offsets: [Int], ink: [Int])?
    // Level first, so that a tilt replaces it only with a strictly sharper profile.
    for degrees in [0.0] + stride(from: -8.0, through: 8.0, by: 1.0).filter({ $0 != 0 }) {
      let slope = tan(degrees * .pi / 180)
      let offsets = (0..<binary.width).map { Int((Double($0 - binary.width / 2) * slope).rounded()) }
      let profile = Self.rowInk(ink, offsets: offsets, height: binary.height)
      let score = profile.reduce(0.0) { $0 + Double($1) * Double($1) }
      if best == nil || score > best!.score { best = (score, offsets, profile) }
    }
    offsets = best!.offsets
    rowInk = best!.ink
  }

  /// The ink pixels' columns and rows, row by row. Ink is a small share of a page, and the 17
  /// shears each walk these instead of every pixel of the region.
  static func inkPixels(_ binary: Bitmap) -> (x: [Int32], y: [Int32]) {
    let w = binary.width, h = binary.height
    var xs: [Int32] = [], ys: [Int32] = []
    xs.reserveCapacity(w * h / 8)
    ys.reserveCapacity(w * h / 8)
    binary.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        for x in 0..<w where p[y * w + x] < 128 {
          xs.append(Int32(x))
          ys.append(Int32(y))
        }
      }
    }
    return (xs, ys)
  }

  /// Ink per sheared row: the pixel at (x, y) counts in row y − offsets[x].
  static func rowInk(_ ink: (x: [Int32], y: [Int32]), offsets: [Int], height h: Int) -> [Int] {
    var profile = [Int](repeating: 0, count: h)
    profile.withUnsafeMutableBufferPointer { out in
      ink.x.withUnsafeBufferPointer { xs in
        ink.y.withUnsafeBufferPointer { ys in
          offsets.withUnsafeBufferPointer { shift in
            for i in 0..<xs.count {
              let row = Int(ys[i]) - shift[Int(xs[i])]
              if row >= 0 && row < h { out[row] += 1 }
            }
          }
        }
      }
    }
    return profile
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
