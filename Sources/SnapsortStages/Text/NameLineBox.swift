import SnapsortImaging
import SnapsortNative

/// The box a name line is cut out by before it is read again, rebuilt from the pieces of ink
/// around the page reading's line box: the letters that sit on the line's baseline at its letter
/// height, without a logo or badge beside the name that the page layout took into the line (taller,
/// or a short run set apart from the rest), and with letters the box ended short of.
///
/// The page reading's box is often wrong at the name's ends: on 223 training name lines, 23 of the
/// 35 that the render's true box read exactly and the page's box did not had a logo or mark in the
/// box at the left (`Å BAUHAUS`, `© CAIXABANK`), others one at the right or a box cut short. A logo
/// in the box also makes it taller, so the letters were scaled too small. Every threshold is fitted
/// on training name lines by bench/names/line_box.py, which mirrors this geometry.
struct NameLineBox: Sendable {
  /// A gap wider than this many letter heights sets a run of letters at the line's end apart.
  var runGap = 1.0
  /// Runs of up to this many pieces set apart at an end are a logo or a mark, not the name's word.
  var shortRun = 1
  /// A piece beyond the box joins the line at a gap of up to this many letter heights.
  var extensionGap = 0.8
  /// The tallest a letter of the line may be, in letter heights (a descender's `g`, an `Å`).
  var tallest = 1.45
  /// Capitals or ascenders over the median height of the line's letters (x-height in lower
  /// case) up to this ratio are letters; a taller piece on the baseline is a logo.
  var capitalRatio = 1.6
  /// A piece on the baseline at the line's end, too tall for a letter, is still the line's first
  /// (or last) letter when the next piece is nearer than this many letter heights: a capital over a
  /// lower-case word in a face with a small x-height (`Lindex` read `index`, `Air Miles` read
  /// `ir Miles`), where a logo stands a space apart.
  var adjoining = 0.3

  /// A piece of ink in the page's pixels, ends exclusive.
  struct Part: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var height: Int { y1 - y0 }
    var width: Int { x1 - x0 }
    /// The part seen in a mirror, so that the line's right end is trimmed as its left end.
    var mirrored: Part { Part(x0: -x1, y0: y0, x1: -x0, y1: y1) }
  }

  /// Where the line's letters sit and how tall its capitals or ascenders are, in pixels.
  struct Letters {
    var baseline: Double
    var height: Double
  }

  /// The rebuilt box, or `box` as it is when its pieces do not look like a line of letters.
  func fitted(_ box: Box, in page: Bitmap) -> Box {
    let parts = Self.parts(around: box, in: page)
    let inside = parts.filter { part in
      let x = Double(part.x0 + part.x1) / 2, y = Double(part.y0 + part.y1) / 2
      return x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height
        && Double(part.height) >= 0.3 * box.height
    }.sorted { ($0.x0, $0.y0) < ($1.x0, $1.y0) }
    guard inside.count >= 3, let letters = letters(of: inside, boxHeight: box.height) else { return box }
    let left = trimmed(inside, letters)
    let kept = Array(trimmed(left.reversed().map(\.mirrored), letters).reversed().map(\.mirrored))
    var line = kept[0]
    for part in kept {
      line = Part(
        x0: min(line.x0, part.x0), y0: min(line.y0, part.y0), x1: max(line.x1, part.x1),
        y1: max(line.y1, part.y1))
    }
    line = withAccents(extended(line, by: parts.filter { !kept.contains($0) }, letters), from: parts, letters)
    return Box(x: Double(line.x0), y: Double(line.y0), width: Double(line.width), height: Double(line.height))
  }

  /// The baseline (the median of the pieces' bottoms) and the letter height (the tallest of the
  /// pieces on it that are no logo); nil when no piece sits on it.
  func letters(of inside: [Part], boxHeight: Double) -> Letters? {
    let baseline = inside.map { Double($0.y1) }.median
    let onBaseline = inside.filter { abs(Double($0.y1) - baseline) <= 0.12 * boxHeight }.map {
      Double($0.height)
    }
    guard !onBaseline.isEmpty else { return nil }
    let typical = onBaseline.median
    guard let height = onBaseline.filter({ $0 <= capitalRatio * typical }).max() else { return nil }
    return Letters(baseline: baseline, height: height)
  }

  /// Whether a piece is a letter of the line: of its height and on its baseline (a descender
  /// reaches under it, an accent's letter over it).
  func isLetter(_ part: Part, _ letters: Letters) -> Bool {
    let height = Double(part.height), top = Double(part.y0)
    return height >= 0.3 * letters.height && height <= tallest * letters.height
      && top >= letters.baseline - 1.5 * letters.height && sitsOnBaseline(part, letters)
  }

  /// Whether `part`, sitting on the baseline, is `adjoining` letter heights or nearer to `next`.
  func adjoins(_ part: Part, _ next: Part, _ letters: Letters) -> Bool {
    Double(next.x0 - part.x1) <= adjoining * letters.height && sitsOnBaseline(part, letters)
  }

  /// Whether a piece ends on the line's baseline: a descender reaches a little under it.
  func sitsOnBaseline(_ part: Part, _ letters: Letters) -> Bool {
    let bottom = Double(part.y1)
    return bottom <= letters.baseline + 0.45 * letters.height
      && bottom >= letters.baseline - 0.5 * letters.height
  }

  /// `parts` (left to right) without what leads the line: pieces that are not letters, and short
  /// runs set apart from the rest, while more than two pieces are left.
  func trimmed(_ parts: [Part], _ letters: Letters) -> [Part] {
    var parts = parts[...]
    while parts.count > 2 {
      guard
        isLetter(parts[parts.startIndex], letters)
          || adjoins(parts[parts.startIndex], parts[parts.startIndex + 1], letters)
      else {
        parts = parts.dropFirst()
        continue
      }
      var right = parts[parts.startIndex].x1, run = 1
      while run < parts.count, Double(parts[parts.startIndex + run].x0 - right) <= runGap * letters.height {
        right = max(right, parts[parts.startIndex + run].x1)
        run += 1
      }
      guard run < parts.count, run <= shortRun else { break }
      parts = parts.dropFirst(run)
    }
    return Array(parts)
  }

  /// The line with the letters that continue it beyond its ends, each at most `extensionGap`
  /// letter heights from the last.
  func extended(_ line: Part, by others: [Part], _ letters: Letters) -> Part {
    let candidates = others.filter { isLetter($0, letters) }.sorted { ($0.x0, $0.y0) < ($1.x0, $1.y0) }
    let reach = extensionGap * letters.height
    var line = line
    for part in candidates where part.x0 >= line.x1 && Double(part.x0 - line.x1) <= reach {
      line = Part(x0: line.x0, y0: min(line.y0, part.y0), x1: part.x1, y1: max(line.y1, part.y1))
    }
    for part in candidates.reversed() where part.x1 <= line.x0 && Double(line.x0 - part.x1) <= reach {
      line = Part(x0: part.x0, y0: min(line.y0, part.y0), x1: line.x1, y1: max(line.y1, part.y1))
    }
    return line
  }

  /// The line with the accents and dots just over its letters, which the cut's margin might
  /// leave out.
  func withAccents(_ line: Part, from parts: [Part], _ letters: Letters) -> Part {
    var line = line
    let top = Double(line.y0)
    for part in parts
    where part.x0 >= line.x0 && part.x1 <= line.x1 && Double(part.y0) >= top - 0.4 * letters.height
      && Double(part.y1) <= top + 0.15 * letters.height && Double(part.height) < 0.5 * letters.height
      && Double(part.width) < letters.height
    {
      line.y0 = min(line.y0, part.y0)
    }
    return line
  }

  /// The 8-connected pieces of ink (Otsu's threshold within the searched area, the ink the class
  /// most of its border is not) in the box with room of `side` heights beside it and a quarter of
  /// its height over and under it, in the page's pixels; none that touch the page's edge.
  static func parts(around box: Box, in page: Bitmap) -> [Part] {
    let side = 1.5 * box.height, room = 0.25 * box.height
    let x0 = max(0, Int(box.x - side)), x1 = min(page.width, Int(box.x + box.width + side))
    let y0 = max(0, Int(box.y - room)), y1 = min(page.height, Int(box.y + box.height + room))
    guard x1 - x0 >= 3, y1 - y0 >= 3 else { return [] }
    let area = page.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    let threshold = UInt8(ReceiptImaging.otsu(area))
    let light = area.pixels.map { $0 > threshold }
    let w = area.width, h = area.height
    var border = 0, borderLight = 0
    for index in light.indices where index < w || index >= (h - 1) * w || index % w == 0 || index % w == w - 1
    {
      border += 1
      borderLight += light[index] ? 1 : 0
    }
    let inkIsLight = 2 * borderLight < border
    let components = TextLineFinder.components(light.map { $0 == inkIsLight }, width: w, height: h)
    return components.map { Part(x0: $0.x0 + x0, y0: $0.y0 + y0, x1: $0.x1 + x0 + 1, y1: $0.y1 + y0 + 1) }
      .filter { $0.x0 > 0 && $0.y0 > 0 && $0.x1 < page.width && $0.y1 < page.height }
  }
}
