import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class InputScannerTests: XCTestCase {
  private var directory: URL!
  override func setUpWithError() throws { directory = try TestImages.temporaryDirectory() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  func testFindsImagesByExtensionAndSignatureSortedAndSkipsTheRest() throws {
    let root = directory.appendingPathComponent("photos")
    let fm = FileManager.default
    try fm.createDirectory(at: root.appendingPathComponent("b/.cache"), withIntermediateDirectories: true)
    let png = try ImageEncoder.png(TestImages.quadrants())
    try png.write(to: root.appendingPathComponent("z.PNG"))
    try png.write(to: root.appendingPathComponent("b/no-extension"))
    try png.write(to: root.appendingPathComponent("b/.cache/hidden.png"))
    try png.write(to: root.appendingPathComponent(".hidden.png"))
    try Data("notes".utf8).write(to: root.appendingPathComponent("b/notes.txt"))
    try Data().write(to: root.appendingPathComponent("a.jpg"))
    // A link to a file is followed, inside the tree or out of it; a link to a folder outside is not.
    let outside = directory.appendingPathComponent("outside.png")
    try png.write(to: outside)
    try fm.createSymbolicLink(at: root.appendingPathComponent("escape.png"), withDestinationURL: outside)
    try fm.createSymbolicLink(
      at: root.appendingPathComponent("inside.png"), withDestinationURL: root.appendingPathComponent("z.PNG"))

    try fm.createSymbolicLink(at: root.appendingPathComponent("elsewhere"), withDestinationURL: directory)

    let listing = try InputScanner().scan([root])
    XCTAssertEqual(
      listing.inputs.map(\.relativePath), ["a.jpg", "b/no-extension", "escape.png", "inside.png", "z.PNG"])
    XCTAssertEqual(listing.skipped, ["b/notes.txt", "elsewhere"])
    XCTAssertEqual(listing.reasons["elsewhere"], "a symbolic link to a folder outside the input folder")
  }

  func testFoldersNamedLikeImagesAreWalkedAndOtherEntriesSkippedWithAReason() throws {
    let root = directory.appendingPathComponent("photos")
    let fm = FileManager.default
    try fm.createDirectory(at: root.appendingPathComponent("x.jpg/y.png"), withIntermediateDirectories: true)
    try ImageEncoder.png(TestImages.quadrants()).write(to: root.appendingPathComponent("x.jpg/y.png/a.png"))
    XCTAssertEqual(mkfifo(root.appendingPathComponent("pipe.jpg").path, 0o644), 0)
    try fm.createSymbolicLink(
      atPath: root.appendingPathComponent("loop.jpg").path, withDestinationPath: "loop.jpg")

    let listing = try InputScanner().scan([root])
    XCTAssertEqual(listing.inputs.map(\.relativePath), ["x.jpg/y.png/a.png"])
    XCTAssertEqual(listing.skipped, ["loop.jpg", "pipe.jpg"])
    XCTAssertEqual(listing.reasons["pipe.jpg"]?.hasPrefix("a named pipe"), true)
    XCTAssertEqual(listing.reasons["loop.jpg"]?.hasPrefix("a symbolic link loop"), true)
  }

  func testSeveralRootsArePrefixedByTheirNames() throws {
    let png = try ImageEncoder.png(TestImages.quadrants())
    for folder in ["cards", "receipts"] {
      let url = directory.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try png.write(to: url.appendingPathComponent("1.png"))
    }
    let single = directory.appendingPathComponent("single.png")
    try png.write(to: single)
    let listing = try InputScanner().scan([
      directory.appendingPathComponent("receipts"), directory.appendingPathComponent("cards"), single,
    ])
    XCTAssertEqual(listing.inputs.map(\.relativePath), ["cards/1.png", "receipts/1.png", "single.png"])
    XCTAssertThrowsError(try InputScanner().scan([directory.appendingPathComponent("missing")]))
  }

  func testShardsPartitionTheFilesStably() throws {
    let names = (0..<200).map { "folder/photo-\($0).jpg" }
    let shards = try (0..<4).map { try ShardSelection(index: $0, count: 4) }
    var seen = Set<String>()
    for shard in shards {
      let mine = names.filter { shard.contains($0) }
      XCTAssertGreaterThan(mine.count, 25, "roughly even: \(mine.count)")
      XCTAssertTrue(seen.isDisjoint(with: mine))
      seen.formUnion(mine)
    }
    XCTAssertEqual(seen.count, names.count)
    // The bucket of a path never changes (records of old runs stay valid).
    XCTAssertEqual(
      ShardSelection.bucket(of: "folder/photo-0.jpg", count: 4),
      ShardSelection.bucket(of: "folder/photo-0.jpg", count: 4))
    XCTAssertThrowsError(try ShardSelection(parsing: "4/4"))
    XCTAssertThrowsError(try ShardSelection(parsing: "x"))
    XCTAssertEqual(
      try ShardSelection.fromEnvironment(
        ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], shards: nil),
      try ShardSelection(index: 2, count: 4))
    XCTAssertThrowsError(try ShardSelection.fromEnvironment(["JOB_COMPLETION_INDEX": "1"], shards: nil))
  }

  /// The photo a record names is found again from the paths its run was given (`rewarp`).
  func testFindsTheFileARecordNamesFromTheRunsPaths() throws {
    let root = directory!
    for path in ["one/a/x.jpg", "two/y.jpg", "single.jpg"] {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data([0xFF, 0xD8, 0xFF]).write(to: url)
    }
    let one = root.appendingPathComponent("one"), two = root.appendingPathComponent("two")
    let single = root.appendingPathComponent("single.jpg")
    for roots in [[one], [one, two, single], [single]] {
      for input in try InputScanner().scan(roots).inputs {
        XCTAssertEqual(
          InputScanner.url(of: input.relativePath, roots: roots)?.standardizedFileURL,
          input.url.standardizedFileURL,
          "\(input.relativePath) in \(roots.map(\.lastPathComponent))")
      }
    }
    XCTAssertNil(InputScanner.url(of: "three/z.jpg", roots: [one, two]))
  }
}
