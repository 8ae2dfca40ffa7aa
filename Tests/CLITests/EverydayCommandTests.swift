import Foundation
import XCTest

/// The store's everyday commands end to end on a small, fast run (issue #22): `--db` as a
/// folder, `show`, notes, categories, ambiguous names, feedback from every command that changes
/// the store, and report.html kept in step with it.
final class EverydayCommandTests: XCTestCase {
  private var directory: URL!
  private var out: URL { directory.appendingPathComponent("out") }
  private var input: URL { directory.appendingPathComponent("in") }

  override func setUpWithError() throws {
    directory = try CLI.temporaryDirectory()
    for folder in ["a", "b"] {
      try FileManager.default.createDirectory(
        at: input.appendingPathComponent(folder), withIntermediateDirectories: true)
      // Two different broken files of the same name: two records, two content hashes.
      try Data("not a jpeg: \(folder)".utf8).write(to: input.appendingPathComponent("\(folder)/x.jpg"))
    }
    let png = Data(
      base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAAAAADhZOFXAAAADklEQVR4nGNogAIGyhgAgIQgAQ2AJGEAAAAASUVORK5CYII=")!
    try png.write(to: input.appendingPathComponent("ok.png"))
    let run = try CLI.run(["run", input.path, "--out", out.path, "--quiet"])
    XCTAssertEqual(run.status, 1, run.stderr)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  func snapsort(_ arguments: [String]) throws -> CLI.Result { try CLI.run(arguments + ["--db", out.path]) }

  /// Finding 10: every store command takes the output folder or the file.
  func testDbTakesTheFolderOrTheFile() throws {
    for db in [out.path, out.path + "/", out.appendingPathComponent("snapsort.sqlite").path] {
      let result = try CLI.run(["search", "", "--db", db])
      XCTAssertEqual(result.status, 0, "\(db): \(result.stderr)")
      XCTAssertTrue(result.stdout.hasSuffix("3 matches\n"), result.stdout)
    }
    // The default is the folder `out` in the working folder.
    XCTAssertTrue(try CLI.run(["stats"], in: directory).stdout.contains("records: 3"))
    let missing = try CLI.run(["search", "", "--db", directory.appendingPathComponent("nowhere").path])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("no store at"), missing.stderr)
    XCTAssertFalse(missing.stderr.contains("unable to open"), missing.stderr)
  }

  /// Finding 10: `--out` is the name everywhere; `--output` still works.
  func testExportTakesOutAndTheOldOutput() throws {
    for option in ["--out", "-o", "--output"] {
      let zip = directory.appendingPathComponent("cards\(option).zip")
      let result = try snapsort(["export", "catima", option, zip.path])
      XCTAssertEqual(result.status, 0, "\(option): \(result.stderr)")
      XCTAssertTrue(FileManager.default.fileExists(atPath: zip.path), option)
    }
    let help = try CLI.run(["export", "catima", "--help"]).stdout
    XCTAssertTrue(help.contains("--out <out>"), help)
    XCTAssertFalse(help.contains("--output"), "the old spelling is hidden")
  }

  /// Finding 13: an ambiguous name says so and lists the candidates; commas in tags are
  /// refused; tags and categories follow one case rule.
  func testAmbiguousNamesCommasAndCase() throws {
    let ambiguous = try snapsort(["tag", "x.jpg", "t"])
    XCTAssertEqual(ambiguous.status, 2)
    XCTAssertTrue(
      ambiguous.stderr.contains("x.jpg is ambiguous: it names a/x.jpg, b/x.jpg"), ambiguous.stderr)
    XCTAssertFalse(ambiguous.stderr.contains("not in the store"), ambiguous.stderr)
    XCTAssertEqual(try snapsort(["show", "x.jpg"]).status, 2)
    XCTAssertEqual(
      try snapsort(["tag", "nope.jpg", "t"]).stderr,
      "snapsort: nope.jpg is not in the store (paths are as in records.jsonl)\n")

    let comma = try snapsort(["tag", "a/x.jpg", "a,b"])
    XCTAssertEqual(comma.status, 2)
    XCTAssertTrue(comma.stderr.contains("cannot contain a comma"), comma.stderr)

    XCTAssertEqual(
      try snapsort(["category", "add", "Reimbursement", "--kind", "card"]).stdout,
      "replaced category reimbursement\n")
    let list = try snapsort(["category", "list"]).stdout
    XCTAssertEqual(
      list.components(separatedBy: "\n").filter { $0.lowercased().hasPrefix("reimbursement\t") }.count, 1,
      list)
    XCTAssertEqual(
      try snapsort(["category", "add", "Trips", "--tag", "Trip"]).stdout, "saved category trips\n")
    XCTAssertEqual(try snapsort(["tag", "a/x.jpg", "TRIP"]).stdout, "a/x.jpg: trip\n")
    XCTAssertTrue(try snapsort(["search", "--category", "TRIPS"]).stdout.contains("a/x.jpg"))
  }

  /// Finding 15: `show`, notes listed and removed, `category remove`, and a line of feedback
  /// from every command that changes the store.
  func testShowNotesCategoryRemoveAndFeedback() throws {
    XCTAssertEqual(try snapsort(["annotate", "a/x.jpg", "first note"]).stdout, "a/x.jpg:\n  1. first note\n")
    XCTAssertEqual(
      try snapsort(["annotate", "a/x.jpg", "second note"]).stdout,
      "a/x.jpg:\n  1. first note\n  2. second note\n")
    XCTAssertEqual(
      try snapsort(["annotate", "a/x.jpg", "--list"]).stdout, "a/x.jpg:\n  1. first note\n  2. second note\n")
    XCTAssertEqual(
      try snapsort(["annotate", "a/x.jpg", "--remove", "1"]).stdout, "a/x.jpg:\n  1. second note\n")
    let outOfRange = try snapsort(["annotate", "a/x.jpg", "--remove", "5"])
    XCTAssertEqual(outOfRange.status, 2)
    XCTAssertTrue(outOfRange.stderr.contains("has notes 1 to 1, not 5"), outOfRange.stderr)
    XCTAssertEqual(try snapsort(["annotate", "a/x.jpg"]).status, 2, "nothing to do")

    XCTAssertEqual(try snapsort(["tag", "a/x.jpg", "work", "home"]).stdout, "a/x.jpg: home, work\n")
    XCTAssertEqual(try snapsort(["tag", "a/x.jpg", "home", "--remove"]).stdout, "a/x.jpg: work\n")
    XCTAssertEqual(try snapsort(["tag", "a/x.jpg", "home", "--remove"]).status, 2, "a tag it does not carry")

    let show = try snapsort(["show", "a/x.jpg"])
    XCTAssertEqual(show.status, 0, show.stderr)
    XCTAssertTrue(
      show.stdout.hasPrefix("file: a/x.jpg\nkind: error\ntags: work\nnotes:\n  1. second note\nrecord:\n{"),
      show.stdout)
    let showJSON = try snapsort(["show", "ok.png", "--json"])
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(showJSON.stdout.utf8)) as? [String: Any])
    XCTAssertEqual((object["record"] as? [String: Any])?["file"] as? String, "ok.png")
    XCTAssertEqual(object["tags"] as? [String], [])

    XCTAssertEqual(
      try snapsort(["category", "add", "broken", "--query", "jpeg"]).stdout, "saved category broken\n")
    XCTAssertEqual(try snapsort(["category", "remove", "broken"]).stdout, "removed category broken\n")
    XCTAssertFalse(try snapsort(["category", "list"]).stdout.contains("broken"))
    XCTAssertEqual(try snapsort(["category", "remove", "broken"]).status, 2)
  }

  /// Finding 12: the report links photos by absolute path, so it survives a moved output
  /// folder; commands that change the store write it again; `snapsort report OUT` does too.
  func testReportFollowsTheStoreAndSurvivesAMove() throws {
    let report = out.appendingPathComponent("report.html")
    var html = try String(contentsOf: report, encoding: .utf8)
    XCTAssertFalse(html.contains("src=\"../"), "no relative links out of the folder")
    XCTAssertTrue(
      html.contains(
        "src=\"\(input.appendingPathComponent("ok.png").resolvingSymlinksInPath().absoluteString)\"")
        || html.contains("src=\"file://\(input.appendingPathComponent("ok.png").path)\""), html)

    XCTAssertEqual(try snapsort(["tag", "ok.png", "zebracrossing"]).status, 0)
    html = try String(contentsOf: report, encoding: .utf8)
    XCTAssertTrue(html.contains("zebracrossing"), "tag shown after `tag`")
    XCTAssertEqual(try snapsort(["annotate", "ok.png", "quokka sighting"]).status, 0)
    XCTAssertTrue(try String(contentsOf: report, encoding: .utf8).contains("quokka sighting"))
    XCTAssertEqual(try snapsort(["annotate", "ok.png", "--remove", "1"]).status, 0)
    XCTAssertFalse(try String(contentsOf: report, encoding: .utf8).contains("quokka sighting"))

    // Moved: the photo links still point at the photos; `report` writes it again in place.
    let moved = directory.appendingPathComponent("moved")
    try FileManager.default.moveItem(at: out, to: moved)
    try FileManager.default.removeItem(at: moved.appendingPathComponent("report.html"))
    let rewritten = try CLI.run(["report", moved.path])
    XCTAssertEqual(rewritten.status, 0, rewritten.stderr)
    html = try String(contentsOf: moved.appendingPathComponent("report.html"), encoding: .utf8)
    XCTAssertTrue(html.contains("zebracrossing"))
    XCTAssertTrue(
      html.contains("file://\(input.path)/ok.png")
        || html.contains(input.resolvingSymlinksInPath().path + "/ok.png"), html)
    let notARun = try CLI.run(["report", directory.path])
    XCTAssertEqual(notARun.status, 2)
    XCTAssertTrue(notARun.stderr.contains("no store at"), notARun.stderr)
  }
}
