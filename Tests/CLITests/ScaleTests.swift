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

/// Resume after SIGKILL, shards and merge, through the real executable.
final class ScaleTests: XCTestCase {
  private var directory: URL!
  override func setUpWithError() throws { directory = try CLI.temporaryDirectory() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  /// A folder of distinct images that take a little while to process.
  private func makeFolder(count: Int) throws -> URL {
    let input = directory.appendingPathComponent("in")
    try FileManager.default.createDirectory(
      at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
    for index in 0..<count {
      let image = Bitmap(width: 900, height: 700, format: .gray) { out in
        for i in 0..<out.count { out[i] = UInt8((i / 7 + index * 13) % 251) }
      }
      let name = index % 3 == 0 ? "sub/photo \(index).png" : "photo-\(index).jpg"
      let data = name.hasSuffix(".png") ? try ImageEncoder.png(image) : try ImageEncoder.jpeg(image)
      try data.write(to: input.appendingPathComponent(name))
    }
    try Data("broken".utf8).write(to: input.appendingPathComponent("broken.jpg"))
    return input
  }

  /// Starts `snapsort` without waiting for it, so a test can signal it mid-run.
  private func launch(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { $1 }
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  private func records(_ out: URL) throws -> String {
    try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
  }

  func testKilledRunResumesToTheSameRecords() throws {
    let input = try makeFolder(count: 40)
    let clean = directory.appendingPathComponent("clean")
    XCTAssertEqual(try CLI.run(["run", input.path, "--out", clean.path, "--jobs", "2", "--quiet"]).status, 1)
    let expected = try records(clean)
    XCTAssertEqual(expected.split(separator: "\n").count, 41)

    for delay in [0.05, 0.25, 0.5] {
      let out = directory.appendingPathComponent("killed-\(delay)")
      let process = try launch(["run", input.path, "--out", out.path, "--jobs", "2", "--quiet"])
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      // Whatever is on disk is readable: no torn record except possibly the journal's last line.
      if let partial = try? records(out) {
        for line in partial.split(separator: "\n") {
          XCTAssertNoThrow(try RecordCoding.decode(Data(line.utf8)))
        }
      }
      let journal = (try? String(contentsOf: RecordJournal.url(in: out), encoding: .utf8)) ?? ""
      let journalLines = journal.split(separator: "\n", omittingEmptySubsequences: true)
      for line in journalLines.dropLast() { XCTAssertNoThrow(try RecordCoding.decode(Data(line.utf8))) }

      let rerun = try CLI.run(["run", input.path, "--out", out.path, "--jobs", "2", "--quiet"])
      XCTAssertEqual(rerun.status, 1, rerun.stderr)
      XCTAssertEqual(try records(out), expected, "rerun after SIGKILL at \(delay) s equals a clean run")
    }
  }

  func testInterruptFinishesInFlightWritesAndExits130() throws {
    let input = try makeFolder(count: 60)
    let out = directory.appendingPathComponent("out")
    let process = try launch(["run", input.path, "--out", out.path, "--jobs", "1", "--quiet"])
    // Interrupt once the first photo is in the journal, however loaded the machine is.
    let journal = RecordJournal.url(in: out)
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning, Date() < deadline,
      ((try? Data(contentsOf: journal))?.firstIndex(of: UInt8(ascii: "\n"))) == nil
    {
      Thread.sleep(forTimeInterval: 0.02)
    }
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 130)
    let done = try records(out).split(separator: "\n")
    XCTAssertGreaterThan(done.count, 0)
    XCTAssertLessThan(done.count, 61, "interrupted before the end")
    let rerun = try CLI.run(["run", input.path, "--out", out.path, "--jobs", "2", "--quiet"])
    XCTAssertEqual(rerun.status, 1)
    XCTAssertEqual(try records(out).split(separator: "\n").count, 61)
  }

  func testResumeSkipsDoneFilesAndFreshRedoes() throws {
    let input = try makeFolder(count: 6)
    let out = directory.appendingPathComponent("out")
    _ = try CLI.run(["run", input.path, "--out", out.path, "--quiet"])
    let first = try records(out)
    let again = try CLI.run(["run", input.path, "--out", out.path])
    let summary =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json")))
      as? [String: Any]
    let stages = summary?["stages"] as? [String: Any]
    XCTAssertNil(stages?["load"], "every file, the broken one too, already has a record: \(again.stderr)")
    XCTAssertEqual((summary?["counts"] as? [String: Any])?["reused"] as? Int, 7)
    XCTAssertEqual(try records(out), first)
    _ = try CLI.run(["run", input.path, "--out", out.path, "--fresh", "--quiet"])
    let fresh =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json")))
      as? [String: Any]
    XCTAssertEqual(((fresh?["stages"] as? [String: Any])?["load"] as? [String: Any])?["count"] as? Int, 7)
  }

  /// Over `--max-memory`, a worker stops with a warning and every photo still gets its record,
  /// the same as without a budget. Six 7-megapixel photos through a load-only pipeline: one
  /// decoded photo is 21 MB, so two at once pass 75 MB while the process alone stays below it.
  func testMaxMemoryStopsAWorkerWithAWarningAndKeepsEveryRecord() throws {
    let input = directory.appendingPathComponent("large")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    for index in 0..<6 {
      let image = Bitmap(width: 3000, height: 2400, format: .rgb) { out in
        for i in 0..<out.count { out[i] = UInt8((i / 3 + index * 29) % 253) }
      }
      try ImageEncoder.jpeg(image).write(to: input.appendingPathComponent("photo-\(index).jpg"))
    }
    let config = directory.appendingPathComponent("load-only.json")
    try Data(#"{"version": 1, "kind": "card", "stages": [{"stage": "load"}]}"#.utf8).write(to: config)
    let free = directory.appendingPathComponent("free"), kept = directory.appendingPathComponent("kept")
    let base = ["run", input.path, "--config", config.path, "--jobs", "2", "--quiet"]
    XCTAssertEqual(try CLI.run(base + ["--out", free.path]).status, 0)
    let budgeted = try CLI.run(base + ["--out", kept.path, "--max-memory", "75M"])
    XCTAssertEqual(budgeted.status, 0, budgeted.stderr)
    XCTAssertTrue(
      budgeted.stderr.contains("is over --max-memory 75 MB: running 1 photo at a time"), budgeted.stderr)
    XCTAssertEqual(try records(kept), try records(free))
    let summary =
      try JSONSerialization.jsonObject(with: Data(contentsOf: kept.appendingPathComponent("run.json")))
      as? [String: Any]
    XCTAssertEqual(summary?["max_memory_mb"] as? Double, 75)
    let reduced = try XCTUnwrap(summary?["jobs_reduced"] as? [[String: Any]])
    XCTAssertEqual(reduced.count, 1)
    XCTAssertEqual(reduced.first?["workers"] as? Int, 1)
    XCTAssertGreaterThan(reduced.first?["after_photos"] as? Int ?? 0, 0)
    XCTAssertGreaterThan(reduced.first?["peak_rss_mb"] as? Double ?? 0, 75)
  }

  func testMaxMemoryThatIsNoSizeIsAUsageError() throws {
    let result = try CLI.run(["run", "samples", "--max-memory", "300X"])
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(result.stderr.contains("cannot read \"300X\" as a memory size"), result.stderr)
  }

  func testMergedShardsEqualASingleRun() throws {
    let input = try makeFolder(count: 12)
    let single = directory.appendingPathComponent("single")
    _ = try CLI.run(["run", input.path, "--out", single.path, "--quiet"])
    var shardOutputs: [String] = []
    var seen = 0
    for index in 0..<3 {
      let out = directory.appendingPathComponent("shard-\(index)")
      // Alternate the three ways of choosing a shard.
      let (arguments, environment): ([String], [String: String]) =
        switch index {
        case 0: (["--shard", "0/3"], [:])
        case 1: ([], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
        default: (["--shards", "3"], ["JOB_COMPLETION_INDEX": "2"])
        }
      _ = try CLI.run(
        ["run", input.path, "--out", out.path, "--quiet"] + arguments, environment: environment)
      seen += try records(out).split(separator: "\n").count
      shardOutputs.append(out.path)
    }
    XCTAssertEqual(seen, 13, "every file lands in exactly one shard")
    let merged = directory.appendingPathComponent("merged")
    let result = try CLI.run(["merge"] + shardOutputs + ["--out", merged.path])
    XCTAssertEqual(result.status, 1, "the broken file makes the merged run 'some failed': \(result.stderr)")
    XCTAssertEqual(try records(merged), try records(single))
  }
}
