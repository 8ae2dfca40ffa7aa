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
  /// - Parameters:
  ///   - gray: a one-channel bitmap.
  ///   - columns: tiles across; each tile's background is its most common grey level.
  ///   - rows: tiles down.
  ///   - gain: contrast multiplier on the distance (faint type on a low-contrast card).
  public static func flattened(_ gray: Bitmap, columns: Int = 8, rows: Int = 5, gain: Int = 2) -> Bitmap {
    precondition(gray.format == .gray, "flattened expects a grey bitmap")
    let width = gray.width, height = gray.height
    // Too small to hold several letters per tile: leave it to tesseract's own threshold.
    guard width >= columns * 16, height >= rows * 16 else { return gray }
    let background = tileBackgrounds(gray, columns: columns, rows: rows)
    // Bilinear interpolation between tile centres, as a resize of the tile grid would do.
    func sample(_ position: Int, _ size: Int, _ tiles: Int) -> (Int, Int, Double) {
      let source = (Double(position) + 0.5) * Double(tiles) / Double(size) - 0.5
      let clamped = min(max(source, 0), Double(tiles - 1))
      let low = min(Int(clamped), tiles - 1)
      return (low, min(low + 1, tiles - 1), clamped - Double(low))
    }
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
            let level = rowBackground[x0] * (1 - fx) + rowBackground[x1] * fx
            let distance = abs(Double(pixels[row + x]) - level) * Double(gain)
            out[row + x] = UInt8(255 - min(255, Int(distance)))
          }
        }
      }
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
