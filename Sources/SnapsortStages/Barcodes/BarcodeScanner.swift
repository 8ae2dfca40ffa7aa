import Foundation
import SnapsortImaging
import SnapsortNative

/// The decoding strategy of the barcode stage: two decoders over a series of prepared copies of
/// one image, cheapest first, until the expected number of codes is found.
///
/// Not thread-safe (it owns a zbar scanner): one per worker.
public final class BarcodeScanner {
  public enum Decoder: String, Codable, Sendable, CaseIterable {
    case zbar, zxing
  }

  public struct Strategy: Sendable, Equatable {
    /// Decoders in the order they are tried on each prepared image.
    public var decoders: [Decoder] = [.zxing, .zbar]
    /// Stop once this many distinct codes are found (0: run every pass).
    public var expectedCodes = 1
    /// Light-on-dark codes: zbar's inverted test, and zxing on inverted pixels (1.4 has no
    /// option for it).
    public var inverted = true
    /// Small codes enlarged, huge photos reduced.
    public var multiScale = true
    /// zxing's other binarisers, sharpened and contrast-stretched copies.
    public var enhance = true
    /// Copies turned by ±30° for tilted linear codes (both decoders scan rows and columns).
    public var rotations = false
    /// zbar scans every n-th row and column.
    public var zbarDensity = 1
    public var zxingTryHarder = true
    public var zxingTryRotate = true
    public init() {}
  }

  /// What a scan found so far, across regions and passes.
  public struct Findings: Sendable {
    public private(set) var records: [BarcodeRecord] = []
    /// Decoder failures worth telling the user (a caught zxing assertion, say).
    public var notes: [String] = []
    public let expectedCodes: Int

    public init(expectedCodes: Int) {
      self.expectedCodes = expectedCodes
    }

    /// Whether enough codes are found. zbar's EAN/UPC reads do not count: zbar returns wrong
    /// numbers whose check digit happens to hold on blurred retail codes (4 of 13 in upca-4), so
    /// its retail reads stay tentative while zxing may still read the same code differently.
    public var isSatisfied: Bool {
      expectedCodes > 0 && records.filter { !Self.isTentative($0) }.count >= expectedCodes
    }

    static func isTentative(_ record: BarcodeRecord) -> Bool {
      record.decoder == "zbar" && (Symbology(rawValue: record.symbology)?.isRetail ?? false)
    }

    /// Adds a validated record unless the same code is already there; true when it was new.
    @discardableResult
    public mutating func add(_ record: BarcodeRecord) -> Bool {
      guard BarcodeValidator.accepts(record) else { return false }
      let key = BarcodeValidator.identity(record)
      if let index = records.firstIndex(where: { BarcodeValidator.identity($0) == key }) {
        // Two decoders agreeing makes a tentative read firm.
        if Self.isTentative(records[index]) && !Self.isTentative(record) { records[index] = record }
        return false
      }
      records.append(record)
      return true
    }

    /// Drops tentative zbar reads where zxing read a different retail code in the same place.
    mutating func settle() {
      let firm = records.filter {
        !Self.isTentative($0) && (Symbology(rawValue: $0.symbology)?.isRetail ?? false)
      }
      records.removeAll { record in
        Self.isTentative(record) && firm.contains { Self.overlaps($0.quad, record.quad) }
      }
    }

    /// Whether two codes' boxes meet, each grown by a quarter of its longer side: zxing reports a
    /// linear code as its scan line, a box one pixel high, while zbar's box for the same blurred
    /// code can sit a little above or below it (samples/cards/card-09: 2620012345678 read by
    /// zxing, a ghost 7612012345678 by zbar 25 px lower).
    static func overlaps(_ a: Quad?, _ b: Quad?) -> Bool {
      guard let a, let b, !a.corners.isEmpty, !b.corners.isEmpty else { return true }
      func grownBox(_ quad: Quad) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
        let margin = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) / 4
        return (xs.min()! - margin, xs.max()! + margin, ys.min()! - margin, ys.max()! + margin)
      }
      let boxA = grownBox(a), boxB = grownBox(b)
      return boxA.minX <= boxB.maxX && boxB.minX <= boxA.maxX && boxA.minY <= boxB.maxY
        && boxB.minY <= boxA.maxY
    }

    /// Records in a stable order: by position (top to bottom, left to right), then value.
    public var sorted: [BarcodeRecord] {
      records.sorted { a, b in
        let pa = a.quad?.corners.first ?? Point(0, 0), pb = b.quad?.corners.first ?? Point(0, 0)
        if pa.y != pb.y { return pa.y < pb.y }
        if pa.x != pb.x { return pa.x < pb.x }
        return (a.symbology, a.value) < (b.symbology, b.value)
      }
    }
  }

  public let strategy: Strategy
  private let zbar: ZBarScanner
  private let zxing: ZXingReader
  private let quickZXing: ZXingReader

  public init(strategy: Strategy) throws {
    self.strategy = strategy
    self.zbar = try ZBarScanner(testInverted: strategy.inverted, scanDensity: strategy.zbarDensity)
    var options = ZXingReader.Options()
    options.formats = ZXingReader.Format.wallet
    options.tryHarder = strategy.zxingTryHarder
    options.tryRotate = strategy.zxingTryRotate
    self.zxing = ZXingReader(options: options)
    options.tryHarder = false
    self.quickZXing = ZXingReader(options: options)
  }

  /// One prepared copy of the image and who reads it.
  private struct Pass {
    var zbar: Bool
    var zxing: ZXingReader?
    /// The copy, and how its pixels map back to the scanned image's.
    var prepare: () -> (Bitmap, (Point) -> Point)
  }

  /// Scans one grey image through the passes of the strategy until `findings` is satisfied or
  /// `keepGoing` says stop; `toImage` maps this image's pixels to the record's image pixels.
  ///
  /// - Parameter thorough: every pass; false runs only the plain and inverted reads (a second
  ///   look at an image whose region was already scanned thoroughly, or a large photo where
  ///   the other passes cost ten times those reads and rarely find anything).
  public func scan(
    _ gray: Bitmap, toImage: (Point) -> Point, into findings: inout Findings, thorough: Bool = true,
    keepGoing: () -> Bool = { true }
  ) {
    let useZBar = strategy.decoders.contains(.zbar)
    let reader = strategy.decoders.contains(.zxing) ? zxing : nil
    let identity: (Point) -> Point = { $0 }
    // A second look is the plain read with zxing without try-harder, and zbar only up to
    // analysis size: on a full-resolution photo zbar and try-harder each cost several times the
    // plain read (zbar still reads a motion-blurred EAN-13 in the analysis copy that zxing does
    // not).
    let firstReader = thorough ? reader : reader.map { _ in quickZXing }
    let firstZBar = useZBar && (thorough || reader == nil || max(gray.width, gray.height) <= 2000)
    var passes = [Pass(zbar: firstZBar, zxing: firstReader, prepare: { (gray, identity) })]
    if strategy.inverted, let firstReader {
      // zbar tests inverted codes itself; zxing 1.4 needs the inverted pixels.
      passes.append(Pass(zbar: false, zxing: firstReader, prepare: { (gray.inverted(), identity) }))
    }
    let shortest = min(gray.width, gray.height), longest = max(gray.width, gray.height)
    if thorough, strategy.multiScale {
      if shortest < 560 {
        passes.append(
          Pass(zbar: useZBar, zxing: reader, prepare: { (gray.scaled(by: 2), { Point($0.x / 2, $0.y / 2) }) })
        )
      }
      if longest > 1800 {
        let f = 1200 / Double(longest)
        passes.append(
          Pass(zbar: useZBar, zxing: reader, prepare: { (gray.scaled(by: f), { Point($0.x / f, $0.y / f) }) })
        )
      }
    }
    if thorough, strategy.enhance, reader != nil {
      // zxing's other binarisers: a global threshold keeps thin bars that the local one merges
      // on blurred linear codes.
      for binarizer in [ZXingReader.Binarizer.fixedThreshold, .globalHistogram] {
        passes.append(Pass(zbar: false, zxing: variant(binarizer: binarizer), prepare: { (gray, identity) }))
      }
    }
    if thorough, strategy.multiScale, reader != nil {
      // A 2-D code photographed at a slant is foreshortened along one axis; squeezing the other
      // axis brings its modules back to square enough for zxing 1.4's detectors.
      for (sx, sy) in [(1.0, 0.7), (0.7, 1.0)] {
        passes.append(
          Pass(
            zbar: false, zxing: reader,
            prepare: {
              let w = max(1, Int((Double(gray.width) * sx).rounded()))
              let h = max(1, Int((Double(gray.height) * sy).rounded()))
              let fx = Double(w) / Double(gray.width), fy = Double(h) / Double(gray.height)
              return (gray.resized(width: w, height: h), { Point($0.x / fx, $0.y / fy) })
            }))
      }
    }
    if thorough, strategy.enhance {
      passes.append(Pass(zbar: useZBar, zxing: reader, prepare: { (gray.sharpened(), identity) }))
    }
    if thorough, strategy.enhance, reader != nil {
      // Contrast stretched over the 2nd–98th percentile, with a gamma that darkens (thin light
      // gaps between blurred bars) or lightens (modules of a code in shadow), the first also
      // enlarged: each read one more photo of zxing-cpp's test set that nothing else read.
      let stretch: [(gamma: Double, scale: Double, binarizer: ZXingReader.Binarizer)] = [
        (1, 1.5, .localAverage), (2, 1, .localAverage), (0.5, 1, .globalHistogram),
      ]
      for (gamma, scale, binarizer) in stretch {
        passes.append(
          Pass(
            zbar: false, zxing: binarizer == .localAverage ? reader : variant(binarizer: binarizer),
            prepare: {
              let stretched = gray.contrastStretched(clip: 0.02, gamma: gamma)
              return scale == 1
                ? (stretched, identity) : (stretched.scaled(by: scale), { Point($0.x / scale, $0.y / scale) })
            }))
      }
    }
    if thorough, strategy.rotations {
      for degrees in [30.0, -30.0] {
        passes.append(
          Pass(
            zbar: useZBar, zxing: reader,
            prepare: {
              let (image, toSource) = gray.rotated(degrees: degrees)
              return (image, toSource)
            }))
      }
    }
    for pass in passes {
      if findings.isSatisfied || !keepGoing() { break }
      let (image, toSource) = pass.prepare()
      let mapping: (Point) -> Point = { toImage(toSource($0)) }
      for decoder in strategy.decoders {
        if findings.isSatisfied { break }
        switch decoder {
        case .zbar where pass.zbar:
          for record in zbarRecords(image, mapping: mapping) { findings.add(record) }
        case .zxing:
          if let reader = pass.zxing { readAll(with: reader, image, mapping: mapping, into: &findings) }
        default:
          break
        }
      }
    }
    findings.settle()
  }

  private func variant(binarizer: ZXingReader.Binarizer) -> ZXingReader {
    var options = zxing.options
    options.binarizer = binarizer
    return ZXingReader(options: options)
  }

  // MARK: - Decoders

  private func zbarRecords(_ gray: Bitmap, mapping: (Point) -> Point) -> [BarcodeRecord] {
    zbar.scan(gray).compactMap { symbol in
      let symbology = Symbology(zbarType: symbol.type)
      guard symbology != .unknown else { return nil }
      var record = BarcodeNormalizer.record(symbology: symbology, bytes: symbol.data)
      record.decoder = "zbar"
      record.quad = Self.rounded(BarcodeNormalizer.quad(of: symbol.points).map(mapping))
      return record
    }
  }

  /// zxing 1.4's single read returns one code; to find several, each found code is painted over
  /// with white and the image read again.
  private func readAll(
    with reader: ZXingReader, _ gray: Bitmap, mapping: (Point) -> Point, into findings: inout Findings
  ) {
    var image = gray
    for _ in 0..<max(1, findings.expectedCodes == 0 ? 4 : findings.expectedCodes) {
      let symbols: [ZXingReader.Symbol]
      do {
        symbols = try reader.read(image)
      } catch {
        if !findings.notes.contains(error.description) { findings.notes.append(error.description) }
        return
      }
      guard let symbol = symbols.first else { return }
      let symbology = Symbology(zxingFormat: symbol.format)
      if symbology != .unknown {
        var record = BarcodeNormalizer.record(
          symbology: symbology, text: symbol.text, bytes: symbol.bytes, binary: symbol.contentType == 1)
        record.decoder = "zxing"
        record.quad = Self.rounded(Quad.clockwise(symbol.points.map(mapping)))
        findings.add(record)
      }
      if findings.isSatisfied { return }
      image = image.paintedWhite(around: symbol.points)
    }
  }

  private static func rounded(_ points: [Point]) -> Quad {
    Quad(points).map { $0.rounded() }
  }
}

extension Bitmap {
  /// A copy with the bounding box of `points`, widened by a margin, set to white.
  func paintedWhite(around points: [Point]) -> Bitmap {
    guard !points.isEmpty else { return self }
    let xs = points.map(\.x), ys = points.map(\.y)
    let margin = max(8, 0.1 * max(xs.max()! - xs.min()!, ys.max()! - ys.min()!))
    let x0 = max(0, Int(xs.min()! - margin)), x1 = min(width, Int(xs.max()! + margin) + 1)
    let y0 = max(0, Int(ys.min()! - margin)), y1 = min(height, Int(ys.max()! + margin) + 1)
    guard x0 < x1, y0 < y1 else { return self }
    var copy = self
    copy.pixels.withUnsafeMutableBufferPointer { p in
      for y in y0..<y1 {
        for x in x0..<x1 { p[y * width + x] = 255 }
      }
    }
    return copy
  }
}
