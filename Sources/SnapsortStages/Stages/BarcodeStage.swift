import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`, uses `CardCrop`; produces `CodeReads`.
///
/// Finds every barcode and QR code with zbar and zxing-cpp through the passes of `BarcodeScanner`
/// until the expected number of codes is found (quads in image pixels): the first looks of the
/// card crop when there is one and of the analysis copy, then the crop's other passes (behind the
/// code gate), the analysis copy's other passes when it is small, and the full-resolution image
/// as a last resort (not beside a photographed card its crop already read as finely).
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
    /// zxing's try-harder mode (more rows of linear codes, slower). When off, one try-harder read
    /// of the image still follows the fast reads when they confirmed no code.
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
    /// A photographed card (its quad not square to the image: `CardCrop.drawnOnScreen`) whose
    /// crop has at least this fraction of the fallback's pixels per pixel of the card, along each
    /// side, gets no fallback (0: the fallback always runs): the crop's passes have read the card at
    /// about that resolution, and beside a photographed card no training photo's fallback read a
    /// code (screenshots' did: other cards of a wallet's list). Fitted by
    /// bench/barcodes/fit_fallback.py on training renders at the lowest fraction of any training
    /// photo whose fallback ran, so that the rule reaches no further than they show (a larger photo
    /// of a small card still gets its fallback).
    public var fallbackSkipCropDensity: Double = 0.67
    /// zbar scans every n-th row and column: 2 halves the time on large, crisp codes
    /// (screenshots) and misses small or blurred ones in photos.
    public var scanDensity: Int = 1
    /// The card crop's plain zbar read is the warp stage's scan of the same crop, made to decide
    /// which way is up (every second row, light-on-dark codes too), instead of a second scan.
    public var reuseWarpScan: Bool = true
    /// zbar's row step on the first look of a whole image larger than `thorough_max_pixels` once
    /// the card crop was scanned (the crop's reads covered the card): 0 scans the whole image with
    /// zbar only when a code read once is still without its second opinion after the crop's
    /// passes, zbar otherwise reading only around zxing's linear codes. Chosen by
    /// bench/barcodes/zbar_looks.sh on training renders: 0 read the codes 1 did, at 40 % of the CPU.
    public var besideCardZbarDensity: Int = 0
    /// When the other passes confirm no code: Aztec symbols rectified from their bullseye, blurred,
    /// region-deskewed and enlarged copies, read with try-harder, only where a code-like region
    /// was seen.
    public var rescuePasses: Bool = true
    /// The rescue's work per scanned image: megapixels read (a copy's pixels times the decoders
    /// reading it), counted rather than timed so that records do not depend on machine load.
    public var rescueBudgetMegapixels: Double = 5
    /// The card crop's passes after its first looks stop once they have read this many megapixels
    /// (a copy's pixels times the decoders reading it) with nothing read at all, by them or the
    /// first looks (0: no bound). Fitted by bench/barcodes/fit_blind_retries.py on training renders
    /// at twice the most any training crop's retries read, in `retry_order`, before their first read.
    public var blindRetryMegapixels: Double = 6.4
    /// The card crop's passes that run first after its first looks, in this order (the others
    /// follow in the ladder's order): the families of passes that read the most training crops'
    /// codes per megapixel, chosen greedily by bench/barcodes/fit_blind_retries.py (a region
    /// preparation's passes as one family: the three deblurred cuts read the same blind codes).
    public var retryOrder: [String] = [
      "fixedThreshold", "region-deblurred1", "region-deblurred2", "region-deblurred3", "sharpened",
      "stretched-gamma0.5",
    ]
    /// When every pass read a linear code only once (not yet reported): up to this many such reads
    /// get a second look, their surroundings cut upright from the full-resolution image and read
    /// again, which confirms or contradicts them (0: none).
    public var secondOpinions: Int = 2
    /// The stage's thread CPU time per image after which no further pass starts (0: none): a
    /// bound on the tail for images unlike any measured, far above what reading a code takes
    /// (p95 360 ms on held-out photos and screenshots), so records on ordinary images do not
    /// depend on machine speed. A record cut short says so in its notes.
    public var timeBudgetMs: Int = 1500
    /// When the plain and inverted reads of the card crop and of the whole image find nothing,
    /// the crop's other passes run only if it has a group of at least `code_gate_blocks` blocks of
    /// 8 × 8 pixels whose mean gradient reaches `code_gate_energy` and whose edges agree in
    /// direction (bars or a module grid) by `code_gate_coherence`; 0 blocks: no gate. Fitted on
    /// training images by bench/barcodes/fit_code_gate.py at half the smallest count of a crop
    /// whose code those passes read (bench/barcodes/SPEED.md).
    public var codeGateBlocks: Int = 90
    public var codeGateEnergy: Double = 24
    public var codeGateCoherence: Double = 0.8
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (1...8).contains(options.scanDensity) else {
      throw ConfigError(path: "scan_density", "must be 1…8")
    }
    guard (0...8).contains(options.besideCardZbarDensity) else {
      throw ConfigError(path: "beside_card_zbar_density", "must be 0 (around zxing's reads only) to 8")
    }
    guard !options.decoders.isEmpty else {
      throw ConfigError(path: "decoders", "name at least one of zbar, zxing")
    }
    guard (0...600_000).contains(options.timeBudgetMs) else {
      throw ConfigError(path: "time_budget_ms", "must be 0 (none) to 600000")
    }
    guard (0...8).contains(options.secondOpinions) else {
      throw ConfigError(path: "second_opinions", "must be 0 (none) to 8")
    }
    guard (0...1_000).contains(options.rescueBudgetMegapixels) else {
      throw ConfigError(path: "rescue_budget_megapixels", "must be 0…1000")
    }
    guard (0...16).contains(options.fallbackSkipCropDensity) else {
      throw ConfigError(path: "fallback_skip_crop_density", "must be 0 (never skip) to 16")
    }
    guard (0...1_000).contains(options.blindRetryMegapixels) else {
      throw ConfigError(path: "blind_retry_megapixels", "must be 0 (no bound) to 1000")
    }
    guard options.codeGateBlocks >= 0, options.codeGateEnergy >= 0,
      (0...1).contains(options.codeGateCoherence)
    else {
      throw ConfigError(path: "code_gate_blocks", "blocks and energy must be ≥ 0, coherence 0…1")
    }
    guard (0...64).contains(options.expectedCodes) else {
      throw ConfigError(path: "expected_codes", "must be 0…64")
    }
  }

  private let options: Options
  private let scanner: BarcodeScanner
  /// SNAPSORT_BARCODE_TRACE set: every read of each image, confirmed or not, with its passes, as
  /// one JSON line on stderr (the data bench/barcodes/false_codes.py lists false codes with).
  private let traces = ProcessInfo.processInfo.environment["SNAPSORT_BARCODE_TRACE"] != nil

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
    strategy.rescue = options.rescuePasses
    strategy.rescueMegapixels = options.rescueBudgetMegapixels
    strategy.blindRetryMegapixels = options.blindRetryMegapixels
    strategy.retryOrder = options.retryOrder
    if options.codeGateBlocks > 0 {
      strategy.codeGate = .init(
        energy: options.codeGateEnergy, coherence: options.codeGateCoherence, blocks: options.codeGateBlocks)
    }
    self.scanner = try BarcodeScanner(strategy: strategy)
  }

  public func process(_ item: PhotoItem) throws {
    let started = ThreadCPUClock.milliseconds()
    let pixels = try item.pixels()
    let findings = try read(item, pixels: pixels)
    if traces { Self.trace(findings, of: item, cpu: ThreadCPUClock.milliseconds() - started) }
    markFound(findings, of: item, pixels: pixels)
  }

  /// Every scan the stage makes of one image, until its code is confirmed.
  private func read(_ item: PhotoItem, pixels: ImagePixels) throws -> BarcodeScanner.Findings {
    var findings = BarcodeScanner.Findings(expectedCodes: options.expectedCodes)
    if traces { findings.passCosts = [] }
    let started = ThreadCPUClock.milliseconds(), budget = Double(options.timeBudgetMs)
    var outOfTime = false
    let keepGoing = {
      outOfTime = outOfTime || (budget > 0 && ThreadCPUClock.milliseconds() - started >= budget)
      return !outOfTime && item.secondsRemaining > 0
    }
    let crop = Self.cardCrop(of: item)
    // The crop's first looks, then the whole image's, then the crop's other passes: a code beside
    // the card (a wallet screenshot's panel) is read before the crop's retries run for nothing.
    if let (gray, toImage) = crop {
      findings.scanName = "crop"
      scanner.scan(
        gray, toImage: toImage, into: &findings, looks: .first, plainZBar: warpScan(of: item),
        keepGoing: keepGoing)
    }
    let analysis = pixels.analysis, scale = pixels.analysisScale
    // A large photo (thorough_max_pixels) gets the quick reads only, even when its card's own
    // area had every pass. A small image gets every pass whether or not a card was cut from
    // it: the "card" in a close-up of a code is often the code or its label, and its crop,
    // stretched to a card's shape, distorts a square code (five of aztec-2's photos read
    // whole, not as the crop).
    let thorough = analysis.pixelCount <= options.thoroughMaxPixels
    let analysisGray = lazyGray(analysis)
    let toAnalysis: (Point) -> Point = { Point($0.x * scale, $0.y * scale) }
    if needsMore(findings) {
      findings.scanName = "analysis"
      scanner.scan(
        analysisGray(), toImage: toAnalysis, into: &findings, thorough: thorough, looks: .first,
        plainZBar: crop == nil || thorough ? .own : besideCard, keepGoing: keepGoing)
    }
    if let (gray, toImage) = crop, !findings.isSatisfied {
      findings.scanName = "crop"
      scanner.scan(gray, toImage: toImage, into: &findings, looks: .rest, gated: true, keepGoing: keepGoing)
    }
    if crop != nil, !thorough, options.besideCardZbarDensity == 0, needsMore(findings), findings.hasReads,
      keepGoing()
    {
      // A code read once still needs its second opinion, and the whole image's zbar read is the
      // one the first look left out (a blurred code zbar reads at the reduced scale).
      findings.scanName = "analysis"
      scanner.zbarLook(analysisGray(), toImage: toAnalysis, into: &findings)
    }
    if needsMore(findings), thorough {
      findings.scanName = "analysis"
      scanner.scan(
        analysisGray(), toImage: toAnalysis, into: &findings, thorough: thorough, looks: .rest,
        keepGoing: keepGoing)
    }
    try readLastResorts(pixels, card: item.artifacts[CardCrop.self], into: &findings, keepGoing: keepGoing)
    if outOfTime, !findings.isSatisfied {
      findings.notes.append(
        "barcode: its time budget (\(options.timeBudgetMs) ms CPU) ran out before every pass")
    }
    return findings
  }

  /// What follows every pass of the crop and the analysis copy: the full-resolution image, then
  /// a second look at each linear code read only once.
  private func readLastResorts(
    _ pixels: ImagePixels, card: CardCrop?, into findings: inout BarcodeScanner.Findings,
    keepGoing: () -> Bool
  ) throws {
    if needsMore(findings), options.fullResolutionFallback, pixels.analysisScale > 1.01,
      !cropCoversFallback(card, pixels: pixels), keepGoing()
    {
      try readFullResolution(pixels, into: &findings, keepGoing: keepGoing)
    }
    if needsMore(findings), options.secondOpinions > 0, !findings.unconfirmed.isEmpty, keepGoing() {
      findings.scanName = "upright"
      scanner.secondOpinions(
        try pixels.full(), into: &findings, limit: options.secondOpinions, keepGoing: keepGoing)
    }
  }

  /// Whether a photographed card's crop was read at `fallback_skip_crop_density` or more of the
  /// fallback's resolution, which then adds only the pixels beside the card.
  private func cropCoversFallback(_ card: CardCrop?, pixels: ImagePixels) -> Bool {
    guard let card else { return false }
    let fullSide = Double(max(pixels.analysis.width, pixels.analysis.height)) * pixels.analysisScale
    return Self.cropCoversFallback(
      quad: card.quad, drawnOnScreen: card.drawnOnScreen, cropPixels: card.image.pixelCount,
      imageSide: fullSide,
      options: options)
  }

  /// `cropCoversFallback` on a card's quad in image pixels, whether it was drawn on a screen, its
  /// crop's pixel count and the full-resolution image's longest side.
  static func cropCoversFallback(
    quad: [Point], drawnOnScreen: Bool, cropPixels: Int, imageSide: Double, options: Options
  ) -> Bool {
    guard options.fallbackSkipCropDensity > 0, quad.count == 4, imageSide > 0, !drawnOnScreen
    else { return false }
    let area = Quad.area(quad)
    guard area > 0 else { return false }
    let fallbackScale = min(1, Double(options.fallbackMaxSide) / imageSide)
    let cropScale = (Double(cropPixels) / area).squareRoot()
    return cropScale >= options.fallbackSkipCropDensity * fallbackScale
  }

  /// The last resort: the full-resolution image (reduced to `fallback_max_side`) when it has more
  /// pixels than the analysis copy, plain reads only.
  private func readFullResolution(
    _ pixels: ImagePixels, into findings: inout BarcodeScanner.Findings, keepGoing: () -> Bool
  ) throws {
    let full = try pixels.full()
    let reduced = full.fitting(maxSide: options.fallbackMaxSide)
    guard reduced.width < full.width || pixels.analysis.width < reduced.width else { return }
    let factor = Double(full.width) / Double(reduced.width)
    // Only small codes gain from more pixels, and the plain reads are what finds them.
    findings.scanName = "full"
    scanner.scan(
      reduced.grayscale(), toImage: { Point($0.x * factor, $0.y * factor) }, into: &findings,
      thorough: false, keepGoing: keepGoing)
  }

  private func markFound(_ findings: BarcodeScanner.Findings, of item: PhotoItem, pixels: ImagePixels) {
    var found = findings.sorted
    let centre: Point
    if let card = item.artifacts[CardCrop.self], card.quad.count == 4 {
      centre = Quad.centre(card.quad)
    } else {
      let scale = pixels.analysisScale
      centre = Point(Double(pixels.analysis.width) * scale / 2, Double(pixels.analysis.height) * scale / 2)
    }
    Self.markPrimary(&found, centre: centre)
    // A linear read that nothing confirmed is not a code; it is named so that a user can check.
    let unconfirmed =
      found.isEmpty
      ? findings.unconfirmed.map {
        "unconfirmed read not reported: \($0.symbology) \($0.value) (\($0.decoder ?? "?"))"
      } : []
    item.artifacts.write(
      CodeReads(
        barcodes: found, notes: (found.isEmpty ? ["no code found"] : []) + unconfirmed + findings.notes))
  }

  /// The warp's zbar scan of the card crop, when it scanned as this stage would (inverted codes
  /// alike) and `reuse_warp_scan` is on.
  private func warpScan(of item: PhotoItem) -> BarcodeScanner.PlainZBar {
    guard options.reuseWarpScan, let scan = item.artifacts[CardCrop.self]?.codeScan,
      scan.inverted == options.testInverted
    else { return .own }
    return .done(scan.symbols)
  }

  /// How zbar reads the whole image's plain copy once the card crop was scanned.
  private var besideCard: BarcodeScanner.PlainZBar {
    switch options.besideCardZbarDensity {
    case 0: .aroundOnly
    case options.scanDensity: .own
    case let density: .density(density)
    }
  }

  /// Whether the whole image is still to be read: no confirmed code yet, or every code wanted.
  private func needsMore(_ findings: BarcodeScanner.Findings) -> Bool {
    findings.records.isEmpty || options.expectedCodes == 0
  }

  /// The card crop's grey pixels and their mapping to the image's, when a card was found.
  private static func cardCrop(of item: PhotoItem) -> (Bitmap, (Point) -> Point)? {
    guard let card = item.artifacts[CardCrop.self], card.quad.count == 4,
      let toImage = Homography(
        from: [
          Point(0, 0), Point(Double(card.image.width), 0),
          Point(Double(card.image.width), Double(card.image.height)), Point(0, Double(card.image.height)),
        ], to: card.quad)
    else { return nil }
    return (card.image.grayscale(), toImage.apply)
  }

  /// The grey copy of `image`, made when first asked for and kept for the second scan.
  private func lazyGray(_ image: Bitmap) -> () -> Bitmap {
    var gray: Bitmap?
    return {
      if let gray { return gray }
      let made = image.grayscale()
      gray = made
      return made
    }
  }

  /// - Parameter cpu: the stage's thread CPU on the image, conversions included (what the passes'
  ///   costs do not cover).
  private static func trace(_ findings: BarcodeScanner.Findings, of item: PhotoItem, cpu: Double) {
    let line: [String: Any] = [
      "barcode_trace": [
        "item": item.relativePath, "candidates": findings.trace,
        "passes": (findings.passCosts ?? []).map(\.json),
        "gate_features": findings.gateFeatures, "cpu_ms": cpu,
      ]
    ]
    guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
    data.append(UInt8(ascii: "\n"))
    FileHandle.standardError.write(data)
  }

  /// With several codes, the card's own is the largest (the longer side of its box; a linear
  /// code's quad may be its scan line), then the one nearest the card's or image's centre.
  static func markPrimary(_ records: inout [BarcodeRecord], centre: Point) {
    guard records.count > 1 else { return }
    func size(_ record: BarcodeRecord) -> Double {
      guard let corners = record.quad?.corners, !corners.isEmpty else { return 0 }
      let xs = corners.map(\.x), ys = corners.map(\.y)
      return max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }
    func distance(_ record: BarcodeRecord) -> Double {
      guard let corners = record.quad?.corners, !corners.isEmpty else { return .infinity }
      let x = corners.map(\.x).reduce(0, +) / Double(corners.count)
      let y = corners.map(\.y).reduce(0, +) / Double(corners.count)
      return ((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)).squareRoot()
    }
    let best = records.indices.max { a, b in
      let sa = size(records[a]), sb = size(records[b])
      // Sizes within a tenth of each other are a tie, settled by the centre.
      if abs(sa - sb) > 0.1 * max(sa, sb) { return sa < sb }
      return distance(records[a]) > distance(records[b])
    }!
    for index in records.indices { records[index].primary = index == best }
  }
}
