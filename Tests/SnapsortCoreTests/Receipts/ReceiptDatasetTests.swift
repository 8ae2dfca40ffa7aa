import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The receipts preset on the real receipts of `../shared/data/receipts` (SROIE and German
/// scans, ground truth by the datasets' authors; skipped when that folder is absent), two
/// workers. Counts of correct totals, dates and merchants may only go up, except by a deliberate
/// change that says why.
final class ReceiptDatasetTests: XCTestCase {
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/data/receipts")

  /// Measured with the committed preset (sroie: 45 receipts, softmatic_de: 14).
  static let minimums: [String: [String: Int]] = [
    // Measured on main after the receipts branch met the card-geometry branch, whose faster
    // warp (area pre-reduction, then one bilinear sample) also flattens the receipts: 33/33/33
    // and 12/13/8 on the branch with the supersampling warp. Raised after issue #7's field
    // rules (legal name before a host brand, payable/inclusive-GST totals, no dates made of
    // prices): 34/35/35 and 10/14/8 with the same OCR. Raised again with totals confirmed by a
    // payment or the VAT table, dates mended where OCR lost a separator, and the name above the
    // address: 37/38/39 and 12/14/11, same OCR. The grey re-read skipped where the binarised
    // reading found every key field (SROIE CPU 1.37 -> 1.11 s) lost one SROIE merchant: 37/38/38
    // by score.py, 37/38/37 by this test's edit-distance similarity (stricter on sroie_369).
    // "TOTAL (GST INCL)" read as the total and the header ending at the first price: 38/38/38
    // by score.py. Grey read first (the binarised image only for missing fields or amounts that
    // do not add up), dark borders cleared and lighting evened: 39/36/43 and 12/13/11, the German
    // CPU per receipt 3.1 -> 2.1 s. Three dates flipped to OCR misreads of the new image
    // ("83/03/2017", "BO-Cb-16", 2013 for 2020) against five merchants and a total gained; the
    // date minimums went down with this deliberate change. Pages capped at 10 MP (German scans
    // about 2× up instead of 2.3×; CPU 2.04 -> 1.54 s): 39/36/43 and 13/13/11. The total's line
    // read again three ways, a date printed twice outvoting a misread one, no day after a time's
    // colon, month "18" mended to "08": 40/38/43 and 13/13/11. "TL" and "TTL" as total labels:
    // 41/38/43. The band above the address read again with thinned strokes when no merchant was
    // found (the three Lidl scans name the shop only in their logo): 13/13/14. Dates in letters
    // ("BO-Cb-16") mended with a "B" for 3, a garbled date yielding to another reading's whole
    // one, and the page read again as a block where the date's line read below confidence 70:
    // 41/42/43. Issue #23 removed the rules written for one file: "TL"/"TTL" as total labels
    // (sroie_046's "TL:RM 28.60" now gives the subtotal) and the month 13-19 mended by -10
    // (sroie_415's "14-18-17" now gives no date): 40/41/43, lowered deliberately; German 13/13/14.
    // The raw scan read as a second reading where the page's reading is unsure (issue #23 item
    // 3; SROIE training folds 0-3 merchant 225 -> 233 of 276, held-out fold 4 55 -> 56): of these
    // 45 it mends sroie_333's name and takes a surer-read wrong one on sroie_252 (a slogan) and
    // sroie_345 (another shop's name printed on it): 40/41/42, the merchant lowered deliberately.
    "sroie": ["total": 40, "date": 41, "merchant": 42],
    "softmatic_de": ["total": 13, "date": 13, "merchant": 14],
  ]

  func testCorrectFieldsPerDataset() throws {
    guard FileManager.default.fileExists(atPath: Self.data.path) else {
      throw XCTSkip("../shared/data/receipts is absent (a clone outside the workplace)")
    }
    let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("presets/receipts.json")
    let config = try PipelineConfig.load(from: preset, context: StageContext(jobs: 2))
    for dataset in Self.minimums.keys.sorted() {
      let folder = Self.data.appendingPathComponent(dataset)
      let inputs = try InputScanner().scan([folder]).inputs
      let records = LockedRecords()
      _ = try Runner(config: config, jobs: 2, outputDirectory: nil).run(inputs, sink: { records.append($0) })
      var correct: [String: Int] = [:]
      for record in records.all {
        let stem = (record.file as NSString).deletingPathExtension
        let truth =
          try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent(stem + ".json"))) as? [String: Any] ?? [:]
        let receipt = record.receipt
        if let total = truth["total"] as? String, let got = receipt?.total,
          Money.parse(total) == got
        {
          correct["total", default: 0] += 1
        }
        if let date = truth["date"] as? String, date == receipt?.date { correct["date", default: 0] += 1 }
        if let merchant = truth["merchant"] as? String, let got = receipt?.merchant,
          Self.merchantMatches(merchant, got)
        {
          correct["merchant", default: 0] += 1
        }
      }
      print("receipts \(dataset) of \(inputs.count): \(correct.sorted { $0.key < $1.key })")
      for (field, minimum) in Self.minimums[dataset]! {
        XCTAssertGreaterThanOrEqual(correct[field] ?? 0, minimum, "\(dataset) \(field)")
      }
    }
  }

  /// The dataset README's rule: letters and digits, case-insensitive, similarity ≥ 0.8; a
  /// one-word label also matches any predicted word that close.
  static func merchantMatches(_ expected: String, _ predicted: String) -> Bool {
    let e = IssuerText.tokens(expected), p = IssuerText.tokens(predicted)
    if similarity(e.joined(), p.joined()) >= 0.8 { return true }
    return e.count == 1 && p.contains { similarity(e[0], $0) >= 0.8 }
  }

  /// 2 × matching characters / total characters, matches counted as in an edit alignment.
  static func similarity(_ a: String, _ b: String) -> Double {
    guard !a.isEmpty || !b.isEmpty else { return 1 }
    let distance = EditDistance.levenshtein(a, b)
    let matches = max(0, max(a.count, b.count) - distance)
    return 2 * Double(matches) / Double(a.count + b.count)
  }
}

/// Records collected from the runner's sink queue.
final class LockedRecords: @unchecked Sendable {
  // The lock guards `records`; the runner calls the sink from one serial queue anyway.
  private let lock = NSLock()
  private var records: [Record] = []
  func append(_ record: Record) { lock.withLock { records.append(record) } }
  var all: [Record] { lock.withLock { records } }
}
