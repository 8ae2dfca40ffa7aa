import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerEvaluationTests: XCTestCase {
  /// The bundled model on cards whose text names a catalog issuer, one whose issuer is missing
  /// from the catalog, and one with no evidence: the JSON report must agree with the counts.
  func testReportMatchesTheEvaluation() throws {
    let full = try IssuerCatalog.bundled()
    let catalog = full.removing(["tesco"])
    let model = try IssuerModel.load(from: StageContext().resolve(IssuerModel.bundledFileName))
    let classifier = IssuerClassifier(model: model, catalog: catalog)
    let cards = [
      LabelledCard(
        evidence: CardEvidence(lines: ["Rossmann", "Bonus card", "ANNA KOWALSKA"]), label: "rossmann",
        source: "rossmann/a.jpg"),
      LabelledCard(
        evidence: CardEvidence(lines: ["Żabka", "Club member"]), label: "zabka", source: "zabka/b.png"),
      LabelledCard(evidence: CardEvidence(lines: []), label: "tesco", source: "tesco/c.jpg"),
    ]
    let evaluation = IssuerEvaluation.run(classifier, on: cards)
    XCTAssertEqual(evaluation.known, 2)
    XCTAssertEqual(evaluation.unknown, 1)

    let data = try evaluation.report(classifier: classifier, cards: cards)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(object["known"] as? Int, 2)
    XCTAssertEqual(object["unknown"] as? Int, 1)
    XCTAssertEqual(object["top1"] as? Double, evaluation.top1Accuracy)
    XCTAssertEqual(object["unknown_recall"] as? Double, evaluation.unknownRecall)
    XCTAssertEqual(object["threshold"] as? Double, model.threshold)
    let answers = try XCTUnwrap(object["cards"] as? [[String: Any]])
    XCTAssertEqual(answers.map { $0["source"] as? String }, cards.map(\.source))
    // A label missing from the catalog has no right answer but unknown: its truth is null.
    XCTAssertTrue(answers[2]["truth"] is NSNull)
    XCTAssertEqual(answers[2]["label"] as? String, "tesco")
    for (answer, card) in zip(answers, cards) {
      let match = classifier.classify(card.evidence)
      XCTAssertEqual(answer["answer"] as? String, match.id)
      XCTAssertEqual(answer["top3"] as? [String], classifier.top(3, card.evidence))
    }
    let correct = answers.filter {
      ($0["answer"] as? String) == ($0["truth"] as? String) && !($0["truth"] is NSNull)
    }
    XCTAssertEqual(correct.count, evaluation.top1Correct)
  }
}
