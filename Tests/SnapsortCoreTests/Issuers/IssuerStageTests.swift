import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerStageTests: XCTestCase {
  func item(_ card: CardRecord?) -> PhotoItem {
    let item = PhotoItem(
      relativePath: "x.jpg", url: URL(fileURLWithPath: "/nonexistent/x.jpg"), outputDirectory: nil,
      assumedKind: .card)
    if let card {
      item.artifacts.write(
        CardText(
          lines: card.text ?? [], name: card.name ?? NameSuggestion(suggested: nil, alternatives: []),
          payment: card.payment, notes: []))
      if let colors = card.colors {
        item.artifacts.write(CardPalette(colors: colors, backgrounds: nil, headerColor: nil))
      }
      if let barcodes = card.barcodes { item.artifacts.write(CodeReads(barcodes: barcodes, notes: [])) }
    }
    return item
  }

  func testNamesTheIssuerFromTextAndColours() throws {
    let stage = try IssuerStage(options: .init(), context: StageContext())
    var card = CardRecord()
    card.text = [TextLine(text: "IKEA FAMILY", box: [10, 10, 300, 60], confidence: 88)]
    card.colors = [ColorShare(hex: "#0058a3", share: 0.6), ColorShare(hex: "#ffdb00", share: 0.4)]
    let photo = item(card)
    try stage.process(photo)
    let issuer = try XCTUnwrap(photo.record.card?.issuer)
    XCTAssertEqual(issuer.id, "ikea")
    XCTAssertEqual(issuer.name, "IKEA")
    XCTAssertLessThanOrEqual(issuer.alternatives.count, 3)
    XCTAssertFalse(issuer.alternatives.contains { $0.id == "ikea" })
    XCTAssertGreaterThan(issuer.confidence, issuer.alternatives.first?.confidence ?? 0)
  }

  /// A dropped letter is more than the ocr stage re-spells on its own; the issuer stage gives the
  /// catalog's spelling only from its confidence threshold, and keeps the reading.
  func testRespellsTheNameOnlyForAConfidentIssuer() throws {
    var card = CardRecord()
    card.text = [TextLine(text: "IKEA FAMIL", box: [10, 10, 300, 60], confidence: 88)]
    card.colors = [ColorShare(hex: "#0058a3", share: 0.6), ColorShare(hex: "#ffdb00", share: 0.4)]
    card.name = NameSuggestion(suggested: "IKEA FAMIL", alternatives: ["Card"])
    var options = IssuerStage.Options()
    options.nameSpellingConfidence = 0
    let trusting = item(card)
    try IssuerStage(options: options, context: StageContext()).process(trusting)
    XCTAssertEqual(trusting.record.card?.issuer?.id, "ikea")
    XCTAssertEqual(
      trusting.record.card?.name,
      NameSuggestion(suggested: "IKEA Family", alternatives: ["IKEA FAMIL", "Card"], catalogSpelling: true))

    options.nameSpellingConfidence = 1.01
    let doubting = item(card)
    try IssuerStage(options: options, context: StageContext()).process(doubting)
    XCTAssertEqual(doubting.record.card?.issuer?.id, "ikea")
    XCTAssertEqual(doubting.record.card?.name, card.name)
  }

  func testUnknownCardIsNotForcedOntoAnIssuer() throws {
    let stage = try IssuerStage(options: .init(), context: StageContext())
    var card = CardRecord()
    card.text = [TextLine(text: "Kaffeerösterei Brühl", box: [10, 10, 300, 60], confidence: 88)]
    card.colors = [ColorShare(hex: "#6b4e3d", share: 0.7), ColorShare(hex: "#f2ede4", share: 0.3)]
    let photo = item(card)
    try stage.process(photo)
    let issuer = try XCTUnwrap(photo.record.card?.issuer)
    XCTAssertNil(issuer.id)
    XCTAssertNil(issuer.name)
    XCTAssertEqual(issuer.alternatives.count, 3)
  }

  func testMissingFieldsDoNotFailAndOutputIsDeterministic() throws {
    let stage = try IssuerStage(options: .init(), context: StageContext())
    let first = item(CardRecord())
    try stage.process(first)
    XCTAssertNil(first.record.card?.issuer?.id)
    var card = CardRecord()
    card.text = [TextLine(text: "Tesco Clubcard", box: [0, 0, 1, 1], confidence: 90)]
    let a = item(card)
    let b = item(card)
    try stage.process(a)
    try stage.process(b)
    XCTAssertEqual(a.record, b.record)
  }

  func testValidateNamesAMissingModel() {
    var options = IssuerStage.Options()
    options.model = "/nonexistent/model.json"
    XCTAssertThrowsError(try IssuerStage.validate(options, context: StageContext())) { error in
      XCTAssertEqual((error as? ConfigError)?.path, "model")
    }
  }
}
