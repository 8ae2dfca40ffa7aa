import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// `snapsort rewarp`'s core: corner files in both formats, and a real run whose records are
/// replaced for the corrected file only.
final class RewarpTests: XCTestCase {
  func testReadsJSONListJSONObjectAndCSV() throws {
    let quad = [Point(10, 20), Point(310, 25), Point(305, 215), Point(12, 210)]
    let list = #"[{"file": "a/b.jpg", "quad": [[10, 20], [310, 25], [305, 215], [12, 210]]}]"#
    let object = #"{"a/b.jpg": [[10, 20], [310, 25], [305, 215], [12, 210]]}"#
    let csv = "file,x1,y1,x2,y2,x3,y3,x4,y4\na/b.jpg, 10,20,310,25,305,215,12,210\n"
    for text in [list, object, csv] {
      XCTAssertEqual(
        try Rewarp.corrections(from: Data(text.utf8)), [Rewarp.Correction(file: "a/b.jpg", quad: quad)])
    }
    let quoted = "\"x, y.jpg\",10,20,310,25,305,215,12,210\n"
    XCTAssertEqual(try Rewarp.corrections(from: Data(quoted.utf8)).first?.file, "x, y.jpg")
  }

  func testRejectsBadCorners() {
    let bowtie = #"[{"file": "a.jpg", "quad": [[0, 0], [100, 100], [100, 0], [0, 100]]}]"#
    let three = "a.jpg,0,0,100,0,100,100\n"
    let twice = "a.jpg,0,0,100,0,100,60,0,60\na.jpg,0,0,100,0,100,60,0,60\n"
    for text in [bowtie, three, twice, "{not json"] {
      XCTAssertThrowsError(try Rewarp.corrections(from: Data(text.utf8)), text)
    }
  }

  func testReplacesOnlyTheCorrectedRecordKeepingTheGivenCornerOrder() throws {
    let root = try TestImages.temporaryDirectory()
    let out = root.appendingPathComponent("out")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    // Two photos of the quadrant image (red top-left … white bottom-right), of different sizes
    // so their crops (named by content hash) differ.
    for (name, width) in [("a.jpg", 640), ("b.jpg", 600)] {
      try ImageEncoder.jpeg(TestImages.quadrants(width: width, height: 480), quality: 95)
        .write(to: input.appendingPathComponent(name))
    }
    let config = try PipelineConfig.parse(
      Data(
        #"{"version": 1, "stages": [{"stage": "load"}, {"stage": "detect_card"}, {"stage": "warp"}, {"stage": "palette"}]}"#
          .utf8),
      context: StageContext(outputDirectory: out))
    let first = try RunJob(inputs: [input], config: config, outputDirectory: out, jobs: 1).run()
    XCTAssertEqual(first.records.map(\.file), ["a.jpg", "b.jpg"])

    // The person says the card is the bottom-right (white) and top-right (green) half, turned:
    // its top-left corner is the image's bottom-right.
    let quad = [Point(600, 480), Point(300, 480), Point(300, 0), Point(600, 0)]
    let sources = ["b.jpg": input.appendingPathComponent("b.jpg")]
    let outcome = try Rewarp.run(
      [Rewarp.Correction(file: "b.jpg", quad: quad)], records: first.records, sources: sources,
      config: config, outputDirectory: out)
    XCTAssertEqual(outcome.replaced, ["b.jpg"], "\(outcome.kept)")
    let updated = outcome.records
    XCTAssertEqual(updated.map(\.file), ["a.jpg", "b.jpg"])
    XCTAssertEqual(updated[0], first.records.first { $0.file == "a.jpg" })
    let card = try XCTUnwrap(updated[1].card)
    XCTAssertEqual(updated[1].status, .ok)
    XCTAssertEqual(card.quad, Quad(quad))
    XCTAssertEqual(card.confidence, 1)
    // The crop's top-left is the white quadrant (turned 180°), its bottom-left the green one.
    let crop = try XCTUnwrap(card.crop)
    let data = try Data(contentsOf: out.appendingPathComponent(crop))
    let image = try data.withUnsafeBytes { try JPEGDecoder.decode($0, reduction: 1) }
    XCTAssertGreaterThan(TestImages.meanColour(image, x: 20, y: 20).min()!, 220)
    let bottomLeft = TestImages.meanColour(image, x: 20, y: image.height - 30)
    XCTAssertGreaterThan(bottomLeft[1], 150)
    XCTAssertLessThan(bottomLeft[0], 80)
    // The palette ran again on the new crop: white and green, no red or blue.
    let hexes = try XCTUnwrap(card.colors).map(\.hex)
    let labs = hexes.compactMap { CIELAB.lab(hex: $0) }
    XCTAssertTrue(labs.contains { $0.l > 90 && $0.chroma < 8 }, "\(hexes)")
    XCTAssertTrue(labs.contains { $0.a < -30 }, "\(hexes)")
    XCTAssertFalse(labs.contains { $0.a > 30 || $0.b < -30 }, "\(hexes)")

    XCTAssertThrowsError(
      try Rewarp.run(
        [Rewarp.Correction(file: "missing.jpg", quad: quad)], records: first.records, sources: sources,
        config: config, outputDirectory: out))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".snapsort").path)
        .filter { $0.hasPrefix("rewarp-") }, [], "the new crops' folder is gone")
  }

  /// Corners are checked against the record's image before any photo is touched.
  func testProblemsNameEachCorrectionThatIsNoCardInItsImage() {
    var card = Record(file: "card.jpg", sha256: "c")
    card.kind = .card
    card.image = ImageInfo(width: 1000, height: 800, orientation: 1, format: "jpeg")
    var receipt = Record(file: "receipt.jpg", sha256: "r")
    receipt.kind = .receipt
    receipt.image = card.image
    var unread = Record(file: "unread.jpg", sha256: "")
    unread.status = .error
    let good = [Point(100, 100), Point(900, 120), Point(880, 700), Point(90, 690)]
    func problems(_ file: String, _ quad: [Point]) -> [String] {
      Rewarp.problems([Rewarp.Correction(file: file, quad: quad)], records: [card, receipt, unread])
    }
    XCTAssertEqual(problems("card.jpg", good), [])
    // 2 % of a side beyond the edge is a card cut off by the frame; more is a mistake.
    XCTAssertEqual(
      problems("card.jpg", [Point(-19, -15), Point(1019, 0), Point(1000, 815), Point(0, 800)]), [])
    let cases: [(String, [Point], String)] = [
      (
        "card.jpg", [Point(-500, 172), Point(9000, 172), Point(9000, 9000), Point(-500, 9000)],
        "outside the image"
      ),
      ("card.jpg", Array(good.reversed()), "counter-clockwise"),
      ("card.jpg", [good[0], good[2], good[1], good[3]], "convex"),
      ("card.jpg", [Point(100, 100), Point(140, 100), Point(140, 125), Point(100, 125)], "too small"),
      ("receipt.jpg", good, "receipt.jpg is a receipt"),
      ("unread.jpg", good, "could not read"),
      ("other.jpg", good, "no record"),
    ]
    for (file, quad, expected) in cases {
      let found = problems(file, quad)
      XCTAssertEqual(found.count, 1, "\(file) \(quad)")
      XCTAssertTrue(found.first?.contains(expected) == true, "\(found)")
    }
  }

  /// A new record replaces the old one only when it is an ok card record of the same photo.
  func testRefusalKeepsTheOldRecordUnlessTheNewOneIsACompleteCard() {
    var old = Record(file: "a.jpg", sha256: "abc")
    old.kind = .card
    var new = old
    XCTAssertNil(Rewarp.refusal(of: new, replacing: old))
    new.status = .error
    new.error = RecordError(stage: "ocr", message: "timed out")
    XCTAssertEqual(Rewarp.refusal(of: new, replacing: old), "the ocr stage failed: timed out")
    new = old
    new.kind = .other
    XCTAssertNotNil(Rewarp.refusal(of: new, replacing: old))
    new = old
    new.sha256 = "def"
    XCTAssertNotNil(Rewarp.refusal(of: new, replacing: old))
    XCTAssertNotNil(Rewarp.refusal(of: nil, replacing: old))
  }

  /// Corners moved on a wallet pass outline the pass again: the warp crops it in its own shape.
  func testCornersMovedOnAPassKeepItAPass() throws {
    let quad = [Point(10, 10), Point(110, 10), Point(110, 160), Point(10, 160)]
    var pass = Record(file: "pass.png", sha256: "abc")
    pass.kind = .card
    pass.card = CardRecord()
    pass.card?.shape = .pass
    func shape(replacing old: Record?) throws -> CardShape {
      let geometry = Rewarp.seeds(quad, replacing: old).compactMap { $0 as? CardGeometry }
      return try XCTUnwrap(geometry.first).shape
    }
    XCTAssertEqual(try shape(replacing: pass), .pass)
    var card = pass
    card.card?.shape = nil
    XCTAssertEqual(try shape(replacing: card), .card)
    XCTAssertEqual(try shape(replacing: nil), .card)
  }
}
