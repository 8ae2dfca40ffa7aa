import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerTrainerTests: XCTestCase {
  /// A slice of the real catalog keeps debug-build training quick.
  static let catalog = IssuerCatalog(issuers: Array(try! IssuerCatalog.bundled().issuers.prefix(60)))

  func testLearnsFromSyntheticCardsAndRejectsHeldOutIssuers() {
    let heldOut = Set(
      Self.catalog.issuers.map(\.id).enumerated().filter { $0.offset % 10 == 3 }.map(\.element))
    let trainCatalog = Self.catalog.removing(heldOut)
    let synthetic = SyntheticCards()
    let train = synthetic.dataset(catalog: trainCatalog, perIssuer: 4, unknown: 30, seed: 11)
    var trainer = IssuerTrainer()
    trainer.iterations = 120
    let model = trainer.train(train, catalog: trainCatalog, workers: 2)

    let test = synthetic.dataset(catalog: Self.catalog, perIssuer: 2, unknown: 20, seed: 12)
    let evaluation = IssuerEvaluation.run(IssuerClassifier(model: model, catalog: trainCatalog), on: test)
    XCTAssertEqual(evaluation.known, trainCatalog.issuers.count * 2)
    XCTAssertEqual(evaluation.unknown, heldOut.count * 2 + 20)
    XCTAssertGreaterThan(evaluation.top1Accuracy, 0.8)
    print(evaluation.render(title: "synthetic cards, trained in the test"))
    // Measured 84.3 % top-1, 93.5 % top-3, 93.8 % unknown recall.
    XCTAssertGreaterThan(evaluation.top3Accuracy, 0.9)
    XCTAssertGreaterThan(evaluation.unknownRecall, 0.75)
    // Text agreement must carry positive weight after training.
    XCTAssertGreaterThan(model.weights[0] + model.weights[1] + model.weights[2], 0)
  }

  func testTrainingIsDeterministic() {
    let cards = SyntheticCards().dataset(
      catalog: IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(15))), perIssuer: 3, unknown: 5,
      seed: 3)
    var trainer = IssuerTrainer()
    trainer.iterations = 30
    let catalog = IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(15)))
    XCTAssertEqual(
      trainer.train(cards, catalog: catalog, workers: 2), trainer.train(cards, catalog: catalog, workers: 1))
  }

  func testModelIsFittedOnEveryCardWhateverTheCalibrationFolds() {
    let catalog = IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(15)))
    let cards = SyntheticCards().dataset(catalog: catalog, perIssuer: 3, unknown: 5, seed: 4)
    var crossFitted = IssuerTrainer()
    crossFitted.iterations = 30
    var inSample = crossFitted
    inSample.calibrationFolds = 1
    let model = crossFitted.train(cards, catalog: catalog, workers: 2)
    let reference = inSample.train(cards, catalog: catalog, workers: 2)
    // The folds only answer the calibration cards; the model itself sees all of them.
    XCTAssertEqual(model.weights, reference.weights)
    XCTAssertEqual(model.nullWeights, reference.nullWeights)
    XCTAssertEqual(
      model.training["examples"],
      "\(cards.count * 2 - 5) fitted, \(cards.count * 2 - 5) out-of-fold answers for calibration")
  }

  func testCalibrationFoldsHoldWholeIssuersDealtEvenly() {
    let ids = (0..<23).map { "issuer-\($0)" }
    // Every issuer has several cards: each is in exactly one fold, with all its cards.
    let folds = IssuerTrainer.issuerFolds(ids + ids.reversed() + ids, folds: 5)
    XCTAssertEqual(Set(folds.keys), Set(ids))
    let sizes = Dictionary(grouping: folds.values, by: { $0 }).mapValues(\.count)
    XCTAssertEqual(sizes.keys.sorted(), [0, 1, 2, 3, 4])
    XCTAssertEqual(sizes.values.sorted(), [4, 4, 5, 5, 5])
    XCTAssertEqual(IssuerTrainer.issuerFolds(ids.shuffled(), folds: 5), folds)
  }

  func testIssuersLeftOutOfTrainingAndCatalogComeBackUnknown() {
    // A user's folder: three cards of each of 24 issuers; 6 more issuers have cards but are in
    // neither the training cards nor the catalog. The threshold is set on the training cards
    // alone and must turn the left-out issuers' cards into "unknown".
    let catalog = IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(30)))
    let leftOut = Set(catalog.issuers.map(\.id).enumerated().filter { $0.offset % 5 == 2 }.map(\.element))
    let known = catalog.removing(leftOut)
    var trainer = IssuerTrainer()
    trainer.iterations = 120
    let model = trainer.train(
      SyntheticCards().dataset(catalog: known, perIssuer: 3, unknown: 0, seed: 21), catalog: known, workers: 2
    )
    XCTAssertEqual(model.training["calibration"], "5 folds of whole issuers, unknown recall target 0.93")
    XCTAssertGreaterThanOrEqual(Double(model.training["calibration_unknown_recall"] ?? "") ?? 0, 0.93)

    let test = SyntheticCards().dataset(catalog: catalog, perIssuer: 4, unknown: 0, seed: 22)
    let classifier = IssuerClassifier(model: model, catalog: known)
    let leftOutCards = test.filter { leftOut.contains($0.label ?? "") }
    let evaluation = IssuerEvaluation.run(classifier, on: leftOutCards)
    XCTAssertEqual(evaluation.unknown, leftOut.count * 4)
    print(evaluation.render(title: "issuers left out of training and catalog"))
    // Measured 24/24 unknown, known top-1 72.9 %.
    XCTAssertGreaterThanOrEqual(evaluation.unknownRecall, 0.9)
    let knownCards = IssuerEvaluation.run(classifier, on: test.filter { !leftOut.contains($0.label ?? "") })
    XCTAssertGreaterThan(knownCards.top1Accuracy, 0.65)
    // The calibrated threshold, not the "none" alternative alone, turns them unknown.
    var unthresholded = model
    unthresholded.threshold = 0
    let withoutThreshold = IssuerEvaluation.run(
      IssuerClassifier(model: unthresholded, catalog: known), on: leftOutCards)
    print("left-out issuers without the threshold: unknown recall \(withoutThreshold.unknownRecall)")
    XCTAssertLessThan(withoutThreshold.unknownRecall, evaluation.unknownRecall)
  }

  func testLabelledIssuersAreThoseOfThePhotosNotOfSimulatedCards() {
    let catalog = IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(8)))
    // "Photos" of the first three issuers (2, 1 and 2 cards), simulated cards of all eight.
    let photos = SyntheticCards().dataset(catalog: catalog, perIssuer: 2, unknown: 0, seed: 7)
      .filter {
        [catalog.issuers[0].id, catalog.issuers[1].id, catalog.issuers[2].id].contains($0.label ?? "")
      }
      .enumerated().filter { $0.offset != 2 }
      .map {
        LabelledCard(evidence: $0.element.evidence, label: $0.element.label, source: "photo-\($0.offset)")
      }
    XCTAssertEqual(photos.count, 5)
    let simulated = SyntheticCards().dataset(catalog: catalog, perIssuer: 1, unknown: 2, seed: 8)
    var trainer = IssuerTrainer()
    trainer.iterations = 20
    let model = trainer.train(photos + simulated, catalog: catalog, workers: 2)
    XCTAssertEqual(model.labelledIssuers, catalog.issuers.prefix(3).map(\.id))
    let classifier = IssuerClassifier(model: model, catalog: catalog)
    let rows = IssuerFeatures.rows(photos[0].evidence, classifier.prepared, labelled: [true, false])
    let flag = IssuerFeatures.names.firstIndex(of: "labelled")!
    XCTAssertEqual(rows.map { $0[flag] }, [1, 0, 0, 0, 0, 0, 0, 0])
  }

  func testAModelWithoutTheLabelledFeatureReadsWithWeightZeroOnIt() throws {
    let model = IssuerModel(
      weights: (0..<IssuerFeatures.count).map(Double.init), nullWeights: [1, 2, 3, 4, 5], threshold: 0.3,
      labelledIssuers: ["x"])
    var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(model)) as! [String: Any]
    json["features"] = Array(IssuerFeatures.names.dropLast())
    json["weights"] = Array(model.weights.dropLast())
    json.removeValue(forKey: "labelled_issuers")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("issuer-model-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try JSONSerialization.data(withJSONObject: json).write(to: url)
    let loaded = try IssuerModel.load(from: url)
    XCTAssertEqual(loaded.features, IssuerFeatures.names)
    XCTAssertEqual(loaded.weights, Array(model.weights.dropLast()) + [0])
    XCTAssertEqual(loaded.labelledIssuers, [])
  }

  func testThresholdReachesTheUnknownRecallTargetAndNoFurther() {
    let unknown = (1...100).map { IssuerTrainer.Outcome(isKnown: false, correct: false, p: Double($0) / 100) }
    let known = (0..<50).map { _ in IssuerTrainer.Outcome(isKnown: true, correct: true, p: 0.99) }
    // 93 of the 100 unknown answers have p < 0.94; 0.93 would pass only 92.
    XCTAssertEqual(IssuerTrainer.threshold(unknown + known, targetUnknownRecall: 0.93), 0.94)
    XCTAssertEqual(IssuerTrainer.threshold(unknown + known, targetUnknownRecall: 0.5), 0.51)
  }

  func testGradientMatchesFiniteDifferences() {
    let catalog = IssuerCatalog(issuers: Array(Self.catalog.issuers.prefix(5)))
    let card = SyntheticCards().dataset(catalog: catalog, perIssuer: 1, unknown: 0, seed: 5)[2]
    let rows = IssuerTrainer.pairRows([card], prepared: catalog.issuers.map(PreparedIssuer.init), workers: 1)
    let example = IssuerTrainer.example(card.evidence, pairRows: rows[0], label: 2, excluded: nil, weight: 1)
    let size = IssuerFeatures.count + IssuerFeatures.nullNames.count
    let params = (0..<size).map { Double($0 % 5) * 0.3 - 0.5 }
    var grad = [Double](repeating: 0, count: size)
    IssuerTrainer.accumulate(example, params: params, candidates: 5, into: &grad)
    func loss(_ p: [Double]) -> Double {
      let f = IssuerFeatures.count
      let u = (0..<5).map { j in dot(Array(p[0..<f]), Array(example.features[(j * f)..<((j + 1) * f)])) }
      let un = dot(Array(p[f...]), example.nullFeatures)
      return -(u[2] - log(u.reduce(exp(un)) { $0 + exp($1) }))
    }
    for k in 0..<size {
      var plus = params
      var minus = params
      plus[k] += 1e-5
      minus[k] -= 1e-5
      XCTAssertEqual(grad[k], (loss(plus) - loss(minus)) / 2e-5, accuracy: 1e-5, "parameter \(k)")
    }
  }

  func testCalibrationSeparatesConfidentFromWeakWinners() {
    // Two candidates, one feature carries all: known examples have a strong match, unknown
    // ones (label nil) have none.
    let f = IssuerFeatures.count
    func example(strength: Double, label: Int?) -> IssuerTrainer.Example {
      var features = [Double](repeating: 0, count: 2 * f)
      features[0] = strength
      return IssuerTrainer.Example(
        features: features, nullFeatures: [1, 1, 0, 1, strength], label: label, excluded: nil, weight: 1)
    }
    let examples =
      (0..<20).map { _ in example(strength: 1, label: 0) }
      + (0..<20).map { _ in example(strength: 0, label: nil) }
    var weights = [Double](repeating: 0, count: f)
    weights[0] = 6
    let t = IssuerTrainer.threshold(
      IssuerTrainer.outcomes(examples, weights: weights, nullWeights: [0, 0, 0, 0, 0], candidates: 2))
    // p(strong) = e^6 / (e^6 + 2) ≈ 0.995; p(weak) = 1/3.
    XCTAssertGreaterThan(t, 1.0 / 3)
    XCTAssertLessThanOrEqual(t, 0.995)
  }
}
