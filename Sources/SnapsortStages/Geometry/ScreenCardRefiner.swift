import Foundation
import SnapsortImaging
import SnapsortNative

/// Moves the sides of an upright card quad in a screenshot in to the card's own edge.
///
/// An app draws the card square to the screen, often over a drop shadow or a glow. The shadow
/// is a smooth ramp tens of pixels wide, darkest at the card, and a detector that follows the
/// gradient takes its outer end for the card's side: the quad holds the card and its shadow,
/// most at the bottom where shadows fall. The card's own edge is different: a step from one
/// pixel to the next, of the same height all along the side. So each side is searched inwards
/// (the detected quad holds the card, never less) for the pixel edges where the median step
/// across the middle of the side peaks, and of the four-sided combinations the one with the
/// card's aspect (an app draws ID-1 undistorted) and the largest area wins: the outermost steps
/// of the card's shape, not a band of its artwork. A side at the screen's edge may stay there
/// (a card running off the screen) where the card's top and bottom run to that edge. Thresholds
/// fitted on generated train screenshots (`bench/gen`, `--split train --seed 7101`, 200 images;
/// refitted on seed 8101, 300 images).
struct ScreenCardRefiner {
  /// Full-resolution or analysis pixels, RGB or grey, in the quad's coordinates.
  let image: Bitmap

  /// How far in, as a share of the quad's height, a side may move.
  var reach = 0.25
  /// How far out a side may move, in pixels (the detector's rounding).
  var outward = 3
  /// Smallest median step, in levels, that counts as an edge.
  var minimumStep = 6
  /// Peaks lower than this share of a side's strongest peak are texture, not the card's edge.
  /// Low: a white card's edge on a light theme (13 levels) is weaker than a band inside it (255).
  var relativeStep = 0.05
  /// How many times the steps around it (the median of those two to four pixels away) a peak
  /// must be to be an edge and not a stretch of a shadow's ramp.
  var sharpness = 2.0
  /// Largest relative difference between a combination's aspect and the card's.
  var aspectTolerance = 0.03
  /// Width of the preference for the exact aspect among combinations within the tolerance.
  var aspectSpread = 0.01
  /// Where a card above a panel is looked for: a strip up to this many card heights above the
  /// panel for the gap between them, this share of the panel's width wider on each side, its
  /// sides searched this share of the strip's height in.
  var aboveGap = 0.35
  var aboveWidening = 0.08
  var aboveReach = 0.45
  /// How far, in card heights, the strip reaches down into the panel's quad: fitted through the
  /// blur of the panel's shadow, its top may lie above the card's lower edge.
  var aboveInto = 0.05
  /// A card running off the left or right edge of the screen (a wallet's carousel, a card
  /// scrolled aside) has no fourth side to find: it is placed from the card's aspect when it
  /// lies at least this share of the card's width beyond the screen's edge...
  var offScreen = 0.01
  /// ...and the card's top and bottom steps reach the screen's edge: their median step over
  /// this share of the screen's width next to it is an edge too.
  var edgeRun = 0.03
  /// A card above a panel whose top or bottom makes no step (a white half of the card on a light
  /// theme, a dark band on a dark one) is placed from the card's aspect when its left and right
  /// sides and the other of the two are steps of at least twice `minimumStep`, its lower edge
  /// lies between `placedGap` card heights above the panel's quad and `placedInto` below that
  /// quad's top (which may lie inside the card's edgeless foot)...
  var placedGap = 0.35
  var placedInto = 0.3
  /// The gap, in card heights, an app most often leaves between a card and its panel (train
  /// truth's median, 0.14-0.15 on three sets).
  var typicalGap = 0.15
  /// ...its left and right steps run down this share of its rows...
  var sideRun = 0.3
  /// ...but not on past its foot in this share of the rows just below it; and it spans at least
  /// this share of the screen's width (train cards on a screen: 0.70 and more; a word of a title
  /// has sides and a top too). Fitted with `bench/cards/fit_screen_refiner.py` (fifth fit).
  var runOn = 0.5
  var placedWidth = 0.5
  /// The placed card's sides are looked for by the step this share of the strip's rows stays
  /// within (2/3: the step a third of them reach), not the median: a card's black band on a dark
  /// theme hides its sides over half of them.
  var placedSideShare = 2.0 / 3
  /// A quad narrower than this share of the screen is a piece of a card, grown out to the card
  /// (`cardAround`; train cards wholly on a screen: 0.70 of its width and more)...
  var growWidth = 0.5
  /// ...whose sides may lie this share of the screen's width inside the quad's (a carousel's quad
  /// spilling past the card's side: 2.4-2.8 % on train). Fitted with
  /// `bench/cards/fit_screen_refiner.py` (ninth fit, seeds 8431, 8311, 8711, 8911).
  var growSpill = 0.03
  /// A combination whose weakest side steps by fewer levels than this scores that share of its
  /// area: a glow's, a shadow's or a neighbour's edge (6-10 levels) around the card made a larger
  /// rectangle of its aspect than the card's own sides (24-95). A combination with a side at the
  /// screen's edge, where no step can be measured, is not weighed at all, as in the fit. Of two
  /// alike, the one whose four steps sum higher wins (a card printed with a grid). Fitted with
  /// `bench/cards/fit_screen_refiner.py` (twelfth fit, train seeds 8631, 8741, 8411, 8851:
  /// 724 -> 728 of 787 quads at IoU >= 0.9 in the twin, 727 in the binary).
  var stepWeight = 20.0
  /// A quad this many card heights tall (for its width) is a card with something below it.
  var tallness = 1.25
  /// Largest angle, in degrees, between a side and the image's axes for the quad to be upright.
  /// Two, not one: a panel's quad fitted through its shadow's blur leans by just over a degree.
  var maximumTilt = 2.0

  private enum Side: CaseIterable { case left, top, right, bottom }

  /// A pixel-edge position across a side (a column for left and right, a row for top and bottom)
  /// and the median step there.
  private typealias Peak = (position: Int, step: Int)

  /// The refined quad, clockwise from the top-left, in pixel-edge coordinates; nil when the quad
  /// is not upright or no combination of steps has the card's aspect.
  func refine(_ quad: [Point]) -> [Point]? {
    guard Quad.isSquareToAxes(quad, withinDegrees: maximumTilt) else { return nil }
    let xs = quad.map(\.x), ys = quad.map(\.y)
    let box = Box(x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!)
    return search(box, reach: reach, runningOff: true)
  }

  /// A card drawn above the upright `quad`, when the quad is one of the panels an app draws
  /// below its card (a code panel, detail rows) that happens to have the card's shape: a
  /// rectangle of the card's aspect, about as wide, whose four sides are all steps of their own.
  /// Apps put the card above what belongs to it; on 200 train screenshots no card was found
  /// above a quad that was already the card. Where no four steps make the card, one of its top
  /// and bottom may be placed from the aspect (`placedGap`). A card found above is looked above
  /// in turn: an app lists the user's other cards under the one it shows, and the quad was one
  /// of them (4 of 45 misses on two train sets, `bench/cards/fit_screen_refiner.py`, tenth fit).
  func cardAbove(_ quad: [Point]) -> [Point]? {
    guard Quad.isSquareToAxes(quad, withinDegrees: maximumTilt) else { return nil }
    let ys = quad.map(\.y)
    guard let above = strip(above: quad) else { return nil }
    guard var card = search(above, reach: aboveReach, weakest: 2 * minimumStep) else {
      return placedAbove(above, panelTop: ys.min()!)
    }
    while let next = strip(above: card),
      let higher = search(next, reach: aboveReach, weakest: 2 * minimumStep),
      higher.map(\.y).min()! < card.map(\.y).min()!
    {
      card = higher
    }
    return card
  }

  /// Where a card above the upright `quad` is looked for: up to `aboveGap` card heights above it
  /// for the gap, `aboveWidening` of its width wider each side, `aboveInto` down into it; nil
  /// when the screen leaves too little room above.
  private func strip(above quad: [Point]) -> Box? {
    let xs = quad.map(\.x), ys = quad.map(\.y)
    let (x0, y0, x1) = (xs.min()!, ys.min()!, xs.max()!)
    let width = x1 - x0, height = width / CardDetector.cardAspect
    let above = Box(
      x0: max(0, x0 - aboveWidening * width), y0: max(0, y0 - (aboveGap + 1.15) * height),
      x1: min(Double(image.width), x1 + aboveWidening * width), y1: y0 - 2 + aboveInto * height)
    return above.y1 - above.y0 > 0.6 * height ? above : nil
  }

  /// The card above a panel with three sides of clear steps, the fourth (its top or its bottom)
  /// placed from the card's aspect; the largest such card, of two alike the one whose foot lies
  /// nearer the typical gap above the panel (a white foot and a white top are as likely).
  private func placedAbove(_ box: Box, panelTop: Double) -> [Point]? {
    guard box.x1 - box.x0 >= 32, box.y1 - box.y0 >= 20 else { return nil }
    let weakest = 2 * minimumStep
    var peaks: [Side: [Int]] = [:]
    for side in Side.allCases {
      peaks[side] = self.peaks(side, box: box, reach: aboveReach, sideShare: placedSideShare)
        .filter { $0.step >= weakest }.map(\.position)
    }
    // The panel quad's own top is the panel's top or a band inside the card, never the card's foot.
    let bottoms = (peaks[.bottom] ?? []).filter { abs(Double($0) - panelTop) > 3 }
    var best: (area: Int, off: Double, quad: [Point])?
    for l in peaks[.left] ?? [] {
      for r in peaks[.right] ?? [] where Double(r - l) >= placedWidth * Double(image.width) {
        let height = Int((Double(r - l) / CardDetector.cardAspect).rounded())
        let spans =
          (peaks[.top] ?? []).map { ($0, $0 + height) } + bottoms.map { ($0 - height, $0) }
        for (t, b) in spans where t >= 0 {
          let lower = Double(b)
          guard lower >= panelTop - placedGap * Double(height),
            lower <= panelTop + placedInto * Double(height)
          else { continue }
          let area = (r - l) * height
          let off = abs(panelTop - lower - typicalGap * Double(height))
          guard area > best?.area ?? 0 || (area == best?.area && off < best?.off ?? 0) else { continue }
          guard sidesHold(l, r, from: t, to: b, least: weakest) else { continue }
          let (x0, x1, y0, y1) = (Double(l), Double(r), Double(t), Double(b))
          best = (area, off, [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)])
        }
      }
    }
    return best?.quad
  }

  /// Whether the steps at columns `l` and `r` are a card's sides from row `t` to row `b`: they
  /// run down `sideRun` of its rows and end at its foot, where a pass's or a panel's sides run on
  /// below a band inside it (the placed card then a slice of the pass).
  private func sidesHold(_ l: Int, _ r: Int, from t: Int, to b: Int, least: Int) -> Bool {
    let height = b - t
    let rows = (t + height / 10)..<(b - height / 10)
    let past = (b + max(1, height / 100))..<(b + max(2, height * 4 / 100))
    return min(stepShare(at: l, rows: rows, least: least), stepShare(at: r, rows: rows, least: least))
      >= sideRun
      && min(stepShare(at: l, rows: past, least: least), stepShare(at: r, rows: past, least: least)) < runOn
  }

  /// The share of `rows` where the pixel edge before column `x` steps by at least `least` levels
  /// in some channel.
  private func stepShare(at x: Int, rows: Range<Int>, least: Int) -> Double {
    let rows = max(0, rows.lowerBound)..<min(image.height, max(rows.lowerBound, rows.upperBound))
    let c = image.channels, w = image.width
    guard x >= 1, x < w, !rows.isEmpty else { return 0 }
    var stepping = 0
    image.pixels.withUnsafeBufferPointer { p in
      for y in rows {
        let a = (y * w + x) * c
        for k in 0..<c where abs(Int(p[a + k]) - Int(p[a - c + k])) >= least {
          stepping += 1
          break
        }
      }
    }
    return Double(stepping) / Double(rows.count)
  }

  /// The card at the top of an upright `quad` too tall for a card: the card merged with what
  /// an app draws right below it (a panel of the same width, passes stacked under it), whose
  /// sides run on in one line. The card is looked for in the top card height of the quad.
  func cardAtTop(_ quad: [Point]) -> [Point]? {
    guard Quad.isSquareToAxes(quad, withinDegrees: maximumTilt) else { return nil }
    let xs = quad.map(\.x), ys = quad.map(\.y)
    let (x0, y0, x1, y1) = (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    let height = (x1 - x0) / CardDetector.cardAspect
    guard y1 - y0 > tallness * height else { return nil }
    let top = Box(x0: x0, y0: y0, x1: x1, y1: min(y1, y0 + 1.3 * height))
    return search(top, reach: aboveReach, weakest: 2 * minimumStep)
  }

  /// The card around an upright `quad` that is only a piece of it (a band, a logo or a barcode of
  /// a card in a carousel): a quad narrower than `growWidth` of the screen grows out to the
  /// largest rectangle of the card's aspect around it, at least that wide, whose four sides are
  /// steps of at least twice `minimumStep`. Each side's step is the median over the quad's own
  /// span, as the card holds the quad; its sides may lie up to `growSpill` of the screen's width
  /// inside the quad's, which in a carousel spills over the card's side into the next card.
  func cardAround(_ quad: [Point]) -> [Point]? {
    guard Quad.isSquareToAxes(quad, withinDegrees: maximumTilt) else { return nil }
    let xs = quad.map(\.x), ys = quad.map(\.y)
    let (x0, y0) = (max(0, Int(xs.min()!.rounded())), max(0, Int(ys.min()!.rounded())))
    let (x1, y1) = (min(image.width, Int(xs.max()!.rounded())), min(image.height, Int(ys.max()!.rounded())))
    let screen = Double(image.width)
    guard x1 > x0, y1 > y0, Double(x1 - x0) < growWidth * screen else { return nil }
    let tallest = Int(screen / CardDetector.cardAspect), spill = Int(growSpill * screen)
    let lefts = strongPeaks(from: 1, to: x0 + spill, vertical: true, span: y0..<y1)
    let rights = strongPeaks(from: x1 - spill, to: image.width - 1, vertical: true, span: y0..<y1)
    let tops = strongPeaks(from: y1 - tallest, to: y0 + spill, vertical: false, span: x0..<x1)
    let bottoms = strongPeaks(from: y1 - spill, to: y0 + tallest, vertical: false, span: x0..<x1)
    var best: (score: Double, quad: [Point])?
    for l in lefts {
      for r in rights where Double(r - l) >= growWidth * screen {
        for t in tops {
          for b in bottoms where b > t {
            let width = Double(r - l), height = Double(b - t)
            let error = abs(width / height / CardDetector.cardAspect - 1)
            guard error <= aspectTolerance else { continue }
            let score = width * height * exp(-(error / aspectSpread) * (error / aspectSpread))
            guard score > best?.score ?? 0 else { continue }
            let (l, t, r, b) = (Double(l), Double(t), Double(r), Double(b))
            best = (score, [Point(l, t), Point(r, t), Point(r, b), Point(l, b)])
          }
        }
      }
    }
    return best?.quad
  }

  /// The positions from `start` to `end` where the median step over `span` peaks sharply at
  /// twice `minimumStep` or more; the steps just outside count as neighbours.
  private func strongPeaks(from start: Int, to end: Int, vertical: Bool, span: Range<Int>) -> [Int] {
    let limit = (vertical ? image.width : image.height) - 1
    let (lo, hi) = (max(1, start - 4), min(limit, end + 4))
    guard lo <= hi, !span.isEmpty else { return [] }
    let positions = Array(lo...hi)
    let steps = positions.map { medianStep(at: $0, vertical: vertical, span: span) }
    var found: [Int] = []
    for i in steps.indices where positions[i] >= start && positions[i] <= end && steps[i] >= 2 * minimumStep {
      let left = i > 0 ? steps[i - 1] : 0, right = i + 1 < steps.count ? steps[i + 1] : 0
      if steps[i] >= left && steps[i] >= right && standsOut(i, in: steps) { found.append(positions[i]) }
    }
    return found
  }

  private struct Box {
    var x0: Double, y0: Double, x1: Double, y1: Double
  }

  /// The combination of peaks, one per side of `box`, searched up to `reach` of its height in;
  /// with `runningOff`, also a card whose left or right side lies beyond the screen's edge.
  /// Only peaks of at least `weakest` take part: a card looked for above a panel or at the top of
  /// a tall quad must show all four of its sides. Asked of the best combination afterwards, a
  /// larger one through a weak step (the screen's edge, a row of text) hid the card: 4 of 12
  /// panels chosen on 300 train screenshots (seed 8311); 4 of 16 panels chosen and 2 of 3 merged
  /// quads on 300 more (seed 8711).
  private func search(_ box: Box, reach: Double, runningOff: Bool = false, weakest: Int = 0) -> [Point]? {
    guard box.x1 - box.x0 >= 32, box.y1 - box.y0 >= 20 else { return nil }
    var peaks: [Side: [Peak]] = [:]
    for side in Side.allCases {
      peaks[side] = self.peaks(side, box: box, reach: reach).filter { $0.step >= weakest }
    }
    var best = bestCombination(peaks)
    if runningOff, let off = bestRunningOff(peaks), off.score > best?.score ?? 0 { best = off }
    guard let best else { return nil }
    let (l, t, r, b) = (
      Double(best.l.position), Double(best.t.position), Double(best.r.position), Double(best.b.position)
    )
    return [Point(l, t), Point(r, t), Point(r, b), Point(l, b)]
  }

  /// The peaks of the median step along one side's search window; a side at the image's edge
  /// keeps the edge as a candidate of zero strength.
  private func peaks(_ side: Side, box: Box, reach: Double, sideShare: Double = 0.5) -> [Peak] {
    let vertical = side == .left || side == .right
    let height = box.y1 - box.y0, width = box.x1 - box.x0
    let inward = max(8, Int(reach * height))
    let centre: Int
    switch side {
    case .left: centre = Int(box.x0.rounded())
    case .right: centre = Int(box.x1.rounded())
    case .top: centre = Int(box.y0.rounded())
    case .bottom: centre = Int(box.y1.rounded())
    }
    let inwardSign = side == .left || side == .top ? 1 : -1
    let lo = centre + min(-inwardSign * outward, inwardSign * inward)
    let hi = centre + max(-inwardSign * outward, inwardSign * inward)
    // The middle of the side: clear of rounded corners and of the shadow's heavier end.
    let (spanStart, spanEnd) =
      vertical
      ? (box.y0 + 0.3 * height, box.y0 + 0.7 * height) : (box.x0 + 0.3 * width, box.x0 + 0.7 * width)
    let limit = vertical ? image.width : image.height
    let span = max(0, Int(spanStart))..<min(vertical ? image.height : image.width, Int(spanEnd))
    guard !span.isEmpty else { return [] }
    let positions = Array(lo...hi)
    let share = vertical ? sideShare : 0.5
    let steps = positions.map { medianStep(at: $0, vertical: vertical, span: span, share: share) }
    let strongest = steps.max() ?? 0
    let floor = max(minimumStep, Int((relativeStep * Double(strongest)).rounded(.up)))
    var found: [Peak] = []
    for i in steps.indices where steps[i] >= floor {
      let left = i > 0 ? steps[i - 1] : 0, right = i + 1 < steps.count ? steps[i + 1] : 0
      if steps[i] >= left && steps[i] >= right && standsOut(i, in: steps) {
        found.append((positions[i], steps[i]))
      }
    }
    // A side with no step of its own stays where it was; one at the image's edge may stay there.
    if found.isEmpty || centre <= 1 || centre >= limit - 1 { found.append((centre, 0)) }
    return found
  }

  /// Whether the step at `i` is an edge rather than a stretch of a shadow's or glow's ramp: a
  /// ramp steps by about as much at every pixel, an edge stands well above the steps two to four
  /// pixels either side of it (their median, so another edge nearby does not count).
  private func standsOut(_ i: Int, in steps: [Int]) -> Bool {
    var around: [Int] = []
    for j in [i - 4, i - 3, i - 2, i + 2, i + 3, i + 4] where steps.indices.contains(j) {
      around.append(steps[j])
    }
    guard !around.isEmpty else { return true }
    around.sort()
    return Double(steps[i]) >= sharpness * Double(around[(around.count - 1) / 2])
  }

  /// The median over `span` of the largest channel difference across the pixel edge at
  /// `position` (between columns, or rows, `position − 1` and `position`); 0 outside the image.
  /// With `share`, the step that share of the span stays within (2/3: the step a third reach).
  func medianStep(at position: Int, vertical: Bool, span: Range<Int>, share: Double = 0.5) -> Int {
    let c = image.channels, w = image.width
    guard position >= 1, position < (vertical ? image.width : image.height) else { return 0 }
    var histogram = [Int](repeating: 0, count: 256)
    image.pixels.withUnsafeBufferPointer { p in
      for along in span {
        let a = vertical ? (along * w + position) * c : (position * w + along) * c
        let b = vertical ? a - c : a - w * c
        var step = 0
        for k in 0..<c { step = max(step, abs(Int(p[a + k]) - Int(p[b + k]))) }
        histogram[step] += 1
      }
    }
    var seen = 0
    for (value, count) in histogram.enumerated() {
      seen += count
      if Double(seen) >= share * Double(span.count) { return value }
    }
    return 255
  }

  /// One peak per side and the combination's score.
  private typealias Combination = (score: Double, l: Peak, t: Peak, r: Peak, b: Peak)

  /// The combination of one peak per side with the card's aspect and the largest area, weighed
  /// by how close its aspect is to the card's and by its weakest step (`stepWeight`).
  private func bestCombination(_ peaks: [Side: [Peak]]) -> Combination? {
    let lefts = peaks[.left] ?? [], rights = peaks[.right] ?? []
    let tops = peaks[.top] ?? [], bottoms = peaks[.bottom] ?? []
    var best: Combination?
    var bestSum = 0
    for l in lefts {
      for r in rights where r.position > l.position {
        for t in tops {
          for b in bottoms where b.position > t.position {
            let width = Double(r.position - l.position), height = Double(b.position - t.position)
            let error = abs(width / height / CardDetector.cardAspect - 1)
            guard error <= aspectTolerance, edgesMet(l, t, r, b) else { continue }
            var score = width * height * exp(-(error / aspectSpread) * (error / aspectSpread))
            let weakest = min(l.step, t.step, r.step, b.step)
            if weakest > 0 { score *= min(1, Double(weakest) / stepWeight) }
            let sum = l.step + t.step + r.step + b.step
            let beaten = best.map { score > $0.score || (score == $0.score && sum > bestSum) } ?? (score > 0)
            if beaten { (best, bestSum) = ((score, l, t, r, b), sum) }
          }
        }
      }
    }
    return best
  }

  /// Whether each side kept at the screen's edge with no step of its own (a card flush with or
  /// running off that edge) is met there by the two sides across it: their steps run on over
  /// `edgeRun` of the screen next to that edge. A card inside the screen, its glow or shadow fading
  /// out before the edge, has steps of its own for that side: without this, the screen's edges and
  /// the header's lower edge made a larger rectangle of the card's aspect around card and glow
  /// (7 of 87 misses on three train sets, `bench/cards/fit_screen_refiner.py`, sixth fit).
  private func edgesMet(_ l: Peak, _ t: Peak, _ r: Peak, _ b: Peak) -> Bool {
    let w = image.width, h = image.height
    let runX = max(2, Int(edgeRun * Double(w))), runY = max(2, Int(edgeRun * Double(h)))
    func run(_ a: Peak, _ b: Peak, vertical: Bool, _ span: Range<Int>) -> Bool {
      min(
        medianStep(at: a.position, vertical: vertical, span: span),
        medianStep(at: b.position, vertical: vertical, span: span)) >= minimumStep
    }
    if l.step == 0, l.position <= 1, !run(t, b, vertical: false, 0..<runX) { return false }
    if r.step == 0, r.position >= w - 1, !run(t, b, vertical: false, (w - runX)..<w) { return false }
    if t.step == 0, t.position <= 1, !run(l, r, vertical: true, 0..<runY) { return false }
    if b.step == 0, b.position >= h - 1, !run(l, r, vertical: true, (h - runY)..<h) { return false }
    return true
  }

  /// The card running off the left or right edge of the screen: a top, a bottom and the one side
  /// on the screen, each a step of its own, the other side placed from the card's aspect beyond
  /// the edge, where the top and bottom steps run to. Scored by the area on the screen, so a
  /// band inside the card (as good a side, further in) does not win.
  private func bestRunningOff(_ peaks: [Side: [Peak]]) -> Combination? {
    let screen = image.width
    let run = max(2, Int(edgeRun * Double(screen)))
    var best: Combination?
    for t in peaks[.top] ?? [] where t.step >= minimumStep {
      for b in peaks[.bottom] ?? [] where b.position > t.position && b.step >= minimumStep {
        let width = Int((CardDetector.cardAspect * Double(b.position - t.position)).rounded())
        let beyond = offScreen * Double(width)
        let height = Double(b.position - t.position)
        func reachesEdge(_ span: Range<Int>) -> Bool {
          min(
            medianStep(at: t.position, vertical: false, span: span),
            medianStep(at: b.position, vertical: false, span: span))
            >= minimumStep
        }
        for r in peaks[.right] ?? [] where r.step >= minimumStep && Double(r.position - width) < -beyond {
          let score = Double(r.position) * height
          if score > best?.score ?? 0, reachesEdge(0..<run) {
            best = (score, (r.position - width, 0), t, r, b)
          }
        }
        for l in peaks[.left] ?? []
        where l.step >= minimumStep && Double(l.position + width - screen) > beyond {
          let score = Double(screen - l.position) * height
          if score > best?.score ?? 0, reachesEdge((screen - run)..<screen) {
            best = (score, l, t, (l.position + width, 0), b)
          }
        }
      }
    }
    return best
  }

}
