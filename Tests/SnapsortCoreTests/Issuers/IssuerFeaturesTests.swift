import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerFeaturesTests: XCTestCase {
  static let catalog = try! IssuerCatalog.bundled()

  func features(_ card: CardRecord, _ id: String) throws -> [String: Double] {
    let issuer = try XCTUnwrap(Self.catalog.issuer(id: id))
    let vector = IssuerFeatures.rows(CardEvidence(card: card), [PreparedIssuer(issuer)])[0]
    return Dictionary(uniqueKeysWithValues: zip(IssuerFeatures.names, vector))
  }

  func testOCRTextFavoursTheNamedIssuer() throws {
    var card = CardRecord()
    card.text = [
      TextLine(text: "ZABKA {3", box: [0, 0, 100, 20], confidence: 80),
      TextLine(text: "Zappka 1234", box: [0, 30, 100, 20], confidence: 70),
    ]
    let zabka = try features(card, "zabka")
    let biedronka = try features(card, "biedronka")
    XCTAssertEqual(zabka["text_exact"], 1)
    XCTAssertGreaterThan(zabka["text_best"]!, 0.99)
    XCTAssertLessThan(biedronka["text_best"]!, 0.4)
    XCTAssertEqual(biedronka["text_exact"], 0)
  }

  func testPaletteFavoursMatchingBrandColours() throws {
    var card = CardRecord()
    // IKEA blue and yellow on a white background.
    card.colors = [
      ColorShare(hex: "#0a5aa0", share: 0.5), ColorShare(hex: "#fad20a", share: 0.3),
      ColorShare(hex: "#f8f8f8", share: 0.2),
    ]
    let ikea = try features(card, "ikea")
    let biedronka = try features(card, "biedronka")
    XCTAssertGreaterThan(ikea["colour_chromatic"]!, 0.6)
    XCTAssertGreaterThan(ikea["brand_coverage"]!, 0.6)
    XCTAssertLessThan(biedronka["colour_chromatic"]!, 0.3)
    XCTAssertEqual(ikea["text_best"], 0)
  }

  func testBarcodePatternMatchesKnownLayout() throws {
    var card = CardRecord()
    card.barcodes = [BarcodeRecord(symbology: "code128", value: "634004123456789012")]
    let tesco = try features(card, "tesco")
    XCTAssertEqual(tesco["barcode_pattern"], 1)
    XCTAssertEqual(tesco["barcode_mismatch"], 0)
    card.barcodes = [BarcodeRecord(symbology: "ean13", value: "5901234123457")]
    let other = try features(card, "tesco")
    XCTAssertEqual(other["barcode_pattern"], 0)
    XCTAssertEqual(other["barcode_mismatch"], 1)
    // An issuer with no known patterns says nothing either way.
    let zabka = try features(card, "zabka")
    XCTAssertEqual(zabka["barcode_mismatch"], 0)
  }

  func testEmptyCardGivesZeroEvidence() throws {
    let vector = try features(CardRecord(), "lidl")
    XCTAssertEqual(vector.values.reduce(0, +), 0)
    XCTAssertEqual(IssuerFeatures.nullVector(CardEvidence(card: nil), rows: []), [1, 0, 0, 0, 0])
  }
}
