import SnapsortNative

extension TextLineFinder {
  /// Components set side by side at one height: a line of type while it is being gathered.
  struct Gathered {
    var x0: Int, y0: Int, x1: Int, y1: Int
    /// The tallest component's height: capitals and ascenders, whatever the descenders add.
    var letterHeight: Int
    var count = 1
    var bars: Int

    init(_ part: Component) {
      (x0, y0, x1, y1, letterHeight) = (part.x0, part.y0, part.x1, part.y1, part.height)
      bars = Self.isBar(part) ? 1 : 0
    }

    mutating func add(_ part: Component) {
      (x0, y0, x1, y1) = (min(x0, part.x0), min(y0, part.y0), max(x1, part.x1), max(y1, part.y1))
      letterHeight = max(letterHeight, part.height)
      count += 1
      bars += Self.isBar(part) ? 1 : 0
    }

    /// How far `part` would continue this line: the gap from the line's end in letter heights;
    /// nil when it is not of the line's size or not level with it.
    func gap(to part: Component) -> Double? {
      let height = Double(part.height), line = Double(letterHeight)
      guard (0.45...2.2).contains(height / line) else { return nil }
      let overlap = Double(min(part.y1, y1) - max(part.y0, y0) + 1)
      guard overlap >= 0.6 * min(height, line) else { return nil }
      // A word space is a third to a half of the capitals' height; a wider gap is a new line's start.
      let gap = Double(part.x0 - x1 - 1) / line
      return gap <= 1 ? gap : nil
    }

    /// A stroke much thinner than tall: a barcode's bar, or an `l`.
    static func isBar(_ part: Component) -> Bool { Double(part.width) < 0.2 * Double(part.height) }
  }

  /// Whether a component can be a letter or a joined word: between 3 % and 30 % of the crop tall,
  /// not a frame (little ink in its box) and not a solid block wider than a stroke (a pattern's
  /// tile or bar behind the type: a letter that fills its box, `I` or `l`, is narrow).
  static func isLetterLike(_ part: Component, cropHeight: Double) -> Bool {
    let height = Double(part.height), width = Double(part.width)
    let fill = Double(part.pixels) / (width * height)
    return height >= max(6, 0.03 * cropHeight) && height <= 0.3 * cropHeight && width <= 6 * height
      && fill >= 0.08 && !(fill > 0.85 && width > 0.3 * height)
  }

  /// Letter-like components gathered into lines left to right, each joining the line it
  /// continues most closely; lines of two components or more that are not mostly bars.
  static func group(_ components: [Component], cropHeight: Double) -> [(box: Box, count: Int)] {
    let letters = components.filter { isLetterLike($0, cropHeight: cropHeight) }.sorted { $0.x0 < $1.x0 }
    var lines: [Gathered] = []
    for part in letters {
      let nearest = lines.indices.compactMap { index in lines[index].gap(to: part).map { (index, $0) } }
        .min { $0.1 < $1.1 }
      if let nearest {
        lines[nearest.0].add(part)
      } else {
        lines.append(Gathered(part))
      }
    }
    return lines.filter { $0.count >= 2 && 2 * $0.bars <= $0.count }.map { line in
      (
        Box(
          x: Double(line.x0), y: Double(line.y0), width: Double(line.x1 - line.x0 + 1),
          height: Double(line.y1 - line.y0 + 1)), line.count
      )
    }
  }

  /// One line per place: of lines that overlap by half the smaller one's width and height, the
  /// one with most components.
  static func distinct(_ lines: [Line]) -> [Line] {
    var kept: [Line] = []
    for line in lines.sorted(by: { $0.components > $1.components }) {
      let a = line.box
      let repeated = kept.contains { other in
        let b = other.box
        let vertical = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        let horizontal = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        return vertical > 0.5 * min(a.height, b.height) && horizontal > 0.5 * min(a.width, b.width)
      }
      if !repeated { kept.append(line) }
    }
    return kept
  }
}
