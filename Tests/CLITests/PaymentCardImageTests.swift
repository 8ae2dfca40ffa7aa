import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// Issue #22, "private by construction": Snapsort's own OCR, run over every image a run wrote for
/// a payment card, finds no card number and no holder's name in it.
final class PaymentCardImageTests: XCTestCase {
  /// The payment cards of `samples/` (photos) and of the OCR fixtures (flat renders), with the
  /// number `scripts/render_samples.py` printed on each.
  static let cards: [(path: String, number: String)] = [
    ("samples/cards/card-05-rotated-90.jpg", "4111111111111111"),
    ("samples/cards/card-11-small-card.jpg", "2223003122003222"),
    ("samples/cards/card-17-wood.jpg", "378282246310005"),
    ("Tests/Fixtures/ocr/visa-demo.png", "4111111111111111"),
    ("Tests/Fixtures/ocr/mastercard-demo.png", "2223003122003222"),
    ("Tests/Fixtures/ocr/amex-demo.png", "378282246310005"),
  ]
  /// The surnames `render_samples.py` prints as the holder's (`HOLDERS`).
  static let holders = ["KOWALSKA", "MÜLLER", "MULLER", "LINDQVIST", "CARTER", "DUBOIS", "ROSSI"]

  func testSnapsortReadsNoCardNumberInTheImagesItWroteOfPaymentCards() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in"), out = directory.appendingPathComponent("out")
    var numbers: [String: String] = [:]
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for card in Self.cards {
      let source = CLI.root.appendingPathComponent(card.path)
      try FileManager.default.copyItem(at: source, to: input.appendingPathComponent(source.lastPathComponent))
      numbers[source.lastPathComponent] = card.number
    }
    let result = try CLI.run(["run", input.path, "--out", out.path, "--quiet", "-j", "1"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let crops = try Self.paymentCardCrops(in: out)
    XCTAssertEqual(Set(crops.keys), Set(numbers.keys), "every payment card was recognised as one")

    let engine = try TesseractEngine(languages: "eng")
    var found: [String] = []
    for (file, crop) in crops.sorted(by: { $0.key < $1.key }) {
      for reading in try Self.readings(of: out.appendingPathComponent(crop), with: engine) {
        let digits = reading.joined().filter { $0.isASCII && $0.isNumber }
        if PaymentCardNumber.find(in: reading) != nil || digits.contains(numbers[file]!) {
          found.append("\(file): its card number in \(crop) (\(reading.joined(separator: " | ")))")
        }
        if let holder = Self.holders.first(where: { reading.joined().uppercased().contains($0) }) {
          found.append("\(file): its holder \(holder) in \(crop)")
        }
      }
    }
    XCTAssertEqual(found, [], "readings of the crops of \(crops.count) payment cards")
    try Self.assertNoOtherImages(in: out, besides: Set(crops.values))
  }

  /// `--keep-card-numbers` is the explicit way out: the crop is written as cut, and the same
  /// reading finds its number.
  func testKeepCardNumbersLeavesThemReadable() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("visa-demo.png"),
      out = directory.appendingPathComponent("out")
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent("Tests/Fixtures/ocr/visa-demo.png"), to: input)
    let result = try CLI.run([
      "run", input.path, "--out", out.path, "--quiet", "-j", "1", "--keep-card-numbers",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let crop = try XCTUnwrap(try Self.paymentCardCrops(in: out)["visa-demo.png"])
    let readings = try Self.readings(
      of: out.appendingPathComponent(crop), with: try TesseractEngine(languages: "eng"))
    XCTAssertTrue(readings.contains { PaymentCardNumber.find(in: $0) != nil }, "\(readings)")
  }

  /// The crop of every record with `card.payment`, by file.
  static func paymentCardCrops(in out: URL) throws -> [String: String] {
    let text = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    var crops: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard let card = record["card"] as? [String: Any], card["payment"] is [String: Any] else { continue }
      crops[try XCTUnwrap(record["file"] as? String)] = try XCTUnwrap(card["crop"] as? String)
    }
    return crops
  }

  /// What tesseract reads in the image several ways (the grey image and the OCR stage's
  /// flattened one, each at its size and at the OCR stage's 448 px page height, as sparse text
  /// and as one block): each reading's lines, then its words joined as `OCRStage` searches them.
  static func readings(of url: URL, with engine: TesseractEngine) throws -> [[String]] {
    let data = try Data(contentsOf: url)
    let format = try XCTUnwrap(ImageFormat(signature: data.prefix(16)))
    let image = try data.withUnsafeBytes { try LoadStage.decoder(for: format).decode($0, reduction: 1) }
    let grey = image.grayscale()
    var readings: [[String]] = []
    for page in [grey, TextContrast.flattened(grey)] {
      let small = page.resized(width: page.width * 448 / page.height, height: 448)
      for scaled in [page, small] {
        for segmentation in [TesseractEngine.PageSegmentation.sparseText, .singleBlock] {
          let result = engine.recognize(scaled, segmentation: segmentation, deadline: 20_000)
          readings.append(result.lines.map(\.text) + [result.words.map(\.text).joined(separator: " ")])
        }
      }
    }
    return readings
  }

  /// The crops are the only images in the output, and the report embeds none.
  static func assertNoOtherImages(in out: URL, besides crops: Set<String>) throws {
    let enumerator = try XCTUnwrap(FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil))
    for case let file as URL in enumerator where !file.hasDirectoryPath {
      let head = try FileHandle(forReadingFrom: file).read(upToCount: 16) ?? Data()
      guard ImageFormat(signature: head) != nil else { continue }
      let relative = String(file.standardizedFileURL.path.dropFirst(out.standardizedFileURL.path.count + 1))
      XCTAssertTrue(crops.contains(relative), "\(relative) is an image no check read")
    }
    let report = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
    XCTAssertFalse(report.contains("data:image"), "the report embeds an image")
  }
}
