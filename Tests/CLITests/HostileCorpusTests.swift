import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class HostileCorpusTests: XCTestCase {
  func testEveryHostileInputGivesExactlyOneRecordAndNothingCrashes() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let corpus = directory.appendingPathComponent("corpus")
    var expected = try HostileCorpus.write(to: corpus)
    // Unreadable for anyone but root; as root the read succeeds and the record is ok instead.
    let locked = corpus.appendingPathComponent("locked.png")
    try ImageEncoder.png(Bitmap(width: 32, height: 32, format: .gray)).write(to: locked)
    chmod(locked.path, 0)
    expected += 1
    // A named pipe called like a photo: reading it would block forever, so it is a skip.
    mkfifo(corpus.appendingPathComponent("pipe.jpg").path, 0o644)
    mkfifo(corpus.appendingPathComponent("pipe-without-extension").path, 0o644)

    let out = directory.appendingPathComponent("out")
    let result = try CLI.run(["run", corpus.path, "--out", out.path, "--jobs", "2", "--quiet"])
    XCTAssertEqual(result.status, 1, "some inputs fail, none crash: \(result.stderr)")
    let records = try RecordCoding.readLines(out.appendingPathComponent("records.jsonl"))
    XCTAssertEqual(records.count, expected, "one record per input")
    XCTAssertEqual(Set(records.map(\.file)).count, records.count, "no file recorded twice")
    for record in records where record.status == .error {
      XCTAssertFalse(record.error?.message.isEmpty ?? true, record.file)
    }
    let byName = Dictionary(uniqueKeysWithValues: records.map { ($0.file, $0) })
    XCTAssertEqual(byName["bombs/huge.png"]?.error?.message.contains("over the limit"), true)
    XCTAssertEqual(byName["bombs/huge.jpg"]?.error?.message.contains("over the limit"), true)
    XCTAssertEqual(byName["bombs/huge.webp"]?.error?.message.contains("over the limit"), true)
    XCTAssertEqual(byName["formats/palette.png"]?.status, .ok)
    XCTAssertEqual(byName["formats/cmyk.jpg"]?.status, .ok)
    XCTAssertEqual(byName["formats/16-bit.png"]?.status, .ok)
    XCTAssertEqual(byName["exif/bad-offset.jpg"]?.image?.orientation, 1)
    XCTAssertEqual(byName["exif/orientation-9.jpg"]?.status, .ok)
    XCTAssertEqual(byName["folder.jpg/inside.jpg"]?.status, .ok)
    XCTAssertEqual(byName["folder.jpg/y.png/deep.png"]?.status, .ok)
    XCTAssertEqual(byName["damaged/garbage-midway.jpg"]?.status, .ok)
    XCTAssertEqual(
      byName["damaged/garbage-midway.jpg"]?.warnings?.first?.hasPrefix("damaged JPEG data"), true)
    XCTAssertEqual(byName["names/new\nline.jpg"]?.status, .ok)
    XCTAssertEqual(byName["empty/zero.heic"]?.error?.message, "empty file (0 bytes)")
    XCTAssertEqual(byName["formats/one-pixel.png"]?.error?.stage, "load")
    let summary =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json")))
      as? [String: Any]
    XCTAssertEqual(
      (summary?["counts"] as? [String: Any])?["skipped"] as? Int, 4,
      "the .txt and .json sidecars and both pipes")
    let reasons = summary?["skipped_reasons"] as? [String: String]
    XCTAssertEqual(reasons?["pipe.jpg"]?.hasPrefix("a named pipe"), true)
    let report = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
    XCTAssertTrue(report.contains("damaged JPEG data: libjpeg warned"), "the report shows the warning")
  }

  /// A tree of everything a folder can hold besides photos: every entry reached gives exactly one
  /// record or one counted skip with its reason, and nothing blocks, loops or crashes.
  func testAHostileTreeGivesOneRecordOrOneSkipPerEntry() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let tree = directory.appendingPathComponent("t")
    let jpeg = try ImageEncoder.jpeg(Bitmap(width: 64, height: 48, format: .rgb))
    let (records, skips) = try HostileTree.write(to: tree, jpeg: jpeg)
    let config = directory.appendingPathComponent("load-only.json")
    try Data(#"{"version": 1, "stages": [{"stage": "load"}]}"#.utf8).write(to: config)
    let out = directory.appendingPathComponent("out")
    let result = try CLI.run(
      ["run", tree.path, "--config", config.path, "--out", out.path, "--jobs", "1", "--quiet"])
    XCTAssertEqual(result.status, 1, "the empty photo fails, nothing else stops the run: \(result.stderr)")
    let written = try RecordCoding.readLines(out.appendingPathComponent("records.jsonl"))
    let summary =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json")))
      as? [String: Any]
    let reasons = try XCTUnwrap(summary?["skipped_reasons"] as? [String: String])
    XCTAssertEqual(Set(written.map(\.file)), records, "one record for each photo and nothing else")
    XCTAssertEqual(Set(reasons.keys), Set(skips.keys), "one skip for each other entry")
    XCTAssertEqual(
      written.count + reasons.count, HostileTree.entries(under: tree), "records + skips = entries")
    XCTAssertEqual((summary?["counts"] as? [String: Any])?["skipped"] as? Int, reasons.count)
    for (file, expected) in skips {
      XCTAssertEqual(reasons[file]?.hasPrefix(expected), true, "\(file): \(reasons[file] ?? "no reason")")
    }
    let byName = Dictionary(uniqueKeysWithValues: written.map { ($0.file, $0) })
    XCTAssertEqual(byName["bad\\xFF\\xFEname.jpg"]?.status, .ok, "a name that is not UTF-8 is read")
    XCTAssertEqual(byName["new\nline/photo\n.jpg"]?.status, .ok)
    XCTAssertEqual(byName["x.jpg/y.png/z.jpg"]?.status, .ok)
    XCTAssertEqual(byName["empty.jpg"]?.error?.message, "empty file (0 bytes)")
  }

  /// Root reads every file, so the permission path is exercised by running the CLI as `nobody`
  /// (through util-linux's `setpriv`) when the tests run as root.
  func testAnUnreadableFileGetsAPermissionErrorRecord() throws {
    let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
    let asRoot = geteuid() == 0
    if asRoot && !FileManager.default.isExecutableFile(atPath: setpriv.path) {
      throw XCTSkip("running as root without setpriv: cannot drop privileges to test an unreadable file")
    }
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    chmod(directory.path, 0o777)
    let png = try ImageEncoder.png(Bitmap(width: 32, height: 32, format: .gray))
    for name in ["readable.png", "locked.png"] { try png.write(to: directory.appendingPathComponent(name)) }
    chmod(directory.appendingPathComponent("readable.png").path, 0o644)
    chmod(directory.appendingPathComponent("locked.png").path, 0)
    let config = directory.appendingPathComponent("load-only.json")
    try Data(#"{"version": 1, "stages": [{"stage": "load"}]}"#.utf8).write(to: config)
    chmod(config.path, 0o644)
    let out = directory.appendingPathComponent("out")
    let arguments = ["run", directory.path, "--config", config.path, "--out", out.path, "--quiet"]
    let result =
      asRoot
      ? try CLI.run(
        ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path] + arguments,
        executable: setpriv)
      : try CLI.run(arguments)
    XCTAssertEqual(result.status, 1, result.stderr)
    let records = try RecordCoding.readLines(out.appendingPathComponent("records.jsonl"))
    let byName = Dictionary(uniqueKeysWithValues: records.map { ($0.file, $0) })
    XCTAssertEqual(records.count, 2, "the config is not an image; both PNGs give a record")
    XCTAssertEqual(byName["readable.png"]?.status, .ok)
    XCTAssertEqual(byName["locked.png"]?.error?.stage, "load")
    XCTAssertEqual(byName["locked.png"]?.error?.message, "permission denied: the file is not readable")
  }

  func testAFileDeletedMidRunGetsAnErrorRecord() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let png = try ImageEncoder.png(Bitmap(width: 32, height: 32, format: .gray))
    for name in ["a.png", "b.png"] { try png.write(to: directory.appendingPathComponent(name)) }
    let listing = try InputScanner().scan([directory])
    try FileManager.default.removeItem(at: directory.appendingPathComponent("b.png"))
    let config = try PipelineConfig.parse(
      Data(#"{"version": 1, "stages": [{"stage": "load"}]}"#.utf8), context: StageContext())
    let collected = Collected()
    _ = try Runner(config: config, jobs: 2, outputDirectory: nil).run(
      listing.inputs, sink: { collected.add($0) })
    let records = collected.all.sorted { $0.file < $1.file }
    XCTAssertEqual(records.map(\.status), [.ok, .error])
    XCTAssertEqual(records.last?.error?.message, "the file disappeared before it could be read")
  }
}

final class Collected: @unchecked Sendable {
  // Touched only from the runner's serial sink queue, then read after the run.
  private(set) var all: [Record] = []
  func add(_ record: Record) { all.append(record) }
}
