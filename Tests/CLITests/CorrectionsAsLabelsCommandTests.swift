import Foundation
import SnapsortOutputs
import XCTest

/// A reviewed run's corrections as labelled data, end to end on the real binary: `check
/// --corrections` takes the corrected fields as expected ones, `train-issuers --corrections`
/// learns from the issuers chosen by hand.
extension StoreCommandTests {
  func testCheckAndTrainIssuersTakeAReviewedRunsCorrections() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reviewed = directory.appendingPathComponent("reviewed")
    try FileManager.default.copyItem(at: Self.out, to: reviewed)

    let nothing = try CLI.run(["check", "--corrections", reviewed.path, Self.out.path])
    XCTAssertEqual(nothing.status, 1, "no corrections compare nothing, and that must not pass")
    XCTAssertTrue(nothing.stderr.contains("no corrected records"), nothing.stderr)

    let store = try RecordStore(url: reviewed.appendingPathComponent(RecordStore.fileName))
    let file = "cards-card-01-wood.jpg"
    let card = try XCTUnwrap(store.entry(file: file).record.card)
    let readName = try XCTUnwrap(card.name?.suggested)
    let quad = try XCTUnwrap(card.quad)
    try store.correct(file: file) {
      $0.name = "Somebody Else"
      $0.issuer = .init(id: "zabka", name: "Żabka")
      // One pixel off on every corner: within the corners' tolerance.
      $0.quad = quad.map { $0 + 1 }
    }
    let differs = try CLI.run(["check", "--corrections", reviewed.path, Self.out.path])
    XCTAssertEqual(differs.status, 1, differs.stdout + differs.stderr)
    XCTAssertTrue(differs.stdout.contains("card.name.suggested: expected \"Somebody Else\""), differs.stdout)
    XCTAssertFalse(differs.stdout.contains("card.quad"), differs.stdout)

    try store.correct(file: file) { $0.name = readName }
    let agrees = try CLI.run(["check", "--corrections", reviewed.path, Self.out.path])
    if card.issuer?.id == "zabka" {
      XCTAssertEqual(agrees.status, 0, agrees.stdout + agrees.stderr)
      XCTAssertTrue(agrees.stdout.contains("1 of 1 files match"), agrees.stdout)
    } else {
      XCTAssertTrue(agrees.stdout.contains("card.issuer.id"), agrees.stdout)
    }

    let model = directory.appendingPathComponent("model.json")
    let trained = try CLI.run([
      "train-issuers", "--corrections", reviewed.path, "--synthetic", "2", "--output", model.path, "--jobs",
      "1",
    ])
    XCTAssertEqual(trained.status, 0, trained.stderr)
    XCTAssertTrue(trained.stderr.contains("1 cards with an issuer chosen by hand"), trained.stderr)
    let written = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: model)) as? [String: Any])
    let training = try XCTUnwrap(written["training"] as? [String: Any], "\(written.keys)")
    XCTAssertTrue(
      (training["source"] as? String ?? "").contains("corrections of 1 store(s)"), "\(training)")
  }
}
