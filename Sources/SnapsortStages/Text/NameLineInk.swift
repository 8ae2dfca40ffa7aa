import SnapsortNative

/// Prepares a name line cut out of a card crop for reading on its own: the ink that reaches in
/// over the cut's top or bottom edge, and lies mostly outside the line's box, painted over in the
/// background's mean level (ink by Otsu's threshold within the cut, its polarity the one the cut's
/// border says is background). The rest of the cut keeps its grey levels: binarised at 48 px,
/// blurred strokes broke (`BRIGHTWATER` read `BRIGIITW ATER`).
///
/// A line's cut keeps a margin of a third of its height, and that margin catches the edge of a
/// colour panel, a logo or the line above; read as letters they came back as junk at the line's
/// ends (`l BANCA MIRÒ`, `Sonnenschein Apothek f`). The line's own letters lie inside the box and
/// touch neither edge (bench/names/line_prep.py measured the preparation on training name lines).
enum NameLineInk {
  /// - Parameters:
  ///   - cut: the line with its margins, grey.
  ///   - band: the rows of `cut` that the line's box covers.
  static func prepared(_ cut: Bitmap, band: Range<Int>) -> Bitmap {
    precondition(cut.format == .gray, "NameLineInk expects a grey bitmap")
    let width = cut.width, height = cut.height
    guard width >= 3, height >= 3 else { return cut }
    let threshold = UInt8(ReceiptImaging.otsu(cut))
    var light = [Bool](repeating: false, count: cut.pixels.count)
    for index in light.indices { light[index] = cut.pixels[index] > threshold }
    // The background is what most of the border is.
    var borderLight = 0, border = 0
    for x in 0..<width {
      border += 2
      borderLight += (light[x] ? 1 : 0) + (light[(height - 1) * width + x] ? 1 : 0)
    }
    for y in 1..<(height - 1) {
      border += 2
      borderLight += (light[y * width] ? 1 : 0) + (light[y * width + width - 1] ? 1 : 0)
    }
    let inkIsLight = 2 * borderLight < border
    let ink = light.map { $0 == inkIsLight }
    var kept = ink
    clearEdges(&kept, width: width, height: height, band: band)
    var backgroundSum = 0, backgroundCount = 0
    for index in ink.indices where !ink[index] {
      backgroundSum += Int(cut.pixels[index])
      backgroundCount += 1
    }
    let background = UInt8(backgroundSum / max(1, backgroundCount))
    var out = cut
    for index in ink.indices where ink[index] && !kept[index] { out.pixels[index] = background }
    return out
  }

  /// Removes every 8-connected piece of ink that touches the top or bottom row and lies mostly
  /// outside `band` (the rows of the line's box): a letter of a slightly tilted line reaches into
  /// the margin with its end, junk lies there.
  static func clearEdges(_ ink: inout [Bool], width: Int, height: Int, band: Range<Int>) {
    var seen = [Bool](repeating: false, count: ink.count)
    for start in (0..<width).flatMap({ [$0, (height - 1) * width + $0] }) where ink[start] && !seen[start] {
      seen[start] = true
      var stack = [start], piece: [Int] = []
      while let index = stack.popLast() {
        piece.append(index)
        let x = index % width, y = index / width
        for ny in max(0, y - 1)...min(height - 1, y + 1) {
          for nx in max(0, x - 1)...min(width - 1, x + 1) where ink[ny * width + nx] && !seen[ny * width + nx]
          {
            seen[ny * width + nx] = true
            stack.append(ny * width + nx)
          }
        }
      }
      let inside = piece.filter { band.contains($0 / width) }.count
      if 2 * inside < piece.count {
        for index in piece { ink[index] = false }
      }
    }
  }
}
