import Foundation
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import XCTest

/// Issue #22, "no command destroys a good record": `rewarp`, a rerun and an export, each on a
/// copy of one finished run of the default pipeline (the Visa card the issue names, a loyalty
/// card and a receipt), must never turn an ok record into an error or into another kind, and a
/// command it refuses changes nothing at all.
final class RecordSafetyTests: XCTestCase {
  nonisolated(unsafe) static var finished: URL!
  static let visa = "cards/card-05-rotated-90.jpg"
  static let loyalty = "cards/card-01-wood.jpg"
  static let receipt = "receipts/receipt-03-de-scan.jpg"

  private var directory: URL!
  private var input: URL { Self.finished.appendingPathComponent("in") }
  private var out: URL { directory.appendingPathComponent("out") }

  override class func setUp() {
    super.setUp()
    do {
      finished = try CLI.temporaryDirectory()
      for file in [visa, loyalty, receipt] {
        let target = finished.appendingPathComponent("in/\(file)")
        try FileManager.default.createDirectory(
          at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("samples/\(file)"), to: target)
      }
      let run = try CLI.run([
        "run", finished.appendingPathComponent("in").path, "--out",
        finished.appendingPathComponent("out").path,
        "--jobs", "1", "--quiet",
      ])
      XCTAssertEqual(run.status, 0, run.stderr)
    } catch {
      XCTFail("the finished run could not be made: \(error)")
    }
  }

  override class func tearDown() {
    if let finished { try? FileManager.default.removeItem(at: finished) }
    super.tearDown()
  }

  override func setUpWithError() throws {
    directory = try CLI.temporaryDirectory()
    try FileManager.default.copyItem(at: Self.finished.appendingPathComponent("out"), to: out)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  // MARK: - rewarp

  /// Finding 1: without --root, from another working folder, rewarp found no photo and turned
  /// the Visa card into an error record (and the store lost it).
  func testRewarpTakesThePhotosFromTheRun() throws {
    let before = try OutputSnapshot(out)
    let result = try rewarp("\(Self.visa),\(try visaCorners())\n", in: directory)
    XCTAssertEqual(result.status, 0, result.stderr)
    let after = try OutputSnapshot(out)
    assertNoGoodRecordBroken(before, after)
    let record = try XCTUnwrap(after.records[Self.visa])
    XCTAssertEqual(record.card?.quad, before.records[Self.visa]?.card?.quad)
    XCTAssertEqual(record.card?.payment?.network, "visa")
    XCTAssertEqual(after.stored[Self.visa], record, "the store holds the new record")
    XCTAssertEqual(after.records[Self.receipt], before.records[Self.receipt])
    XCTAssertEqual(after.records[Self.loyalty], before.records[Self.loyalty])
  }

  /// Finding 1: corners far outside the image were accepted with exit 0; a bow tie, corners
  /// listed counter-clockwise and a sliver are refused too, before anything is touched.
  func testRewarpRefusesCornersThatAreNoCardInTheImage() throws {
    let before = try OutputSnapshot(out)
    let cases = [
      "-500,172,9000,172,9000,9000,-500,9000": "outside the image",
      "494,314,1317,1492,1271,174,532,1406": "convex",
      "494,314,532,1406,1317,1492,1271,174": "counter-clockwise",
      "100,100,110,100,110,104,100,104": "too small",
    ]
    for (corners, reason) in cases {
      let result = try rewarp("\(Self.visa),\(corners)\n", root: input)
      XCTAssertEqual(result.status, 2, "\(corners): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains(reason), "\(corners): \(result.stderr)")
      XCTAssertEqual(try OutputSnapshot(out), before, "\(corners): nothing changes")
    }
  }

  /// Finding 1: a receipt given corners became a nameless card, merchant, total and items gone.
  func testRewarpRefusesAReceipt() throws {
    let before = try OutputSnapshot(out)
    XCTAssertEqual(before.records[Self.receipt]?.kind, .receipt)
    let result = try rewarp("\(Self.receipt),100,100,900,100,900,1200,100,1200\n", root: input)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(result.stderr.contains("\(Self.receipt) is a receipt"), result.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)
  }

  /// "On any failure the old record stands": a photo that can no longer be read gives no new
  /// record, and the old record, its crop and the store stay as they were.
  func testAFailedRewarpKeepsTheOldRecordAndItsCrop() throws {
    let moved = directory.appendingPathComponent("moved")
    try FileManager.default.copyItem(at: input, to: moved)
    try Data("no longer a photo".utf8).write(to: moved.appendingPathComponent(Self.visa))
    let before = try OutputSnapshot(out)
    let result = try rewarp("\(Self.visa),\(try visaCorners())\n", root: moved)
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("kept the old record of \(Self.visa)"), result.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)
  }

  /// An output whose run.json does not name the run's folders (an older snapsort) needs --root,
  /// and says so instead of looking in the working folder.
  func testRewarpOfAnOlderOutputAsksForRoot() throws {
    let summaryURL = out.appendingPathComponent("run.json")
    var summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: summaryURL)) as? [String: Any])
    summary["input_paths"] = nil
    try JSONSerialization.data(withJSONObject: summary).write(to: summaryURL)
    let before = try OutputSnapshot(out)
    let result = try rewarp("\(Self.visa),\(try visaCorners())\n", in: directory)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(result.stderr.contains("--root"), result.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)
    XCTAssertEqual(try rewarp("\(Self.visa),\(try visaCorners())\n", root: input).status, 0)
  }

  // MARK: - rerun and export

  /// Finding 2: a rerun with another preset silently replaced every name, issuer and receipt
  /// with barcode-only records and left the crops behind. It now asks for --fresh; with it, the
  /// records are replaced as asked and no crop is left that no record names.
  func testRerunWithAnotherConfigAsksForFresh() throws {
    let before = try OutputSnapshot(out)
    let rerun = try CLI.run(["run", input.path, "--preset", "screenshots", "--out", out.path, "--quiet"])
    XCTAssertEqual(rerun.status, 2, rerun.stderr)
    XCTAssertTrue(rerun.stderr.contains("--fresh"), rerun.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)

    let fresh = try CLI.run([
      "run", input.path, "--preset", "screenshots", "--out", out.path, "--fresh", "--quiet",
    ])
    XCTAssertLessThanOrEqual(fresh.status, 1, fresh.stderr)
    let after = try OutputSnapshot(out)
    XCTAssertEqual(Set(after.records.keys), Set(before.records.keys))
    XCTAssertEqual(after.crops, [:], "the screenshots preset writes no crops; the cards run's are removed")
  }

  /// A rerun of the same config reuses every record: nothing changes but run.json.
  func testRerunWithTheSameConfigKeepsEveryRecord() throws {
    let before = try OutputSnapshot(out)
    let rerun = try CLI.run(["run", input.path, "--out", out.path, "--quiet"])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    let after = try OutputSnapshot(out)
    XCTAssertEqual(after.records, before.records)
    XCTAssertEqual(after.crops, before.crops)
  }

  /// Records whose config is not known (no run.json) are not taken as this config's.
  func testRerunIntoRecordsOfAnUnknownConfigAsksForFresh() throws {
    try FileManager.default.removeItem(at: out.appendingPathComponent("run.json"))
    try? FileManager.default.removeItem(at: out.appendingPathComponent(".snapsort"))
    let before = try OutputSnapshot(out)
    let rerun = try CLI.run(["run", input.path, "--out", out.path, "--quiet"])
    XCTAssertEqual(rerun.status, 2, rerun.stderr)
    XCTAssertTrue(rerun.stderr.contains("--fresh"), rerun.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)
  }

  /// A photo that left the folder leaves the records, and its crop leaves cards/.
  func testRerunRemovesTheCropOfAPhotoThatLeft() throws {
    let fewer = directory.appendingPathComponent("fewer")
    try FileManager.default.copyItem(at: input, to: fewer)
    try FileManager.default.removeItem(at: fewer.appendingPathComponent(Self.loyalty))
    let before = try OutputSnapshot(out)
    let rerun = try CLI.run(["run", fewer.path, "--out", out.path, "--quiet"])
    XCTAssertEqual(rerun.status, 0, rerun.stderr)
    let after = try OutputSnapshot(out)
    assertNoGoodRecordBroken(before, after, except: [Self.loyalty])
    let crop = try XCTUnwrap(before.records[Self.loyalty]?.card?.crop)
    XCTAssertNil(after.crops[crop])
    XCTAssertEqual(after.crops.count, before.crops.count - 1)
  }

  func testExportChangesNoRecord() throws {
    let before = try OutputSnapshot(out)
    let export = try CLI.run([
      "export", "catima", "-o", directory.appendingPathComponent("cards.zip").path, "--db", out.path,
    ])
    XCTAssertEqual(export.status, 0, export.stderr)
    XCTAssertEqual(try OutputSnapshot(out), before)
  }

  // MARK: - Helpers

  /// The Visa card's corners as the run found them, clockwise from its own top-left, as CSV
  /// numbers: a correction that leaves the card as it was.
  private func visaCorners() throws -> String {
    let quad = try XCTUnwrap(OutputSnapshot(out).records[Self.visa]?.card?.quad)
    return quad.corners.map { "\($0.x),\($0.y)" }.joined(separator: ",")
  }

  private func rewarp(_ csv: String, root: URL? = nil, in folder: URL? = nil) throws -> CLI.Result {
    let corners = directory.appendingPathComponent("corners-\(UUID().uuidString.prefix(8)).csv")
    try Data(csv.utf8).write(to: corners)
    return try CLI.run(
      ["rewarp", corners.path, "--out", out.path] + (root.map { ["--root", $0.path] } ?? []), in: folder)
  }

  private func assertNoGoodRecordBroken(
    _ before: OutputSnapshot, _ after: OutputSnapshot, except: Set<String> = [], line: UInt = #line
  ) {
    for (file, old) in before.records where old.status == .ok && !except.contains(file) {
      XCTAssertEqual(after.records[file]?.status, .ok, file, line: line)
      XCTAssertEqual(after.records[file]?.kind, old.kind, file, line: line)
      XCTAssertEqual(after.stored[file]?.status, .ok, "the store: \(file)", line: line)
    }
  }
}

/// What a command may change in an output folder: records, the store's records and the crops.
struct OutputSnapshot: Equatable {
  var records: [String: Record] = [:]
  var stored: [String: Record] = [:]
  var crops: [String: Data] = [:]

  init(_ out: URL) throws {
    for record in try RecordCoding.readLines(out.appendingPathComponent("records.jsonl")) {
      records[record.file] = record
    }
    let store = try RecordStore(url: out.appendingPathComponent(RecordStore.fileName))
    for entry in try store.allRecords() { stored[entry.record.file] = entry.record }
    let cards = out.appendingPathComponent("cards")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: cards.path)) ?? [] {
      crops["cards/\(name)"] = try Data(contentsOf: cards.appendingPathComponent(name))
    }
  }
}
