import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// What one fuzz input goes through, per libFuzzer target (`Fuzz/`, `make fuzz`).
///
/// The harnesses and `FuzzRegressionTests` (which replays every kept crash and seed) call the
/// same bodies, so an input that once crashed a target is checked by every `make test`.
enum FuzzTargets {
  /// Target name → body, which says whether the input was accepted (decoded, parsed). The names
  /// are the harness executables' names without `Fuzz`, lowercased.
  static let all: [String: @Sendable (Data) -> Bool] = [
    "jpeg": { decode(JPEGDecoder.self, $0, reductions: [1, 2, 8]) },
    "png": { decode(PNGDecoder.self, $0) },
    "webp": { decode(WebPDecoder.self, $0) },
    "heif": { decode(HEIFDecoder.self, $0) },
    "load": load,
    "config": config,
    "zbar": zbar,
    "zxing": zxing,
    "tesseract": tesseract,
  ]

  /// Pixels a fuzz input may decode to: enough for every code path, small enough for libFuzzer's
  /// default 2 GB memory limit (the real limit, `max_pixels`, is checked from the header too).
  static let pixelBudget = 4_000_000

  static func decode(_ decoder: any ImageDecoder.Type, _ data: Data, reductions: [Int] = [1]) -> Bool {
    data.withUnsafeBytes { raw in
      guard let header = try? decoder.header(of: raw), header.width * header.height <= pixelBudget
      else { return false }
      return reductions.map { (try? decoder.decode(raw, reduction: $0)) != nil }.allSatisfy { $0 }
    }
  }

  /// The whole load stage on bytes of any format: signature sniffing, header, EXIF orientation,
  /// decoding, the analysis copy and the full-resolution decode.
  static func load(_ data: Data) -> Bool {
    var options = LoadStage.Options()
    options.maxPixels = pixelBudget
    guard let stage = try? LoadStage(options: options, context: StageContext()) else { return false }
    let item = PhotoItem(
      relativePath: "fuzz", url: URL(fileURLWithPath: "/nonexistent/fuzz"), outputDirectory: nil,
      prefetched: data)
    guard (try? stage.process(item)) != nil else { return false }
    return (try? item.fullImage()) != nil
  }

  static func config(_ data: Data) -> Bool {
    (try? PipelineConfig.parse(data, context: StageContext())) != nil
  }

  /// zbar over the pixels an input describes (`FuzzPixels`); accepted when a symbol is decoded.
  static func zbar(_ data: Data) -> Bool {
    guard let bitmap = FuzzPixels.bitmap(data, maxPixels: pixelBudget / 4),
      let scanner = try? ZBarScanner()
    else { return false }
    return !scanner.scan(bitmap).isEmpty
  }

  /// zxing-cpp with every format and its harder passes; accepted when a symbol is decoded. A
  /// refusal it reports (`ZXingReader.Failure`) is a refusal, not a crash.
  static func zxing(_ data: Data) -> Bool {
    guard let bitmap = FuzzPixels.bitmap(data, maxPixels: pixelBudget / 4) else { return false }
    return ((try? ZXingReader().read(bitmap)) ?? []).isEmpty == false
  }

  /// Tesseract (`eng`, one engine reused, as a worker does) on the pixels, a second at most;
  /// accepted when a word is recognised. Small inputs only: recognition costs ~1 ms per 1 000 px.
  static func tesseract(_ data: Data) -> Bool {
    guard let bitmap = FuzzPixels.bitmap(data, maxPixels: 200_000), let engine = tesseractEngine else {
      return false
    }
    let result = engine.recognize(bitmap, segmentation: .sparseText, deadline: 1_000)
    return result.words.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  /// Made on first use (loading `eng` takes ~100 ms, far longer than one input) and reused.
  static let tesseractEngine = try? SharedTesseractEngine(languages: "eng")

  // MARK: - Seeds

  /// Small valid inputs a target's corpus starts from, so the fuzzer begins inside each format.
  static func seeds(for target: String) throws -> [Data] {
    let photo = Bitmap(width: 24, height: 16, format: .rgb) { pixels in
      for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index &* 37) }
    }
    let grey = Bitmap(width: 17, height: 9, format: .gray) { pixels in
      for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index &* 11) }
    }
    switch target {
    case "jpeg":
      let baseline = try ImageEncoder.jpeg(photo, quality: 60)
      return [
        baseline, try ImageEncoder.jpeg(photo, quality: 60, progressive: true),
        try ImageEncoder.jpeg(grey, quality: 60),
        try ImageEncoder.cmykJPEG(
          width: 8, height: 8, cmyk: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 7) }, quality: 60),
        exifJPEG(baseline, orientation: 6),
      ]
    case "png":
      return [try ImageEncoder.png(photo), try ImageEncoder.png(grey, sixteenBit: true)]
    case "webp":
      return [try ImageEncoder.webp(photo, quality: 50), try ImageEncoder.webp(grey, quality: 100)]
    case "heif":
      return [try ImageEncoder.heic(photo, quality: 40)]
    case "load":
      return try ["jpeg", "png", "webp", "heif"].flatMap { try seeds(for: $0) }
    case "zbar":
      // A single scan line is a valid input (issue #26): zbar reads one row.
      return [
        FuzzPixels.bars(symbology: "ean13", value: "4006381333931"),
        FuzzPixels.bars(symbology: "code128", value: "SNAPSORT-26", rows: 1),
      ].compactMap { $0 }.map(FuzzPixels.encode)
    case "zxing":
      return [
        FuzzPixels.bars(symbology: "ean13", value: "4006381333931"),
        FuzzPixels.bars(symbology: "code128", value: "SNAPSORT-26", rows: 6),
      ].compactMap { $0 }.map(FuzzPixels.encode)
    case "tesseract":
      return [FuzzPixels.encode(FuzzPixels.text("HOTEL 2048"))]
    case "config":
      return [
        #"{"version": 1, "kind": "card", "stages": [{"stage": "load", "max_pixels": 1000}, {"stage": "barcode", "when": "card"}]}"#,
        #"{"version": 1, "limits": {"seconds_per_image": 5}, "stages": [{"stage": "load"}, {"stage": "detect_card"}, {"stage": "warp", "width": 100}, {"stage": "palette"}, {"stage": "ocr", "languages": "eng"}]}"#,
      ].map { Data($0.utf8) }
    default:
      return []
    }
  }

  /// A JPEG with an APP1 Exif block holding one orientation tag.
  static func exifJPEG(_ jpeg: Data, orientation: UInt8) -> Data {
    let tiff: [UInt8] =
      [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, orientation]
      + [0, 0, 0, 0, 0, 0]
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return Data(jpeg.prefix(2)) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
      + jpeg.dropFirst(2)
  }
}
