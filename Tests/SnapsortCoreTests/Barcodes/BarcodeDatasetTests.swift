import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

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

  /// Snapsort's own counts, which may only go up: the barcode stage with its default options
  /// (zxing then zbar, every pass, expected_codes 1), measured with `snapsort eval-barcodes
  /// ../shared/data/barcodes`: 176 of 193 (zbar alone 98, zxing-cpp 1.4 alone 155). upca-4 went
  /// down from 13 to 11 with issue #26's confirmation rule: where the right code is read by one
  /// library once, beside valid-checksum misreads (upca-4/1, /2), nothing is reported now; no
  /// false code weighs more than one more exact match.
  static let minimums: [String: Int] = [
    "aztec-2": 9, "code128-1": 6, "code128-3": 2, "code39-1": 6, "datamatrix-2": 13, "datamatrix-4": 21,
    "datamatrix-5": 0, "ean13-1": 14, "ean13-3": 8, "itf-2": 6, "pdf417-1": 17, "qrcode-1": 8, "qrcode-3": 18,
    "qrcode-5": 16, "upca-1": 5, "upca-3": 6, "upca-4": 11, "upce-3": 10,
  ]

  func testExactMatchesPerFolder() throws {
    guard FileManager.default.fileExists(atPath: Self.data.path) else {
      throw XCTSkip("../shared/data/barcodes is absent (a clone outside the workplace)")
    }
    let report = try BarcodeEvaluation.run(root: Self.data)
    print(report.markdown(title: "barcodes"))
    XCTAssertGreaterThanOrEqual(report.total.snapsort, 174, "the issue's target: 90 % of 193")
    // A folder missing from the data (or renamed) would otherwise drop its minimum unnoticed.
    XCTAssertEqual(Set(report.folders.keys), Set(Self.minimums.keys), "the folders the minimums name")
    for (folder, counts) in report.folders {
      XCTAssertGreaterThanOrEqual(counts.snapsort, Self.minimums[folder] ?? 0, folder)
      XCTAssertGreaterThanOrEqual(counts.snapsort, Self.zbarimg[folder] ?? 0, "\(folder): below zbarimg")
      // The target: never worse than either library alone, folder by folder.
      XCTAssertGreaterThanOrEqual(
        counts.snapsort, max(counts.zbar, counts.zxing), "\(folder): below a library alone")
    }
  }
}
