import Foundation
import XCTest

@testable import SnapsortCore

/// Exact matches per folder of `../shared/data/barcodes` (zxing-cpp's blackbox images; skipped
/// when that folder is absent). Minimums only go up.
final class BarcodeDatasetTests: XCTestCase {
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/data/barcodes")

  /// What `zbarimg` (0.23.92, Debian) decodes exactly from the same files, measured once with
  /// `zbarimg -q FILE` (WebP converted to PNG first, since zbarimg reads no WebP), a UPC-A value
  /// also compared as its 13-digit GTIN and a UPC-E value as its expanded GTIN, as the expected
  /// texts are written. 88 of 193 overall.
  static let zbarimg: [String: Int] = [
    "aztec-2": 0, "code128-1": 5, "code128-3": 2, "code39-1": 5, "datamatrix-2": 0, "datamatrix-4": 0,
    "datamatrix-5": 0, "ean13-1": 10, "ean13-3": 8, "itf-2": 6, "pdf417-1": 0, "qrcode-1": 8, "qrcode-3": 10,
    "qrcode-5": 12, "upca-1": 5, "upca-3": 5, "upca-4": 5, "upce-3": 7,
  ]

  /// Snapsort's own counts, which may only go up (measured with the committed pipeline; 97 of
  /// 193 overall with zbar alone).
  static let minimums: [String: Int] = [
    "aztec-2": 0, "code128-1": 5, "code128-3": 2, "code39-1": 5, "datamatrix-2": 0, "datamatrix-4": 0,
    "datamatrix-5": 0, "ean13-1": 10, "ean13-3": 8, "itf-2": 6, "pdf417-1": 0, "qrcode-1": 8, "qrcode-3": 17,
    "qrcode-5": 12, "upca-1": 5, "upca-3": 5, "upca-4": 5, "upce-3": 9,
  ]

  func testExactMatchesPerFolder() throws {
    guard FileManager.default.fileExists(atPath: Self.data.path) else {
      throw XCTSkip("../shared/data/barcodes is absent (a clone outside the workplace)")
    }
    let counts = try Self.exactMatches(stages: [
      try LoadStage(options: .init(), context: StageContext()),
      try BarcodeStage(options: .init(), context: StageContext()),
    ])
    var total = 0
    for folder in counts.keys.sorted() {
      let (matched, images) = counts[folder]!
      total += matched
      print("barcodes \(folder): \(matched)/\(images) (zbarimg \(Self.zbarimg[folder] ?? 0))")
      XCTAssertGreaterThanOrEqual(matched, Self.minimums[folder] ?? 0, folder)
      XCTAssertGreaterThanOrEqual(matched, Self.zbarimg[folder] ?? 0, "\(folder): below zbarimg")
    }
    print("barcodes total: \(total)/\(counts.values.map(\.1).reduce(0, +))")
  }

  /// Runs `stages` on every image and compares with the `.txt` (or `.bin`) beside it.
  static func exactMatches(stages: [any Stage]) throws -> [String: (Int, Int)] {
    var counts: [String: (Int, Int)] = [:]
    let listing = try InputScanner().scan([data])
    for input in listing.inputs {
      let folder = String(input.relativePath.split(separator: "/").first!)
      let stem = input.url.deletingPathExtension()
      let item = PhotoItem(relativePath: input.relativePath, url: input.url, outputDirectory: nil)
      for stage in stages {
        do { try stage.process(item) } catch { break }
      }
      let found = item.record.card?.barcodes ?? []
      var matched = false
      if let expected = try? String(contentsOf: stem.appendingPathExtension("txt"), encoding: .utf8) {
        matched = found.contains { $0.value == expected || $0.gtin == expected }
      } else if let bytes = try? Data(contentsOf: stem.appendingPathExtension("bin")) {
        matched = found.contains { $0.bytes == bytes.base64EncodedString() }
      }
      let previous = counts[folder] ?? (0, 0)
      counts[folder] = (previous.0 + (matched ? 1 : 0), previous.1 + 1)
    }
    return counts
  }
}
