import Foundation
import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// The merchant model over a header's candidates: when it overrides the rules, and the bundled
/// file's agreement with the features this build computes.
final class MerchantModelTests: XCTestCase {
  /// A header whose rules' answer is its first name-like row, "GOLDEN DRAGON", over a taller
  /// "BEST FOOD" above the address.
  let header: [ReceiptLine] = [
    ("GOLDEN DRAGON", 40.0), ("BEST FOOD", 120.0), ("12 JALAN MERDEKA", 40.0), ("TEL 03-1234567", 40.0),
    ("RICE 5.00", 40.0),
  ].enumerated().map { index, row in
    ReceiptLine(words: [
      TesseractEngine.Item(
        text: row.0, box: Box(x: 100, y: Double(index) * 150, width: 400, height: row.1), confidence: 90)
    ])
  }

  /// A model that prefers the tallest single row by far.
  func tallestRowModel(margin: Double) -> MerchantModel {
    MerchantModel(
      version: 1, features: ["tallest", "joined"], mean: [0, 0], scale: [1, 1], weights: [5, -5],
      margin: margin, training: [:])
  }

  func testRulesAloneTakeTheFirstNameLikeRow() {
    let receipt = ReceiptExtractor(catalog: nil, merchantModel: nil).extract(header)
    XCTAssertEqual(receipt.merchant, "GOLDEN DRAGON")
  }

  func testAModelFarSurerThanTheRulesOverridesThem() {
    let receipt = ReceiptExtractor(catalog: nil, merchantModel: tallestRowModel(margin: 0.4)).extract(header)
    XCTAssertEqual(receipt.merchant, "BEST FOOD")
    XCTAssertEqual(receipt.fields?["merchant"]?.line, 1)
  }

  func testAModelNotSurerByTheMarginLeavesTheRules() {
    let receipt = ReceiptExtractor(catalog: nil, merchantModel: tallestRowModel(margin: 0.99)).extract(header)
    XCTAssertEqual(receipt.merchant, "GOLDEN DRAGON")
  }

  func testTheRulesCandidateIsNeverOverriddenByItself() {
    let model = MerchantModel(
      version: 1, features: ["first_row", "joined"], mean: [0, 0], scale: [1, 1], weights: [5, -5], margin: 0,
      training: [:])
    XCTAssertEqual(
      ReceiptExtractor(catalog: nil, merchantModel: model).extract(header).merchant, "GOLDEN DRAGON")
  }

  func testCandidatesAreTheHeaderRowsAndPairsWithEveryFeature() {
    let candidates = MerchantCandidates(catalog: nil).candidates(ReceiptExtractor.candidateRows(header))
    XCTAssertEqual(
      candidates.map(\.value),
      [
        "GOLDEN DRAGON", "GOLDEN DRAGON BEST FOOD", "BEST FOOD", "BEST FOOD 12 JALAN MERDEKA",
        "12 JALAN MERDEKA",
        "12 JALAN MERDEKA TEL 03-1234567", "TEL 03-1234567", "TEL 03-1234567 RICE 5.00",
      ])
    for candidate in candidates {
      XCTAssertEqual(candidate.features.keys.sorted(), MerchantCandidates.featureNames)
    }
    XCTAssertEqual(candidates[2].features["tallest"], 1)
    XCTAssertEqual(candidates[2].features["above_address"], 1)
    XCTAssertEqual(candidates[4].features["address"], 1)
  }

  /// Rows of equal size, one under another, as OCR read them.
  func rows(_ texts: [String]) -> [MerchantCandidates.Row] {
    texts.enumerated().map { index, text in
      MerchantCandidates.Row(
        text: text, box: Box(x: 100, y: Double(index) * 60, width: 400, height: 40), confidence: 90)
    }
  }

  func testANameBrokenOverTwoRowsIsMarkedSplitAndItsFirstHalfIncomplete() {
    let candidates = MerchantCandidates(catalog: nil).candidates(
      rows(["HOME MASTER HARDWARE &", "ELECTRICAL", "SH POWER HARDWARE", "TRADING", "12 JALAN MERDEKA"]))
    let byValue = Dictionary(
      candidates.map { ($0.value, $0.features) }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(byValue["HOME MASTER HARDWARE &"]?["incomplete"], 1)
    XCTAssertEqual(byValue["HOME MASTER HARDWARE & ELECTRICAL"]?["split_name"], 1)
    XCTAssertEqual(byValue["SH POWER HARDWARE"]?["incomplete"], 1)
    XCTAssertEqual(byValue["SH POWER HARDWARE TRADING"]?["split_name"], 1)
    XCTAssertEqual(byValue["ELECTRICAL"]?["incomplete"], 0)
    XCTAssertEqual(byValue["ELECTRICAL SH POWER HARDWARE"]?["split_name"], 0)
    XCTAssertEqual(byValue["TRADING"]?["form_only"], 1)
    XCTAssertEqual(byValue["SH POWER HARDWARE"]?["form_only"], 0)
  }

  func testAnAreaLineWithoutANumberIsAPlaceNotAnAddress() {
    let candidates = MerchantCandidates(catalog: nil).candidates(
      rows(["GOLDEN DRAGON", "TAMAN SRI BINTANG"]))
    let area = candidates.first { $0.value == "TAMAN SRI BINTANG" }
    XCTAssertEqual(area?.features["place"], 1)
    XCTAssertEqual(area?.features["address"], 0)
    XCTAssertEqual(candidates.first?.features["place"], 0)
    XCTAssertTrue(MerchantCandidates.formOnly(MerchantCandidates.fold("(M) SDN. BHD.")))
    XCTAssertFalse(MerchantCandidates.formOnly(MerchantCandidates.fold("(481500-M)")))
  }

  func testACatalogBrandTheRulesReadStands() throws {
    let catalog = try IssuerCatalog.bundled()
    let rows = ["ALDI Nord", "Tallest Slogan Here", "12 Jalan Merdeka"].enumerated().map { index, text in
      ReceiptLine(words: [
        TesseractEngine.Item(
          text: text, box: Box(x: 100, y: Double(index) * 150, width: 400, height: index == 1 ? 120 : 40),
          confidence: 90)
      ])
    }
    let candidates = MerchantCandidates(catalog: catalog)
    XCTAssertTrue(candidates.namesBrand("ALDI Nord"))
    XCTAssertEqual(candidates.candidates(ReceiptExtractor.candidateRows(rows)).first?.features["brand"], 1)
    let receipt = ReceiptExtractor(catalog: catalog, merchantModel: tallestRowModel(margin: 0)).extract(rows)
    XCTAssertEqual(receipt.merchant, "ALDI Nord")
  }

  /// A brand spelt in a row OCR read at 15 % (junk over a wide scanned page) names no merchant;
  /// read at 90 %, the same row does.
  func testABrandInARowReadBelowTheMinimumConfidenceIsNoMerchant() throws {
    let catalog = try IssuerCatalog.bundled()
    func rows(brandConfidence: Double) -> [ReceiptLine] {
      [("ALDI Nord", brandConfidence), ("GOLDEN DRAGON SDN BHD", 90), ("12 Jalan Merdeka", 90)].enumerated()
        .map { index, row in
          ReceiptLine(words: [
            TesseractEngine.Item(
              text: row.0, box: Box(x: 100, y: Double(index) * 150, width: 400, height: 40), confidence: row.1
            )
          ])
        }
    }
    let extractor = ReceiptExtractor(catalog: catalog, merchantModel: nil)
    XCTAssertLessThan(15, ReceiptExtractor.brandMinimumConfidence)
    XCTAssertEqual(extractor.extract(rows(brandConfidence: 90)).merchant, "ALDI Nord")
    XCTAssertEqual(extractor.extract(rows(brandConfidence: 15)).merchant, "GOLDEN DRAGON SDN BHD")
  }

  func testNoNameFromTheModelWhereTheRulesFoundNone() {
    let unnamed = Array(header.dropFirst(2))
    let model = MerchantModel(
      version: 1, features: ["address"], mean: [0], scale: [1], weights: [5], margin: 0, training: [:])
    XCTAssertNil(ReceiptExtractor(catalog: nil, merchantModel: model).extract(unnamed).merchant)
  }

  func testTheBundledModelLoadsAndNamesOnlyFeaturesThisBuildComputes() throws {
    let model = try MerchantModel.bundled()
    XCTAssertEqual(model.features.sorted(), MerchantCandidates.featureNames)
    XCTAssertEqual(
      [model.mean.count, model.scale.count, model.weights.count],
      Array(repeating: model.features.count, count: 3))
    XCTAssertTrue(model.scale.allSatisfy { $0 > 0 })
    XCTAssertNotNil(ReceiptExtractor.bundledMerchantModel)
  }

  func words(_ odds: [String: Double]) -> MerchantWords {
    MerchantWords(version: 1, words: odds, nullProbability: 0.15, nullWordOdds: -0.4, training: [:])
  }

  func testWordOddsAreTheMeanOverWordsOfTwoLettersOrMoreUnknownOnesZero() {
    let table = words(["jalan": -3, "sdn": 2])
    XCTAssertEqual(table.odds("12 Jalan SDN x"), -0.5, accuracy: 1e-9)
    XCTAssertEqual(table.odds("Jalan Golden"), -1.5, accuracy: 1e-9)
    XCTAssertEqual(table.odds("12 / x"), 0)
    XCTAssertEqual(MerchantWords.words("No.12, Jalan ÄB-3"), ["no", "jalan", "äb"])
  }

  func testARulesPickTheModelFindsImprobableAndWhoseWordsAreBodyTextReadsAsBody() {
    let candidates = MerchantCandidates(catalog: nil, words: nil).candidates(
      ReceiptExtractor.candidateRows(header))
    let model = tallestRowModel(margin: 0.99)
    XCTAssertTrue(
      model.readsAsBody("GOLDEN DRAGON", among: candidates, words: words(["golden": -2, "dragon": -1])))
    // Name-like words, a probable pick or a name no candidate gives: not body text.
    XCTAssertFalse(model.readsAsBody("GOLDEN DRAGON", among: candidates, words: words(["golden": 1])))
    XCTAssertFalse(model.readsAsBody("BEST FOOD", among: candidates, words: words(["best": -2, "food": -2])))
    XCTAssertFalse(model.readsAsBody("NOT IN THE HEADER", among: candidates, words: words(["header": -5])))
  }

  func testTheWordOddsFeatureIsTheTablesOddsOfTheCandidate() {
    let candidates = MerchantCandidates(catalog: nil, words: words(["golden": -2]))
      .candidates(ReceiptExtractor.candidateRows(header))
    XCTAssertEqual(candidates.first { $0.value == "GOLDEN DRAGON" }?.features["word_odds"], -1)
    XCTAssertEqual(candidates.first { $0.value == "BEST FOOD" }?.features["word_odds"], 0)
  }

  func testTheBundledWordsLoadWithAGateOfAProbabilityAndNegativeOdds() throws {
    let table = try MerchantWords.bundled()
    XCTAssertFalse(table.words.isEmpty)
    XCTAssertTrue((0...1).contains(table.nullProbability))
    XCTAssertLessThanOrEqual(table.nullWordOdds, 0)
    XCTAssertNotNil(MerchantCandidates.bundledWords)
  }

  func testANameIsKnownByItsLettersInAnyScriptWithoutCaseOrAccents() {
    XCTAssertEqual(MerchantCandidates.nameKey("Café Lumière!"), MerchantCandidates.nameKey("CAFE LUMIERE"))
    XCTAssertEqual(MerchantCandidates.nameKey("Золотой дракон"), MerchantCandidates.nameKey("ЗОЛОТОЙ ДРАКОН"))
    // Two Cyrillic names are two names, not two empty folds.
    XCTAssertNotEqual(
      MerchantCandidates.nameKey("ЗОЛОТОЙ ДРАКОН"), MerchantCandidates.nameKey("ДОБРО ПОЖАЛОВАТЬ"))
  }

  func testAGreetingInAnyScriptIsNoNameLikeRowAboveTheName() {
    for greeting in ["WELCOME", "ДОБРО ПОЖАЛОВАТЬ", "BIENVENUE À"] {
      let candidates = MerchantCandidates(catalog: nil).candidates(
        rows([greeting, "ЗОЛОТОЙ ДРАКОН", "12 JALAN MERDEKA"]))
      XCTAssertEqual(
        candidates.first { $0.value == "ЗОЛОТОЙ ДРАКОН" }?.features["name_rank"], 0, greeting)
      XCTAssertEqual(candidates.first { $0.value == greeting }?.features["not_name"], 1, greeting)
    }
  }

  func testALogosOneWordGivesWayToTheNearRowPrintingTheNameWhole() {
    let candidates = MerchantCandidates(catalog: nil).candidates(
      rows(["PHARMACY", "WELCOME", "Blue Door Pharmacy", "12 Pharmacy Road", "TEL 03-1234567"]))
    XCTAssertEqual(
      MerchantCandidates.fullName(of: "PHARMACY", line: 0, among: candidates, rows: 5)?.value,
      "Blue Door Pharmacy")
    // Beyond the rows allowed, a name of two words, a word of two letters: no other row.
    XCTAssertNil(MerchantCandidates.fullName(of: "PHARMACY", line: 0, among: candidates, rows: 1))
    XCTAssertNil(MerchantCandidates.fullName(of: "Blue Door", line: 2, among: candidates, rows: 5))
    XCTAssertNil(MerchantCandidates.fullName(of: "BD", line: 0, among: candidates, rows: 5))
  }
}
