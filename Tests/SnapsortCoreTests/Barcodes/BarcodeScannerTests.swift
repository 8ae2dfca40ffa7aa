import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The decoding strategy: both decoders, validation, merging, and the negatives.
final class BarcodeScannerTests: XCTestCase {
  static let samples = ZXingReaderTests.root.appendingPathComponent("samples")

  static func run(_ url: URL, options: BarcodeStage.Options) throws -> PhotoItem {
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    try BarcodeStage(options: options, context: StageContext()).process(item)
    return item
  }

  /// Every pass on every negative (expected_codes 0 never stops early): no code may come back.
  func testNegativesYieldNoCodeEvenWithEveryPass() throws {
    var options = BarcodeStage.Options()
    options.expectedCodes = 0
    let inputs = try InputScanner().scan([Self.samples.appendingPathComponent("negatives")]).inputs
    XCTAssertGreaterThanOrEqual(inputs.count, 16)
    for input in inputs {
      let item = try Self.run(input.url, options: options)
      XCTAssertEqual((item.artifacts[CodeReads.self]?.barcodes ?? []), [], input.relativePath)
      XCTAssertEqual(item.record.notes?.first, "no code found", input.relativePath)
    }
  }

  /// A budget spent before the passes are done stops them and says so; the default budget is far
  /// from what a photo without a code takes, every pass included.
  func testTheTimeBudgetStopsThePassesAndSaysSo() throws {
    let input = try XCTUnwrap(
      InputScanner().scan([Self.samples.appendingPathComponent("negatives")]).inputs.first)
    var options = BarcodeStage.Options()
    options.expectedCodes = 0
    options.timeBudgetMs = 1
    let cut = try Self.run(input.url, options: options)
    XCTAssertTrue(
      (cut.record.notes ?? []).contains { $0.contains("time budget (1 ms CPU) ran out") },
      "\(cut.record.notes ?? [])")
    options.timeBudgetMs = BarcodeStage.Options().timeBudgetMs
    let whole = try Self.run(input.url, options: options)
    XCTAssertFalse(
      (whole.record.notes ?? []).contains { $0.contains("time budget") }, "\(whole.record.notes ?? [])")
  }

  func testScreenshotCodeWithQuadInImagePixelsAndEarlyStop() throws {
    let item = try Self.run(
      Self.samples.appendingPathComponent("screenshots/screenshot-03-light.png"), options: .init())
    let code = try XCTUnwrap((item.artifacts[CodeReads.self]?.barcodes ?? []).first)
    XCTAssertEqual((item.artifacts[CodeReads.self]?.barcodes ?? []).count, 1)
    XCTAssertEqual(code.symbology, "code39")
    XCTAssertEqual(code.value, "KR20931")
    XCTAssertEqual(code.decoder, "zxing")
    let quad = try XCTUnwrap(code.quad)
    XCTAssertEqual(quad.corners.count, 4)
    // Clockwise from the top-left, inside the 1170 × 2532 screenshot.
    XCTAssertLessThan(quad.corners[0].x, quad.corners[1].x)
    XCTAssertLessThan(quad.corners[1].y, quad.corners[2].y)
    XCTAssert(quad.corners.allSatisfy { (0...1170).contains($0.x) && (0...2532).contains($0.y) })
  }

  /// Three screenshots side by side: with expected_codes 0 every code is reported, each once,
  /// with its quad in the right third; with 1 the scan stops at the first.
  func testSeveralCodesInOneImage() throws {
    let names = ["screenshot-01-light.png", "screenshot-05-light.png", "screenshot-06-dark.png"]
    let parts = try names.map { try ZXingReaderTests.gray("samples/screenshots/\($0)") }
    let width = parts.map(\.width).reduce(0, +), height = parts.map(\.height).max()!
    let combined = Bitmap(width: width, height: height, format: .gray) { out in
      var left = 0
      for part in parts {
        for y in 0..<part.height {
          for x in 0..<part.width { out[y * width + left + x] = part.pixels[y * part.width + x] }
        }
        left += part.width
      }
    }
    var everything = BarcodeScanner.Strategy()
    everything.expectedCodes = 0
    var findings = BarcodeScanner.Findings(expectedCodes: 0)
    try BarcodeScanner(strategy: everything).scan(combined, toImage: { $0 }, into: &findings)
    let byValue = Dictionary(uniqueKeysWithValues: findings.records.map { ($0.value, $0) })
    XCTAssertEqual(
      Set(byValue.keys), ["7350012345679", "https://www.ikea.com/family/6275980012345678", "ICA-88812345"])
    XCTAssertEqual(byValue["ICA-88812345"]?.symbology, "code128")
    let third = Double(parts[0].width)
    XCTAssert(byValue["ICA-88812345"]?.quad?.corners.allSatisfy { $0.x > 2 * third } ?? false)
    XCTAssert(byValue["7350012345679"]?.quad?.corners.allSatisfy { $0.x < third } ?? false)

    var one = BarcodeScanner.Findings(expectedCodes: 1)
    try BarcodeScanner(strategy: .init()).scan(combined, toImage: { $0 }, into: &one)
    XCTAssertEqual(one.records.count, 1)
  }

  func testZBarAloneStillReadsWhenConfiguredSo() throws {
    var options = BarcodeStage.Options()
    options.decoders = [.zbar]
    let item = try Self.run(
      Self.samples.appendingPathComponent("screenshots/screenshot-03-light.png"), options: options)
    XCTAssertEqual((item.artifacts[CodeReads.self]?.barcodes ?? []).map(\.value), ["KR20931"])
    XCTAssertEqual((item.artifacts[CodeReads.self]?.barcodes ?? []).first?.decoder, "zbar")
  }

  func testMergesTheSameRetailCodeFromBothDecoders() {
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    var zbar = BarcodeNormalizer.record(symbology: .ean13, bytes: Array("0049000006582".utf8))
    zbar.decoder = "zbar"
    zbar.quad = [[0, 0], [10, 0], [10, 10], [0, 10]]
    XCTAssertTrue(findings.add(zbar))
    XCTAssertFalse(findings.isSatisfied, "one read of a linear code is not confirmed")
    XCTAssertEqual(findings.records, [])
    var zxing = BarcodeNormalizer.record(symbology: .upce, text: "04965802", bytes: [], binary: false)
    zxing.decoder = "zxing"
    XCTAssertFalse(findings.add(zxing), "same GTIN: one code")
    XCTAssertTrue(findings.isSatisfied)
    XCTAssertEqual(findings.records.map(\.symbology), ["upce"])
  }

  /// bench/barcodes/FINDINGS.md §5: zbar's wrong 9074932437075 on upca-4/2 against zxing's right
  /// read, each once: neither is confirmed, so nothing is reported rather than a wrong number.
  func testTwoDifferentSingleLinearReadsConfirmNeither() {
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    var wrong = BarcodeNormalizer.record(symbology: .ean13, bytes: Array("9074932437075".utf8))
    wrong.decoder = "zbar"
    var right = BarcodeNormalizer.record(symbology: .upca, text: "023942431015", bytes: [], binary: false)
    right.decoder = "zxing"
    findings.add(wrong, source: 1)
    findings.add(wrong, source: 2)
    findings.add(right, source: 1)
    XCTAssertEqual(findings.records, [], "zbar's twice-read code is contradicted by zxing's")
    XCTAssertEqual(findings.unconfirmed.map(\.value), ["9074932437075", "023942431015"])
    // zxing reading its code in a second pass confirms it: zbar's lone retail read does not
    // count against it, and the scan goes on (one library is not enough to stop).
    findings.add(right, source: 2)
    XCTAssertEqual(findings.records.map(\.value), ["023942431015"])
    XCTAssertFalse(findings.isSatisfied)
    // Another zxing value contradicts it.
    var other = BarcodeNormalizer.record(symbology: .ean13, text: "4112234738478", bytes: [], binary: false)
    other.decoder = "zxing"
    findings.add(other, source: 3)
    XCTAssertEqual(findings.records, [])
    // zbar agreeing confirms it whatever else was read.
    var agreeing = BarcodeNormalizer.record(symbology: .upca, text: "023942431015", bytes: [], binary: false)
    agreeing.decoder = "zbar"
    findings.add(agreeing, source: 4)
    XCTAssertEqual(findings.records.map(\.value), ["023942431015"])
    XCTAssertEqual(findings.records.first?.decoder, "zxing")
    XCTAssertTrue(findings.isSatisfied)
  }

  /// The screenshots preset's options on files of ../shared/data/barcodes that it missed or read
  /// wrongly before issue #26: each gives exactly its expected code, or nothing, never another.
  func testScreenshotsPresetOnFormerMissesAndFalseReads() throws {
    let data = BarcodeDatasetTests.data
    guard FileManager.default.fileExists(atPath: data.path) else {
      throw XCTSkip("../shared/data/barcodes is absent")
    }
    var options = BarcodeStage.Options()
    options.expectedCodes = 1
    options.fullResolutionFallback = false
    options.scanDensity = 2
    options.zxingTryHarder = false
    func expected(_ url: URL) throws -> String {
      try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
    }
    // Read now: Code 32, the try-harder retry, the region deskew.
    for file in ["code39-1/code32-1.png", "ean13-1/37.webp", "aztec-2/06.webp"] {
      let url = data.appendingPathComponent(file)
      let codes = try Self.run(url, options: options).artifacts[CodeReads.self]?.barcodes ?? []
      // A Code 32's expected text is its pharmacode reading, beside the Code 39 value.
      XCTAssertEqual(codes.map { $0.pharmacode ?? $0.value }, [try expected(url)], file)
    }
    // Wrong GTINs were reported here (zbar's 9074932437075, zxing's 4112234738478, ...).
    for file in [
      "upca-4/1.webp", "upca-4/2.webp", "upca-4/6.webp", "upca-4/14.webp", "upca-3/13.webp", "upca-4/10.webp",
    ] {
      let url = data.appendingPathComponent(file)
      let text = try expected(url)
      let codes = try Self.run(url, options: options).artifacts[CodeReads.self]?.barcodes ?? []
      XCTAssert(codes.allSatisfy { $0.gtin == text || $0.value == text }, "\(file): \(codes.map(\.value))")
    }
  }

  /// The card crop's retries run the passes `retry_order` names first, in its order, and the
  /// others after them as the ladder had them; the first looks stay first.
  func testRetryOrderRunsNamedPassesFirst() {
    let pass = { (name: String, firstLook: Bool) in
      BarcodeScanner.Pass(name: name, zbar: false, zxing: nil, firstLook: firstLook, prepare: { nil })
    }
    let passes = [
      pass("plain", true), pass("a", false), pass("b", false), pass("c", false), pass("d", false),
    ]
    XCTAssertEqual(
      BarcodeScanner.ordered(passes, first: ["c", "unknown", "a"]).map(\.name), ["plain", "c", "a", "b", "d"])
    XCTAssertEqual(BarcodeScanner.ordered(passes, first: []).map(\.name), passes.map(\.name))
  }

  /// The full-resolution fallback is skipped beside a photographed card whose crop already has
  /// `fallback_skip_crop_density` of the fallback's pixels per card pixel; a card square to the
  /// image (a screenshot's, beside which other cards' codes are read) or a large photo of a small
  /// card keeps it.
  func testFallbackSkippedOnlyBesideADenselyCroppedPhotographedCard() {
    let options = BarcodeStage.Options()
    let crop = 1012 * 638
    // A tilted card about 900 px wide in a 2016-px photo: the crop is denser than the photo.
    let tilted = [Point(300, 400), Point(1190, 480), Point(1140, 1040), Point(250, 960)]
    XCTAssertTrue(
      BarcodeStage.cropCoversFallback(
        quad: tilted, drawnOnScreen: false, cropPixels: crop, imageSide: 2016, options: options))
    // The same card drawn square to the image.
    let square = [Point(300, 400), Point(1190, 400), Point(1190, 960), Point(300, 960)]
    XCTAssertFalse(
      BarcodeStage.cropCoversFallback(
        quad: square, drawnOnScreen: true, cropPixels: crop, imageSide: 2016, options: options))
    // A card 2 400 px wide in a 4032-px photo: the 3200-px fallback has more pixels of it than the crop.
    let large = tilted.map { Point($0.x * 2.7, $0.y * 2.7) }
    XCTAssertFalse(
      BarcodeStage.cropCoversFallback(
        quad: large, drawnOnScreen: false, cropPixels: crop, imageSide: 4032, options: options))
    var never = options
    never.fallbackSkipCropDensity = 0
    XCTAssertFalse(
      BarcodeStage.cropCoversFallback(
        quad: tilted, drawnOnScreen: false, cropPixels: crop, imageSide: 2016, options: never))
  }

  /// The rescue's budget is work, not time: aztec-2/04 (a slanted Aztec that only the
  /// perspective-rectified region reads) is read with the default budget, on a busy machine as on
  /// a quiet one, and not with a budget of 0 megapixels, which stops before the first rescue pass.
  func testRescueBudgetCountsMegapixelsRead() throws {
    let url = BarcodeDatasetTests.data.appendingPathComponent("aztec-2/04.webp")
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw XCTSkip("../shared/data/barcodes is absent")
    }
    let expected = try String(
      contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
    var options = BarcodeStage.Options()
    XCTAssertEqual(options.rescueBudgetMegapixels, 5)
    let read = try Self.run(url, options: options).artifacts[CodeReads.self]?.barcodes ?? []
    XCTAssertEqual(read.map(\.value), [expected])
    options.rescueBudgetMegapixels = 0
    let stopped = try Self.run(url, options: options).artifacts[CodeReads.self]?.barcodes ?? []
    XCTAssertEqual(stopped.map(\.value), [])
  }

  /// The screenshots preset on the sample screenshots (1170 × 2532, above thorough_max_pixels):
  /// zxing's plain read of a linear code is confirmed by zbar around it, so every code is kept.
  func testScreenshotsPresetConfirmsLinearCodesOnLargeScreenshots() throws {
    var load = LoadStage.Options()
    load.analysisMaxSide = 2800
    var options = BarcodeStage.Options()
    options.fullResolutionFallback = false
    options.scanDensity = 2
    options.zxingTryHarder = false
    let folder = Self.samples.appendingPathComponent("screenshots")
    for input in try InputScanner().scan([folder]).inputs {
      let expectedURL = input.url.deletingPathExtension().appendingPathExtension("expected.json")
      let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any]
      let codes = ((expected?["card"] as? [String: Any])?["barcodes"] as? [[String: Any]] ?? []).compactMap {
        $0["value"] as? String
      }
      let item = PhotoItem(relativePath: input.relativePath, url: input.url, outputDirectory: nil)
      try LoadStage(options: load, context: StageContext()).process(item)
      try BarcodeStage(options: options, context: StageContext()).process(item)
      XCTAssertEqual((item.artifacts[CodeReads.self]?.barcodes ?? []).map(\.value), codes, input.relativePath)
    }
  }

  func testOneLibraryInTwoPassesConfirmsWhenAlone() {
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    var read = BarcodeNormalizer.record(symbology: .code128, text: "ICA-88812345", bytes: [], binary: false)
    read.decoder = "zxing"
    findings.add(read, source: 1)
    XCTAssertEqual(findings.records, [])
    findings.add(read, source: 1)
    XCTAssertEqual(findings.records, [], "the same pass twice is one read")
    findings.add(read, source: 2)
    XCTAssertEqual(findings.records.map(\.value), ["ICA-88812345"])
  }

  /// zbar drops Code 128's FNC4 (`ssss1234ssabszz` for `óóóó1234óóabózz`, code128-1/6): the same
  /// code, reported with zxing's value.
  func testZBarCode128WithoutFNC4AgreesWithZXing() {
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    var zbar = BarcodeNormalizer.record(symbology: .code128, bytes: Array("ssss1234ssabszz".utf8))
    zbar.decoder = "zbar"
    var zxing = BarcodeNormalizer.record(
      symbology: .code128, text: "óóóó1234óóabózz", bytes: [], binary: false)
    zxing.decoder = "zxing"
    findings.add(zxing, source: 1)
    findings.add(zbar, source: 1)
    XCTAssertEqual(findings.records.map(\.value), ["óóóó1234óóabózz"])
  }

  func testATwoDimensionalCodeNeedsNoSecondRead() {
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    var qr = BarcodeNormalizer.record(
      symbology: .qr, text: "LIDLPLUS:4400012345678", bytes: [], binary: false)
    qr.decoder = "zxing"
    findings.add(qr)
    XCTAssertTrue(findings.isSatisfied)
  }

  func testTheLargestOfSeveralCodesIsPrimary() {
    var small = BarcodeRecord(symbology: "qr", value: "a")
    small.quad = [[0, 0], [40, 0], [40, 40], [0, 40]]
    var large = BarcodeRecord(symbology: "ean13", value: "5901234123457")
    large.quad = [[100, 300], [400, 300], [400, 301], [100, 301]]
    var records = [small, large]
    BarcodeStage.markPrimary(&records, centre: Point(250, 300))
    XCTAssertEqual(records.map(\.primary), [false, true])
    var one = [small]
    BarcodeStage.markPrimary(&one, centre: Point(0, 0))
    XCTAssertNil(one[0].primary, "one code: no flag")
  }

  func testCode39FullASCIIAndCode32() {
    let vectors: [(String, String?)] = [
      ("H+E+L+L+O/L W+O+R+L+D/A", "Hello, World!"), ("+A+B+C/D/E/O/K", "abc$%/+"), ("A/KB", "A+B"),
      ("C+O+D+E39/Z+O+K", "Code39:ok"), ("%U$A$Z%A%E", "\u{0}\u{1}\u{1A}\u{1B}\u{1F}"),
      ("%F%J%K%O%P%T%V%W", ";?[_{\u{7F}@`"), ("/A/O/Z", "!/:"), ("-. 09AZ", nil), ("1+2", nil),
      ("AB/5", nil), ("PRICE $5", nil), ("50%", nil), ("/P", nil),
    ]
    for (raw, decoded) in vectors {
      XCTAssertEqual(Code39Text.fullASCII(raw), decoded, raw)
      let record = BarcodeNormalizer.record(symbology: .code39, bytes: Array(raw.utf8))
      XCTAssertEqual(record.value, decoded ?? raw, raw)
      XCTAssertEqual(record.raw, decoded == nil ? nil : raw, raw)
    }
    XCTAssertEqual(Code39Text.code32("3PRM8N"), "A123456788")
    XCTAssertNil(Code39Text.code32("3PRM8P"), "check digit")
    XCTAssertNil(Code39Text.code32("3PRM8A"), "a vowel is not in the alphabet")
    // The symbol's own text stays the value, the pharmacode beside it: a loyalty card's random
    // Code 39 passes the check one time in ten (TZS4SK, a rendered held-out screenshot, was
    // reported as A872157969).
    let pharma = BarcodeNormalizer.record(symbology: .code39, text: "3PRM8N", bytes: [], binary: false)
    XCTAssertEqual(pharma.value, "3PRM8N")
    XCTAssertNil(pharma.raw)
    XCTAssertEqual(pharma.pharmacode, "A123456788")
    let loyalty = BarcodeNormalizer.record(symbology: .code39, bytes: Array("TZS4SK".utf8))
    XCTAssertEqual(loyalty.value, "TZS4SK")
    XCTAssertEqual(loyalty.pharmacode, "A872157969")
    XCTAssertNil(BarcodeNormalizer.record(symbology: .code39, bytes: Array("TZS4SP".utf8)).pharmacode)
    XCTAssertEqual(
      BarcodeNormalizer.record(symbology: .code39, text: "-12345678", bytes: [], binary: false).value,
      "-12345678", "PZN stays raw")
  }

  /// A linear code cut to a strip one or four pixels high (69 × 1, 256 × 4) is loaded (min_side
  /// is the longer side's) and read by the barcode stage.
  func testStripOnePixelHighIsLoadedAndRead() throws {
    let cases: [(symbology: String, value: String, module: Int, width: Int, height: Int)] = [
      ("ean8", "96385074", 1, 69, 1), ("ean13", "5901234123457", 2, 256, 4),
      ("ean13", "5901234123457", 2, 256, 1),
    ]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapsort-strip-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for c in cases {
      let modules = try XCTUnwrap(BarcodeDrawing.modules(symbology: c.symbology, value: c.value))
      let quiet = (c.width - modules.count * c.module) / 2
      let strip = Bitmap(width: c.width, height: c.height, format: .rgb) { out in
        for y in 0..<c.height {
          for x in 0..<c.width {
            let m = (x - quiet) / c.module
            let dark = x >= quiet && m < modules.count && modules[m]
            for k in 0..<3 { out[(y * c.width + x) * 3 + k] = dark ? 0 : 255 }
          }
        }
      }
      let url = folder.appendingPathComponent("\(c.width)x\(c.height).png")
      try ImageEncoder.png(strip).write(to: url)
      let item = try Self.run(url, options: .init())
      let codes = item.artifacts[CodeReads.self]?.barcodes ?? []
      XCTAssertEqual(codes.map(\.value), [c.value], "\(c.width)×\(c.height)")
      let quad = try XCTUnwrap(codes.first?.quad, "\(c.width)×\(c.height)")
      XCTAssert(quad.corners.allSatisfy { $0.y <= Double(c.height) + 0.5 }, "quad in the strip's pixels")
    }
  }

  func testValidation() {
    func record(_ symbology: Symbology, _ value: String) -> BarcodeRecord {
      BarcodeNormalizer.record(symbology: symbology, text: value, bytes: [], binary: false)
    }
    XCTAssertTrue(BarcodeValidator.accepts(record(.ean13, "5901234123457")))
    XCTAssertFalse(BarcodeValidator.accepts(record(.ean13, "5901234123458")), "check digit")
    XCTAssertFalse(BarcodeValidator.accepts(record(.i25, "1234")), "short ITF")
    XCTAssertFalse(BarcodeValidator.accepts(record(.i25, "12345")), "odd ITF")
    XCTAssertFalse(BarcodeValidator.accepts(record(.i25, "00012345678906")), "ITF-14 check digit")
    XCTAssertTrue(BarcodeValidator.accepts(record(.i25, "00012345678905")))
    XCTAssertTrue(BarcodeValidator.accepts(record(.code128, "MU4410293847\u{1D}é")))
    XCTAssertFalse(BarcodeValidator.accepts(record(.code128, "Ω")), "beyond Latin-1")
    XCTAssertFalse(BarcodeValidator.accepts(record(.code39, "ü")))
    XCTAssertFalse(BarcodeValidator.accepts(record(.qr, "")))
  }

  func testBinaryPayloadKeepsItsBytes() {
    let r = BarcodeNormalizer.record(symbology: .pdf417, text: "ÿ\u{0}", bytes: [0xFF, 0x00], binary: true)
    XCTAssertEqual(r.bytes, "/wA=")
    let text = BarcodeNormalizer.record(symbology: .qr, text: "abc", bytes: Array("abc".utf8), binary: false)
    XCTAssertNil(text.bytes)
  }

  func testDynamicCodes() {
    XCTAssertEqual(
      DynamicCode.reason("https://pay.example.com/c?token=a8F3kq93Lm"), "URL with a token parameter")
    XCTAssertEqual(
      DynamicCode.reason("https://wallet.example.com/p/9f3Kx7Qm2LzP8vR4tY6wB1nH"), "URL with a random token")
    XCTAssertEqual(DynamicCode.reason("ID:4400012345678;T:1763880000"), "time-based payload (timestamp)")
    XCTAssertEqual(
      DynamicCode.reason("otpauth://totp/Shop?secret=JBSWY3DPEHPK3PXP"), "one-time password (otpauth)")
    XCTAssertNil(DynamicCode.reason("https://www.ikea.com/family/6275980012345678"))
    XCTAssertNil(DynamicCode.reason("LIDLPLUS:4400012345678"))
    XCTAssertNil(DynamicCode.reason("1763880000"), "a bare number is a member number")
    XCTAssertNil(DynamicCode.reason("https://example.com/member-benefits-information-page"))
    let qr = BarcodeNormalizer.record(
      symbology: .qr, text: "https://pay.example.com/c?otp=829144", bytes: [], binary: false)
    XCTAssertEqual(qr.dynamic, true)
    XCTAssertEqual(qr.dynamicReason, "URL with a otp parameter")
  }
}
