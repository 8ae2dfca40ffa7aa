import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// Exact matches per folder on a labelled barcode set (zxing-cpp's blackbox layout:
/// `<folder>/<stem>.<image>` with `<stem>.txt`, or `<stem>.bin` for binary payloads), for zbar
/// alone, zxing-cpp alone and the barcode stage; and codes reported on a folder that has none.
public enum BarcodeEvaluation {
  public struct Sample: Sendable {
    public var folder: String
    public var input: InputScanner.Input
    public var expectedText: String?
    public var expectedBytes: Data?

    /// Whether any record is this sample's code: the value as printed, its GTIN (the set writes
    /// UPC-A and UPC-E as 13-digit GTINs), or the raw bytes of a binary payload.
    public func isMatched(by records: [BarcodeRecord]) -> Bool {
      if let expectedText {
        return records.contains { $0.value == expectedText || $0.gtin == expectedText }
      }
      if let expectedBytes {
        let base64 = expectedBytes.base64EncodedString()
        return records.contains { $0.bytes == base64 || Data($0.value.utf8) == expectedBytes }
      }
      return false
    }
  }

  public struct FolderCounts: Sendable, Equatable {
    public var images = 0
    public var zbar = 0
    public var zxing = 0
    public var snapsort = 0
  }

  public struct Report: Sendable {
    public var folders: [String: FolderCounts] = [:]
    /// Milliseconds per image spent decoding (image loading excluded), one entry per image.
    public var zbarMilliseconds: [Double] = []
    public var zxingMilliseconds: [Double] = []
    public var snapsortMilliseconds: [Double] = []
    /// Negatives: files scanned, and the files where a code was reported with what it was.
    public var negativeFiles = 0
    public var falsePositives: [(file: String, codes: [BarcodeRecord])] = []
    /// Images Snapsort did not match, with what it reported instead.
    public var missed: [(file: String, codes: [BarcodeRecord])] = []

    public var total: FolderCounts {
      folders.values.reduce(into: FolderCounts()) {
        $0.images += $1.images
        $0.zbar += $1.zbar
        $0.zxing += $1.zxing
        $0.snapsort += $1.snapsort
      }
    }
  }

  public static func samples(in root: URL) throws -> [Sample] {
    try InputScanner().scan([root]).inputs.map { input in
      let stem = input.url.deletingPathExtension()
      return Sample(
        folder: String(input.relativePath.split(separator: "/").first ?? ""), input: input,
        expectedText: try? String(contentsOf: stem.appendingPathExtension("txt"), encoding: .utf8),
        expectedBytes: try? Data(contentsOf: stem.appendingPathExtension("bin")))
    }
  }

  /// Runs the three readers over `root` (and the barcode stage over `negatives`).
  ///
  /// - Parameters:
  ///   - options: the barcode stage's options for Snapsort's column.
  ///   - baselines: also run zbar alone and zxing-cpp alone.
  public static func run(
    root: URL, negatives: URL? = nil, options: BarcodeStage.Options = .init(), baselines: Bool = true
  ) throws -> Report {
    let pipeline = try PhotoPipeline(config: barcodeConfig(options))
    let load = try PhotoPipeline(config: barcodeConfig(nil))
    let zbar = try ZBarScanner()
    var zxingOptions = ZXingReader.Options()
    zxingOptions.formats = ZXingReader.Format.wallet
    let zxing = ZXingReader(options: zxingOptions)
    var report = Report()
    for sample in try samples(in: root) {
      var counts = report.folders[sample.folder] ?? FolderCounts()
      counts.images += 1
      let loaded = load.photo(for: sample.input)
      if loaded.record.status == .ok {
        if baselines, let gray = try? loaded.item.fullImage().grayscale() {
          var started = DispatchTime.now()
          let zbarRecords = zbar.scan(gray).map {
            BarcodeNormalizer.record(symbology: Symbology(zbarType: $0.type), bytes: $0.data)
          }
          report.zbarMilliseconds.append(milliseconds(since: started))
          if sample.isMatched(by: zbarRecords) { counts.zbar += 1 }
          started = DispatchTime.now()
          // zxing alone as a user of the library would call it: try harder and rotations on, and
          // the inverted image when the first read finds nothing (1.4 has no inverted option).
          var symbols = (try? zxing.read(gray)) ?? []
          if symbols.isEmpty { symbols = (try? zxing.read(gray.inverted())) ?? [] }
          report.zxingMilliseconds.append(milliseconds(since: started))
          let zxingRecords = symbols.map {
            BarcodeNormalizer.record(
              symbology: Symbology(zxingFormat: $0.format), text: $0.text, bytes: $0.bytes,
              binary: $0.contentType == 1)
          }
          if sample.isMatched(by: zxingRecords) { counts.zxing += 1 }
        }
        let started = DispatchTime.now()
        let record = pipeline.record(for: sample.input)
        if record.status == .ok {
          report.snapsortMilliseconds.append(milliseconds(since: started))
          let barcodes = record.card?.barcodes ?? []
          if sample.isMatched(by: barcodes) {
            counts.snapsort += 1
          } else {
            report.missed.append((sample.input.relativePath, barcodes))
          }
        }
      }
      report.folders[sample.folder] = counts
    }
    if let negatives {
      for input in try InputScanner().scan([negatives]).inputs {
        report.negativeFiles += 1
        let record = pipeline.record(for: input)
        guard record.status == .ok, let barcodes = record.card?.barcodes else { continue }
        if !barcodes.isEmpty { report.falsePositives.append((input.relativePath, barcodes)) }
      }
    }
    return report
  }

  /// `load` followed by `barcode` with these options (`nil`: load alone), from the registry.
  static func barcodeConfig(_ options: BarcodeStage.Options?) throws -> PipelineConfig {
    var stages: [[String: Any]] = [["stage": LoadStage.name]]
    if let options {
      var barcode = try OptionsDecoder.encode(options)
      barcode["stage"] = BarcodeStage.name
      stages.append(barcode)
    }
    let json: [String: Any] = ["version": PipelineConfig.currentVersion, "kind": "card", "stages": stages]
    return try PipelineConfig.parse(try JSONSerialization.data(withJSONObject: json), context: StageContext())
  }

  static func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}

extension BarcodeEvaluation.Report {
  /// A markdown fragment: the per-folder table, times per image, false positives.
  public func markdown(title: String) -> String {
    var lines = [
      "## \(title)", "",
      "Exact matches per folder (value as printed, its GTIN, or the raw bytes of a binary payload).", "",
      "| folder | images | zbar alone | zxing-cpp \(ZXingReader.libraryVersion) alone | Snapsort |",
      "|---|---:|---:|---:|---:|",
    ]
    for folder in folders.keys.sorted() {
      let c = folders[folder]!
      let best = max(c.zbar, c.zxing)
      let mark = c.snapsort < best ? " ⚠ below \(best)" : ""
      lines.append("| `\(folder)` | \(c.images) | \(c.zbar) | \(c.zxing) | \(c.snapsort)\(mark) |")
    }
    let t = total
    lines.append("| **total** | \(t.images) | \(t.zbar) | \(t.zxing) | **\(t.snapsort)** |")
    lines.append("")
    func timing(_ values: [Double]) -> String {
      let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
      return String(
        format: "%.1f ms median, %.1f ms mean, %.0f ms max", BarcodeEvaluation.median(values), mean,
        values.max() ?? 0)
    }
    lines.append("Decoding time per image (one thread, loading excluded):")
    lines.append("")
    lines.append("- zbar alone: \(timing(zbarMilliseconds))")
    lines.append("- zxing-cpp alone: \(timing(zxingMilliseconds))")
    lines.append("- Snapsort: \(timing(snapsortMilliseconds))")
    if negativeFiles > 0 {
      lines.append("")
      lines.append(
        "Negatives (no code in them): \(falsePositives.count) of \(negativeFiles) files with a reported code."
      )
      for (file, codes) in falsePositives {
        let list = codes.map { "\($0.symbology) `\($0.value)` (\($0.decoder ?? "?"))" }.joined(
          separator: ", ")
        lines.append("- `\(file)`: \(list)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One line per image Snapsort missed.
  public var missedListing: String {
    missed.map { file, codes in
      "missed \(file): "
        + (codes.isEmpty
          ? "nothing"
          : codes.map { "\($0.symbology) \($0.value) (\($0.decoder ?? "?"))" }.joined(separator: ", "))
    }.joined(separator: "\n")
  }
}
