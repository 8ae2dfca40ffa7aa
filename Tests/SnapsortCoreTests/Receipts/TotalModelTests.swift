import Foundation
import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// The total model over a page's amounts: the candidates and their features, when the model
/// overrides the rules, and the bundled file's agreement with the features this build computes.
final class TotalModelTests: XCTestCase {
  /// A page whose rules take the labelled "TOTAL 12.50" while cash minus change says 12.05.
  let page: [ReceiptLine] = [
    "CORNER SHOP", "RICE 5.00", "TEA 7.05", "TOTAL 12.50", "CASH 20.00", "CHANGE 7.95",
  ].enumerated().map { index, text in
    ReceiptLine(words: [
      TesseractEngine.Item(
        text: text, box: Box(x: 100, y: Double(index) * 60, width: 400, height: 40), confidence: 90)
    ])
  }

  /// A model that follows cash minus change by far.
  func cashModel(margin: Double) -> TotalModel {
    TotalModel(
      version: 1, features: ["cash_change", "total_label"], mean: [0, 0], scale: [1, 1], weights: [6, 1],
      margin: margin, training: [:])
  }

  func testCandidatesAreEveryAmountWithEveryFeature() {
    let evidence = ReceiptExtractor(catalog: nil, totalModel: nil).totalEvidence(page)
    XCTAssertEqual(evidence.rules, "12.50")
    XCTAssertEqual(evidence.candidates.map(\.value), ["20.00", "12.50", "12.05", "7.95", "7.05", "5.00"])
    for candidate in evidence.candidates {
      XCTAssertEqual(candidate.features.keys.sorted(), TotalCandidates.featureNames)
    }
    let byValue = Dictionary(uniqueKeysWithValues: evidence.candidates.map { ($0.value, $0) })
    XCTAssertEqual(byValue["12.50"]?.features["total_label"], 2.0 / 3)
    XCTAssertEqual(byValue["12.50"]?.features["rules"], 1)
    XCTAssertEqual(byValue["12.50"]?.line, 3)
    XCTAssertEqual(byValue["12.05"]?.features["cash_change"], 1)
    XCTAssertEqual(byValue["12.05"]?.features["derived"], 1)
    XCTAssertEqual(byValue["12.05"]?.features["items_sum"], 1)
    XCTAssertEqual(byValue["20.00"]?.features["cash"], 1)
    XCTAssertEqual(byValue["20.00"]?.features["largest"], 1)
    XCTAssertEqual(byValue["7.95"]?.features["change"], 1)
  }

  func testAnAdjustmentRightBelowTheTotalRoundsItWhateverItsSign() {
    let extractor = ReceiptExtractor(catalog: nil, totalModel: nil)
    let rounded = ["SHOP", "TEA 23.26", "TOTAL 23.26", "ROUNDING ADJ ~0.01", "SERVER A"]
    XCTAssertEqual(extractor.extract(receiptRows(rounded)).total, Money(cents: 2325))
    let evidence = extractor.totalEvidence(receiptRows(rounded))
    let candidate = evidence.candidates.first { $0.value == "23.25" }
    XCTAssertEqual(candidate?.line, 2, "the rounded total stands on its total's row")
    XCTAssertEqual(candidate?.features["total_label"], 2.0 / 3)
    XCTAssertEqual(candidate?.features["rules"], 1)
    let paidInCash = ["SHOP", "TEA 38.37", "TOTAL 38.37", "CASH 40.35", "ROUNDING ADJ 0.02", "CHANGE 2.00"]
    XCTAssertEqual(
      extractor.extract(receiptRows(paidInCash)).total, Money(cents: 3837),
      "an adjustment among the payments rounds the cash, not the total")
    let round = ["SHOP", "TEA 26.60", "TOTAL 26.60", "ROUNDING 0.01"]
    XCTAssertEqual(extractor.extract(receiptRows(round)).total, Money(cents: 2660), "no rounder either way")
    XCTAssertEqual(
      [2_000, 2_010, 2_015, 2_016].map { ReceiptExtractor.roundness(Money(cents: $0)) }, [3, 2, 1, 0])
  }

  func testRulesAloneTakeTheLabelledTotal() {
    XCTAssertEqual(ReceiptExtractor(catalog: nil, totalModel: nil).extract(page).total, Money(cents: 1250))
  }

  func testAModelFarSurerThanTheRulesOverridesThem() {
    let receipt = ReceiptExtractor(catalog: nil, totalModel: cashModel(margin: 0.4)).extract(page)
    XCTAssertEqual(receipt.total, Money(cents: 1205))
  }

  func testAModelNotSurerByTheMarginLeavesTheRules() {
    let receipt = ReceiptExtractor(catalog: nil, totalModel: cashModel(margin: 0.999)).extract(page)
    XCTAssertEqual(receipt.total, Money(cents: 1250))
  }

  func testAnAmountNothingSupportsNeverReplacesTheRules() {
    let stray = ReceiptLine(words: [
      TesseractEngine.Item(
        text: "CODE 99.50", box: Box(x: 100, y: 400, width: 400, height: 40), confidence: 90)
    ])
    let model = TotalModel(
      version: 1, features: ["largest"], mean: [0], scale: [1], weights: [5], margin: 0, training: [:])
    let evidence = ReceiptExtractor(catalog: nil, totalModel: nil).totalEvidence(page + [stray])
    XCTAssertEqual(evidence.candidates.first?.value, "99.50")
    XCTAssertFalse(TotalModel.supports(evidence.candidates[0]))
    XCTAssertEqual(
      ReceiptExtractor(catalog: nil, totalModel: model).extract(page + [stray]).total, Money(cents: 1250))
  }

  func testNoTotalFromTheModelWhereTheRulesFoundNone() {
    let unlabelled = page.filter { !$0.text.hasPrefix("TOTAL") && !$0.text.hasPrefix("CASH") }
    let model = TotalModel(
      version: 1, features: ["largest"], mean: [0], scale: [1], weights: [5], margin: 0, training: [:])
    XCTAssertNil(ReceiptExtractor(catalog: nil, totalModel: model).extract(unlabelled).total)
  }

  func testTheBundledModelLoadsAndNamesOnlyFeaturesThisBuildComputes() throws {
    let model = try TotalModel.bundled()
    XCTAssertTrue(Set(model.features).isSubset(of: TotalCandidates.featureNames))
    XCTAssertEqual(
      [model.mean.count, model.scale.count, model.weights.count],
      Array(repeating: model.features.count, count: 3))
    XCTAssertNotNil(ReceiptExtractor.bundledTotalModel)
  }
}
