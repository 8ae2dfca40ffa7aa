import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The bundled model on rendered cards it was not trained on: floors that may only go up.
///
/// `Tests/Fixtures/issuers/rendered-b.jsonl` holds what `scripts/issuer_ocr_noise.py --seed 22`
/// recorded for two rendered cards per catalog issuer (tesseract `eng` text, a k-means palette)
/// and 100 cards of invented issuers in `unknown/`. The bundled model never saw these flat renders:
/// it is trained on rendered photos and screenshots run through the pipeline (Resources/ISSUERS.md),
/// so this also checks that it carries over to cards it was not shaped by. The 28 issuers of
/// `bench/issuers/held_out.txt` had no training cards at all (removed from the training catalog):
/// their cards are the one split of issuers the model never learned from.
final class IssuerModelQualityTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let fixtures = root.appendingPathComponent("Tests/Fixtures/issuers")

  /// The committed fixture (a missing one fails: it is part of the repository).
  static func heldOutRenders() throws -> [LabelledCard] {
    try LabelledPhotos.cards(fromRecords: fixtures.appendingPathComponent("rendered-b.jsonl"))
  }

  static func classifier() throws -> IssuerClassifier {
    let model = try IssuerModel.load(from: StageContext().resolve(IssuerModel.bundledFileName))
    return IssuerClassifier(model: model, catalog: try IssuerCatalog.bundled())
  }

  func testBundledModelOnHeldOutRenders() throws {
    let cards = try Self.heldOutRenders()
    let classifier = try Self.classifier()
    let evaluation = IssuerEvaluation.run(classifier, on: cards)
    print(evaluation.render(title: "rendered-b.jsonl, bundled model"))
    // The split is what the fixture claims, so the rates below have the denominators they should.
    XCTAssertEqual(evaluation.known, 2 * classifier.catalog.issuers.count, "two cards per catalog issuer")
    XCTAssertEqual(evaluation.unknown, 100, "cards of invented issuers")
    // Measured 91.1 %, 98.9 % and 100 % with the flat-render model, 90.9 %, 98.6 % and 100 % with
    // the photo-trained one that replaced it; the model retrained 2026-11-23: 90.0 % (497/552),
    // 98.6 % (544/552), 100 % (100/100), and unknown precision 66.7 % (100/150: 50 cards of
    // catalog issuers come back unknown).
    XCTAssertGreaterThanOrEqual(evaluation.top1Accuracy, 0.90)
    XCTAssertGreaterThanOrEqual(evaluation.top3Accuracy, 0.98)
    XCTAssertGreaterThanOrEqual(evaluation.unknownRecall, 0.97)
    XCTAssertGreaterThanOrEqual(evaluation.unknownPrecision, 0.66)
  }

  /// Top-1 on the cards of issuers the bundled model had no training card for: what it knows of
  /// them comes from the catalog alone (names, colours, barcode patterns).
  func testBundledModelOnIssuersWithoutTrainingCards() throws {
    let list = try String(
      contentsOf: Self.root.appendingPathComponent("bench/issuers/held_out.txt"), encoding: .utf8)
    let heldOut = Set(
      list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty && !$0.hasPrefix("#")
      })
    XCTAssertEqual(heldOut.count, 28)
    let cards = try Self.heldOutRenders().filter { $0.label.map(heldOut.contains) ?? false }
    XCTAssertEqual(cards.count, 2 * heldOut.count)
    let evaluation = IssuerEvaluation.run(try Self.classifier(), on: cards)
    print(evaluation.render(title: "rendered-b.jsonl, issuers without training cards"))
    XCTAssertEqual(evaluation.known, cards.count, "every held-out issuer is in the bundled catalog")
    // Measured 91.1 % (51/56) top-1 and 98.2 % (55/56) top-3 with the model retrained 2026-11-23.
    XCTAssertGreaterThanOrEqual(evaluation.top1Accuracy, 0.89)
    XCTAssertGreaterThanOrEqual(evaluation.top3Accuracy, 0.98)
  }
}
