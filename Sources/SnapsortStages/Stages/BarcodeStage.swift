import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`, uses `CardCrop`; produces `CodeReads`.
///
/// Finds every barcode and QR code with zbar and zxing-cpp: in the card crop when there is one,
/// then in the analysis copy, then the full-resolution image as a last resort, each through the
/// passes of `BarcodeScanner` until the expected number of codes is found (quads in image pixels).
public final class BarcodeStage: Stage {
  public static let name = "barcode"
  public static let summary =
    "Decode barcodes and QR codes with zbar and zxing-cpp: value, symbology, quad, check digits, dynamic QR"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let uses: [any Artifact.Type] = [CardCrop.self]
  public static let produces: [any Artifact.Type] = [CodeReads.self]

  public struct Options: StageOptions, Equatable {
    /// Decoders in the order each prepared image is given to them.
    public var decoders: [BarcodeScanner.Decoder] = [.zxing, .zbar]
    /// Stop once this many distinct codes are found (a card carries one); 0 looks for every code
    /// with every pass.
    public var expectedCodes: Int = 1
    /// Try light-on-dark codes too.
    public var testInverted: Bool = true
    /// Enlarge small images, reduce huge ones.
    public var multiScale: Bool = true
    /// zxing's other binarisers, sharpened and contrast-stretched copies.
    public var enhance: Bool = true
    /// Copies turned by ±30° for tilted linear codes when the card was not found (no gain on
    /// zxing-cpp's test set, so off by default).
    public var rotations: Bool = false
    /// zxing's try-harder mode (more rows of linear codes, slower).
    public var zxingTryHarder: Bool = true
    /// zxing also reads the image turned by 90°, 180° and 270°.
    public var zxingTryRotate: Bool = true
    /// The whole image gets every pass only up to this many pixels (a close-up of a code); a
    /// larger photo in which no card was found gets the plain and inverted reads, since most such
    /// photos hold no code and the other passes cost ten times those reads there. The card crop
    /// always gets every pass.
    public var thoroughMaxPixels: Int = 500_000
    /// Scan the full-resolution image when the reduced copy holds no code.
    public var fullResolutionFallback: Bool = true
    /// Longest side of the image scanned in the fallback (zbar's time grows with area).
    public var fallbackMaxSide: Int = 3200
    /// zbar scans every n-th row and column: 2 halves the time on large, crisp codes
    /// (screenshots) and misses small or blurred ones in photos.
    public var scanDensity: Int = 1
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (1...8).contains(options.scanDensity) else {
      throw ConfigError(path: "scan_density", "must be 1…8")
    }
    guard !options.decoders.isEmpty else {
      throw ConfigError(path: "decoders", "name at least one of zbar, zxing")
    }
    guard (0...64).contains(options.expectedCodes) else {
      throw ConfigError(path: "expected_codes", "must be 0…64")
    }
  }

  private let options: Options
  private let scanner: BarcodeScanner

  public init(options: Options, context: StageContext) throws {
    self.options = options
    var strategy = BarcodeScanner.Strategy()
    strategy.decoders = options.decoders
    strategy.expectedCodes = options.expectedCodes
    strategy.inverted = options.testInverted
    strategy.multiScale = options.multiScale
    strategy.enhance = options.enhance
    strategy.rotations = options.rotations
    strategy.zbarDensity = options.scanDensity
    strategy.zxingTryHarder = options.zxingTryHarder
    strategy.zxingTryRotate = options.zxingTryRotate
    self.scanner = try BarcodeScanner(strategy: strategy)
  }

  public func process(_ item: PhotoItem) throws {
    var findings = BarcodeScanner.Findings(expectedCodes: options.expectedCodes)
    let keepGoing = { item.secondsRemaining > 0 }
    var scannedCrop = false
    let pixels = try item.pixels()
    if let card = item.artifacts[CardCrop.self], card.quad.count == 4,
      let toImage = Homography(
        from: [
          Point(0, 0), Point(Double(card.image.width), 0),
          Point(Double(card.image.width), Double(card.image.height)), Point(0, Double(card.image.height)),
        ], to: card.quad)
    {
      scanner.scan(card.image.grayscale(), toImage: toImage.apply, into: &findings, keepGoing: keepGoing)
      scannedCrop = true
    }
    if findings.records.isEmpty || (options.expectedCodes == 0) {
      let analysis = pixels.analysis, scale = pixels.analysisScale
      // The card's own area had every pass already: the whole photo gets the quick reads (a code
      // beside the card, or a card found wrongly); so does a large photo (thorough_max_pixels).
      scanner.scan(
        analysis.grayscale(), toImage: { Point($0.x * scale, $0.y * scale) }, into: &findings,
        thorough: !scannedCrop && analysis.pixelCount <= options.thoroughMaxPixels, keepGoing: keepGoing)
      if findings.records.isEmpty, options.fullResolutionFallback, scale > 1.01, keepGoing() {
        let full = try pixels.full()
        let reduced = full.fitting(maxSide: options.fallbackMaxSide)
        if reduced.width < full.width || analysis.width < reduced.width {
          let factor = Double(full.width) / Double(reduced.width)
          // Only small codes gain from more pixels, and the plain reads are what finds them.
          scanner.scan(
            reduced.grayscale(), toImage: { Point($0.x * factor, $0.y * factor) }, into: &findings,
            thorough: false, keepGoing: keepGoing)
        }
      }
    }
    let found = findings.sorted
    item.artifacts.write(
      CodeReads(barcodes: found, notes: (found.isEmpty ? ["no code found"] : []) + findings.notes))
  }
}
