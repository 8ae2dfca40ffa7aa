import Foundation
import SnapsortImaging
import SnapsortNative

/// A pass's own header (its logo row above an image band, in the pass's paint) looks like an ID-1
/// card at the pass's top to `ScreenCardRefiner.cardAtTop`, which would refuse the pass. A card an
/// app draws at the top of a panel or above stacked passes differs in three ways the header does
/// not: its rounded corners or the gap below it break the sides' steps at its foot, it need not
/// lie flush with the tall shape's top and sides, and the paint below its foot is another's.
/// A band across the pass (an image strip under its header) is found the same way, the "card"
/// then lying inside the pass from the band's top down, flush with its sides: a card's rounded
/// corners break the sides' steps at its top and at its foot, a band's edges meet them unbroken.
/// The limits are checked by `bench/cards/fit_pass_header.py` on train screenshots only.
extension PassFinder {
  /// How far the card may lie from the pass's top and sides, as a share of the pass's width (at
  /// least two pixels: a reduced copy moves an edge by one).
  static let headerFlush = 0.01
  /// Rows either side of the card's foot, as a share of the pass's width, along which both of the
  /// pass's sides must step on every row.
  static let headerFootRun = 0.03
  /// Largest CIE76 ΔE between the pass's paint beside the card and just below its foot: the
  /// palette's colour unit.
  static let headerSamePaint = 10.0

  /// Whether `card`, found at the top of the pass `quad` (both in this image's pixels), is a part
  /// of the pass (its own header, or a band inside it) rather than a card drawn above something else.
  func isOwnPart(_ card: [Point], of quad: [Point]) -> Bool {
    isOwnHeader(card, of: quad) || isBandInside(card, of: quad)
  }

  /// Whether `card` lies inside the pass below its top, flush with its sides, both sides stepping
  /// on every row within `headerFootRun` of the pass's width of the card's top and of its foot.
  func isBandInside(_ card: [Point], of quad: [Point]) -> Bool {
    let pass = PixelBox(quad), part = PixelBox(card)
    let width = pass.right - pass.left
    guard width > 0, pass.left >= 1, pass.right < image.width, part.bottom > part.top else { return false }
    let flush = max(2, Self.headerFlush * Double(width))
    guard Double(max(abs(part.left - pass.left), abs(part.right - pass.right))) <= flush,
      Double(part.top - pass.top) > flush
    else { return false }
    return sidesStep(of: pass, around: part.top) && sidesStep(of: pass, around: part.bottom)
  }

  /// Whether `card` is the pass's own header: flush with the pass's top and sides, its foot
  /// unbroken in the pass's sides, and the same paint beside it and just below it.
  func isOwnHeader(_ card: [Point], of quad: [Point]) -> Bool {
    let pass = PixelBox(quad), part = PixelBox(card)
    let (l, r, t, b) = (pass.left, pass.right, pass.top, pass.bottom)
    let cb = part.bottom
    let width = r - l, height = cb - part.top
    guard width > 0, height > 0, l >= 1, r < image.width, b <= image.height else { return false }
    let offset = max(abs(part.left - l), abs(part.right - r), abs(part.top - t))
    guard Double(offset) <= max(2, Self.headerFlush * Double(width)) else { return false }
    guard sidesStep(of: pass, around: cb) else { return false }
    let inset = max(1, width * 2 / 100)..<max(2, width * 6 / 100)
    let columns = inset.map { l + $0 } + inset.map { r - $0 }
    func paint(_ lo: Double, _ hi: Double) -> CIELAB.Lab? {
      let rows = max(t, cb + Int(lo * Double(height)))..<min(b, cb + Int(hi * Double(height)))
      guard !rows.isEmpty else { return nil }
      return medianColour(rows: rows, columns: columns)
    }
    guard let above = paint(-0.95, -0.75), let below = paint(0.03, 0.2) else { return false }
    return CIELAB.distance(above, below) < Self.headerSamePaint
  }

  /// Whether both of the pass's sides step on every row within `headerFootRun` of its width of
  /// row `edge`.
  private func sidesStep(of pass: PixelBox, around edge: Int) -> Bool {
    let run = Int(Self.headerFootRun * Double(pass.right - pass.left))
    for y in max(0, edge - run)...min(image.height - 1, edge + run) {
      guard steps(row: y, at: pass.left), steps(row: y, at: pass.right) else { return false }
    }
    return true
  }

  /// The per-channel median colour of the pixels at `rows` × `columns`.
  private func medianColour(rows: Range<Int>, columns: [Int]) -> CIELAB.Lab {
    let c = image.channels, w = image.width
    var channels = [[UInt8]](repeating: [], count: 3)
    for y in rows {
      for x in columns where x >= 0 && x < w {
        let a = (y * w + x) * c
        for k in 0..<3 { channels[k].append(image.pixels[a + (c >= 3 ? k : 0)]) }
      }
    }
    let median = channels.map { values -> Double in
      let sorted = values.sorted()
      return sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2]) / 255
    }
    return CIELAB.lab(r: median[0], g: median[1], b: median[2])
  }
}

/// A quad's bounding box in whole pixels, its sides rounded to the nearest pixel.
private struct PixelBox {
  let left: Int, right: Int, top: Int, bottom: Int

  init(_ points: [Point]) {
    left = Int(points.map(\.x).min()!.rounded())
    right = Int(points.map(\.x).max()!.rounded())
    top = Int(points.map(\.y).min()!.rounded())
    bottom = Int(points.map(\.y).max()!.rounded())
  }
}
