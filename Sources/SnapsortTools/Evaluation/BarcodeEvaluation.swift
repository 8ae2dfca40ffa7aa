import Foundation
import SnapsortCore
import SnapsortImaging
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
      records.contains { matches($0) }
    }

    func matches(_ record: BarcodeRecord) -> Bool {
      if let expectedText {
        return record.value == expectedText || record.gtin == expectedText
          || record.pharmacode == expectedText
      }
      if let expectedBytes {
        return record.bytes == expectedBytes.base64EncodedString() || Data(record.value.utf8) == expectedBytes
      }
      return false
    }

    /// The reported codes that are not this sample's: every one that differs from it, except a
    /// code of another symbology beside the expected one and not marked the card's (the photo may
    /// hold that code too; upstream says a few do).
    public func falseReads(in records: [BarcodeRecord]) -> [BarcodeRecord] {
      let expected = records.first { matches($0) }
      return records.filter { record in
        guard !matches(record) else { return false }
        guard let expected else { return true }
        return record.primary == true || record.symbology == expected.symbology
      }
    }
  }

  public struct FolderCounts: Sendable, Equatable {
    public var images = 0
    public var zbar = 0
    public var zxing = 0
    public var snapsort = 0
    /// Images where Snapsort reported a code that is not the image's (`Sample.falseReads`).
    public var falseReads = 0
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
    /// Labelled images where Snapsort reported another code than the image's, with those codes.
    public var wrong: [(file: String, codes: [BarcodeRecord])] = []

    /// Snapsort's codes for one sample: an exact match or a miss, and any false read.
    mutating func score(_ barcodes: [BarcodeRecord], of sample: Sample, into counts: inout FolderCounts) {
      if sample.isMatched(by: barcodes) {
        counts.snapsort += 1
      } else {
        missed.append((sample.input.relativePath, barcodes))
      }
      let falseReads = sample.falseReads(in: barcodes)
      if !falseReads.isEmpty {
        counts.falseReads += 1
        wrong.append((sample.input.relativePath, falseReads))
      }
    }

    public var total: FolderCounts {
      folders.values.reduce(into: FolderCounts()) {
        $0.images += $1.images
        $0.zbar += $1.zbar
        $0.zxing += $1.zxing
        $0.snapsort += $1.snapsort
        $0.falseReads += $1.falseReads
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
          report.score(record.card?.barcodes ?? [], of: sample, into: &counts)
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
}

extension BarcodeEvaluation.Report {
  /// A markdown fragment: the per-folder table, times per image, false positives.
  public func markdown(title: String) -> String {
    var lines = [
      "## \(title)", "",
      "Exact matches per folder (value as printed, its GTIN, or the raw bytes of a binary payload).", "",
      "| folder | images | zbar alone | zxing-cpp \(ZXingReader.libraryVersion) alone | Snapsort | Snapsort false |",
      "|---|---:|---:|---:|---:|---:|",
    ]
    for folder in folders.keys.sorted() {
      let c = folders[folder]!
      let best = max(c.zbar, c.zxing)
      let mark = c.snapsort < best ? " ⚠ below \(best)" : ""
      lines.append(
        "| `\(folder)` | \(c.images) | \(c.zbar) | \(c.zxing) | \(c.snapsort)\(mark) | \(c.falseReads) |")
    }
    let t = total
    lines.append(
      "| **total** | \(t.images) | \(t.zbar) | \(t.zxing) | **\(t.snapsort)** | **\(t.falseReads)** |")
    lines.append("")
    for (file, codes) in wrong {
      let list = codes.map { "\($0.symbology) `\($0.value)` (\($0.decoder ?? "?"))" }.joined(separator: ", ")
      lines.append("- false read on `\(file)`: \(list)")
    }
    if !wrong.isEmpty { lines.append("") }
    func timing(_ values: [Double]) -> String {
      let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
      return String(
        format: "%.1f ms median, %.1f ms mean, %.0f ms max", values.median, mean,
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
