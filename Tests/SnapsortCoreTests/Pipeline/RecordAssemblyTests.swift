import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages

/// The record is made from the artifacts in one place: each field from one artifact, one rounding
/// rule, explicit nulls where the contract shows them.
final class RecordAssemblyTests: XCTestCase {
  private func item(kind: Kind = .card) -> PhotoItem {
    PhotoItem(
      relativePath: "a/b.jpg", url: URL(fileURLWithPath: "/nonexistent/a/b.jpg"), outputDirectory: nil,
      assumedKind: kind)
  }

  func testNoCardArtifactMeansNoCardAndExplicitNulls() throws {
    let photo = item()
    var file = ImageFile(data: Data([1, 2, 3]), sha256: "abc")
    file.notes = ["content is PNG although the extension says JPEG"]
    photo.artifacts.write(file)
    let record = photo.record
    XCTAssertNil(record.card)
    XCTAssertEqual(record.sha256, "abc")
    let json = String(decoding: try RecordCoding.encodeLine(record), as: UTF8.self)
    XCTAssertTrue(json.contains(#""card":null"#), json)
    XCTAssertTrue(json.contains(#""receipt":null"#), json)
    XCTAssertTrue(json.contains(#""image":null"#), json)
    XCTAssertFalse(json.contains(#""error""#), "absent optional fields are left out: \(json)")
    XCTAssertEqual(try RecordCoding.decode(Data(json.utf8)), record)
  }

  func testAPassIsMarkedAndACardIsNot() throws {
    let quad = [Point(10, 20), Point(400, 20), Point(400, 600), Point(10, 600)]
    let pass = item()
    pass.artifacts.write(CardGeometry(quad: quad, confidence: 0.9, reason: nil, shape: .pass))
    XCTAssertEqual(pass.record.card?.shape, .pass)
    let json = String(decoding: try RecordCoding.encodeLine(pass.record), as: UTF8.self)
    XCTAssertTrue(json.contains(#""shape":"pass""#), json)
    let card = item()
    card.artifacts.write(CardGeometry(quad: quad, confidence: 0.9, reason: nil))
    XCTAssertNil(card.record.card?.shape)
    let cardJSON = String(decoding: try RecordCoding.encodeLine(card.record), as: UTF8.self)
    XCTAssertFalse(cardJSON.contains(#""shape""#), cardJSON)
  }

  func testTheCropsCornersWinAndAreRoundedToTenths() {
    let photo = item()
    photo.artifacts.write(
      CardGeometry(
        quad: [Point(1.04, 2.06), Point(9, 2), Point(9, 8), Point(1, 8)], confidence: 0.12345, reason: nil))
    XCTAssertEqual(photo.record.card?.quad, Quad([Point(1, 2.1), Point(9, 2), Point(9, 8), Point(1, 8)]))
    XCTAssertEqual(photo.record.card?.confidence, 0.123)
    let crop = Bitmap(width: 2, height: 2, format: .gray, fill: 255)
    photo.artifacts.write(
      CardCrop(
        image: crop, quad: [Point(9, 8), Point(1, 8), Point(1.04, 2.06), Point(9, 2)], file: "cards/x.jpg"))
    let card = photo.record.card
    XCTAssertEqual(card?.quad, Quad([Point(9, 8), Point(1, 8), Point(1, 2.1), Point(9, 2)]))
    XCTAssertEqual(card?.crop, "cards/x.jpg")
    XCTAssertNil(card?.barcodes, "no barcode stage ran")
  }

  func testNotesFollowTheOrderArtifactsWereWritten() {
    let photo = item()
    photo.artifacts.write(CodeReads(barcodes: [], notes: ["no code found"]))
    photo.artifacts.write(
      CardText(
        lines: [], name: NameSuggestion(suggested: nil, alternatives: []), payment: nil,
        notes: ["ocr timed out"]))
    XCTAssertEqual(photo.record.notes, ["no code found", "ocr timed out"])
  }

  func testAKindDecisionReplacesTheAssumedKindOnlyWhenConfident() {
    let unsure = item(kind: .card)
    unsure.artifacts.write(KindDecision(classification: nil, kind: nil))
    XCTAssertEqual(unsure.record.kind, .card)
    let sure = item(kind: .card)
    sure.artifacts.write(KindDecision(classification: nil, kind: .receipt))
    XCTAssertEqual(sure.record.kind, .receipt)
  }

  func testAnErrorKeepsWhatTheArtifactsSay() {
    let photo = item()
    photo.artifacts.write(ImageFile(data: Data(), sha256: "e3b0"))
    let record = RecordAssembly.record(
      of: photo, error: RecordError(stage: "load", message: "empty file (0 bytes)"))
    XCTAssertEqual(record.status, .error)
    XCTAssertEqual(record.sha256, "e3b0")
    XCTAssertEqual(record.error?.stage, "load")
  }

  func testAReceiptPageAloneGivesItsCornersAndSkew() {
    let photo = item(kind: .receipt)
    let page = Bitmap(width: 2, height: 2, format: .gray, fill: 255)
    photo.artifacts.write(
      ReceiptPage(grey: page, quad: [Point(0, 0), Point(10.26, 0), Point(10, 20), Point(0, 20)], skew: 1.234)
      { page })
    XCTAssertEqual(
      photo.record.receipt?.quad, Quad([Point(0, 0), Point(10.3, 0), Point(10, 20), Point(0, 20)]))
    XCTAssertEqual(photo.record.receipt?.skew, 1.23)
    XCTAssertEqual(photo.record.receipt?.items, [])
  }

  func testAmountsAreWrittenAsDecimalStringsAndReadBackExactly() throws {
    var receipt = ReceiptRecord()
    receipt.total = Money(cents: 1744)
    receipt.savings = Money(cents: 5)
    receipt.items = [
      ReceiptItem(description: "Rabatt", quantity: nil, unitPrice: nil, amount: Money(cents: -50))
    ]
    var record = Record(file: "r.jpg", sha256: "abc")
    record.kind = .receipt
    record.receipt = receipt
    let json = String(decoding: try RecordCoding.encodeLine(record), as: UTF8.self)
    XCTAssertTrue(json.contains(#""total":"17.44""#), json)
    XCTAssertTrue(json.contains(#""savings":"0.05""#), json)
    XCTAssertTrue(json.contains(#""amount":"-0.50""#), json)
    XCTAssertTrue(json.contains(#""unit_price":null"#), json)
    XCTAssertTrue(json.contains(#""tax":null"#), json)
    XCTAssertEqual(try RecordCoding.decode(Data(json.utf8)), record)
    for text in ["17.4", "17,44", "1e3", "", "-", ".44", "17.44 ", "١٧.٤٤"] {
      XCTAssertNil(Money(recordString: text), text)
    }
    let bad = Data(json.replacingOccurrences(of: #""17.44""#, with: #""17,44""#).utf8)
    XCTAssertThrowsError(try RecordCoding.decode(bad))
  }
}
