import SnapsortNative

/// Which way up a card crop is, from its layout, for when no barcode says so.
///
/// - A payment card's contact chip (ISO/IEC 7816-2) sits in the left third of the front, a
///   little above the middle: found in the mirrored place, the crop is upside down.
/// - A code panel (a barcode or a stacked code such as PDF417, dense vertical bars) is printed
///   in the lower part of a loyalty card: dense bars in the top third and none in the bottom
///   third say upside down.
enum CardLayout {
  /// True when the layout clearly says the crop is turned by 180°, false when it clearly says
  /// upright, nil when it says nothing (no chip, no code panel at one end only).
  static func verdict(_ crop: Bitmap) -> Bool? {
    guard crop.format == .rgb, crop.width >= 64, crop.height >= 40 else { return nil }
    let upright = chipShare(crop, x: 0.06...0.26, y: 0.28...0.52)
    let turned = chipShare(crop, x: 0.74...0.94, y: 0.48...0.72)
    if turned > 0.3 && upright < 0.05 { return true }
    if upright > 0.3 && turned < 0.05 { return false }
    let gray = crop.grayscale()
    let top = barShare(gray, rows: 0.05...0.35), bottom = barShare(gray, rows: 0.65...0.95)
    if top > 0.04 && top > 3 * bottom { return true }
    if bottom > 0.04 && bottom > 3 * top { return false }
    return nil
  }

  /// Share of a window's pixels in the gold of a contact chip (red and green well above blue).
  static func chipShare(_ crop: Bitmap, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double {
    let x0 = Int(x.lowerBound * Double(crop.width)), x1 = Int(x.upperBound * Double(crop.width))
    let y0 = Int(y.lowerBound * Double(crop.height)), y1 = Int(y.upperBound * Double(crop.height))
    var hits = 0, total = 0
    crop.pixels.withUnsafeBufferPointer { p in
      for yy in stride(from: y0, to: y1, by: 2) {
        for xx in stride(from: x0, to: x1, by: 2) {
          let i = (yy * crop.width + xx) * 3
          let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
          if r > 140 && r - b > 70 && g * 100 > r * 60 && g * 100 < r * 97 { hits += 1 }
          total += 1
        }
      }
    }
    return total == 0 ? 0 : Double(hits) / Double(total)
  }

  /// Share of a band of rows' pixels on strong vertical edges with little vertical change: bars.
  static func barShare(_ gray: Bitmap, rows: ClosedRange<Double>) -> Double {
    let y0 = max(1, Int(rows.lowerBound * Double(gray.height)))
    let y1 = min(gray.height - 1, Int(rows.upperBound * Double(gray.height)))
    let w = gray.width
    var hits = 0, total = 0
    gray.pixels.withUnsafeBufferPointer { p in
      for y in stride(from: y0, to: y1, by: 2) {
        for x in stride(from: 1, to: w - 1, by: 1) {
          let i = y * w + x
          let dx = abs(Int(p[i + 1]) - Int(p[i - 1])), dy = abs(Int(p[i + w]) - Int(p[i - w]))
          if dx > 60 && dx > 4 * dy { hits += 1 }
          total += 1
        }
      }
    }
    return total == 0 ? 0 : Double(hits) / Double(total)
  }
}
