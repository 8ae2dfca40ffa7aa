import SnapsortNative

/// Prepares a grey card crop for tesseract: each pixel's distance from the local background
/// colour, as dark ink on white, whatever the card's colours.
///
/// Tesseract binarises a page with one global Otsu threshold. A card holds three tones or more
/// (a coloured field, white or dark type, a white barcode box with black bars), and the
/// threshold then falls between the bars and everything else: white type on an orange card
/// vanished entirely (`Müller`), and thin strokes broke (`Lidl` → `Lid!`). Subtracting a coarse
/// background estimate leaves two tones — background and not — and makes the polarity of the
/// type irrelevant.
public enum TextContrast {
  /// Tile backgrounds that differ by more than this many grey levels meet at an edge (a colour
  /// panel's, a white box's). Interpolating across it blended the two backgrounds, so type near
  /// the edge sat on a false dark gradient and lost its last letter (`PrivatBan|k` on the green
  /// half of a card whose other half is white). Fitted with the half-window below by
  /// bench/names/line_prep.py's `edge` variants on the training name lines.
  static let edgeSplit = 40.0
  /// Half the side, in cells of `rows * 16` rows, of the window whose median grey tells on which
  /// side of an edge a pixel lies: wide enough that a name's strokes are the minority in it.
  static let edgeRadius = 4

  /// - Parameters:
  ///   - gray: a one-channel bitmap.
  ///   - columns: tiles across; each tile's background is its most common grey level.
  ///   - rows: tiles down.
  ///   - gain: contrast multiplier on the distance (faint type on a low-contrast card).
  ///   - keepingEdges: each side of an edge between tile backgrounds keeps its own (`edgeSplit`);
  ///     only the name's lines read again are cut from such a page: on the whole page it read more
  ///     names but lost others, a payment number and issuers (bench/names/README.md, names14).
  public static func flattened(
    _ gray: Bitmap, columns: Int = 8, rows: Int = 5, gain: Int = 2, keepingEdges: Bool = false
  ) -> Bitmap {
    precondition(gray.format == .gray, "flattened expects a grey bitmap")
    let width = gray.width, height = gray.height
    // Too small to hold several letters per tile: leave it to tesseract's own threshold.
    guard width >= columns * 16, height >= rows * 16 else { return gray }
    let background = tileBackgrounds(gray, columns: columns, rows: rows)
    let split = keepingEdges ? splitBlocks(background, columns: columns, rows: rows) : []
    let edges = split.contains(true) ? Surroundings(gray, rows: rows) : nil
    let xs = (0..<width).map { sample($0, width, columns) }
    return Bitmap(width: width, height: height, format: .gray) { out in
      gray.pixels.withUnsafeBufferPointer { pixels in
        var rowBackground = [Double](repeating: 0, count: columns)
        for y in 0..<height {
          let (y0, y1, fy) = sample(y, height, rows)
          for column in 0..<columns {
            rowBackground[column] =
              background[y0 * columns + column] * (1 - fy) + background[y1 * columns + column] * fy
          }
          let row = y * width
          for x in 0..<width {
            let (x0, x1, fx) = xs[x]
            var level = rowBackground[x0] * (1 - fx) + rowBackground[x1] * fx
            if let edges, split[y0 * columns + x0] {
              let corners = (
                background[y0 * columns + x0], background[y0 * columns + x1], background[y1 * columns + x0],
                background[y1 * columns + x1]
              )
              let weights = ((1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx)
              level = sideLevel(corners, weights, around: edges.value(x: x, y: y))
            }
            let distance = abs(Double(pixels[row + x]) - level) * Double(gain)
            out[row + x] = UInt8(255 - min(255, Int(distance)))
          }
        }
      }
    }
  }

  /// Bilinear interpolation between tile centres, as a resize of the tile grid would do: the
  /// lower and upper tile and the weight of the upper one.
  static func sample(_ position: Int, _ size: Int, _ tiles: Int) -> (Int, Int, Double) {
    let source = (Double(position) + 0.5) * Double(tiles) / Double(size) - 0.5
    let clamped = min(max(source, 0), Double(tiles - 1))
    let low = min(Int(clamped), tiles - 1)
    return (low, min(low + 1, tiles - 1), clamped - Double(low))
  }

  /// The background level of a pixel whose four tile corners lie across an edge: interpolated
  /// only between the corners on the pixel's side (within `edgeSplit` of its surroundings'
  /// median), or the nearest corner when none is.
  static func sideLevel(
    _ corners: (Double, Double, Double, Double), _ weights: (Double, Double, Double, Double),
    around median: Double
  ) -> Double {
    var sum = 0.0, total = 0.0, nearest = corners.0
    func take(_ corner: Double, _ weight: Double) {
      if abs(corner - median) < abs(nearest - median) { nearest = corner }
      guard abs(corner - median) <= edgeSplit else { return }
      // A corner on the pixel's side keeps a little weight where the interpolation gives it none.
      sum += corner * (weight + 1e-6)
      total += weight + 1e-6
    }
    take(corners.0, weights.0)
    take(corners.1, weights.1)
    take(corners.2, weights.2)
    take(corners.3, weights.3)
    return total > 0 ? sum / total : nearest
  }

  /// For each tile, whether the tiles at the corners of the pixels right and below its centre
  /// (it, its right, lower and lower-right neighbours) differ by more than `edgeSplit`.
  static func splitBlocks(_ background: [Double], columns: Int, rows: Int) -> [Bool] {
    (0..<(rows * columns)).map { index in
      let ty = index / columns, tx = index % columns
      let y1 = min(ty + 1, rows - 1), x1 = min(tx + 1, columns - 1)
      let block = [
        background[index], background[ty * columns + x1], background[y1 * columns + tx],
        background[y1 * columns + x1],
      ]
      return (block.max() ?? 0) - (block.min() ?? 0) > edgeSplit
    }
  }

  /// The median grey of each pixel's surroundings: cells of the page's mean grey, each the median
  /// of the `edgeRadius` cells around it, interpolated between cell centres. A median keeps an
  /// edge where it is and drops strokes thinner than half its window.
  struct Surroundings {
    var cells: [Double]
    var columns: Int, rows: Int
    var xs: [(Int, Int, Double)], ys: [(Int, Int, Double)]

    init(_ gray: Bitmap, rows tiles: Int) {
      let factor = max(1, gray.height / (tiles * 16))
      rows = gray.height / factor
      columns = gray.width / factor
      let means = Self.means(gray, factor: factor, columns: columns, rows: rows)
      cells = Self.medians(means, columns: columns, rows: rows, radius: TextContrast.edgeRadius)
      let (width, height, columns, rows) = (gray.width, gray.height, columns, rows)
      xs = (0..<width).map { TextContrast.sample($0, width, columns) }
      ys = (0..<height).map { TextContrast.sample($0, height, rows) }
    }

    func value(x: Int, y: Int) -> Double {
      let (x0, x1, fx) = xs[x], (y0, y1, fy) = ys[y]
      let top = cells[y0 * columns + x0] * (1 - fx) + cells[y0 * columns + x1] * fx
      let bottom = cells[y1 * columns + x0] * (1 - fx) + cells[y1 * columns + x1] * fx
      return top * (1 - fy) + bottom * fy
    }

    /// The mean grey of each `factor`-pixel square cell (the page's remainder rows and columns left out).
    static func means(_ gray: Bitmap, factor: Int, columns: Int, rows: Int) -> [Double] {
      var sums = [Double](repeating: 0, count: columns * rows)
      gray.pixels.withUnsafeBufferPointer { pixels in
        for y in 0..<(rows * factor) {
          let row = y * gray.width, cellRow = (y / factor) * columns
          for x in 0..<(columns * factor) { sums[cellRow + x / factor] += Double(pixels[row + x]) }
        }
      }
      let area = Double(factor * factor)
      return sums.map { $0 / area }
    }

    /// Each cell's median over the square of `radius` cells around it, the edge cells repeated.
    static func medians(_ cells: [Double], columns: Int, rows: Int, radius: Int) -> [Double] {
      var result = [Double](repeating: 0, count: cells.count)
      var window = [Double]()
      window.reserveCapacity((2 * radius + 1) * (2 * radius + 1))
      for y in 0..<rows {
        for x in 0..<columns {
          window.removeAll(keepingCapacity: true)
          for dy in -radius...radius {
            let row = min(max(y + dy, 0), rows - 1) * columns
            for dx in -radius...radius { window.append(cells[row + min(max(x + dx, 0), columns - 1)]) }
          }
          result[y * columns + x] = window.selectElement(atRank: window.count / 2)
        }
      }
      return result
    }
  }

  /// The most common grey level of each tile, histogram smoothed over ±3 levels so that noise
  /// and JPEG ringing do not split the mode.
  static func tileBackgrounds(_ gray: Bitmap, columns: Int, rows: Int) -> [Double] {
    var result = [Double](repeating: 0, count: columns * rows)
    var histogram = [Int](repeating: 0, count: 256)
    gray.pixels.withUnsafeBufferPointer { pixels in
      for ty in 0..<rows {
        for tx in 0..<columns {
          for i in 0..<256 { histogram[i] = 0 }
          let x0 = tx * gray.width / columns, x1 = (tx + 1) * gray.width / columns
          for y in (ty * gray.height / rows)..<((ty + 1) * gray.height / rows) {
            let row = y * gray.width
            for x in x0..<x1 { histogram[Int(pixels[row + x])] += 1 }
          }
          var window = histogram[0..<4].reduce(0, +)
          var best = (level: 0, count: window)
          for level in 1..<256 {
            if level + 3 < 256 { window += histogram[level + 3] }
            if level - 4 >= 0 { window -= histogram[level - 4] }
            if window > best.count { best = (level, window) }
          }
          result[ty * columns + tx] = Double(best.level)
        }
      }
    }
    return result
  }
}
