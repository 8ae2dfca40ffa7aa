import Foundation
import SnapsortImaging
import SnapsortNative

/// Finds a wallet pass drawn in a phone screenshot: a tall rounded panel in the brand's colour,
/// upright and centred on the screen with a narrow margin each side, that holds what a card
/// would show (a logo, the name, fields, a code) but is no ID-1 card.
///
/// An app draws the pass square to the screen, so its left and right sides are steps in one
/// column each, from the screen's background to the pass, running down its whole height; its top
/// and bottom are where those runs end, refined to the rows of the strongest step across the
/// pass. A photo is never searched: its frame is 4:3 or 3:4, a phone's screen far taller.
/// The shape limits are fitted by `bench/cards/fit_pass_finder.py` on the ground truth of generated
/// train renders (`--split train`: 600 screenshots, seeds 8311 and 8711, 53 of them the
/// `google_wallet` family's generic passes; 100 photos, seed 8312); the smallest step is
/// ScreenCardRefiner's.
struct PassFinder {
  /// Pixels of a screenshot, RGB or grey.
  let image: Bitmap

  /// A phone's screen in portrait: at least this many times as tall as wide.
  var minimumScreenAspect = 1.7
  /// The margin beside the pass, as a share of the screen's width.
  var margin: ClosedRange<Double> = 0.0097...0.088
  /// Largest difference between the left and the right margin, as a share of the screen's width.
  var marginDifference = 0.005
  /// The pass's height over its width.
  var aspect: ClosedRange<Double> = 0.91...1.92
  /// Smallest step, in levels, between the screen's background and the pass.
  var minimumStep = 6
  /// Longest gap, as a share of the screen's height, in a side's run of steps that does not end
  /// it: shorter than the gap an app leaves between two cards stacked one under the other.
  var maximumGap = 0.0073

  /// The pass's corners, clockwise from the top-left, in pixel-edge coordinates, and the share
  /// of its height along which both sides step; nil when the image shows none.
  func find() -> (quad: [Point], confidence: Double)? {
    let w = image.width, h = image.height
    guard w >= 64, Double(h) >= minimumScreenAspect * Double(w) else { return nil }
    guard let (left, right) = sides() else { return nil }
    guard let rows = run(left: left, right: right) else { return nil }
    let width = right - left
    let reach = Int(0.12 * Double(width)) + 2
    guard let top = edgeRow(from: rows.lowerBound - reach, to: rows.lowerBound + 2, left, right),
      let bottom = edgeRow(from: rows.upperBound - 2, to: rows.upperBound + reach, left, right)
    else { return nil }
    guard aspect.contains(Double(bottom - top) / Double(width)) else { return nil }
    let quad = [
      Point(Double(left), Double(top)), Point(Double(right), Double(top)),
      Point(Double(right), Double(bottom)), Point(Double(left), Double(bottom)),
    ]
    return (quad, min(1, Double(rows.count) / Double(bottom - top)))
  }

  // MARK: - Sides

  /// The pixel edges of the left and right sides: from each edge of the screen, the strongest
  /// median step over the middle rows among the first columns where it counts (a JPEG's ringing
  /// on a dark theme, up to a chroma block's width outside the edge, and a drop shadow step too,
  /// weaker), when the margins are alike.
  private func sides() -> (Int, Int)? {
    let w = image.width, h = image.height
    let refiner = ScreenCardRefiner(image: image)
    // Rows a pass of the least height covers wherever an app puts it below its bar.
    let span = Int(0.25 * Double(h))..<Int(0.5 * Double(h))
    let widest = Int(margin.upperBound * Double(w)) + 1
    let narrowest = max(1, Int(margin.lowerBound * Double(w)))
    let block = max(16, Int(0.04 * Double(w)))
    func first(_ columns: [Int]) -> Int? {
      let steps = columns.map { refiner.medianStep(at: $0, vertical: true, span: span) }
      guard let start = steps.firstIndex(where: { $0 >= minimumStep }) else { return nil }
      let window = start..<min(steps.count, start + block)
      return columns[window.max { steps[$0] < steps[$1] }!]
    }
    guard let left = first(Array(1...widest)), left >= narrowest,
      let right = first(Array(((w - widest)...(w - 1)).reversed())), w - right >= narrowest
    else { return nil }
    guard abs(left - (w - right)) <= Int(marginDifference * Double(w)) + 1 else { return nil }
    return (left, right)
  }

  /// The longest run of rows where both sides step (gaps up to `maximumGap` bridged): the rows
  /// between the pass's rounded corners.
  private func run(left: Int, right: Int) -> Range<Int>? {
    let h = image.height
    let gap = max(2, Int(maximumGap * Double(h)))
    var best: Range<Int>?
    var start = -1, last = -gap - 2
    for y in 0..<h {
      guard steps(row: y, at: left), steps(row: y, at: right) else { continue }
      if y - last > gap + 1 {
        if start >= 0, last + 1 - start > best?.count ?? 0 { best = start..<(last + 1) }
        start = y
      }
      last = y
    }
    if start >= 0, last + 1 - start > best?.count ?? 0 { best = start..<(last + 1) }
    return best
  }

  /// Whether the row steps by `minimumStep` across the pixel edge at `x` or a column either side
  /// of it (a reduced copy spreads an edge over two columns).
  func steps(row y: Int, at x: Int) -> Bool {
    let c = image.channels, w = image.width
    return image.pixels.withUnsafeBufferPointer { p in
      for edge in max(1, x - 1)...min(w - 1, x + 1) {
        let a = (y * w + edge) * c
        for k in 0..<c where abs(Int(p[a + k]) - Int(p[a - c + k])) >= minimumStep { return true }
      }
      return false
    }
  }

  /// The row edge in `from...to` with the strongest median step across the middle of the pass
  /// (clear of its rounded corners); nil when none counts. Ties go to the first.
  private func edgeRow(from: Int, to: Int, _ left: Int, _ right: Int) -> Int? {
    let refiner = ScreenCardRefiner(image: image)
    let width = right - left
    let span = (left + width / 5)..<(right - width / 5)
    var best: (row: Int, step: Int)?
    for y in max(1, from)...min(image.height - 1, max(from, to)) {
      let step = refiner.medianStep(at: y, vertical: false, span: span)
      if step > best?.step ?? (minimumStep - 1) { best = (y, step) }
    }
    return best?.row
  }
}
