import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// What is painted over on a payment card's crop (issue #22, "private by construction"): from
/// OCR lines built in code, and on the rendered fixtures read by the OCR stage and read again.
final class PaymentCardRedactionTests: XCTestCase {
  func line(_ text: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> TextLine {
    TextLine(text: text, box: Box(x: x, y: y, width: width, height: height), confidence: 90)
  }

  /// The lines `ocr` wrote for `visa-demo.png` (numbers masked, the last group kept).
  var visaLines: [TextLine] {
    [
      line("Nordbank", 62, 60, 350, 52), line("••••", 82, 372, 130, 40), line("••••", 285, 372, 130, 40),
      line("•••• 1111", 487, 372, 333, 40), line("VALID THRU 09/29", 81, 455, 238, 21),
      line("MARIE DUBOIS", 81, 527, 248, 27), line("VISA", 761, 529, 114, 33),
    ]
  }

  func text(_ lines: [TextLine], payment: PaymentInfo? = nil, name: String? = nil) -> CardText {
    CardText(
      lines: lines, name: NameSuggestion(suggested: name, alternatives: []), payment: payment, notes: [])
  }

  func testPaintsTheNumberRowExpiryAndHolderButNotTheBankOrNetwork() throws {
    let plan = try XCTUnwrap(
      PaymentCardRedaction.plan(
        text: text(visaLines, payment: PaymentInfo(network: "visa", last4: "1111"), name: "Nordbank"),
        textWasDue: true, width: 1012, height: 638))
    XCTAssertFalse(plan.lowerTwoThirds)
    func covered(_ x: Double, _ y: Double) -> Bool {
      plan.regions.contains { $0.x <= x && x < $0.maxX && $0.y <= y && y < $0.maxY }
    }
    // The number's row edge to edge, a group tesseract missed included.
    for x in [1.0, 150, 600, 1000] { XCTAssertTrue(covered(x, 392), "number row at x \(x)") }
    XCTAssertTrue(covered(90, 465), "expiry")
    XCTAssertTrue(covered(300, 540), "holder")
    XCTAssertFalse(covered(800, 545), "the network's name stays")
    XCTAssertFalse(covered(200, 85), "the bank's name stays")
    for region in plan.regions {
      XCTAssertTrue(region.x >= 0 && region.y >= 0 && region.maxX <= 1012 && region.maxY <= 638)
    }
  }

  func testALoyaltyCardIsLeftAlone() {
    let loyalty = text(
      [line("Green Basket", 60, 60, 300, 50), line("6340 0412 3456 7890 12", 80, 400, 500, 30)],
      name: "Green Basket")
    XCTAssertNil(PaymentCardRedaction.plan(text: loyalty, textWasDue: true, width: 1012, height: 638))
    XCTAssertNil(PaymentCardRedaction.plan(text: nil, textWasDue: false, width: 1012, height: 638))
  }

  /// A number that may be a payment card's on a card that says nothing else of the kind
  /// (`OCRStage` leaves it no `payment`): its number row is painted all the same.
  func testAHiddenNumberIsPaintedWithoutAPayment() throws {
    var loyalty = text(
      [line("Carte Monoprix", 60, 60, 300, 50), line("•••• •••• •••• 9762", 80, 400, 500, 30)],
      name: "Carte Monoprix")
    XCTAssertNil(PaymentCardRedaction.plan(text: loyalty, textWasDue: true, width: 1012, height: 638))
    loyalty.hidesNumber = true
    let plan = try XCTUnwrap(
      PaymentCardRedaction.plan(text: loyalty, textWasDue: true, width: 1012, height: 638))
    XCTAssertTrue(plan.regions.contains { $0.y <= 410 && 410 < $0.maxY })
  }

  /// A misread digit fails the Luhn check, but `VISA` still says what the card is; with no line
  /// placing the number, or no reading at all, the lower two thirds are pixelated.
  func testConservativeWithoutANumberRead() throws {
    let misread = try XCTUnwrap(
      PaymentCardRedaction.plan(
        text: text(
          visaLines.map {
            var l = $0; l.text = l.text.replacingOccurrences(of: "•", with: "4"); return l
          }),
        textWasDue: true, width: 1012, height: 638))
    XCTAssertFalse(misread.lowerTwoThirds)
    XCTAssertTrue(misread.regions.contains { $0.x == 0 && $0.width == 1012 })
    let unplaced = PaymentCardRedaction.plan(
      text: text([line("Nordbank", 62, 60, 350, 52), line("VISA", 761, 529, 114, 33)]), textWasDue: true,
      width: 1012, height: 638)
    XCTAssertEqual(unplaced, PaymentCardRedaction(regions: [], lowerTwoThirds: true))
    XCTAssertEqual(
      PaymentCardRedaction.plan(text: nil, textWasDue: true, width: 1012, height: 638),
      PaymentCardRedaction(regions: [], lowerTwoThirds: true), "the photo failed before OCR")
  }

  func testFillsWithTheColourAroundAndLeavesTheRest() {
    var card = Bitmap(width: 100, height: 60, format: .rgb, fill: 0)
    for i in stride(from: 0, to: card.pixels.count, by: 3) { card.pixels[i] = 30; card.pixels[i + 2] = 120 }
    // White "type" at (20…40, 20…30).
    for y in 20..<30 { for x in 20..<40 { for c in 0..<3 { card.pixels[(y * 100 + x) * 3 + c] = 255 } } }
    let painted = PaymentCardRedaction(
      regions: [Box(x: 18, y: 18, width: 25, height: 15)], lowerTwoThirds: false
    )
    .applied(to: card)
    XCTAssertEqual(TestImages.meanColour(painted, x: 25, y: 22), [30, 0, 120])
    XCTAssertEqual(Array(painted.pixels[0..<3]), [30, 0, 120])
    XCTAssertEqual(painted.pixels.count, card.pixels.count)
    let pixelated = PaymentCardRedaction(regions: [], lowerTwoThirds: true).applied(to: card)
    XCTAssertEqual(Array(pixelated.pixels[0..<(20 * 100 * 3)]), Array(card.pixels[0..<(20 * 100 * 3)]))
    XCTAssertNotEqual(pixelated, card, "the type below the top third is blurred into blocks")
  }

  /// The OCR stage reads each rendered payment card, the redaction paints the crop over, and
  /// the stage reading the painted crop again finds no number and no holder.
  func testTheOCRStageReadsNothingPaintedOver() throws {
    let fixtures = OCRStageTests.fixtures
    let ocr = try OCRStage(options: .init(), context: StageContext())
    for name in ["visa-demo", "mastercard-demo", "amex-demo"] {
      let item = PhotoItem(
        relativePath: name, url: fixtures.appendingPathComponent(name + ".png"), outputDirectory: nil)
      try LoadStage(options: .init(), context: StageContext()).process(item)
      try ocr.process(item)
      let first = try XCTUnwrap(item.artifacts[CardText.self])
      XCTAssertNotNil(first.payment, name)
      let image = try item.pixels().analysis
      let plan = try XCTUnwrap(
        PaymentCardRedaction.plan(text: first, textWasDue: true, width: image.width, height: image.height))
      let again = PhotoItem(relativePath: name, url: item.url, outputDirectory: nil)
      again.artifacts.write(item.artifacts[ImageFile.self]!)
      again.artifacts.write(
        ImagePixels(analysis: plan.applied(to: image), analysisScale: 1, full: nil, decodeFull: { image }))
      try ocr.process(again)
      let second = try XCTUnwrap(again.artifacts[CardText.self])
      XCTAssertNil(second.payment, "\(name): \(second.lines.map(\.text))")
      XCTAssertFalse(
        second.lines.contains { $0.text.contains("DUBOIS") || $0.text.contains("LINDQVIST") }, name)
      XCTAssertEqual(second.name.suggested, first.name.suggested, "\(name): the bank's name stays legible")
    }
  }
}
