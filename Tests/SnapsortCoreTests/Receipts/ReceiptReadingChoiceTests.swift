import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The page's reading against a second reading of the raw scan: which fields are taken from the
/// second, and when a receipt is a scan that is all paper.
final class ReceiptReadingChoiceTests: XCTestCase {
  private func reading(_ lines: [String]) -> ReceiptRecord {
    ReceiptExtractor().extract(receiptRows(lines))
  }

  private func record(merchant: String, confidence: Double) -> ReceiptRecord {
    var receipt = ReceiptRecord()
    receipt.merchant = merchant
    receipt.fields = ["merchant": ReceiptField(value: merchant, confidence: confidence, line: 0)]
    return receipt
  }

  func testATotalTheArithmeticConfirmsReplacesOneItDoesNotWithItsAmounts() throws {
    var page = reading(["SHOP", "Date: 12/02/2018", "Tea 2.97", "Milk 2.30", "SUBTOTAL 5.27", "TOTAL 3.27"])
    let raw = reading(["SHOP", "Date: 12/02/2018", "Tea 2.97", "Milk 2.30", "SUBTOTAL 5.27", "TOTAL 5.27"])
    XCTAssertTrue(ReceiptReadingChoice.fitted.isUnsure(page), "the page's total is not confirmed")
    XCTAssertFalse(ReceiptReadingChoice.fitted.isUnsure(raw))
    let taken = ReceiptReadingChoice.fitted.settle(&page, other: raw, otherName: "raw")
    XCTAssertEqual(taken, ["total"], "the date both read stays the page's")
    XCTAssertEqual(page.total, Money(recordString: "5.27"))
    let field = try XCTUnwrap(page.fields?["total"])
    XCTAssertEqual(field.reading, "raw")
    XCTAssertEqual(field.source, "TOTAL 5.27")
    XCTAssertNil(field.line, "the line index would point into the other reading's text")
    XCTAssertEqual(page.checks?.problems, [])
    XCTAssertEqual(page.fields?["date"]?.reading, nil)
  }

  func testAFieldThePageMissedIsTakenAndOneBothReadStays() {
    var page = reading(["SHOP SDN BHD", "Dat 1Z/OZ", "TOTAL RM 9.00"])
    let raw = reading(["SHOP SDN BHD", "Date: 12/02/2016", "TOTAL RM 9.00"])
    XCTAssertNil(page.date)
    let taken = ReceiptReadingChoice.fitted.settle(&page, other: raw, otherName: "raw")
    XCTAssertEqual(taken, ["date"])
    XCTAssertEqual(page.date, "2016-02-12")
    XCTAssertEqual(page.fields?["date"]?.source, "Date: 12/02/2016")
  }

  /// A page read too faintly for any mark, country or language takes the second reading's
  /// currency and language; a currency the page names stays.
  func testThePagesMissingCurrencyAndLanguageComeFromTheOtherReading() throws {
    var page = reading(["KT SHOP", "TOTAL 9.00"])
    let raw = reading([
      "KT SHOP SDN BHD", "Date: 12/02/2016", "Cash 10.00", "Change 1.00", "TOTAL (RM): 9.00",
    ])
    XCTAssertNil(page.currency)
    XCTAssertEqual(raw.currency, "MYR")
    ReceiptReadingChoice.fitted.settle(&page, other: raw, otherName: "raw")
    XCTAssertEqual(page.currency, "MYR")
    XCTAssertEqual(page.currencyEvidence, raw.currencyEvidence)
    XCTAssertEqual(page.language, raw.language)
    XCTAssertEqual(page.fields?["currency"]?.reading, "raw")

    var euro = reading(["SHOP", "TOTAL EUR 9.00"])
    ReceiptReadingChoice.fitted.settle(&euro, other: raw, otherName: "raw")
    XCTAssertEqual(euro.currency, "EUR", "the page's own currency stays")
  }

  /// A page read to no line at all keeps the raw reading's lines, on the whole photo they were
  /// read on; a page with lines of its own keeps them.
  func testAPageReadToNothingKeepsTheRawReadingsLines() throws {
    let url = ClassifyStageTests.root.appendingPathComponent("samples/receipts/receipt-01-en-photo.jpg")
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    let full = try item.fullImage()
    let raw = ReceiptStage.Reading(
      receipt: reading(["KT SHOP", "TOTAL 9.00"]), notes: [], turn: (orientation: 3, degrees: 180))
    var empty = ReceiptRecord()
    empty.text = []
    try ReceiptStage.keepLines(of: raw, in: &empty, item: item)
    XCTAssertEqual(empty.text?.map(\.text), ["KT SHOP", "TOTAL 9.00"])
    let page = try XCTUnwrap(empty.textPage)
    XCTAssertEqual([page.width, page.height], [full.width, full.height])
    XCTAssertEqual(
      page.quad.corners.first, Point(Double(full.width), Double(full.height)), "read turned a half")

    var read = reading(["SHOP", "TOTAL 9.00"])
    try ReceiptStage.keepLines(of: raw, in: &read, item: item)
    XCTAssertEqual(read.text?.map(\.text), ["SHOP", "TOTAL 9.00"])
  }

  func testAnotherValueNeedsTheMarginOfConfidence() {
    let choice = ReceiptReadingChoice(margins: ["merchant": 0.1])
    let page = record(merchant: "SHOP", confidence: 0.6)
    XCTAssertFalse(
      choice.prefersOther("merchant", page: page, other: record(merchant: "SH0P", confidence: 0.65)))
    XCTAssertTrue(
      choice.prefersOther("merchant", page: page, other: record(merchant: "SH0P", confidence: 0.7)))
    XCTAssertFalse(
      choice.prefersOther("merchant", page: page, other: record(merchant: "shop", confidence: 0.9)),
      "the same value in other case is agreement, not another value")
    XCTAssertFalse(
      ReceiptReadingChoice(margins: [:]).prefersOther(
        "merchant", page: page, other: record(merchant: "SH0P", confidence: 1)),
      "a field without a fitted margin is never replaced on confidence")
  }

  func testOnlyAnOutlineCoveringTheImageIsAScan() {
    let whole = [Point(0, 0), Point(800, 0), Point(800, 1200), Point(0, 1200)]
    XCTAssertTrue(ReceiptStage.coversImage(whole, width: 800, height: 1200))
    let turned = ReceiptWarpStage.rotate(quad: whole, width: 800, height: 1200, degrees: 1.5)
    XCTAssertTrue(ReceiptStage.coversImage(turned, width: 800, height: 1200), "a deskewed scan is still one")
    let paper = [Point(200, 100), Point(600, 120), Point(590, 1100), Point(210, 1080)]
    XCTAssertFalse(ReceiptStage.coversImage(paper, width: 800, height: 1200), "a receipt on a table")
  }
  func testTheSecondReadingTakesThePagesTurnAndRereadsOnlyWhatItCouldChange() throws {
    let page = reading(["SHOP SDN BHD", "Date: 12/02/2018", "Tea 2.97", "TOTAL 3.27"])
    XCTAssertEqual(ReceiptReadingChoice.doubts(page), [.unconfirmedTotal])
    let upright = [Point(0, 0), Point(800, 0), Point(800, 1200), Point(0, 1200)]
    let turned = ReceiptStage.Reading(receipt: page, notes: [], turn: (orientation: 3, degrees: 180))
    let plan = ReceiptStage.ReadingPlan.raw(after: turned, quad: upright, choice: .fitted)
    guard case .known(.some(let turn)) = plan.orientation else {
      return XCTFail("the page's turn is not carried over")
    }
    XCTAssertEqual(turn.degrees, 180)
    XCTAssertTrue(plan.rereadTotal, "the page's total is unconfirmed, so the scan's may replace it")
    XCTAssertFalse(plan.recheckDate, "a date the page read is never replaced on confidence")
    XCTAssertTrue(plan.rereadLogo, "a merchant is replaced when read surer by the margin")

    let asItIs = ReceiptStage.Reading(receipt: page, notes: [], turn: nil)
    guard
      case .known(.none) = ReceiptStage.ReadingPlan.raw(after: asItIs, quad: upright, choice: .fitted)
        .orientation
    else { return XCTFail("a page read as it is reads the scan as it is, unchecked") }
    let quarter = [upright[1], upright[2], upright[3], upright[0]]
    guard
      case .findByReading = ReceiptStage.ReadingPlan.raw(after: turned, quad: quarter, choice: .fitted)
        .orientation
    else {
      return XCTFail("receipt_warp turned the page a quarter: the scan's own way up is found by reading")
    }

    let undated = reading(["SHOP SDN BHD", "Tea 2.97", "TOTAL 2.97"])
    XCTAssertEqual(ReceiptReadingChoice.doubts(undated), [.noDate])
    let plain = ReceiptStage.ReadingPlan.raw(after: asItIs.with(undated), quad: upright, choice: .fitted)
    XCTAssertTrue(plain.recheckDate)
    XCTAssertFalse(plain.rereadTotal, "the page's total is confirmed by its items")
  }
}

extension ReceiptStage.Reading {
  fileprivate func with(_ receipt: ReceiptRecord) -> Self {
    ReceiptStage.Reading(receipt: receipt, notes: notes, turn: turn)
  }
}
