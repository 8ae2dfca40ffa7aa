import Foundation
import XCTest

@testable import SnapsortNative
@testable import SnapsortStages
@testable import SnapsortTools

/// Reading a receipt's lines from text: SROIE's `.lines.csv` and plain text.
final class ReceiptTextLinesTests: XCTestCase {
  private func texts(_ csv: String) throws -> [String] {
    try ReceiptTextLines.boxed(csv, file: "r.csv").map(\.text)
  }

  func testCommasInsideTheTextStayInIt() throws {
    let items = try ReceiptTextLines.boxed(
      "88,92,412,90,414,112,86,114,NO. 7, JALAN MELATI 3,\n", file: "r.csv")
    XCTAssertEqual(items.map(\.text), ["NO. 7, JALAN MELATI 3,"])
    // The box is the rectangle around the four corners, however they lean.
    XCTAssertEqual(items.first?.box, Box(x: 86, y: 90, width: 328, height: 24))
    XCTAssertEqual(items.first?.confidence, 100)
  }

  func testQuotesAreTheTextsOwnUnlessTheyWrapItWhole() throws {
    XCTAssertEqual(try texts(#"1,1,9,1,9,5,1,5,SR: 11" PROWESS GUN"#), [#"SR: 11" PROWESS GUN"#])
    XCTAssertEqual(try texts(#"1,1,9,1,9,5,1,5,"9"" TIN, ROUND""#), [#"9" TIN, ROUND"#])
    // Opened and never closed (as one SROIE line is): the quote is part of the text, and the
    // next line is a line of its own.
    XCTAssertEqual(
      try texts("1,1,9,1,9,5,1,5,\"REDEEMED WITHIN 3 MONTHS\n1,6,9,6,9,9,1,9,TERMS APPLY"),
      ["\"REDEEMED WITHIN 3 MONTHS", "TERMS APPLY"])
    // Quotes at both ends with a lone one inside are quotations, not CSV quoting.
    XCTAssertEqual(try texts(#"1,1,9,1,9,5,1,5,"A" AND "B""#), [#""A" AND "B""#])
    XCTAssertEqual(try texts(#"1,1,9,1,9,5,1,5,"""#), [])
  }

  func testBlankLinesLineEndsAndAByteOrderMarkAreNoLines() throws {
    let csv = "\u{FEFF}1,1,9,1,9,5,1,5,A\r\n\r\n   \r\n1,6,9,6,9,9,1,9,  B   C \r\n1,6,9,6,9,9,1,9,\n"
    XCTAssertEqual(try texts(csv), ["A", "B C"])
  }

  func testABadRowNamesItsLine() {
    let short = "1,1,9,1,9,5,1,5,OK\n\n1,6,9,6,TOTAL 9.00\n"
    XCTAssertThrowsError(try ReceiptTextLines.boxed(short, file: "r.lines.csv")) { error in
      let error = error as? ReceiptTextError
      XCTAssertEqual(error?.line, 3)
      XCTAssertEqual(
        error?.description,
        "r.lines.csv:3: expected x1,y1,x2,y2,x3,y3,x4,y4,text (eight numbers, then the text); found 5 fields")
    }
    XCTAssertThrowsError(try ReceiptTextLines.boxed("1,1,x,1,9,5,1,5,A", file: "r.csv")) { error in
      XCTAssertEqual(
        "\(error)", #"r.csv:1: coordinate 3 is "x", not a number (expected x1,y1,x2,y2,x3,y3,x4,y4,text)"#)
    }
    XCTAssertThrowsError(try ReceiptTextLines.boxed("TOTAL 9.00", file: "r.csv")) { error in
      XCTAssertTrue("\(error)".hasPrefix("r.csv:1: expected x1,y1"), "\(error)")
    }
  }

  func testPlainLinesAreStackedTopToBottomOneRowEach() {
    let items = ReceiptTextLines.plain("SHOP\n\nTOTAL      9.00\r\nTHANKS")
    XCTAssertEqual(items.map(\.text), ["SHOP", "TOTAL 9.00", "THANKS"])
    XCTAssertEqual(items.map(\.box.y), [0, 140, 210])
    XCTAssertEqual(ReceiptLine.rows(from: items).map(\.text), ["SHOP", "TOTAL 9.00", "THANKS"])
  }

  func testTheFileNameSaysWhetherLinesAreBoxed() {
    XCTAssertEqual(ReceiptTextLines.Format(fileName: "sroie_000.lines.csv"), .boxed)
    XCTAssertEqual(ReceiptTextLines.Format(fileName: "A.CSV"), .boxed)
    XCTAssertEqual(ReceiptTextLines.Format(fileName: "receipt.txt"), .plain)
  }

  /// The dataset boxes a price apart from its label; joined into rows as OCR words are, the
  /// extractor reads the total on the label's row.
  func testAPriceBoxedApartFromItsLabelIsReadOnItsRow() throws {
    let csv = """
      10,10,300,10,300,40,10,40,GREEN BASKET SDN BHD
      10,60,200,60,200,80,10,80,DATE: 02/01/2018
      10,100,120,100,120,120,10,120,TOTAL
      400,101,470,101,470,121,400,121,17.44
      """
    let receipt = ReceiptTextExtraction(catalog: nil).receipt(
      from: try ReceiptTextLines.boxed(csv, file: "r.csv"))
    XCTAssertEqual(receipt.text?.map(\.text), ["GREEN BASKET SDN BHD", "DATE: 02/01/2018", "TOTAL 17.44"])
    XCTAssertEqual(receipt.total, Money(cents: 1744))
    XCTAssertEqual(receipt.date, "2018-01-02")
    XCTAssertEqual(receipt.merchant, "GREEN BASKET SDN BHD")
  }
}
