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
    /// When every other pass confirmed nothing: bullseye-rectified (Aztec), blurred,
    /// region-deskewed, region-rectified and enlarged copies read with try-harder, skipped when no
    /// code-like region was seen.
    public var rescue = true
    /// The rescue stops before a pass that would take the megapixels it has read (each copy's
    /// pixels times the decoders reading it) over this: a count of work, not wall time, so a
    /// record does not depend on how busy the machine is. The item's deadline (`keepGoing`)
    /// still bounds a stall.
    public var rescueMegapixels = 5.0
    /// A gated scan's passes after its first looks stop once they have read this many megapixels
    /// (counted as `rescueMegapixels` is) without any read at all, confirmed or not: a code those
    /// passes report is read by one of the first few of them (0: no bound).
    public var blindRetryMegapixels = 0.0
    /// A gated scan's passes after its first looks run these first, in this order, the others
    /// after them in the ladder's own order: the passes that read most training codes per
    /// megapixel, so that `blindRetryMegapixels` reaches them.
    public var retryOrder: [String] = []
    /// When the first looks (plain, inverted) read nothing, the other passes run only if the image
    /// has a group of code-like blocks this large (nil: always).
    public var codeGate: CodeGate?
    public init() {}
  }

  /// The evidence a thorough scan needs, after first looks that read nothing, to go on with its
  /// other passes: `CodeRegions.codeLikeBlocks` at `energy` and `coherence` reaching `blocks`.
  /// Fitted on training images by bench/barcodes/fit_code_gate.py.
  public struct CodeGate: Sendable, Equatable {
    public var energy: Double
    public var coherence: Double
    public var blocks: Int
    public init(energy: Double, coherence: Double, blocks: Int) {
      self.energy = energy
      self.coherence = coherence
      self.blocks = blocks
    }

    /// The grid the trace reports for fitting: energies × coherences.
    public static let traceEnergies: [Double] = [4, 6, 8, 12, 16, 24, 32, 48]
    public static let traceCoherences: [Double] = [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
  }

  /// What a scan found so far, across regions and passes, and which of it is confirmed.
  ///
  /// Both libraries return wrong linear codes whose check digit holds (zbar on blurred UPC-A,
  /// zxing-cpp 1.4 on enlarged or binarised copies), so a linear code is reported only when it is
  /// confirmed (bench/barcodes/FINDINGS.md §5, rule R7): zxing and zbar both read it, or one of
  /// them read it in two different passes and no other linear value was read in the image. zbar
  /// loses Code 128's FNC4, so its Code 128 agrees with zxing's value with the high bits cleared.
  /// A 2-D code is confirmed by its own error correction.
  public struct Findings: Sendable {
    struct Candidate: Sendable {
      var record: BarcodeRecord
      var key: String
      var decoders: Set<String>
      var sources: Set<Int>
      var linear: Bool
      /// The passes that read it ("crop/plain/zxing"), for the trace.
      var reads: [String] = []
    }

    private var candidates: [Candidate] = []
    /// Decoder failures worth telling the user (a caught zxing assertion, say).
    public var notes: [String] = []
    public let expectedCodes: Int
    /// The pass reads are being added from; a new number for each prepared copy.
    public var source = 0
    /// Which image is being scanned ("crop", "analysis", "full") and with which pass, named in
    /// the trace of each read.
    public var scanName = ""
    var passName = ""
    /// Whether the current pass's EAN/UPC reads count (`Pass.retail`); reads it does not count
    /// are dropped as they are added.
    var countsRetail = true
    /// Thread CPU of each pass, collected only when not nil (the trace's profile of where the
    /// stage's time goes: bench/barcodes/SPEED.md).
    public var passCosts: [PassCost]?
    /// Per thorough scan whose first looks read nothing, `CodeRegions.codeLikeBlocks` over
    /// `CodeGate`'s trace grid (collected with `passCosts`).
    public var gateFeatures: [String: [Int]] = [:]

    public init(expectedCodes: Int) {
      self.expectedCodes = expectedCodes
    }

    mutating func noteCost(of pass: String, pixels: Int, prepare: Double) {
      guard passCosts != nil else { return }
      passCosts!.append(PassCost(scan: scanName, pass: pass, pixels: pixels, prepare: prepare))
    }

    /// The confirmed codes, in the order they were first read.
    public var records: [BarcodeRecord] {
      candidates.filter { isConfirmed($0) }.map(\.record)
    }

    /// Whether any pass read anything valid, confirmed or not.
    public var hasReads: Bool { !candidates.isEmpty }

    /// The reads that were not confirmed, for a note.
    public var unconfirmed: [BarcodeRecord] {
      candidates.filter { !isConfirmed($0) }.map(\.record)
    }

    /// Whether enough codes are confirmed by both libraries or their error correction. A code one
    /// library read twice does not stop the scan: its confirmation holds only if no later pass
    /// reads another linear value (zbar repeats its 9074932437075 on upca-4/6 in several copies
    /// before zxing reads the right code in a later one).
    public var isSatisfied: Bool {
      expectedCodes > 0 && candidates.filter { !$0.linear || $0.decoders.count >= 2 }.count >= expectedCodes
    }

    private func isConfirmed(_ candidate: Candidate) -> Bool {
      guard candidate.linear else { return true }
      if candidate.decoders.count >= 2 { return true }
      return candidate.sources.count >= 2
        && !candidates.contains { $0.linear && $0.key != candidate.key && contradicts($0, candidate) }
    }

    /// Whether another linear read casts doubt on a code one library read twice: any read does,
    /// except that zbar's EAN/UPC reads alone do not outweigh zxing's twice-read code (zbar's
    /// blurred-retail misreads, 1040183002834 on ean13-1/37 and 9074932437075 on upca-4/7, come
    /// in the passes after zxing has read the right code twice).
    private func contradicts(_ other: Candidate, _ candidate: Candidate) -> Bool {
      guard candidate.decoders == ["zxing"], other.decoders == ["zbar"] else { return true }
      return !Self.isRetail(other.record)
    }

    static func isRetail(_ record: BarcodeRecord) -> Bool {
      Symbology(rawValue: record.symbology)?.isRetail ?? false
    }

    static func isLinear(_ record: BarcodeRecord) -> Bool {
      switch Symbology(rawValue: record.symbology) ?? .unknown {
      case .qr, .microqr, .aztec, .datamatrix, .pdf417: return false
      default: return true
      }
    }

    /// The key under which two reads agree: the validator's identity, with Code 128 compared on
    /// 7-bit characters (zbar drops FNC4, returning `ssss1234` for `óóóó1234`).
    static func agreementKey(_ record: BarcodeRecord) -> String {
      if record.symbology == Symbology.code128.rawValue, record.bytes == nil {
        let masked = String(
          String.UnicodeScalarView(record.value.unicodeScalars.map { Unicode.Scalar($0.value & 0x7F)! }))
        return "code128\u{0}" + masked
      }
      return BarcodeValidator.identity(record)
    }

    /// Adds a validated read from pass `source` (default: the current one); true when it is a
    /// code not read before.
    @discardableResult
    public mutating func add(_ record: BarcodeRecord, source: Int? = nil) -> Bool {
      guard BarcodeValidator.accepts(record), countsRetail || !Self.isRetail(record) else { return false }
      let key = Self.agreementKey(record)
      let decoder = record.decoder ?? "?"
      let pass = source ?? self.source
      let read = "\(scanName)/\(passName)/\(decoder)"
      if let index = candidates.firstIndex(where: { $0.key == key }) {
        candidates[index].decoders.insert(decoder)
        candidates[index].sources.insert(pass)
        if !candidates[index].reads.contains(read) { candidates[index].reads.append(read) }
        // zxing's value keeps what zbar loses (FNC4) and its quad follows the code.
        if candidates[index].record.decoder == "zbar" && decoder == "zxing" {
          candidates[index].record = record
        }
        return false
      }
      candidates.append(
        Candidate(
          record: record, key: key, decoders: [decoder], sources: [pass], linear: Self.isLinear(record),
          reads: [read]))
      return true
    }

    /// Every read, confirmed or not, with the passes that read it and what confirmed it: what
    /// bench/barcodes/false_codes.py lists beside each false code.
    public var trace: [[String: Any]] {
      candidates.map { candidate in
        let confirmation: String
        if !candidate.linear {
          confirmation = "error-correction"
        } else if !isConfirmed(candidate) {
          confirmation = "unconfirmed"
        } else if candidate.decoders.count >= 2 {
          confirmation = "both-libraries"
        } else {
          confirmation = "one-library-\(candidate.sources.count)-passes"
        }
        return [
          "symbology": candidate.record.symbology, "value": candidate.record.value,
          "decoders": candidate.decoders.sorted(), "reads": candidate.reads, "confirmation": confirmation,
        ]
      }
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

  /// What one pass cost on one scanned image, in thread-CPU milliseconds.
  public struct PassCost: Sendable {
    public var scan: String
    public var pass: String
    public var pixels: Int
    public var prepare = 0.0
    public var zxing = 0.0
    public var zbar = 0.0

    public var json: [String: Any] {
      [
        "scan": scan, "pass": pass, "pixels": pixels, "prepare_ms": prepare, "zxing_ms": zxing,
        "zbar_ms": zbar,
      ]
    }
  }

  public let strategy: Strategy
  private let zbar: ZBarScanner
  let zxing: ZXingReader
  private let quickZXing: ZXingReader
  /// zbar scanners at other row steps than the strategy's, made when first asked for.
  private var zbarByDensity: [Int: ZBarScanner] = [:]

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
  struct Pass {
    var name: String
    var zbar: Bool
    var zxing: ZXingReader?
    /// Run only when no pass before it confirmed a code (a retry, and the second read a code
    /// read once needs).
    var onlyWhenNothingConfirmed = false
    /// One of the first, cheap reads of the whole copy; the code gate is asked after them.
    var firstLook = false
    /// How zbar reads the copy when `zbar` is set.
    var zbarRead = PlainZBar.own
    /// The copy, and how its pixels map back to the scanned image's.
    /// A pass of the rescue: after the others, gated by code-like regions and the time budget.
    var rescue = false
    /// Whether its EAN/UPC reads count: not on a copy sharpened so hard that a blurred retail
    /// code's one-module elements are made up (both libraries then agree on the same wrong GTIN,
    /// its check digit holding; bench/barcodes/FINDINGS.md §7e).
    var retail = true
    var prepare: () -> (Bitmap, (Point) -> Point)?
  }

  /// Copies of one image that several passes read, each made once when a pass first needs it:
  /// the code-like regions, the blurred and the sharpened copy.
  final class ScanCopies {
    let gray: Bitmap
    lazy var regions: [CodeRegions.Region] = CodeRegions.find(in: gray)
    /// Regions that bridge a block's gap (a whole 2-D code rather than its densest patches),
    /// rectified for perspective: their own corners, not a rotated box.
    lazy var rectifiedJoinedRegions: [CodeRegions.Region] = CodeRegions.find(in: gray, limit: 2, reach: 2)
      .map(\.rectified)
    lazy var blurred: Bitmap = gray.blurred()
    lazy var sharpened: Bitmap = gray.sharpened()
    lazy var bullseyeSymbols: [AztecBullseye.Rectified] = AztecBullseye(gray).rectified()
    /// The strongest code-like region cut upright with its bars standing (a linear code's rows
    /// then cross every bar).
    lazy var standingBars: (image: Bitmap, toSource: (Point) -> Point)? = regions.first.flatMap { region in
      CodeRegions.upright(region, of: gray).map { $0.image.barsStanding(mapping: $0.toSource) }
    }
    init(_ gray: Bitmap) { self.gray = gray }
  }

  /// How the plain copy's zbar read is made.
  public enum PlainZBar: Sendable {
    /// This scanner's zbar scans it.
    case own
    /// A zbar scanning every n-th row and column scans it.
    case density(Int)
    /// zbar scanned these pixels already (the warp stage's scan of the card crop): its symbols.
    case done([ZBarScanner.Symbol])
    /// No zbar scan of the whole copy: zbar reads only around zxing's linear codes, the second
    /// opinion they need.
    case aroundOnly
  }

  /// Which of an image's passes a scan runs: the first looks (plain, inverted), the others, or
  /// all. The stage takes the first looks of the card crop and of the whole image before the
  /// crop's other passes: a wallet screenshot's code sits beside the card more often than it
  /// needs those passes (bench/barcodes/SPEED.md).
  public enum Looks: Sendable {
    case first, rest, all
  }

  /// Scans one grey image through the passes of the strategy until `findings` is satisfied or
  /// `keepGoing` says stop; `toImage` maps this image's pixels to the record's image pixels.
  ///
  /// - Parameter thorough: every pass; false runs only the plain and inverted reads (a second
  ///   look at an image whose region was already scanned thoroughly, or a large photo where
  ///   the other passes cost ten times those reads and rarely find anything).
  /// - Parameter gated: the strategy's code gate decides whether the passes after the first looks
  ///   run (a card crop, whose size makes its block counts comparable; not a whole image).
  /// - Parameter plainZBar: how zbar reads the plain copy.
  public func scan(
    _ image: Bitmap, toImage: (Point) -> Point, into findings: inout Findings, thorough: Bool = true,
    looks: Looks = .all, gated: Bool = false, plainZBar: PlainZBar = .own, keepGoing: () -> Bool = { true }
  ) {
    // A strip a few pixels high (a linear code cut to its scan line) is stretched to a height the
    // decoders can check over several rows: zxing wants two agreeing rows.
    let (gray, fromThin) = image.thickened(minimumSide: 24)
    let useZBar = strategy.decoders.contains(.zbar)
    let reader = strategy.decoders.contains(.zxing) ? zxing : nil
    let cache = ScanCopies(gray)
    // Symbols scanned already are in the given image's pixels, not a thickened copy's.
    let plainRead: PlainZBar
    if case .done = plainZBar, gray.width != image.width || gray.height != image.height {
      plainRead = .own
    } else {
      plainRead = plainZBar
    }
    var passes = firstLookPasses(
      gray, thorough: thorough, reader: reader, useZBar: useZBar, plainZBar: plainRead)
    if thorough {
      passes += resizedPasses(gray, reader: reader, useZBar: useZBar)
      passes += enhancedPasses(gray, cache: cache, reader: reader, useZBar: useZBar)
      if strategy.rescue, let reader {
        passes += rescuePasses(gray, cache: cache, reader: reader, useZBar: useZBar)
      }
    }
    var chosen = passes.filter { looks == .all || $0.firstLook == (looks == .first) }
    if gated, !strategy.retryOrder.isEmpty { chosen = Self.ordered(chosen, first: strategy.retryOrder) }
    run(
      chosen, gray: gray, gated: gated, cache: cache, mapping: { toImage(fromThin($0)) }, into: &findings,
      keepGoing: keepGoing)
  }

  /// The first looks, then the passes named in `names` in that order, then the others as they were.
  static func ordered(_ passes: [Pass], first names: [String]) -> [Pass] {
    let rank = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
    let retries = passes.filter { !$0.firstLook }
    let named = retries.filter { rank[$0.name] != nil }.sorted { rank[$0.name]! < rank[$1.name]! }
    return passes.filter(\.firstLook) + named + retries.filter { rank[$0.name] == nil }
  }

  /// zbar's read of the whole of `image` and nothing else: the second opinion a code read once
  /// needs when the first look made no whole-image zbar scan.
  public func zbarLook(_ image: Bitmap, toImage: (Point) -> Point, into findings: inout Findings) {
    guard strategy.decoders.contains(.zbar) else { return }
    let pass = Pass(name: "zbar", zbar: true, zxing: nil, firstLook: true, prepare: { (image, { $0 }) })
    run([pass], gray: image, gated: false, cache: ScanCopies(image), mapping: toImage, into: &findings) {
      true
    }
  }

  /// The first looks: the plain read, the inverted one, and try-harder when the fast reads find
  /// nothing.
  private func firstLookPasses(
    _ gray: Bitmap, thorough: Bool, reader: ZXingReader?, useZBar: Bool, plainZBar: PlainZBar
  ) -> [Pass] {
    let identity: (Point) -> Point = { $0 }
    // A second look is the plain read with zxing without try-harder, and zbar only up to
    // analysis size: on a full-resolution photo zbar and try-harder each cost several times the
    // plain read (zbar still reads a motion-blurred EAN-13 in the analysis copy that zxing does
    // not).
    let firstReader = thorough ? reader : reader.map { _ in quickZXing }
    var firstZBar = useZBar && (thorough || reader == nil || max(gray.width, gray.height) <= 2000)
    if case .aroundOnly = plainZBar, reader != nil { firstZBar = false }
    var passes = [
      Pass(
        name: "plain", zbar: firstZBar, zxing: firstReader, firstLook: true, zbarRead: plainZBar,
        prepare: { (gray, identity) })
    ]
    if strategy.inverted, let firstReader {
      // zbar tests inverted codes itself; zxing 1.4 needs the inverted pixels.
      passes.append(
        Pass(
          name: "inverted", zbar: false, zxing: firstReader, firstLook: true,
          prepare: { (gray.inverted(), identity) }))
    }
    if let firstReader, !strategy.zxingTryHarder {
      // Without try-harder zxing reads fewer rows and skips some blurred retail codes; one more
      // read with it when the fast reads confirmed nothing: a code they read once gets its
      // second read here, or a contradicting one.
      var options = firstReader.options
      options.tryHarder = true
      passes.append(
        Pass(
          name: "try-harder", zbar: false, zxing: ZXingReader(options: options),
          onlyWhenNothingConfirmed: true,
          firstLook: true, prepare: { (gray, identity) }))
    }
    return passes
  }

  /// Passes that read the image at another size or with zxing's other binarisers.
  private func resizedPasses(_ gray: Bitmap, reader: ZXingReader?, useZBar: Bool) -> [Pass] {
    let identity: (Point) -> Point = { $0 }
    var passes: [Pass] = []
    let shortest = min(gray.width, gray.height), longest = max(gray.width, gray.height)
    if strategy.multiScale {
      if shortest < 560 {
        passes.append(
          Pass(
            name: "enlarged", zbar: useZBar, zxing: reader,
            prepare: { (gray.scaled(by: 2), { Point($0.x / 2, $0.y / 2) }) })
        )
      }
      if longest > 1800 {
        let f = 1200 / Double(longest)
        passes.append(
          Pass(
            name: "reduced", zbar: useZBar, zxing: reader,
            prepare: { (gray.scaled(by: f), { Point($0.x / f, $0.y / f) }) })
        )
      }
    }
    if strategy.enhance, reader != nil {
      // zxing's other binarisers: a global threshold keeps thin bars that the local one merges
      // on blurred linear codes.
      for binarizer in [ZXingReader.Binarizer.fixedThreshold, .globalHistogram] {
        passes.append(
          Pass(
            name: "\(binarizer)", zbar: false, zxing: variant(binarizer: binarizer),
            prepare: { (gray, identity) }))
      }
    }
    if strategy.multiScale, reader != nil {
      // A 2-D code photographed at a slant is foreshortened along one axis; squeezing the other
      // axis brings its modules back to square enough for zxing 1.4's detectors.
      for (sx, sy) in [(1.0, 0.7), (0.7, 1.0)] {
        passes.append(
          Pass(
            name: "squeezed-\(sx)x\(sy)", zbar: false, zxing: reader,
            prepare: {
              let w = max(1, Int((Double(gray.width) * sx).rounded()))
              let h = max(1, Int((Double(gray.height) * sy).rounded()))
              let fx = Double(w) / Double(gray.width), fy = Double(h) / Double(gray.height)
              return (gray.resized(width: w, height: h), { Point($0.x / fx, $0.y / fy) })
            }))
      }
    }
    return passes
  }

  /// Passes on sharpened, contrast-stretched and rotated copies.
  private func enhancedPasses(_ gray: Bitmap, cache: ScanCopies, reader: ZXingReader?, useZBar: Bool)
    -> [Pass]
  {
    let identity: (Point) -> Point = { $0 }
    var passes: [Pass] = []
    if strategy.enhance {
      passes.append(
        Pass(name: "sharpened", zbar: useZBar, zxing: reader, prepare: { (cache.sharpened, identity) }))
    }
    if strategy.enhance, reader != nil {
      // Contrast stretched over the 2nd–98th percentile, with a gamma that darkens (thin light
      // gaps between blurred bars) or lightens (modules of a code in shadow), the first also
      // enlarged: each read one more photo of zxing-cpp's test set that nothing else read.
      let stretch: [(gamma: Double, scale: Double, binarizer: ZXingReader.Binarizer)] = [
        (1, 1.5, .localAverage), (2, 1, .localAverage), (0.5, 1, .globalHistogram),
      ]
      for (gamma, scale, binarizer) in stretch {
        passes.append(
          Pass(
            name: "stretched-gamma\(gamma)", zbar: false,
            zxing: binarizer == .localAverage ? reader : variant(binarizer: binarizer),
            prepare: {
              let stretched = gray.contrastStretched(clip: 0.02, gamma: gamma)
              return scale == 1
                ? (stretched, identity) : (stretched.scaled(by: scale), { Point($0.x / scale, $0.y / scale) })
            }))
      }
    }
    if strategy.rotations {
      for degrees in [30.0, -30.0] {
        passes.append(
          Pass(
            name: "rotated\(degrees)", zbar: useZBar, zxing: reader,
            prepare: {
              let (image, toSource) = gray.rotated(degrees: degrees)
              return (image, toSource)
            }))
      }
    }
    return passes
  }

  /// The rescue: bench/barcodes/FINDINGS.md's ranked passes, most files per millisecond first.
  /// Each read of a linear code here still needs a second opinion, which the later passes give.
  private func rescuePasses(_ gray: Bitmap, cache: ScanCopies, reader: ZXingReader, useZBar: Bool) -> [Pass] {
    let identity: (Point) -> Point = { $0 }
    var passes: [Pass] = []
    var hard = reader.options
    hard.tryHarder = true
    let hardReader = ZXingReader(options: hard)
    // Aztec symbols whose bullseye 1.4's detector misses, rectified by our own locator; no
    // pass at all when the image has no bullseye.
    for index in 0..<8 {
      passes.append(
        Pass(
          name: "bullseye-rectified\(index)", zbar: false, zxing: hardReader, rescue: true,
          prepare: {
            let symbols = cache.bullseyeSymbols
            guard index < symbols.count else { return nil }
            return (symbols[index].image, symbols[index].toSource.apply)
          }))
    }
    hard.binarizer = .globalHistogram
    passes.append(
      Pass(
        name: "blurred-global", zbar: useZBar, zxing: ZXingReader(options: hard), rescue: true,
        prepare: { (cache.blurred, identity) }))
    // The same blurred copy with the local binariser: a second zxing read of what the first
    // found (a one-library code needs two passes).
    passes.append(
      Pass(
        name: "blurred", zbar: false, zxing: hardReader, rescue: true,
        prepare: { (cache.blurred, identity) }))
    passes += deblurredRegionPasses(cache: cache, reader: hardReader, useZBar: useZBar)
    passes += Self.regionPasses(
      "region-sharpened", 3, zbar: useZBar, reader: hardReader, regions: { cache.regions }
    ) {
      cache.sharpened
    }
    // A code seen at a slant: its whole region's own corners warped to a rectangle (aztec-2/04,
    // 11 of the training folders; a cut from the sharpened copy read no more).
    passes += Self.regionPasses(
      "region-rectified", 2, zbar: false, reader: hardReader, regions: { cache.rectifiedJoinedRegions }
    ) { gray }
    passes.append(
      Pass(
        name: "enlarged1.5", zbar: useZBar, zxing: hardReader, rescue: true,
        prepare: { (gray.scaled(by: 1.5), { Point($0.x / 1.5, $0.y / 1.5) }) }))
    passes += Self.regionPasses(
      "region-enlarged", 2, zbar: false, reader: hardReader, regions: { cache.regions }, scale: 2
    ) {
      gray
    }
    return passes
  }

  /// The strongest code-like region cut upright, its bars turned to stand, and sharpened along
  /// its rows at the blur widths of `secondOpinions`: a blurred linear code that no pass reads
  /// (its thin gaps filled in), read once here, then confirmed by the second look.
  private func deblurredRegionPasses(cache: ScanCopies, reader: ZXingReader, useZBar: Bool) -> [Pass] {
    Self.deblurSigmas.map { sigma in
      Pass(
        name: "region-deblurred\(Int(sigma))", zbar: useZBar, zxing: reader, rescue: true, retail: false,
        prepare: {
          cache.standingBars.map {
            ($0.image.sharpenedAlongRows(sigma: sigma, amount: 4, smoothing: 9), $0.toSource)
          }
        })
    }
  }

  /// Reads each pass's copy in order until `findings` is satisfied, the rescue's gate or budget
  /// stops it, or `keepGoing` says stop.
  func run(
    _ passes: [Pass], gray: Bitmap, gated: Bool, cache: ScanCopies, mapping toImage: (Point) -> Point,
    into findings: inout Findings, keepGoing: () -> Bool
  ) {
    defer { findings.countsRetail = true }
    var rescueStarted = false
    var rescueRead = 0.0
    var blindRead = 0.0
    var gateAsked = false
    for pass in passes {
      if findings.isSatisfied || !keepGoing() { break }
      if pass.onlyWhenNothingConfirmed && !findings.records.isEmpty { continue }
      if !pass.firstLook && !gateAsked {
        gateAsked = true
        if !findings.hasReads && !passesGate(gray, gated: gated, findings: &findings) { break }
      }
      if pass.rescue && !rescueStarted {
        // Nothing read and nothing that looks like a code: the rescue would find nothing.
        let started = ThreadCPUClock.milliseconds()
        let noRegions = cache.regions.isEmpty
        findings.noteCost(
          of: "regions", pixels: gray.width * gray.height, prepare: ThreadCPUClock.milliseconds() - started)
        if !findings.hasReads && noRegions { break }
        rescueStarted = true
      }
      let started = ThreadCPUClock.milliseconds()
      guard let prepared = pass.prepare() else { continue }
      let (image, toSource) = prepared
      var cost = PassCost(
        scan: findings.scanName, pass: pass.name, pixels: image.width * image.height,
        prepare: ThreadCPUClock.milliseconds() - started)
      let readers = (pass.zbar ? 1 : 0) + (pass.zxing == nil ? 0 : 1)
      let megapixels = Double(image.width * image.height * readers) / 1e6
      if gated, !pass.firstLook, strategy.blindRetryMegapixels > 0, !findings.hasReads {
        // On training crops whose retries read nothing, the ladder ran to its end for no code.
        blindRead += megapixels
        if blindRead > strategy.blindRetryMegapixels { break }
      }
      if pass.rescue {
        rescueRead += megapixels
        if rescueRead > strategy.rescueMegapixels { break }
      }
      findings.source += 1
      findings.passName = pass.name
      findings.countsRetail = pass.retail
      decode(image, of: pass, mapping: { toImage(toSource($0)) }, cost: &cost, into: &findings)
      if findings.passCosts != nil { findings.passCosts!.append(cost) }
    }
  }

  /// One pass's copy read by each decoder the pass names, until `findings` is satisfied.
  private func decode(
    _ image: Bitmap, of pass: Pass, mapping: (Point) -> Point, cost: inout PassCost,
    into findings: inout Findings
  ) {
    for decoder in strategy.decoders {
      if findings.isSatisfied { break }
      let decoding = ThreadCPUClock.milliseconds()
      switch decoder {
      case .zbar where pass.zbar:
        for record in zbarRecords(image, read: pass.zbarRead, mapping: mapping) { findings.add(record) }
        cost.zbar += ThreadCPUClock.milliseconds() - decoding
      case .zxing:
        if let reader = pass.zxing {
          readAll(
            with: reader, image, mapping: mapping,
            zbarAround: strategy.decoders.contains(.zbar) && !pass.zbar, into: &findings)
          cost.zxing += ThreadCPUClock.milliseconds() - decoding
        }
      default:
        break
      }
    }
  }

  /// Whether an image whose first looks read nothing shows enough code-like blocks for the other
  /// passes; with the trace on, notes the gate's features over its grid.
  private func passesGate(_ gray: Bitmap, gated: Bool, findings: inout Findings) -> Bool {
    if findings.passCosts != nil {
      findings.gateFeatures[findings.scanName] = CodeRegions.codeLikeBlocks(
        in: gray, energies: CodeGate.traceEnergies, coherences: CodeGate.traceCoherences)
    }
    guard gated, let gate = strategy.codeGate else { return true }
    let started = ThreadCPUClock.milliseconds()
    let blocks = CodeRegions.codeLikeBlocks(in: gray, energy: gate.energy, coherence: gate.coherence)
    findings.noteCost(
      of: "gate", pixels: gray.width * gray.height, prepare: ThreadCPUClock.milliseconds() - started)
    return blocks >= gate.blocks
  }

  /// Rescue passes that each read one of the first `count` code-like regions, cut upright (and
  /// scaled) from `image`; a pass whose region was not found is skipped.
  private static func regionPasses(
    _ name: String, _ count: Int, zbar: Bool, reader: ZXingReader,
    regions: @escaping () -> [CodeRegions.Region],
    scale: Double = 1, of image: @escaping () -> Bitmap
  ) -> [Pass] {
    (0..<count).map { index in
      Pass(
        name: "\(name)\(index)", zbar: zbar, zxing: reader, rescue: true,
        prepare: {
          let found = regions()
          guard index < found.count else { return nil }
          return CodeRegions.upright(found[index], of: image(), scale: scale).map { ($0.image, $0.toSource) }
        })
    }
  }

  /// The zbar scanner stepping `density` rows and columns, inverted codes as the strategy says.
  private func zbarScanner(density: Int) -> ZBarScanner? {
    if density == strategy.zbarDensity { return zbar }
    if let made = zbarByDensity[density] { return made }
    let made = try? ZBarScanner(testInverted: strategy.inverted, scanDensity: density)
    zbarByDensity[density] = made
    return made
  }

  func variant(binarizer: ZXingReader.Binarizer) -> ZXingReader {
    var options = zxing.options
    options.binarizer = binarizer
    return ZXingReader(options: options)
  }

  // MARK: - Decoders

  private func zbarRecords(_ gray: Bitmap, read: PlainZBar = .own, mapping: (Point) -> Point)
    -> [BarcodeRecord]
  {
    let symbols: [ZBarScanner.Symbol]
    switch read {
    case .done(let scanned): symbols = scanned
    case .density(let density): symbols = zbarScanner(density: density)?.scan(gray) ?? zbar.scan(gray)
    case .own, .aroundOnly: symbols = zbar.scan(gray)
    }
    return symbols.compactMap { symbol in
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
  ///
  /// - Parameter zbarAround: zbar did not read this copy: it reads the neighbourhood of each linear
  ///   code zxing finds, the second opinion a linear code needs (a large screenshot's plain read
  ///   is zxing's alone, zbar over 3 megapixels costing several times the crop).
  private func readAll(
    with reader: ZXingReader, _ gray: Bitmap, mapping: (Point) -> Point, zbarAround: Bool = false,
    into findings: inout Findings
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
        if zbarAround, Findings.isLinear(record), !findings.isSatisfied,
          let around = image.neighbourhood(of: symbol.points)
        {
          let offset: (Point) -> Point = { mapping(Point($0.x + Double(around.1), $0.y + Double(around.2))) }
          let pass = findings.passName
          findings.passName = pass + "+around"
          for record in zbarRecords(around.0, mapping: offset) { findings.add(record) }
          findings.passName = pass
        }
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
  /// The band around a linear code's scan line, grown along it by a sixth of its length (the
  /// quiet zones) and across it by 24 px (a few rows of bars are all zbar needs), with its
  /// top-left corner; nil when empty.
  func neighbourhood(of points: [Point]) -> (Bitmap, Int, Int)? {
    guard !points.isEmpty else { return nil }
    let xs = points.map(\.x), ys = points.map(\.y)
    let length = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    let wide = xs.max()! - xs.min()! >= ys.max()! - ys.min()!
    let mx = wide ? length / 6 + 16 : 24, my = wide ? 24 : length / 6 + 16
    let x0 = max(0, Int(xs.min()! - mx)), x1 = min(width, Int(xs.max()! + mx) + 1)
    let y0 = max(0, Int(ys.min()! - my)), y1 = min(height, Int(ys.max()! + my) + 1)
    guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
    return (cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0), x0, y0)
  }

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
