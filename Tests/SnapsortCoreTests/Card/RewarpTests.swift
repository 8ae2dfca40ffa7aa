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
    let updated = try Rewarp.run(
      [Rewarp.Correction(file: "b.jpg", quad: quad)], records: first.records, root: input, config: config,
      outputDirectory: out)
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
        [Rewarp.Correction(file: "missing.jpg", quad: quad)], records: first.records, root: input,
        config: config, outputDirectory: out))
  }
}
