import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// Which turns the receipt stage's orientation check reads: the quarter turns only when
/// `receipt_warp` could not tell that the print runs across.
final class ReceiptOrientationCheckTests: XCTestCase {
  /// A binarised page of `rows` printed lines: words of ink with gaps between them, blank space
  /// between the lines.
  private func printedPage(width: Int, rows: Int) -> Bitmap {
    var page = Bitmap(width: width, height: rows * 40 + 40, format: .gray, fill: 255)
    for row in 0..<rows {
      var x = 20 + (row % 3) * 15
      while x + 60 < width - 20 {
        for y in (40 + row * 40)..<(40 + row * 40 + 22) {
          for dx in 0..<45 { page.pixels[y * width + x + dx] = 0 }
        }
        x += 60 + (row + x) % 25
      }
    }
    return page
  }

  func testPrintAcrossHasAMarginAboveTheTurnMarginAndTurnedBelowItsNegative() {
    let page = printedPage(width: 600, rows: 20)
    let across = ReceiptWarpStage.acrossMargin(page)
    XCTAssertGreaterThanOrEqual(across, ReceiptWarpStage.turnMargin, "lines of print across the page")
    XCTAssertFalse(ReceiptWarpStage.printRunsDown(page))
    let down = page.applyingOrientation(6)
    XCTAssertLessThanOrEqual(ReceiptWarpStage.acrossMargin(down), -ReceiptWarpStage.turnMargin)
    XCTAssertTrue(ReceiptWarpStage.printRunsDown(down))
    let blank = Bitmap(width: 600, height: 840, format: .gray, fill: 255)
    XCTAssertLessThan(
      abs(ReceiptWarpStage.acrossMargin(blank)), ReceiptWarpStage.turnMargin, "a blank page says nothing")
  }

  func testColumnInkIsTheRowInkOfThePageTurnedAQuarter() {
    var page = Bitmap(width: 37, height: 23, format: .gray, fill: 255)
    for i in page.pixels.indices where (i * 7919) % 13 < 5 { page.pixels[i] = 0 }
    XCTAssertEqual(ReceiptImaging.columnInk(page), ReceiptImaging.rowInk(page.applyingOrientation(6)))
    XCTAssertEqual(ReceiptImaging.columnInk(page).reduce(0, +), page.pixels.filter { $0 < 128 }.count)
  }

  /// A narrow receipt on a flatbed scan of the whole glass, with the scanner's line along its
  /// left edge: the blank glass beside the print and the line are not the print's rows or columns.
  func testBlankGlassAndAnEdgeLineDoNotTurnAnUprightReceipt() {
    let receipt = printedPage(width: 500, rows: 24)
    var scan = Bitmap(width: 1_500, height: receipt.height + 300, format: .gray, fill: 255)
    for y in 0..<receipt.height {
      for x in 0..<receipt.width {
        scan.pixels[(y + 150) * scan.width + x + 600] = receipt.pixels[y * receipt.width + x]
      }
    }
    for y in 0..<scan.height {
      for x in 2..<6 { scan.pixels[y * scan.width + x] = 0 }
    }
    XCTAssertGreaterThanOrEqual(ReceiptWarpStage.acrossMargin(scan), ReceiptWarpStage.turnMargin)
    XCTAssertTrue(ReceiptWarpStage.printRunsDown(scan.applyingOrientation(6)))
    XCTAssertTrue(ReceiptWarpStage.printRunsDown(scan.applyingOrientation(8)))
  }

  /// A real receipt scan as it is, and turned a quarter: `receipt_warp` measures the first's print
  /// running across, and gives the second, which it turns itself, no margin, so the receipt stage's
  /// reading may still undo that turn.
  func testTheWarpGivesAMarginOnlyToAPageItDidNotTurn() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let sample = root.appendingPathComponent("samples/receipts/receipt-03-de-scan.jpg")
    let upright = try Data(contentsOf: sample).withUnsafeBytes { try JPEGDecoder.decode($0, reduction: 1) }
    let folder = try TestImages.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var margins: [String: Double?] = [:]
    for (name, orientation) in [("upright", 1), ("sideways", 6)] {
      let url = folder.appendingPathComponent("\(name).jpg")
      try ImageEncoder.jpeg(upright.applyingOrientation(orientation), quality: 92).write(to: url)
      let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
      try LoadStage(options: .init(), context: StageContext()).process(item)
      try ReceiptWarpStage(options: .init(), context: StageContext()).process(item)
      margins[name] = .some(try XCTUnwrap(item.artifacts[ReceiptPage.self]).acrossMargin)
    }
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(margins["upright"] ?? nil), ReceiptWarpStage.turnMargin)
    XCTAssertNil(try XCTUnwrap(margins["sideways"]), "the warp turned it: no margin")
  }

  func testTheFlattenedPageCarriesItsMarginToThePagesReadingOnly() {
    guard case .findByReading(let margin) = ReceiptStage.ReadingPlan.page(acrossMargin: 0.4).orientation
    else {
      return XCTFail("the page's reading finds its own way up")
    }
    XCTAssertEqual(margin, 0.4)
    let page = ReceiptExtractor().extract(receiptRows(["SHOP", "TOTAL 3.27"]))
    let turned = [Point(800, 0), Point(800, 1200), Point(0, 1200), Point(0, 0)]
    let reading = ReceiptStage.Reading(receipt: page, notes: [], turn: nil)
    guard
      case .findByReading(let rawMargin) = ReceiptStage.ReadingPlan.raw(
        after: reading, quad: turned, choice: .fitted
      ).orientation
    else { return XCTFail("a scan the page runs across is read to find its way up") }
    XCTAssertNil(rawMargin, "the page's margin says nothing of the scan's rows, a quarter turned from it")
  }

  func testOnlyAReadingWithADateAndATotalSkipsTheCheck() {
    let dated = ReceiptExtractor().extract(receiptRows(["Date: 12/02/2018", "Tea 2.97", "TOTAL 2.97"]))
    XCTAssertTrue(ReceiptStage.hasDateAndTotal(dated))
    let undated = ReceiptExtractor().extract(receiptRows(["SHOP SDN BHD", "Tea 2.97", "TOTAL 2.97"]))
    XCTAssertFalse(ReceiptStage.hasDateAndTotal(undated), "no date: the page may be upside down")
    let nonsense = ReceiptExtractor().extract(
      receiptRows(["L6'Z 1VLOL", "8102/Z0/Z1 :aʇeᗡ", "dHB NQS dOHS"]))
    XCTAssertFalse(ReceiptStage.hasDateAndTotal(nonsense), "a receipt's lines turned a half")
  }

  func testTheMarginOptionIsDecodedAndValidated() throws {
    let defaults = ReceiptStage.Options()
    XCTAssertEqual(defaults.quarterTurnsBelowMargin, ReceiptWarpStage.turnMargin)
    XCTAssertFalse(defaults.orientationCheckWhenDated)
    let always = try OptionsDecoder.decode(
      ReceiptStage.Options.self,
      from: ["quarter_turns_below_margin": 1, "orientation_check_when_dated": true],
      path: "stages[2]")
    XCTAssertEqual(always.quarterTurnsBelowMargin, 1)
    XCTAssertTrue(always.orientationCheckWhenDated)
    XCTAssertNoThrow(try ReceiptStage.validate(always, context: StageContext()))
    var wrong = always
    wrong.quarterTurnsBelowMargin = 1.5
    XCTAssertThrowsError(try ReceiptStage.validate(wrong, context: StageContext()))
  }

  /// The record's `text_page`, warped from the photo, is the page as it was read: the flattened
  /// page turned by the reading's orientation, pixel for pixel.
  func testTheTextPageWarpsToThePageTurnedAsItWasRead() throws {
    let photo = Bitmap(width: 240, height: 180, format: .gray) { out in
      for y in 0..<180 {
        for x in 0..<240 { out[y * 240 + x] = UInt8((x * 2 + y * 3) * 255 / (239 * 2 + 179 * 3)) }
      }
    }
    let corners = [Point(30, 20), Point(210, 26), Point(204, 160), Point(24, 150)]
    let flat = try XCTUnwrap(photo.warped(quad: corners, width: 120, height: 90))
    for orientation in [1, 3, 6, 8] {
      let page = TextPage.turned(width: 120, height: 90, corners: corners, orientation: orientation)
      let read = flat.applyingOrientation(orientation)
      XCTAssertEqual([page.width, page.height], [read.width, read.height], "orientation \(orientation)")
      let again = try XCTUnwrap(photo.warped(quad: page.quad.corners, width: page.width, height: page.height))
      let difference = zip(again.pixels, read.pixels).map { abs(Int($0) - Int($1)) }
      let mean = Double(difference.reduce(0, +)) / Double(difference.count)
      XCTAssertLessThan(mean, 3, "orientation \(orientation): the warp by text_page is the page as read")
    }
  }
}
