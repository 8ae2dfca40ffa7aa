import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The classify stage on the project's samples (cards, screenshots, rendered receipts) and on the
/// real receipts of `../shared/data/receipts` (skipped when absent).
final class ClassifyStageTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  private func kinds(in folder: URL) throws -> [String: Kind] {
    let load = try LoadStage(options: .init(), context: StageContext())
    let classify = try ClassifyStage(options: .init(), context: StageContext())
    var result: [String: Kind] = [:]
    for input in try InputScanner().scan([folder]).inputs {
      let item = PhotoItem(relativePath: input.relativePath, url: input.url, outputDirectory: nil)
      do {
        try load.process(item)
        try classify.process(item)
      } catch { continue }
      result[input.relativePath] = item.record.kind
    }
    return result
  }

  func testSamplesAreSortedByKind() throws {
    for (folder, expected) in [("cards", Kind.card), ("screenshots", .card), ("receipts", .receipt)] {
      let url = Self.root.appendingPathComponent("samples/\(folder)")
      let found = try kinds(in: url)
      // `kinds` leaves out what fails to load: every sample must load and be classified.
      let inputs = try InputScanner().scan([url]).inputs
      XCTAssertFalse(inputs.isEmpty, folder)
      XCTAssertEqual(
        Set(found.keys), Set(inputs.map(\.relativePath)), "\(folder): every sample is classified")
      for (file, kind) in found { XCTAssertEqual(kind, expected, "\(folder)/\(file)") }
    }
  }

  func testRealReceiptsAreReceipts() throws {
    let data = Self.root.deletingLastPathComponent().appendingPathComponent("shared/data/receipts")
    guard FileManager.default.fileExists(atPath: data.path) else {
      throw XCTSkip("../shared/data/receipts is absent (a clone outside the workplace)")
    }
    let found = try kinds(in: data)
    let receipts = found.values.filter { $0 == .receipt }.count
    print("classify: \(receipts) of \(found.count) real receipts taken as receipts")
    XCTAssertGreaterThanOrEqual(receipts, Self.minimumRealReceipts)
  }

  /// Measured with the committed stage (53 of 59; missed: A4-like invoices without a price column and faint tall scans); may only go up.
  static let minimumRealReceipts = 53
}
