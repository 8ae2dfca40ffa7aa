import Foundation

/// Finds every barcode and QR code: in the card crop when there is one, else in the analysis
/// copy, then the full-resolution image as a last resort. Writes `card.barcodes`.
public final class BarcodeStage: Stage {
  public static let name = "barcode"
  public static let summary = "Decode barcodes and QR codes with zbar: value, symbology, quad, check digits"

  public struct Options: StageOptions, Equatable {
    /// Try light-on-dark codes too.
    public var testInverted: Bool = true
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
    guard (1...8).contains(options.scanDensity) else { throw ConfigError(path: "scan_density", "must be 1…8") }
  }

  private let options: Options
  private let zbar: ZBarScanner

  public init(options: Options, context: StageContext) throws {
    self.options = options
    self.zbar = try ZBarScanner(testInverted: options.testInverted, scanDensity: options.scanDensity)
  }

  public func process(_ item: PhotoItem) throws {
    var found: [BarcodeRecord] = []
    if let crop = item.cardCrop {
      found = decode(crop.grayscale(), scale: 1, mapping: nil)
    }
    if found.isEmpty, let analysis = item.analysis {
      found = decode(analysis.grayscale(), scale: item.analysisScale, mapping: nil)
      if found.isEmpty, options.fullResolutionFallback, item.analysisScale > 1.01 {
        let full = try item.fullImage()
        let reduced = full.fitting(maxSide: options.fallbackMaxSide)
        if reduced.width < full.width || item.analysis!.width < reduced.width {
          found = decode(
            reduced.grayscale(), scale: Double(full.width) / Double(reduced.width), mapping: nil)
        }
      }
    }
    item.barcodes = found
    var card = item.card
    card.barcodes = found
    item.card = card
    if found.isEmpty {
      item.record.notes = (item.record.notes ?? []) + ["no code found"]
    }
  }

  /// Decodes one grey image; `scale` maps its pixels to full-resolution image pixels.
  private func decode(_ gray: Bitmap, scale: Double, mapping: ((Point) -> Point)?) -> [BarcodeRecord] {
    var results: [BarcodeRecord] = []
    let symbols = zbar.scan(gray)
    // A blurred code can give, on a few scan lines, another number with a valid check digit: a
    // second read of the same symbology decoded from a small fraction of the lines the best one
    // was is that ghost.
    var bestQuality: [Int32: Int] = [:]
    for symbol in symbols { bestQuality[symbol.type] = max(bestQuality[symbol.type] ?? 0, symbol.quality) }
    for symbol in symbols where symbol.quality * 4 >= (bestQuality[symbol.type] ?? 0) {
      let symbology = Symbology(zbarType: symbol.type)
      guard symbology != .unknown else { continue }
      var record = BarcodeNormalizer.record(symbology: symbology, bytes: symbol.data)
      record.decoder = "zbar"
      record.quad = BarcodeNormalizer.quad(of: symbol.points).map { point in
        let mapped = mapping?(point) ?? Point(point.x * scale, point.y * scale)
        return [mapped.x.rounded(), mapped.y.rounded()]
      }
      if record.checksumOK == false { continue }
      if !results.contains(where: { $0.symbology == record.symbology && $0.value == record.value }) {
        results.append(record)
      }
    }
    return results.sorted { ($0.symbology, $0.value) < ($1.symbology, $1.value) }
  }
}
