import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

final class RewarpCommandTests: XCTestCase {
  /// The store is derived from the records, so after a rewarp it holds the corrected corners too.
  func testRewarpKeepsTheStoreInStepWithTheRecords() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: CLI.root.appendingPathComponent("samples/cards/card-01-wood.jpg"),
      to: input.appendingPathComponent("card.jpg"))
    let out = directory.appendingPathComponent("out")
    let run = try CLI.run(["run", input.path, "--out", out.path, "--quiet"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let corners = directory.appendingPathComponent("corners.csv")
    try Data("card.jpg,400,300,1500,320,1480,1000,420,980\n".utf8).write(to: corners)
    let rewarp = try CLI.run(["rewarp", corners.path, "--out", out.path, "--root", input.path])
    XCTAssertEqual(rewarp.status, 0, rewarp.stderr)
    let stored = try RecordStore(url: out.appendingPathComponent(RecordStore.fileName)).allRecords()
    XCTAssertEqual(
      stored.map(\.record.card?.quad), [[[400, 300], [1500, 320], [1480, 1000], [420, 980]]])
  }
}
