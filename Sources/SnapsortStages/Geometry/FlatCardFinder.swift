import Foundation
import SnapsortNative

/// Finds a card drawn flat in a screenshot: an upright rectangle of the card's aspect whose four
/// sides are exact steps between pixel values.
///
/// An app draws the card square to the screen, and a lossless screenshot keeps every pixel as
/// drawn, so each side of the card is a straight run of pixels that differ from their neighbours
/// across it, however faint the step: a near-black card on a dark theme differs from it by two
/// levels of blue, a white card on a light theme by a few. The blur and noise thresholds that
/// photos need lose such steps, and the code panel and list rows below the card then form better
/// quads than the card itself. Here a difference of one level counts, so the finder runs only on
/// images that are noise-free: nearly all neighbouring pixels exactly equal, which a photo never
/// has. The test is cheap and refuses a photo within its first rows, so JPEG screenshots still get
/// here while photos pay almost nothing.
struct FlatCardFinder {
  struct Result {
    /// Corners in the image's pixels (pixel edges), clockwise from the top-left.
    var quad: [Point]
    var confidence: Double
  }

  /// A horizontal run of pixels differing from the row above: a candidate top or bottom side.
  private struct Run {
    var y: Int
    var x0: Int
    var x1: Int
  }

  /// Largest relative difference between the rectangle's aspect and the card's.
  var aspectTolerance = 0.03
  /// Share of sampled pixels that must equal their left neighbour for an image to count as flat.
  /// Rendered screenshots measure 0.95 or more; rendered photos up to 0.72 (motion blur smooths
  /// away the noise), and at 0.5 those went through the whole search at full resolution for nothing.
  var minimumFlatShare = 0.85

  func find(in image: Bitmap) -> Result? {
    let w = image.width, h = image.height
    guard w >= 64, h >= 64, isFlat(image) else { return nil }
    let runs = horizontalRuns(image, minimumLength: max(32, min(w, h) / 5))
    // A gradient background makes every row differ from the last; no side stands out then.
    guard !runs.isEmpty, runs.count <= 4000 else { return nil }
    // Runs ordered by their left end, so each top side meets only the runs that start near it
    // rather than every later run (up to 4000 of them, squared).
    let byStart = runs.indices.sorted { (runs[$0].x0, $0) < (runs[$1].x0, $1) }
    let starts = byStart.map { runs[$0].x0 }
    var best: (quad: [Point], area: Int, coverage: Double, top: Int, bottom: Int)?
    for (i, top) in runs.enumerated() {
      let tolerance = 2 + (top.x1 - top.x0) / 100
      for k in Self.firstIndex(in: starts, notBelow: top.x0 - tolerance)..<starts.count {
        guard starts[k] <= top.x0 + tolerance else { break }
        let j = byStart[k], bottom = runs[j]
        // Runs come in row order: a later row is a later index.
        guard bottom.y > top.y, abs(top.x1 - bottom.x1) <= tolerance,
          let card = card(in: image, top: top, bottom: bottom)
        else { continue }
        // Ties go to the pair met first in row order, as a scan of every pair in order would.
        let better =
          card.area > best?.area ?? 0 || (card.area == best?.area && i == best?.top && j < best?.bottom ?? 0)
        if better { best = (card.quad, card.area, card.coverage, i, j) }
      }
    }
    guard let best else { return nil }
    return Result(quad: best.quad, confidence: min(1, 0.5 + 0.5 * best.coverage))
  }

  /// The index of the first of the ascending `values` that is at least `lowest`.
  private static func firstIndex(in values: [Int], notBelow lowest: Int) -> Int {
    var first = 0, last = values.count
    while first < last {
      let middle = (first + last) / 2
      if values[middle] < lowest { first = middle + 1 } else { last = middle }
    }
    return first
  }

  /// The rectangle with `top` and `bottom` for its top and bottom sides, when it has the card's
  /// aspect and left and right sides are found between them.
  private func card(in image: Bitmap, top: Run, bottom: Run) -> (quad: [Point], area: Int, coverage: Double)?
  {
    let height = bottom.y - top.y
    let flatWidth = min(top.x1, bottom.x1) - max(top.x0, bottom.x0)
    // The straight part of a side stops where the rounded corners start, at most a sixth of
    // the card's height in from each end.
    let reach = height / 6 + 2
    let widest = Double(flatWidth + 2 * reach) / Double(height)
    let narrowest = Double(flatWidth) / Double(height)
    let aspect = CardDetector.cardAspect
    guard widest >= aspect * (1 - aspectTolerance), narrowest <= aspect * (1 + aspectTolerance) else {
      return nil
    }
    let rows = (top.y + reach)..<(bottom.y - reach)
    guard rows.count >= 8,
      let left = side(
        image, from: max(1, max(top.x0, bottom.x0) - reach), to: max(top.x0, bottom.x0) + 2, rows: rows,
        outermost: true),
      let right = side(
        image, from: min(top.x1, bottom.x1) - 1, to: min(image.width - 1, min(top.x1, bottom.x1) + reach),
        rows: rows, outermost: false)
    else { return nil }
    let width = right.x - left.x
    guard abs(Double(width) / Double(height) / aspect - 1) <= aspectTolerance,
      Double(flatWidth) >= 0.7 * Double(width)
    else { return nil }
    let quad = [
      Point(Double(left.x), Double(top.y)), Point(Double(right.x), Double(top.y)),
      Point(Double(right.x), Double(bottom.y)), Point(Double(left.x), Double(bottom.y)),
    ]
    return (quad, width * height, min(left.coverage, right.coverage))
  }

  /// Whether nearly all pixels, on rows sampled down the image, equal their left neighbour exactly.
  func isFlat(_ image: Bitmap) -> Bool {
    let c = image.channels, w = image.width
    let step = max(1, image.height / 64)
    let rows = (image.height + step - 1) / step
    let needed = minimumFlatShare * Double(rows * (w - 1))
    var equal = 0, unseen = rows * (w - 1)
    return image.pixels.withUnsafeBufferPointer { p in
      for y in stride(from: 0, to: image.height, by: step) {
        let row = y * w * c
        for x in 1..<w {
          let a = row + x * c
          var same = true
          for k in 0..<c where p[a + k] != p[a - c + k] { same = false }
          if same { equal += 1 }
        }
        unseen -= w - 1
        // A photo is refused as soon as the rows left cannot make up the share.
        if Double(equal + unseen) < needed { return false }
      }
      return Double(equal) >= needed
    }
  }

  /// Runs along rows where pixels differ from the pixel above; gaps of a few pixels (a pixel of
  /// the card that happens to match the background) do not break a run.
  private func horizontalRuns(_ image: Bitmap, minimumLength: Int) -> [Run] {
    let c = image.channels, w = image.width, rowBytes = w * c
    let maximumGap = max(2, w / 100)
    var runs: [Run] = []
    image.pixels.withUnsafeBufferPointer { p in
      let base = p.baseAddress!
      for y in 1..<image.height {
        let row = base + y * rowBytes
        if memcmp(row, row - rowBytes, rowBytes) == 0 { continue }
        var start = -1, last = -2
        for x in 0...w {
          var differs = false
          if x < w {
            for k in 0..<c where row[x * c + k] != row[x * c + k - rowBytes] { differs = true }
          }
          if differs {
            if start < 0 || x - last > maximumGap + 1 {
              if start >= 0 && last + 1 - start >= minimumLength {
                runs.append(Run(y: y, x0: start, x1: last + 1))
              }
              start = x
            }
            last = x
          }
        }
        if start >= 0 && last + 1 - start >= minimumLength { runs.append(Run(y: y, x0: start, x1: last + 1)) }
      }
    }
    return runs
  }

  /// The pixel edge between columns `x − 1` and `x`, for x in `from...to`, along which the most
  /// rows differ across it; ties go to the outermost. Nil when no column is a side of nine rows
  /// in ten.
  private func side(_ image: Bitmap, from: Int, to: Int, rows: Range<Int>, outermost: Bool) -> (
    x: Int, coverage: Double
  )? {
    guard from <= to else { return nil }
    let c = image.channels, rowBytes = image.width * c
    var best: (x: Int, coverage: Double)?
    image.pixels.withUnsafeBufferPointer { p in
      let columns = outermost ? Array(from...to) : Array((from...to).reversed())
      for x in columns where x >= 1 && x < image.width {
        var differing = 0
        for y in rows {
          let a = y * rowBytes + x * c
          for k in 0..<c where p[a + k] != p[a - c + k] {
            differing += 1
            break
          }
        }
        let coverage = Double(differing) / Double(rows.count)
        if coverage > best?.coverage ?? 0 { best = (x, coverage) }
      }
    }
    guard let best, best.coverage >= 0.9 else { return nil }
    return best
  }
}
