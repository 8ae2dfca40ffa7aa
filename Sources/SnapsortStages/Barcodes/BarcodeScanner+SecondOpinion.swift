import Foundation
import SnapsortImaging
import SnapsortNative

extension BarcodeScanner {
  /// Where a linear code read once lies in the record's image: its scan line's centre, direction
  /// (radians, image axes) and length.
  struct ReadLine: Equatable {
    var centre: Point
    var angle: Double
    var length: Double

    /// The read's corners (a zxing scan line's ends, a zbar box) reduced to their main axis.
    init?(_ corners: [Point]) {
      guard let axis = FittedLine(fittedTo: corners, minimumCount: 2) else { return nil }
      let along = corners.map {
        ($0.x - axis.point.x) * axis.direction.x + ($0.y - axis.point.y) * axis.direction.y
      }
      centre = axis.point
      angle = atan2(axis.direction.y, axis.direction.x)
      length = along.max()! - along.min()!
    }
  }

  /// Second opinions for the linear codes that every pass read only once (rule R7 withholds a
  /// code until a second pass or the other library agrees): each one's surroundings, cut from
  /// `image` (the record's pixels) and turned so that its scan line runs along the rows, read
  /// again plain and sharpened along its rows by both libraries. The ladder's
  /// passes smear a blurred code's thin gaps across the whole crop; cut upright at full
  /// resolution its bars separate again, and a read that agrees confirms it under the same rule,
  /// one that disagrees keeps it withheld. No EAN/UPC read counts here: a retail code's check digit
  /// is too weak for a re-read of the same pixels (zbar repeated its misread of a UPC-A cut at the
  /// image's edge) or a copy sharpened this hard (FINDINGS.md §7e).
  public func secondOpinions(
    _ image: Bitmap, into findings: inout Findings, limit: Int = 2, keepGoing: () -> Bool
  ) {
    let lines = findings.unconfirmed.filter(Findings.isLinear).compactMap { record in
      record.quad.flatMap { ReadLine($0.corners) }
    }
    for line in lines.prefix(limit) where line.length >= 16 {
      guard !findings.isSatisfied, keepGoing(), let cut = Self.upright(line, in: image) else { return }
      let passes = secondOpinionPasses(cut.image)
      run(
        passes, gray: cut.image, gated: false, cache: ScanCopies(cut.image), mapping: cut.toImage,
        into: &findings, keepGoing: keepGoing)
    }
  }

  /// The square around the read, a half of its length beyond each end, turned by the scan line's
  /// angle; nil when it leaves too little of the image.
  static func upright(_ line: ReadLine, in image: Bitmap) -> (image: Bitmap, toImage: (Point) -> Point)? {
    let half = 0.75 * line.length
    let x0 = max(0, Int(line.centre.x - half)), x1 = min(image.width, Int(line.centre.x + half) + 1)
    let y0 = max(0, Int(line.centre.y - half)), y1 = min(image.height, Int(line.centre.y + half) + 1)
    guard x1 - x0 >= 16, y1 - y0 >= 16 else { return nil }
    var square = image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    if square.format != .gray { square = square.grayscale() }
    let (turned, toSquare) = square.rotated(degrees: -line.angle * 180 / .pi)
    let origin = Point(Double(x0), Double(y0))
    return (
      turned,
      { p in
        let q = toSquare(p); return Point(q.x + origin.x, q.y + origin.y)
      }
    )
  }

  /// The blur widths, in pixels, that the row sharpening undoes: a phone photo's blur spans 1 to
  /// 3 px at the scale codes are read.
  static let deblurSigmas = [1.0, 2.0, 3.0]

  /// The cut as it is, then sharpened along its rows at three blur widths (a photo's blur of
  /// 1 to 3 px; bench/barcodes/FINDINGS.md §7e), each read by both libraries.
  private func secondOpinionPasses(_ gray: Bitmap) -> [Pass] {
    let identity: (Point) -> Point = { $0 }
    let useZBar = strategy.decoders.contains(.zbar)
    let reader = strategy.decoders.contains(.zxing) ? zxing : nil
    var passes = [
      Pass(
        name: "upright", zbar: useZBar, zxing: reader, firstLook: true, retail: false,
        prepare: { (gray, identity) })
    ]
    for sigma in Self.deblurSigmas {
      passes.append(
        Pass(
          name: "upright-sharpened\(Int(sigma))", zbar: useZBar, zxing: reader, firstLook: true,
          retail: false,
          prepare: { (gray.sharpenedAlongRows(sigma: sigma, amount: 4, smoothing: 9), identity) }))
    }
    return passes
  }
}
