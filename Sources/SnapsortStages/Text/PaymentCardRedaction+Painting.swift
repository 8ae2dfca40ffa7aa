import SnapsortNative

extension PaymentCardRedaction {
  /// `crop` with every region filled with the colour around it and, when nothing placed the
  /// number, its lower two thirds pixelated.
  public func applied(to crop: Bitmap) -> Bitmap {
    var image = crop
    if lowerTwoThirds {
      Self.pixelate(&image, fromRow: image.height / 3, cell: max(8, image.height / 10))
    }
    for region in regions { Self.fill(&image, region) }
    return image
  }

  /// Fills `box` with the median colour of a band of `ring` pixels around it: the card's own
  /// background there, so the crop still looks like the card, and a solid area leaves nothing of
  /// the type for OCR or a person to read, as blurring or fine pixelation can.
  static func fill(_ image: inout Bitmap, _ box: Box, ring: Int = 6) {
    let x0 = Int(box.x), y0 = Int(box.y), x1 = Int(box.maxX), y1 = Int(box.maxY)
    let channels = image.channels
    var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: channels)
    var count = 0
    for y in max(0, y0 - ring)..<min(image.height, y1 + ring) {
      for x in max(0, x0 - ring)..<min(image.width, x1 + ring) where !(y0..<y1 ~= y && x0..<x1 ~= x) {
        let offset = (y * image.width + x) * channels
        for c in 0..<channels { histograms[c][Int(image.pixels[offset + c])] += 1 }
        count += 1
      }
    }
    // A box as large as the image has no ring around it: black then.
    let colour = histograms.map { histogram -> UInt8 in
      var seen = 0
      for (value, n) in histogram.enumerated() {
        seen += n
        if seen * 2 > count { return UInt8(value) }
      }
      return 0
    }
    for y in y0..<y1 {
      for x in x0..<x1 {
        let offset = (y * image.width + x) * channels
        for c in 0..<channels { image.pixels[offset + c] = colour[c] }
      }
    }
  }

  /// Replaces each `cell` × `cell` block from `fromRow` down with its mean colour.
  static func pixelate(_ image: inout Bitmap, fromRow top: Int, cell: Int) {
    let channels = image.channels
    for blockY in stride(from: top, to: image.height, by: cell) {
      for blockX in stride(from: 0, to: image.width, by: cell) {
        let rows = blockY..<min(image.height, blockY + cell),
          columns = blockX..<min(image.width, blockX + cell)
        var sums = [Int](repeating: 0, count: channels)
        for y in rows {
          for x in columns {
            for c in 0..<channels { sums[c] += Int(image.pixels[(y * image.width + x) * channels + c]) }
          }
        }
        let area = rows.count * columns.count
        for y in rows {
          for x in columns {
            for c in 0..<channels {
              image.pixels[(y * image.width + x) * channels + c] = UInt8(sums[c] / area)
            }
          }
        }
      }
    }
  }
}
