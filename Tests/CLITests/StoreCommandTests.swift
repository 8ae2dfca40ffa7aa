import Foundation
import XCTest
import ZIPFoundation

/// The store's commands end to end, on a real run of the default pipeline over a few sample
/// photos (cards and broken files from samples/): search, tag, annotate, categories, stats,
/// both exports and the report in headless Chromium.
final class StoreCommandTests: XCTestCase {
  nonisolated(unsafe) static var directory: URL!
  nonisolated(unsafe) static var runResult: CLI.Result!

  static var out: URL { directory.appendingPathComponent("out") }
  static var db: String { out.appendingPathComponent("snapsort.sqlite").path }

  override class func setUp() {
    super.setUp()
    do {
      directory = try CLI.temporaryDirectory()
      let input = directory.appendingPathComponent("photos")
      try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
      let samples = CLI.root.appendingPathComponent("samples")
      // A few cards and screenshots with codes, plus two broken files with <, > and & in no
      // name but with error messages the report must show.
      for name in [
        "cards/card-01-wood.jpg", "cards/card-02-fabric.jpg", "cards/card-03-tiles.jpg",
        "screenshots/screenshot-01-light.png", "screenshots/screenshot-02-dark.png",
        "bad/corrupt.png", "bad/truncated.jpg",
      ] {
        try FileManager.default.copyItem(
          at: samples.appendingPathComponent(name),
          to: input.appendingPathComponent(name.replacingOccurrences(of: "/", with: "-")))
      }
      runResult = try CLI.run(["run", input.path, "--out", out.path, "--jobs", "2"])
    } catch {
      XCTFail("setting up the run failed: \(error)")
    }
  }

  override class func tearDown() {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  func snapsort(_ arguments: [String]) throws -> CLI.Result {
    try CLI.run(arguments + ["--db", Self.db])
  }

  func records() throws -> [[String: Any]] {
    let text = try String(contentsOf: Self.out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  func testRunWritesTheStore() throws {
    XCTAssertEqual(Self.runResult.status, 1, Self.runResult.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: Self.db))
    let all = try snapsort(["search", "", "--json"])
    XCTAssertEqual(all.status, 0, all.stderr)
    let hits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(hits.count, 7)
    XCTAssertEqual(hits.map { $0["file"] as? String }, try records().map { $0["file"] as? String })
  }

  func testSearchTableAndNoMatchMessage() throws {
    let errors = try snapsort(["search", "not", "--kind", "unknown"])
    XCTAssertEqual(errors.status, 0, errors.stderr)
    let none = try snapsort(["search", "zzqqxx"])
    XCTAssertEqual(none.status, 0)
    XCTAssertEqual(none.stdout, "Your search criteria doesn't match any items\n")
    let bad = try snapsort(["search", "png", "--status-code"])
    XCTAssertNotEqual(bad.status, 0)
    let corrupt = try snapsort(["search", "corrupt or truncated"])
    XCTAssertTrue(corrupt.stdout.hasPrefix("FILE"), corrupt.stdout)
    XCTAssertTrue(corrupt.stdout.contains("bad-corrupt.png"), corrupt.stdout)
    XCTAssertTrue(corrupt.stdout.contains("bad-truncated.jpg"), corrupt.stdout)
    XCTAssertTrue(corrupt.stdout.hasSuffix("2 matches\n"), corrupt.stdout)
    let minus = try snapsort(["search", "bad -corrupt"])
    XCTAssertTrue(
      minus.stdout.contains("bad-truncated.jpg") && !minus.stdout.contains("bad-corrupt.png"), minus.stdout)
    XCTAssertEqual(try snapsort(["search", "x", "--from", "March"]).status, 2, "bad date: usage error")
  }

  func testMissingStoreIsAClearError() throws {
    let result = try CLI.run([
      "search", "x", "--db", Self.directory.appendingPathComponent("none.sqlite").path,
    ])
    XCTAssertEqual(result.status, 2)
    XCTAssertTrue(result.stderr.contains("no store at"), result.stderr)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent("none.sqlite").path))
  }

  func testTagAnnotateCategoryAndRerun() throws {
    let tag = try snapsort(["tag", "photos/cards-card-01-wood.jpg", "Reimbursement", "work"])
    XCTAssertEqual(tag.status, 0, tag.stderr)
    XCTAssertEqual(try snapsort(["annotate", "cards-card-02-fabric.jpg", "lunch with Quentin"]).status, 0)
    XCTAssertEqual(try snapsort(["tag", "no-such.jpg", "x"]).status, 2)
    let byCategory = try snapsort(["search", "--category", "reimbursement"])
    XCTAssertTrue(byCategory.stdout.contains("cards-card-01-wood.jpg"), byCategory.stdout)
    XCTAssertTrue(byCategory.stdout.hasSuffix("1 match\n"), byCategory.stdout)
    XCTAssertTrue(try snapsort(["search", "quentin"]).stdout.contains("cards-card-02-fabric.jpg"))
    XCTAssertEqual(
      try snapsort(["category", "add", "broken", "--query", "corrupt or truncated", "--kind", "card"]).status,
      0)
    let list = try snapsort(["category", "list"])
    XCTAssertTrue(list.stdout.contains("broken\t"), list.stdout)
    XCTAssertTrue(list.stdout.contains("reimbursement\t{\"tag\":\"reimbursement\"}"), list.stdout)
    XCTAssertTrue(try snapsort(["search", "--category", "broken"]).stdout.hasSuffix("2 matches\n"))
    XCTAssertEqual(try snapsort(["search", "--category", "nope"]).status, 2)

    // A rerun reuses the records and rewrites the store: nothing duplicated, tags kept.
    let rerun = try CLI.run([
      "run", Self.directory.appendingPathComponent("photos").path, "--out", Self.out.path,
    ])
    XCTAssertEqual(rerun.status, 1, rerun.stderr)
    let all = try snapsort(["search", ""])
    XCTAssertTrue(all.stdout.hasSuffix("7 matches\n"), all.stdout)
    XCTAssertTrue(try snapsort(["search", "", "--tag", "work"]).stdout.contains("cards-card-01-wood.jpg"))
    XCTAssertTrue(try snapsort(["search", "quentin"]).stdout.contains("cards-card-02-fabric.jpg"))

    let stats = try snapsort(["stats", "--json"])
    XCTAssertEqual(stats.status, 0, stats.stderr)
    let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(json["records"] as? Int, 7)
    XCTAssertEqual(json["errors"] as? Int, 2)
  }

  func testCatimaExport() throws {
    let zipURL = Self.directory.appendingPathComponent("catima.zip")
    let result = try snapsort(["export", "catima", "-o", zipURL.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let archive = try Archive(url: zipURL, accessMode: .read)
    var csv = Data()
    _ = try archive.extract(try XCTUnwrap(archive["catima.csv"])) { csv.append($0) }
    let text = String(decoding: csv, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("2\r\n\r\n_id\r\n"), text)
    let withCodes = try records().filter {
      (($0["card"] as? [String: Any])?["barcodes"] as? [Any])?.isEmpty == false
    }
    XCTAssertGreaterThan(withCodes.count, 0, "the sample cards carry barcodes")
    let pngs = archive.filter { $0.path.hasPrefix("card_") && $0.path.hasSuffix("_front.png") }
    XCTAssertEqual(pngs.count, withCodes.filter { ($0["card"] as? [String: Any])?["crop"] is String }.count)
    XCTAssertTrue(result.stderr.contains("\(withCodes.count) cards"), result.stderr)
  }

  func testCardSnapBackupAndVerify() throws {
    let password = Self.directory.appendingPathComponent("password")
    try Data("s3cret pass\n".utf8).write(to: password)
    let wrong = Self.directory.appendingPathComponent("wrong")
    try Data("guess\n".utf8).write(to: wrong)
    let backup = Self.directory.appendingPathComponent("backup.zip")
    let made = try snapsort(["export", "cardsnap", "--password-file", password.path, "-o", backup.path])
    XCTAssertEqual(made.status, 0, made.stderr)
    let verified = try CLI.run(["verify-backup", backup.path, "--password-file", password.path])
    XCTAssertEqual(verified.status, 0, verified.stderr)
    XCTAssertTrue(verified.stdout.hasPrefix("ok: "), verified.stdout)
    let refused = try CLI.run(["verify-backup", backup.path, "--password-file", wrong.path])
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.stderr.contains("wrong password, or the backup has been altered"), refused.stderr)
    XCTAssertEqual(refused.stdout, "", "nothing of the contents on a failure")
    XCTAssertEqual(
      try snapsort([
        "export", "cardsnap", "--password-file", password.path, "-o", backup.path, "--iterations", "1000",
      ]).status, 2)
  }

  // MARK: - Issue #22

  /// Finding 7: a query may begin with `-`, the README's own exclusion syntax; options work.
  func testQueryMayBeginWithAMinus() throws {
    let withoutLidl = try snapsort(["search", "-lidl", "--json"])
    XCTAssertEqual(withoutLidl.status, 0, withoutLidl.stderr)
    let withLidl = try snapsort(["search", "lidl", "--json"])
    let count = { (result: CLI.Result) in
      ((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [Any])?.count ?? -1
    }
    XCTAssertEqual(count(withoutLidl) + count(withLidl), 7, withoutLidl.stdout)
    let notCorrupt = try snapsort(["search", "-corrupt", "--kind", "unknown"])
    XCTAssertEqual(notCorrupt.status, 0, notCorrupt.stderr)
    XCTAssertFalse(notCorrupt.stdout.contains("bad-corrupt.png"), notCorrupt.stdout)
    let json = try snapsort(["search", "-corrupt", "-truncated", "--json"])
    let hits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    XCTAssertEqual(hits.count, 5)
    XCTAssertEqual(try snapsort(["search", "bad", "or", "nothing"]).status, 0, "several words are one query")
    XCTAssertEqual(
      try snapsort(["category", "add", "nocorrupt", "--query", "-corrupt"]).stdout,
      "saved category nocorrupt\n")
  }

  /// Finding 8: issuers and keywords typed as the ISSUER column shows them, or without accents.
  func testAccentsAndCaseFoldTheSameEverywhere() throws {
    for typed in ["Żabka", "zabka", "ŻABKA"] {
      let issuer = try snapsort(["search", "", "--issuer", typed])
      XCTAssertTrue(issuer.stdout.contains("cards-card-01-wood.jpg"), "--issuer \(typed): \(issuer.stdout)")
      XCTAssertTrue(issuer.stdout.hasSuffix("1 match\n"), issuer.stdout)
      XCTAssertTrue(try snapsort(["search", typed]).stdout.contains("cards-card-01-wood.jpg"), typed)
    }
    for typed in ["Åhléns", "ahlens", "AHLENS"] {
      let issuer = try snapsort(["search", "", "--issuer", typed])
      XCTAssertTrue(
        issuer.stdout.contains("screenshots-screenshot-01-light.png"), "--issuer \(typed): \(issuer.stdout)")
      XCTAssertTrue(
        try snapsort(["search", typed]).stdout.contains("screenshots-screenshot-01-light.png"), typed)
    }
  }

  /// Finding 9: dates that do not exist are refused, by search and by saved categories.
  func testOnlyRealDates() throws {
    for date in ["2018-13", "2018-02-30", "2018-99", "2019-02-29"] {
      let search = try snapsort(["search", "x", "--from", date])
      XCTAssertEqual(search.status, 2, date)
      XCTAssertTrue(search.stderr.contains("expected a real date"), search.stderr)
      XCTAssertEqual(try snapsort(["category", "add", "c", "--from", date]).status, 2, date)
    }
    XCTAssertEqual(try snapsort(["search", "x", "--from", "2020-02-29", "--to", "2024-12"]).status, 0)
  }

  /// Finding 15: `search --json` carries each record's barcodes and its crop's path.
  func testSearchJSONHasBarcodesAndCrop() throws {
    let result = try snapsort(["search", "", "--kind", "card", "--json"])
    let hits = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let withCodes = try records().filter {
      (($0["card"] as? [String: Any])?["barcodes"] as? [Any])?.isEmpty == false
    }
    XCTAssertGreaterThan(withCodes.count, 0)
    for record in withCodes {
      let card = try XCTUnwrap(record["card"] as? [String: Any])
      let hit = try XCTUnwrap(hits.first { $0["file"] as? String == record["file"] as? String })
      let codes = try XCTUnwrap(hit["barcodes"] as? [[String: Any]])
      XCTAssertEqual(
        codes.map { $0["value"] as? String },
        (card["barcodes"] as? [[String: Any]])?.map { $0["value"] as? String })
      if let crop = card["crop"] as? String {
        XCTAssertEqual(hit["crop"] as? String, Self.out.appendingPathComponent(crop).path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(hit["crop"] as? String)))
      }
    }
  }

  /// Finding 3: only cards are exported as cards; what is left out is listed with the reason.
  func testExportsTakeOnlyConfidentCardsAndListTheRest() throws {
    let zipURL = Self.directory.appendingPathComponent("strict.zip")
    let strict = try snapsort(["export", "catima", "-o", zipURL.path, "--min-kind-confidence", "1.01"])
    XCTAssertEqual(strict.status, 0, strict.stderr)
    let classified = try records().filter {
      $0["kind"] as? String == "card" && ($0["classification"] as? [String: Any]) != nil
        && (($0["card"] as? [String: Any])?["barcodes"] as? [Any])?.isEmpty == false
    }
    for record in classified {
      XCTAssertTrue(
        strict.stderr.contains("skipped: \(record["file"] as! String) (a card only at confidence"),
        strict.stderr)
    }
    // The summary counts each record of the store once, by why it was left out.
    let all = try records()
    let errors = all.filter { $0["status"] as? String == "error" }.count
    XCTAssertTrue(
      strict.stderr.contains(
        "exported 0 cards to \(zipURL.path); left out \(all.count) of \(all.count) records: "),
      strict.stderr)
    XCTAssertTrue(strict.stderr.contains(", \(errors) error records\n"), strict.stderr)
    let loose = try snapsort(["export", "catima", "-o", zipURL.path])
    let summary = try Regex("exported [1-9][0-9]* cards? to .*; left out [0-9]+ of \(all.count) records")
    XCTAssertTrue(loose.stderr.contains(summary), loose.stderr)
  }

  /// Finding 14: a password file with a Windows line end is the same password.
  func testPasswordFileWithCRLF() throws {
    let unix = Self.directory.appendingPathComponent("password-lf")
    try Data("s3cret pass\n".utf8).write(to: unix)
    let windows = Self.directory.appendingPathComponent("password-crlf")
    try Data("s3cret pass\r\n".utf8).write(to: windows)
    let backup = Self.directory.appendingPathComponent("crlf-backup.zip")
    XCTAssertEqual(
      try snapsort(["export", "cardsnap", "--password-file", windows.path, "-o", backup.path]).status, 0)
    let verified = try CLI.run(["verify-backup", backup.path, "--password-file", unix.path])
    XCTAssertEqual(verified.status, 0, verified.stderr)
  }

  // MARK: - The report in a real browser

  static func chromium() -> String? {
    for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    return nil
  }

  /// Runs headless Chromium on a URL; returns the DOM after scripts ran and the console lines.
  func chromium(_ arguments: [String], url: String) throws -> (dom: String, console: [String]) {
    guard let browser = Self.chromium() else {
      throw XCTSkip("chromium not found: `scripts/ensure-deps.sh chromium` (run by `make test`) installs it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=\(Self.directory.appendingPathComponent("chromium-profile").path)",
      ] + arguments + [url]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // The page logs nothing itself: any console line is an error, a CSP violation or a warning.
    let console = log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
    return (dom, console)
  }

  func testReportOpensInChromiumWithoutConsoleErrors() throws {
    let report = Self.out.appendingPathComponent("report.html")
    let html = try String(contentsOf: report, encoding: .utf8)
    XCTAssertFalse(html.contains("<script src") || html.contains("<link"), "self-contained")
    let (dom, console) = try chromium(["--dump-dom"], url: report.absoluteString)
    XCTAssertEqual(console, [], "console output")
    let entries = dom.components(separatedBy: "<article class=\"entry").count - 1
    XCTAssertEqual(entries, 7)
    XCTAssertTrue(dom.contains("7 shown"), "the filter script ran")
    XCTAssertEqual(
      dom.components(separatedBy: "<polygon class=\"quad\"").count - 1,
      try records().filter { (($0["card"] as? [String: Any])?["quad"] as? [Any]) != nil }.count)

    // The filter from the URL: the same rules as `snapsort search`.
    let filtered = try chromium(["--dump-dom"], url: report.absoluteString + "#q=corrupt%20or%20truncated")
    XCTAssertEqual(filtered.console, [])
    XCTAssertTrue(filtered.dom.contains("2 shown"), "filtered view")

    // Kept after the run (outside the test's folder) for a person to look at.
    let screenshot = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snapsort-report-screenshot.png")
    let shot = try chromium(
      ["--screenshot=\(screenshot.path)", "--window-size=1280,1600", "--hide-scrollbars"],
      url: report.absoluteString)
    XCTAssertEqual(shot.console, [])
    let png = try Data(contentsOf: screenshot)
    XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
  }
}
