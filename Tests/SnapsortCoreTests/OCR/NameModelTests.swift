import Foundation
import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

final class NameModelTests: XCTestCase {
  private func item(_ text: String, x: Double = 50, y: Double, h: Double, conf: Double = 90)
    -> TesseractEngine.Item
  {
    TesseractEngine.Item(text: text, box: [x, y, Double(text.count) * h * 0.6, h], confidence: conf)
  }

  private func words(_ lines: [TesseractEngine.Item]) -> [TesseractEngine.Item] {
    lines.flatMap { line in
      line.text.split(separator: " ").map {
        TesseractEngine.Item(text: String($0), box: line.box, confidence: line.confidence)
      }
    }
  }

  private func bundled() throws -> NameModel {
    try NameModel.load(from: StageContext().resolve(NameModel.bundledFileName))
  }

  /// The fitting script's probabilities for the examples it stored are what this build computes.
  func testBundledModelReproducesTheFittingScript() throws {
    let model = try bundled()
    let examples = try XCTUnwrap(model.examples)
    XCTAssertFalse(examples.isEmpty)
    for example in examples {
      XCTAssertEqual(model.probability(example.features), example.probability, accuracy: 1e-5)
    }
    XCTAssertEqual(Set(model.features), Set(NameLineCandidates.featureNames))
    XCTAssertTrue((0..<1).contains(model.threshold))
  }

  /// The same for the fitted Cyrillic choice, which must exist: without it no Cyrillic reading is
  /// ever taken.
  func testBundledCyrillicChoiceReproducesTheFittingScript() throws {
    let choice = try XCTUnwrap(try bundled().cyrillic)
    let examples = try XCTUnwrap(choice.examples)
    XCTAssertFalse(examples.isEmpty)
    for example in examples {
      XCTAssertEqual(choice.probability(example.features), example.probability, accuracy: 1e-5)
    }
    XCTAssertEqual(Set(choice.features), Set(CyrillicChoice.featureNames))
  }

  /// The Swift measurements match the fitting script's (bench/names/fit_names.py
  /// `cyrillic_measurements`) on a reading it logged.
  func testCyrillicMeasurements() {
    let values = CyrillicChoice.measurements(
      cyrillic: .init(text: "Аптека Ёж", confidence: 81), latin: .init(text: "Lidl Café", confidence: 60),
      pageConfidence: 0.4)
    XCTAssertEqual(values["confidence_margin"]!, 0.21, accuracy: 1e-9)
    XCTAssertEqual(values["cyrillic_share"], 1)
    XCTAssertEqual(values["cyrillic_letters"]!, log1p(8), accuracy: 1e-9)
    XCTAssertEqual(values["latin_letters"]!, log1p(8), accuracy: 1e-9)
    XCTAssertEqual(values["latin_diacritics"], 1)
    XCTAssertEqual(values["page_confidence"], 0.4)
  }

  func testModelWithAFeatureThisBuildDoesNotComputeIsRejected() throws {
    var model = try bundled()
    model.features[0] = "stroke_width"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("name-model-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try JSONEncoder().encode(model).write(to: url)
    XCTAssertThrowsError(try NameModel.load(from: url)) { error in
      XCTAssertTrue("\(error)".contains("stroke_width"), "\(error)")
    }
  }

  func testBrandRanksAboveProgrammeSmallPrintAndHolder() throws {
    let lines = [
      item("Treuekarte", y: 230, h: 34), item("Bitte an der Kasse vorzeigen", y: 520, h: 22),
      item("Fahrrad Fritz", y: 60, h: 80), item("ANNA SCHMIDT", y: 400, h: 30),
    ]
    let ranked = try bundled().rank(
      NameLineCandidates.candidates(lines: lines, words: words(lines), width: 1012, height: 638))
    XCTAssertEqual(ranked.first?.text, "Fahrrad Fritz")
  }

  func testNameOnTwoLinesIsOneCandidate() {
    let lines = [
      item("Vesterbro", y: 60, h: 70), item("Kaffe", y: 140, h: 70), item("Scan at checkout", y: 520, h: 22),
    ]
    let candidates = NameLineCandidates.candidates(
      lines: lines, words: words(lines), width: 1012, height: 638)
    let joined = candidates.first { $0.text == "Vesterbro Kaffe" }
    XCTAssertEqual(joined?.lineBoxes.count, 2)
    XCTAssertEqual(joined?.features["lines"], 2)
    // Small print under the name is another size: never joined to it.
    XCTAssertFalse(candidates.contains { $0.text.contains("Kaffe Scan") })
  }

  /// An accent on one line only makes its box taller; the lines are still one name.
  func testNameLineTallerByItsAccentsIsJoined() {
    let lines = [item("BANQUE", y: 58, h: 25), item("CHÂTELET", y: 92, h: 34), item("LOIC", y: 461, h: 36)]
    let candidates = NameLineCandidates.candidates(
      lines: lines, words: words(lines), width: 1012, height: 638)
    XCTAssertTrue(candidates.contains { $0.text == "BANQUE CHÂTELET" })
    XCTAssertFalse(NameLineCandidates.continues(lines[0].box, item("BIG", y: 92, h: 42).box))
  }

  /// The coarse reading adds the lines the page reading has no candidate for, marked as such.
  func testCoarseReadingAddsOnlyNewLines() {
    let page = [
      item("Pag", y: 60, h: 40), item("Scan at checkout", y: 520, h: 22), item("Vesterbro", y: 300, h: 30),
    ]
    let coarse = [item("PageTurner", y: 50, h: 90), item("Vesterbro", y: 300, h: 30)]
    let candidates = NameLineCandidates.candidates(
      page: .init(lines: page, words: words(page), timedOut: false),
      coarse: .init(lines: coarse, words: words(coarse), timedOut: false),
      width: 1012, height: 638)
    XCTAssertEqual(candidates.filter { $0.text == "Vesterbro" }.count, 1)
    XCTAssertEqual(candidates.first { $0.text == "Vesterbro" }?.features["coarse_reading"], 0)
    XCTAssertEqual(candidates.first { $0.text == "PageTurner" }?.features["coarse_reading"], 1)
  }

  /// A name's second line that only the coarse reading found joins the page reading's first.
  func testCoarseLineContinuesAPageLine() {
    let page = [item("ACE", y: 68, h: 50), item("Scan at checkout", y: 520, h: 22)]
    let coarse = [item("HARDWARE", y: 162, h: 58), item("Scan at checkout", y: 521, h: 22)]
    let candidates = NameLineCandidates.candidates(
      page: .init(lines: page, words: words(page), timedOut: false),
      coarse: .init(lines: coarse, words: words(coarse), timedOut: false),
      width: 1012, height: 638)
    let joined = candidates.first { $0.text == "ACE HARDWARE" }
    XCTAssertNotNil(joined)
    XCTAssertEqual(joined?.features["coarse_reading"], 1)
    XCTAssertEqual(joined?.features["line_gap"] ?? 0, 44.0 / 54.0, accuracy: 1e-9)
    XCTAssertEqual(candidates.filter { $0.text == "Scan at checkout" }.count, 0)
  }

  /// A name's line found in the pixels is a candidate alone and, with runs, joined to the page's
  /// line above it, keeping its own reading for its line; page lines alone are not its candidates.
  func testImageLineJoinsThePageLineAbove() {
    let page = [item("Caf", y: 66, h: 57), item("Scan at checkout", y: 520, h: 22)]
    let found = item("Fénelon", y: 169, h: 61)
    let lines = page + [found]
    let measured = NameLineCandidates.candidates(lines: lines, words: words(lines), width: 1012, height: 638)
    let reading = (text: "Fénelon", confidence: 90.0)
    let alone = CardNameReader.imageLineCandidates(measured, line: found.box, reading: reading, runs: false)
    XCTAssertEqual(alone.map(\.text), ["Fénelon"])
    let withRuns = CardNameReader.imageLineCandidates(measured, line: found.box, reading: reading, runs: true)
    XCTAssertEqual(Set(withRuns.map(\.text)), ["Fénelon", "Caf Fénelon"])
    let run = withRuns.first { $0.lineBoxes.count == 2 }
    XCTAssertEqual(run?.features["image_line"], 1)
    XCTAssertEqual(run?.readLines[1]?.text, "Fénelon")
    XCTAssertNil(run?.readLines[0])
  }

  /// A line that is only `&` joins the name's lines above and below it, kept as the page read it;
  /// a run never starts or ends with it.
  func testAmpersandLineJoinsTheLinesAroundIt() {
    let lines = [
      item("KITCHEN", x: 83, y: 93, h: 50), item("&", x: 80, y: 167, h: 51), item("CO", x: 81, y: 242, h: 50),
      item("OLIVIA MORGAN", y: 548, h: 21),
    ]
    let candidates = NameLineCandidates.candidates(
      lines: lines, words: words(lines), width: 1012, height: 638)
    let joined = candidates.first { $0.text == "KITCHEN & CO" }
    XCTAssertEqual(joined?.lineBoxes.count, 3)
    XCTAssertEqual(joined?.readLines[1]?.text, "&")
    XCTAssertNil(joined?.readLines[0])
    XCTAssertFalse(candidates.contains { $0.text.hasPrefix("&") || $0.text.hasSuffix("&") })
    XCTAssertEqual(candidates.first { $0.text == "KITCHEN" }?.features["height_rank"], 0)
  }

  /// A line found in the pixels over a line the page read too is its own reading's text only, and
  /// a page line beside it keeps the page's words: two readings of one print never join in one
  /// text (`ESSO ESSO`).
  func testFoundLineOverThePageLineIsReadOnce() {
    let page = [item("Gartnerei", y: 80, h: 50), item("Schafer", y: 150, h: 50)]
    let found = TesseractEngine.Item(text: "Schäfer", box: [40, 140, 260, 70], confidence: 88)
    let own = [TesseractEngine.Item(text: "Schäfer", box: [45, 145, 240, 60], confidence: 88)]
    let candidates = CardNameReader.foundLineCandidates(
      found, words: own, page: .init(lines: page, words: words(page), timedOut: false), size: (1012, 638),
      runs: true)
    XCTAssertEqual(Set(candidates.map(\.text)), ["Schäfer", "Gartnerei Schäfer"])
    XCTAssertEqual(candidates.first { $0.lineBoxes.count == 1 }?.readLines[0]?.text, "Schäfer")
    XCTAssertEqual(candidates.first { $0.lineBoxes.count == 1 }?.features["words"], 1)
  }

  /// Punctuation at a line's ends is trimmed, but not the mark that closes a quotation inside the
  /// name, nor an ampersand between two of its words.
  func testCleaningKeepsClosingQuotesAndAmpersands() {
    let words = [
      TesseractEngine.Item(text: "Банк", box: [10, 10, 80, 40], confidence: 90),
      TesseractEngine.Item(text: "«Вишня»", box: [100, 10, 120, 40], confidence: 90),
      TesseractEngine.Item(text: "&", box: [230, 10, 20, 40], confidence: 40),
      TesseractEngine.Item(text: "Co.", box: [260, 10, 50, 40], confidence: 90),
    ]
    let line = { (count: Int) in
      TesseractEngine.Item(text: "", box: [0, 0, Double([0, 90, 220, 250, 320][count]), 60], confidence: 90)
    }
    XCTAssertEqual(CardNamePicker.clean(line(2), words: words), "Банк «Вишня»")
    XCTAssertEqual(CardNamePicker.clean(line(4), words: words), "Банк «Вишня» & Co")
    // Trailing, with nothing after it: a speck, not part of the name.
    XCTAssertEqual(CardNamePicker.clean(line(3), words: words), "Банк «Вишня»")
    XCTAssertEqual(CardNamePicker.trimmed("«Вишня»."), "«Вишня»")
    XCTAssertEqual(CardNamePicker.trimmed("(Outlet) Store"), "(Outlet) Store")
    XCTAssertEqual(CardNamePicker.trimmed("Вишня»"), "Вишня")
  }

  func testLexiconCoversSmallPrintNotBrands() {
    let lexicon = CardNameLexicon.shared
    XCTAssertEqual(lexicon.coverage(of: "Scan at checkout").boilerplate, 1)
    XCTAssertEqual(lexicon.coverage(of: "Escanear en caja").boilerplate, 1)
    XCTAssertEqual(lexicon.coverage(of: "Kundenkarte").programme, 1)
    XCTAssertEqual(lexicon.coverage(of: "Bäckerei Grün").boilerplate, 0)
    XCTAssertEqual(lexicon.coverage(of: "ANNA KOWALSKA").givenName, 1)
    // Folded on both sides: the page reading loses diacritics.
    XCTAssertEqual(lexicon.coverage(of: "Fidelite").programme, 1)
  }

  func testLineIsScaledToTheReadingHeight() throws {
    let page = Bitmap(width: 1000, height: 600, format: .gray, fill: 255)
    let line = try XCTUnwrap(
      CardNameReader.lineImage(Box(x: 100, y: 100, width: 400, height: 96), of: page, height: 48))
    // The box and its margins (a third of its height each side) at half size.
    XCTAssertEqual(line.height, 80)
    XCTAssertEqual(line.width, 232)
  }
}
