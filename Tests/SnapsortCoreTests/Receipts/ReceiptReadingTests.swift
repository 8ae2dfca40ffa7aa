import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Two readings of one receipt fused into one record, and the grey image's preparation:
/// dark borders cleared, uneven lighting divided out.
final class ReceiptReadingTests: XCTestCase {
  private func rows(_ texts: [String]) -> [ReceiptLine] { receiptRows(texts) }

  private func reading(_ name: String, _ lines: [String], readability: Double) -> ReceiptReading {
    ReceiptReading(name: name, receipt: ReceiptExtractor().extract(rows(lines)), readability: readability)
  }

  func testTheMostReadablePageKeepsItsFieldsAndTheOtherFillsWhatItMissed() {
    let grey = reading("grey", ["SHOP SDN BHD", "Date: 12/02/2018", "TOTAL RM 9.00"], readability: 300)
    let binarised = reading(
      "binarised", ["SHOP SDN BHD", "Date: 12/02/2016", "TOTAL RM 9.00"], readability: 200)
    let fused = ReceiptReading.fuse([grey, binarised])
    XCTAssertEqual(fused.imageVariant, "grey")
    XCTAssertEqual(fused.date, "2018-02-12", "the base reading keeps its date against a surer-looking one")
    XCTAssertEqual(fused.total, "9.00")
    // Two readings agreeing on the total make it surer.
    XCTAssertGreaterThan(fused.fields!["total"]!.confidence, grey.receipt.fields!["total"]!.confidence)

    let withoutDate = reading("grey", ["SHOP SDN BHD", "Dat 1Z/OZ", "TOTAL RM 9.00"], readability: 300)
    let filled = ReceiptReading.fuse([withoutDate, binarised])
    XCTAssertEqual(filled.date, "2016-02-12")
    XCTAssertEqual(filled.fields?["date"]?.reading, "binarised")
    XCTAssertEqual(filled.fields?["date"]?.source, "Date: 12/02/2016")
    XCTAssertNil(filled.fields?["date"]?.line, "the line index would point into the other reading's text")
  }

  func testItemsComeFromTheReadingWhoseAmountsAddUp() {
    let misread = reading(
      "grey", ["SHOP", "Date: 12/02/2018", "Tea 2.07", "Milk 2.30", "SUBTOTAL 5.27", "TOTAL 5.27"],
      readability: 300)
    let right = reading(
      "binarised", ["SHOP", "Date: 12/02/2018", "Tea 2.97", "Milk 2.30", "SUBTOTAL 5.27", "TOTAL 5.27"],
      readability: 250)
    XCTAssertEqual(misread.receipt.checks?.problems.isEmpty, false)
    let fused = ReceiptReading.fuse([misread, right])
    XCTAssertEqual(fused.items.map(\.amount), ["2.97", "2.30"])
    XCTAssertEqual(fused.checks?.problems, [])
    XCTAssertEqual(fused.imageVariant, "grey")

    // A reading without a subtotal or total has nothing its items could fail against: its list
    // is not taken whole.
    let unchecked = reading(
      "binarised", ["SHOP", "Tea 2.97", "Milk 2.30", "Bread 1.10", "VAT TABLE 8.12"], readability: 250)
    XCTAssertEqual(unchecked.receipt.checks?.problems, [])
    XCTAssertEqual(ReceiptReading.fuse([misread, unchecked]).items.map(\.amount), ["2.07", "2.30"])
  }

  /// Neither reading's items add up, but the other reading read one item otherwise, and that
  /// amount alone makes the base reading's items come to its subtotal: that one item is taken.
  func testOneItemFromTheOtherReadingWhenThatAloneMakesTheItemsAddUp() {
    let base = reading(
      "grey", ["SHOP", "Tea 2.07", "Milk 2.30", "Bread 1.10", "SUBTOTAL 6.37", "TOTAL 6.37"], readability: 300
    )
    let other = reading(
      "binarised", ["SHOP", "Tca 2.97", "Milk 2.30", "Bread 1.16", "SUBTOTAL 6.87", "TOTAL 6.37"],
      readability: 250)
    let fused = ReceiptReading.fuse([base, other])
    XCTAssertEqual(fused.items.map(\.amount), ["2.97", "2.30", "1.10"])
    XCTAssertEqual(fused.items.map(\.description), ["Tea", "Milk", "Bread"])
    XCTAssertEqual(fused.checks?.problems, [])

    // Two amounts that would each make them add up: neither is taken.
    let ambiguous = reading("grey", ["SHOP", "Tea 2.07", "Milk 2.30", "SUBTOTAL 5.27"], readability: 300)
    let both = reading("binarised", ["SHOP", "Tea 2.97", "Milk 3.20", "SUBTOTAL 5.27"], readability: 250)
    XCTAssertEqual(ReceiptReading.fuse([ambiguous, both]).items.map(\.amount), ["2.07", "2.30"])
  }

  func testAQuantityReadAsZAndADateWithMixedSeparators() throws {
    let q = try XCTUnwrap(ReceiptItems.quantity(in: "Z x 3,20 6,40"))
    XCTAssertEqual(q.quantity, "2")
    XCTAssertNil(ReceiptItems.quantity(in: "SIZ x 3,20"), "a Z inside a word is a letter")
    XCTAssertEqual(ReceiptDate.dates(in: "08. 03-17 13:42 SHO1 BO28").first?.iso, "2017-03-08")
    // A quantity and a price spaced like a date are still not one.
    XCTAssertNil(ReceiptDate.dates(in: "2 X 0. 20 0.40 ZRL").first)
  }

  func testDarkBordersAreClearedButPrintAgainstTheEdgeStays() {
    // Paper (230) with a black band along the top (a scanner's lid) and a small dark glyph
    // touching the left edge further down.
    var pixels = [UInt8](repeating: 230, count: 200 * 300)
    for y in 0..<30 { for x in 0..<200 { pixels[y * 200 + x] = 10 } }
    for y in 150..<165 { for x in 0..<8 { pixels[y * 200 + x] = 20 } }
    var image = Bitmap(width: 200, height: 300, format: .gray, pixels: pixels)
    let painted = ReceiptImaging.clearDarkBorders(&image, minimumArea: 500)
    XCTAssertGreaterThanOrEqual(painted, 200 * 30)
    XCTAssertEqual(image.pixels[10 * 200 + 100], 230)
    XCTAssertEqual(image.pixels[31 * 200 + 100], 230, "the band's rim is cleared too")
    XCTAssertEqual(image.pixels[155 * 200 + 3], 20, "a region smaller than the minimum stays")
    XCTAssertEqual(image.pixels[200 * 200 + 100], 230)
  }

  func testTheShadedPartOfAFoldedReceiptIsNotClearedWithItsPrint() {
    // Paper (230) whose left third is in a fold's shade (150, two thirds of the paper's grey,
    // below the three quarters a lid's rim is caught at) with print (20) in it.
    let w = 300, h = 200
    var pixels = [UInt8](repeating: 230, count: w * h)
    for y in 0..<h { for x in 0..<100 { pixels[y * w + x] = 150 } }
    for y in 60..<72 { for x in 20..<80 where x % 4 != 0 { pixels[y * w + x] = 20 } }
    var image = Bitmap(width: w, height: h, format: .gray, pixels: pixels)
    XCTAssertEqual(ReceiptImaging.clearDarkBorders(&image, minimumArea: 500), 0)
    XCTAssertEqual(image.pixels[65 * w + 21], 20, "the print in the shade stays")
    var lid = Bitmap(width: w, height: h, format: .gray, pixels: pixels.map { $0 == 150 ? 40 : $0 })
    XCTAssertGreaterThan(ReceiptImaging.clearDarkBorders(&lid, minimumArea: 500), 100 * h - 1000)
    XCTAssertEqual(lid.pixels[65 * w + 50], 230, "a dark lid is cleared")
  }

  func testEvenLightingTurnsAShadowWhiteAndKeepsPrintDark() {
    // Paper brightening from 120 (a shadow) on the left to 240 on the right, with a dark
    // stroke (half the paper's brightness) in the shadow and one in the light.
    let w = 400, h = 100
    var pixels = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h { for x in 0..<w { pixels[y * w + x] = UInt8(120 + 120 * x / (w - 1)) } }
    for y in 40..<60 {
      for x in 50..<54 { pixels[y * w + x] = pixels[y * w + x] / 2 }
      for x in 350..<354 { pixels[y * w + x] = pixels[y * w + x] / 2 }
    }
    let even = ReceiptImaging.evenlyLit(Bitmap(width: w, height: h, format: .gray, pixels: pixels), block: 20)
    XCTAssertGreaterThan(even.pixels[10 * w + 20], 235, "the shadowed paper is white")
    XCTAssertGreaterThan(even.pixels[10 * w + 380], 235)
    XCTAssertLessThan(even.pixels[50 * w + 51], 150, "print in the shadow stays dark")
    XCTAssertLessThan(even.pixels[50 * w + 351], 150)
  }

  func testThePaperGrowsOverItsShadedHalfButNotIntoTheSurface() {
    // A surface (100) with a receipt (x 80..<220, y 40..<260) whose left half is in a fold's
    // shade (150) and right half lit (240): Otsu's threshold finds the lit half only.
    let w = 300, h = 300
    func photo(grain: Bool) -> Bitmap {
      var pixels = [UInt8](repeating: 100, count: w * h)
      for y in 40..<260 { for x in 80..<220 { pixels[y * w + x] = x < 150 ? 150 : 240 } }
      // A bright streak of the surface's grain across the image, touching the paper.
      if grain {
        for y in 100..<104 { for x in 0..<w where !(80..<220).contains(x) { pixels[y * w + x] = 150 } }
      }
      return Bitmap(width: w, height: h, format: .gray, pixels: pixels)
    }
    let lit = ReceiptImaging.paper(in: photo(grain: false))!
    XCTAssertEqual(lit.quad[0].x, 150, accuracy: 1, "Otsu's region is the lit half")
    let grown = ReceiptImaging.paper(
      in: photo(grain: false), growingIntoShade: 1.05, plausible: ReceiptWarpStage.isPlausible)!
    XCTAssertEqual(grown.quad[0].x, 80, accuracy: 1, "the shaded half is paper too")
    XCTAssertEqual(grown.quad[2].x, 220, accuracy: 1)
    XCTAssertEqual(grown.quad[2].y, 260, accuracy: 1)
    XCTAssertEqual(grown.edges, [])
    let streaked = ReceiptImaging.paper(
      in: photo(grain: true), growingIntoShade: 1.05, plausible: ReceiptWarpStage.isPlausible)!
    XCTAssertEqual(streaked.quad[0].x, 150, accuracy: 1, "grown to the image's edges: the surface, not paper")
    let small = ReceiptImaging.paper(
      in: photo(grain: false), growingIntoShade: 2.5, plausible: ReceiptWarpStage.isPlausible)!
    XCTAssertEqual(small.quad[0].x, 150, accuracy: 1, "grown less than asked")
  }

  func testThePaperGrowsAtAHigherThresholdWhenTheLowestLetsTheSurfaceIn() {
    // As above, with a dim streak of the surface (125) from the paper to the image's left edge:
    // the lowest threshold (100) grows into it and reaches the edge; 125 keeps the shaded half
    // (150) and leaves the streak out.
    let w = 300, h = 300
    var pixels = [UInt8](repeating: 100, count: w * h)
    for y in 40..<260 { for x in 80..<220 { pixels[y * w + x] = x < 150 ? 150 : 240 } }
    for y in 100..<104 { for x in 0..<80 { pixels[y * w + x] = 125 } }
    let photo = Bitmap(width: w, height: h, format: .gray, pixels: pixels)
    let once = ReceiptImaging.paper(
      in: photo, growingIntoShade: 1.05, shadeSteps: 1, plausible: ReceiptWarpStage.isPlausible)!
    XCTAssertEqual(once.quad[0].x, 150, accuracy: 1, "the lowest threshold alone keeps only the lit half")
    let stepped = ReceiptImaging.paper(
      in: photo, growingIntoShade: 1.05, shadeSteps: 4, plausible: ReceiptWarpStage.isPlausible)!
    XCTAssertEqual(stepped.quad[0].x, 80, accuracy: 1, "the shaded half is paper too")
    XCTAssertEqual(stepped.edges, [])
    XCTAssertGreaterThan(stepped.squareness, 0.95)
    // When the lit half (17 % of the image) is not itself a plausible paper, only the lowest
    // threshold may grow it: a higher one is shaped by the surface, not by a corner lost.
    let bigOnly: (ReceiptImaging.PaperRegion) -> Bool = {
      $0.areaShare > 0.2 && ReceiptWarpStage.isPlausible($0)
    }
    let unsure = ReceiptImaging.paper(in: photo, growingIntoShade: 1.05, shadeSteps: 4, plausible: bigOnly)!
    XCTAssertEqual(
      unsure.quad[0].x, 150, accuracy: 1, "an implausible lit region is not grown above the lowest")
  }
}

final class KeyLineVoteTests: XCTestCase {
  func testAValueChangesOnlyWhenTwoRereadingsAgreeAgainstThePage() {
    XCTAssertEqual(KeyLineVote.decide(page: "14.85", rereads: ["14.65", "14.65", "14.85"]), "14.65")
    XCTAssertEqual(KeyLineVote.decide(page: "14.85", rereads: ["14.65", nil, "14.85"]), "14.85")
    XCTAssertEqual(KeyLineVote.decide(page: "14.85", rereads: ["14.65", "14.66", nil]), "14.85")
    XCTAssertEqual(KeyLineVote.decide(page: "14.85", rereads: [nil, nil, nil]), "14.85")
    XCTAssertEqual(
      KeyLineVote.decide(page: "33.05", rereads: ["3.05", "3.05", "33.05"]), "33.05",
      "a leading digit cut off is the crop's edge, not a mended misreading")
    XCTAssertEqual(KeyLineVote.decide(page: "265.81", rereads: ["26.81", "26.81", nil]), "26.81")
    XCTAssertEqual(KeyLineVote.total(in: "Total RM 14.65"), "14.65")
    XCTAssertEqual(KeyLineVote.total(in: "— -29.78"), "29.78")
    XCTAssertFalse(
      KeyLineVote.lineCarries(total: "9.00", text: "TOTAL"),
      "a total printed on the next row is not re-read from its label's row")
  }

  func testCashLessChangeBearsOutThePagesTotalAgainstItsLinesRereadings() {
    let paid = ReceiptExtractor().extract(
      receiptRows(["SHOP", "TOTAL RM 60.30", "CASH RM 70.30", "CHANGE RM 10.00"]))
    XCTAssertEqual(paid.total, Money(cents: 6030))
    XCTAssertTrue(KeyLineVote.corroborated(paid, total: "60.30", line: 1))
    let short = ReceiptExtractor().extract(
      receiptRows(["SHOP", "TOTAL RM 60.30", "CASH RM 70.30", "CHANGE RM 9.00"]))
    XCTAssertFalse(KeyLineVote.corroborated(short, total: "60.30", line: 1))
  }

  func testATotalsAmountReadOnTheRowAboveItsLabelIsTheTotal() {
    // A photo taken askew lifts a row's right end: OCR reads "260,54" a row above "Totalt SEK".
    let askew = ReceiptExtractor().extract(
      receiptRows(["SHOP", "Mjolk 15,68", "Apelsinjuice 244,86", "260,54", "Totalt SEK", "Tack"]))
    XCTAssertEqual(askew.total, Money(cents: 26054))
    // A label with its own amount keeps it.
    let level = ReceiptExtractor().extract(receiptRows(["SHOP", "Mjolk 15,68", "9,99", "Totalt 15,68"]))
    XCTAssertEqual(level.total, Money(cents: 1568))
  }

  func testADatePrintedTwiceOutvotesOneMisreadAndATimeIsNoDay() {
    XCTAssertEqual(ReceiptDate.dates(in: "27/06/18 09:49 - 27/06/18 10:08").count, 2)
    XCTAssertNil(ReceiptDate.dates(in: "14-25-17").first)
    let receipt = ReceiptExtractor().extract(
      receiptRows(["SHOP", "27/06/16 10:08", "Tea 2.00", "27/06/18 09:49 - 27/06/18 10:08", "TOTAL 2.00"]))
    XCTAssertEqual(receipt.date, "2018-06-27")
  }

  func testAnUprightScanIsResizedAndAnythingElseWarped() throws {
    let pixels = (0..<(40 * 30)).map { UInt8($0 % 251) }
    let image = Bitmap(width: 40, height: 30, format: .gray, pixels: pixels)
    let whole = [Point(0, 0), Point(40, 0), Point(40, 30), Point(0, 30)]
    XCTAssertEqual(
      ReceiptWarpStage.flatten(image, quad: whole, width: 80, height: 60),
      image.resized(width: 80, height: 60))
    let tilted = [Point(1, 0), Point(40, 1), Point(39, 30), Point(0, 29)]
    XCTAssertEqual(
      ReceiptWarpStage.flatten(image, quad: tilted, width: 80, height: 60),
      image.warped(quad: tilted, width: 80, height: 60))
  }
}

/// A shop named only by its logo: the logo's heavy strokes thinned, and its reading matched
/// against the catalog's brands.
final class HeaderLogoTests: XCTestCase {
  func testThinningNarrowsAStrokeFromBothSidesAndRemovesAThinOne() {
    // White paper with a black bar 9 px wide (x 20-28) and a 1 px line (x 50).
    var pixels = [UInt8](repeating: 240, count: 80 * 20)
    for y in 0..<20 {
      for x in 20...28 { pixels[y * 80 + x] = 10 }
      pixels[y * 80 + 50] = 10
    }
    let page = Bitmap(width: 80, height: 20, format: .gray, pixels: pixels)
    let thinned = ReceiptImaging.thinned(page, radius: 2)
    let dark = (0..<80).filter { thinned.gray(x: $0, y: 10) < 128 }
    XCTAssertEqual(dark, Array(22...26), "the bar loses 2 px on each side; the hairline is gone")
    XCTAssertEqual(ReceiptImaging.thinned(page, radius: 0), page)
  }

  func testALogoReadALetterOffNamesItsBrand() throws {
    let extractor = ReceiptExtractor(catalog: try IssuerCatalog.bundled())
    // The Lidl scans' thinned logo band as tesseract read it: the diamond over the i as an "e".
    XCTAssertEqual(extractor.brand(readFromLogo: "LeDi"), "Lidl")
    XCTAssertEqual(extractor.brand(readFromLogo: "LeDL."), "Lidl")
    XCTAssertEqual(extractor.brand(readFromLogo: "LIDL"), "Lidl")
    XCTAssertNil(extractor.brand(readFromLogo: "LeDk"), "two letters off a four-letter name is chance")
    XCTAssertNil(extractor.brand(readFromLogo: "Warburger Straße 130"))
    XCTAssertNil(extractor.brand(readFromLogo: "LID."), "three letters match too much")
  }
}

/// Dates OCR garbled: letters for digits, a symbol glued to the day, and a date line read
/// poorly that a second layout reads better.
final class DoubtfulDateTests: XCTestCase {
  func testLettersForDigitsWithDashesAndAPlausibleDigitForB() throws {
    // sroie_394 prints "30-06-16": "B" stands for 3 here, since 80 is no day or month.
    let found = try XCTUnwrap(ReceiptDate.dates(in: "08s 10PH 560197 BO-Cb-16").first)
    XCTAssertEqual(found.iso, "2016-06-30")
    XCTAssertTrue(found.repaired)
    XCTAssertEqual(ReceiptDate.dates(in: "20:56 = OT/0T/17").first?.iso, "2017-07-07")
    XCTAssertNil(ReceiptDate.dates(in: "BX-OO-16").first, "no letter stands for a day of 0")
  }

  func testGarbledDateShapes() {
    XCTAssertTrue(ReceiptDate.looksGarbled("Date > $5/05/2017 10:42:40 AM"))
    XCTAssertTrue(ReceiptDate.looksGarbled("ViE05 14 Date: 83/03/2017"))
    XCTAssertTrue(ReceiptDate.looksGarbled("BO-Cb-16"))
    XCTAssertFalse(ReceiptDate.looksGarbled("Dete 15/05/2017 10:42:40 4M"))
    XCTAssertFalse(ReceiptDate.looksGarbled("27/06/18 09:49 - 27/06/18 10:08"))
  }

  func testADateReadOutOfGarbleYieldsToOneReadWhole() {
    // sroie_265: the binarised page read better overall but read "15" as "$5".
    let extractor = ReceiptExtractor()
    let binarised = ReceiptReading(
      name: "binarised",
      receipt: extractor.extract(
        receiptRows(["SHOP SDN BHD", "Date > $5/05/2017 10:42:40 AM", "TOTAL RM 9.00"])),
      readability: 255)
    XCTAssertEqual(binarised.receipt.date, "2017-05-05")
    let grey = ReceiptReading(
      name: "grey",
      receipt: extractor.extract(
        receiptRows(["SHOP SDN BHD", "Dete 15/05/2017 10:42:40 4M", "TOTAL RM 9.00"])),
      readability: 200)
    let fused = ReceiptReading.fuse([grey, binarised])
    XCTAssertEqual(fused.imageVariant, "binarised")
    XCTAssertEqual(fused.date, "2017-05-15")
    XCTAssertEqual(fused.fields?["date"]?.reading, "grey")
    // Two clean readings: the base keeps its own.
    let clean = ReceiptReading(
      name: "binarised",
      receipt: extractor.extract(receiptRows(["SHOP SDN BHD", "Date 16/05/2017", "TOTAL RM 9.00"])),
      readability: 255)
    XCTAssertEqual(ReceiptReading.fuse([grey, clean]).date, "2017-05-16")
  }

  func testTheBlockReadingsDateWinsOnlyFromAMoreConfidentLine() throws {
    let extractor = ReceiptExtractor()
    // sroie_003: the column layout read the faint date line at confidence 51, the block layout
    // read it whole.
    let page = extractor.extract(
      receiptRows(["SHOP", "Doe 1o C000 31664 Date 26/12/2018", "TOTAL 9.00"], confidence: 51))
    let block = extractor.extract(
      receiptRows(["SHOP", "Doc No CS00031664 Date 25/12/2018", "TOTAL 9.00"], confidence: 80))
    let field = try XCTUnwrap(ReceiptStage.dateFromBlock(page: page, block: block))
    XCTAssertEqual(field.value, "2018-12-25")
    XCTAssertEqual(field.reading, "block")
    XCTAssertNil(field.line)
    let unsure = extractor.extract(
      receiptRows(["SHOP", "Doc No CS00031664 Date 25/12/2018", "TOTAL 9.00"], confidence: 40))
    XCTAssertNil(ReceiptStage.dateFromBlock(page: page, block: unsure))
    XCTAssertNil(ReceiptStage.dateFromBlock(page: page, block: page), "the same date changes nothing")
  }
}

final class SauvolaTests: XCTestCase {
  /// Every pixel against Sauvola's threshold computed directly from its window.
  func testMatchesTheThresholdOfEachWindow() {
    var generator = SeededGenerator(seed: 7)
    let w = 37, h = 23, radius = 4, k = 0.3
    let gray = Bitmap(width: w, height: h, format: .gray) { out in
      for i in 0..<(w * h) { out[i] = UInt8.random(in: 0...255, using: &generator) }
    }
    let binary = ReceiptImaging.sauvola(gray, radius: radius, k: k)
    var differing = 0
    for y in 0..<h {
      for x in 0..<w {
        var values: [Double] = []
        for wy in max(0, y - radius)..<min(h, y + radius + 1) {
          for wx in max(0, x - radius)..<min(w, x + radius + 1) {
            values.append(Double(gray.pixels[wy * w + wx]))
          }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        let threshold = mean * (1 + k * (variance.squareRoot() / 128 - 1))
        let expected: UInt8 = Double(gray.pixels[y * w + x]) > threshold ? 255 : 0
        if binary.pixels[y * w + x] != expected && abs(Double(gray.pixels[y * w + x]) - threshold) > 1e-6 {
          differing += 1
        }
      }
    }
    XCTAssertEqual(differing, 0)
    XCTAssertTrue(binary.pixels.contains(0) && binary.pixels.contains(255))
  }
}
