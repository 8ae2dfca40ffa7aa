import Foundation
import XCTest
import ZIPFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `snapsort review` end to end: the real server on a random port over real HTTP, and the page
/// in real headless Chromium, on a real run of the default pipeline over two sample cards, a
/// receipt and a broken file.
final class ReviewCommandTests: XCTestCase {
  nonisolated(unsafe) static var directory: URL!
  static var photos: URL { directory.appendingPathComponent("photos") }
  static var out: URL { directory.appendingPathComponent("out") }

  override class func setUp() {
    super.setUp()
    do {
      directory = try CLI.temporaryDirectory()
      try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
      let names = [
        "cards/card-01-wood.jpg", "cards/card-02-fabric.jpg", "bad/corrupt.png",
        "receipts/receipt-01-en-photo.jpg",
      ]
      for name in names {
        try FileManager.default.copyItem(
          at: CLI.root.appendingPathComponent("samples/\(name)"),
          to: photos.appendingPathComponent(URL(fileURLWithPath: name).lastPathComponent))
      }
      let run = try CLI.run(["run", photos.path, "--out", out.path, "--jobs", "2", "--quiet"])
      XCTAssertEqual(run.status, 1, run.stderr)
    } catch {
      XCTFail("setting up the run failed: \(error)")
    }
  }

  override class func tearDown() {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  // MARK: - The API over HTTP

  func testTheQueueSearchAndRefusals() throws {
    let server = try Server([Self.out.path])
    defer { _ = server.interrupt() }
    XCTAssertEqual(try server.request("/", token: false).status, 403, "no token, no page")
    let page = try server.request("/?token=\(server.token)", token: false)
    XCTAssertEqual(page.status, 200)
    XCTAssertTrue(String(decoding: page.data, as: UTF8.self).contains("<script src=\"/review.js\">"))

    let queue = try XCTUnwrap(server.request("/api/queue?q=").json as? [String: Any])
    let entries = try XCTUnwrap(queue["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.count, 4)
    XCTAssertEqual(entries.first?["file"] as? String, "corrupt.png", "a failed photo needs a look first")
    let scores = entries.map { $0["score"] as! Int }
    XCTAssertEqual(scores, scores.sorted(by: >))
    XCTAssertEqual((entries.first?["reasons"] as? [[String: Any]])?.first?["points"] as? Int, scores.first)

    // A page at a time, in the same order, with the count of all.
    let pages = try [0, 2].map { offset in
      try XCTUnwrap(server.request("/api/queue?q=&offset=\(offset)&limit=2").json as? [String: Any])
    }
    XCTAssertEqual(pages.map { $0["count"] as? Int }, [4, 4])
    XCTAssertEqual(
      pages.flatMap { ($0["entries"] as? [[String: Any]] ?? []).map { $0["file"] as! String } },
      entries.map { $0["file"] as! String })
    XCTAssertEqual(try server.request("/api/queue?q=&limit=0").status, 400)
    XCTAssertEqual(try server.request("/api/queue?q=&offset=x").status, 400)

    // The search box reads what `snapsort search` reads.
    let wood = try XCTUnwrap(server.request("/api/queue?q=wood%20-fabric").json as? [String: Any])
    XCTAssertEqual((wood["entries"] as? [[String: Any]])?.map { $0["file"] as! String }, ["card-01-wood.jpg"])
    let unknown = try server.request("/api/queue?q=--no-such-option")
    XCTAssertEqual(unknown.status, 400)
    XCTAssertTrue(((unknown.json as? [String: Any])?["error"] as? String ?? "").contains("--no-such-option"))

    // Writes need the token in a header and a JSON body; paths come from the store only.
    let edit: [String: Any] = ["file": "card-01-wood.jpg", "name": "Mine"]
    XCTAssertEqual(try server.request("/api/correct", post: edit, token: false).status, 403)
    XCTAssertEqual(try server.request("/api/correct", post: edit, type: "text/plain").status, 415)
    XCTAssertEqual(try server.request("/api/record?file=..%2Frun.json").status, 400)
    XCTAssertEqual(try server.request("/photo?file=..%2F..%2Fetc%2Fpasswd&token=\(server.token)").status, 400)
  }

  func testACornerMovedReRunsTheCardAndCorrectionsOutliveARerun() throws {
    let file = "card-01-wood.jpg"
    let server = try Server([Self.out.path])
    let before = try quad(of: file)
    let oldCrop = try crop(of: file)
    var moved = before
    moved[0] = [before[0][0] - 15, before[0][1] - 12]
    let started = Date()
    let answer = try server.request("/api/quad", post: ["file": file, "quad": moved])
    XCTAssertEqual(answer.status, 200, String(decoding: answer.data, as: UTF8.self))
    print("rewarp over HTTP took \(Int(Date().timeIntervalSince(started) * 1000)) ms")
    XCTAssertEqual(try quad(of: file), moved, "records.jsonl holds the card re-run with the new corners")
    let reviewedCrop = try crop(of: file)
    XCTAssertNotEqual(reviewedCrop, oldCrop, "a new crop")
    XCTAssertEqual((answer.json as? [String: Any])?["corrected"] as? [String], ["quad"])

    // Corners that are no card are refused and change nothing.
    let backwards = Array(moved.reversed())
    XCTAssertEqual(try server.request("/api/quad", post: ["file": file, "quad": backwards]).status, 422)
    XCTAssertEqual(try quad(of: file), moved)

    let named = try server.request(
      "/api/correct", post: ["file": file, "name": "Corner Shop", "issuer": "lidl"])
    XCTAssertEqual(named.status, 200, String(decoding: named.data, as: UTF8.self))
    XCTAssertEqual(
      try server.request("/api/correct", post: ["file": file, "issuer": "no-such-issuer"]).status, 400)
    let labelled = try server.request(
      "/api/labels", post: ["file": file, "add_tags": ["Shop"], "add_note": "by hand"])
    XCTAssertEqual((labelled.json as? [String: Any])?["tags"] as? [String], ["shop"])
    let stopped = server.interrupt()
    XCTAssertEqual(stopped.status, 0, stopped.stderr)
    XCTAssertTrue(stopped.stderr.contains("stopped"), stopped.stderr)

    // A fresh run reads every photo again; the person's values stay over the run's.
    let rerun = try CLI.run(["run", Self.photos.path, "--out", Self.out.path, "--fresh", "--quiet"])
    XCTAssertEqual(rerun.status, 1, rerun.stderr)
    let shown = try show(file)
    XCTAssertEqual(Set(shown["corrected"] as? [String] ?? []), ["quad", "name", "issuer"])
    let card = try XCTUnwrap((shown["record"] as? [String: Any])?["card"] as? [String: Any])
    XCTAssertEqual((card["name"] as? [String: Any])?["suggested"] as? String, "Corner Shop")
    XCTAssertEqual((card["issuer"] as? [String: Any])?["id"] as? String, "lidl")
    XCTAssertEqual(card["quad"] as? [[Double]], moved)
    // The fresh run detected the corners again, then warped the card with the person's.
    XCTAssertEqual(try quad(of: file), moved, "records.jsonl: the card re-run with the corrected corners")
    XCTAssertEqual(try crop(of: file), reviewedCrop, "the crop made from them")
    XCTAssertEqual(shown["tags"] as? [String], ["shop"])
    // The rerun's report shows the person's values, and says they are.
    let report = try String(contentsOf: Self.out.appendingPathComponent("report.html"), encoding: .utf8)
    let entry = try XCTUnwrap(
      report.components(separatedBy: "<article").first { $0.contains("</span> \(file)</h2>") })
    XCTAssertTrue(entry.contains("<dd class=\"name\">Corner Shop</dd>"), entry)
    XCTAssertTrue(entry.contains("corrected by hand: quad, name, issuer"), entry)
    let found = try CLI.run(["search", "corner shop", "--db", Self.out.path])
    XCTAssertTrue(found.stdout.contains(file), found.stdout)
    // The export reads the store as search does: the name the person gave names the card.
    let csv = try catimaExport(named: "catima.zip")
    XCTAssertNotNil(csv.split(separator: "\r\n").first { $0.contains("Corner Shop") }, csv)
  }

  /// `snapsort export catima` of the run's store, read back: the archive's catima.csv.
  func catimaExport(named name: String) throws -> String {
    let zipURL = Self.directory.appendingPathComponent(name)
    let exported = try CLI.run(["export", "catima", "-o", zipURL.path, "--db", Self.out.path])
    XCTAssertEqual(exported.status, 0, exported.stderr)
    var csv = Data()
    let archive = try Archive(url: zipURL, accessMode: .read)
    _ = try archive.extract(try XCTUnwrap(archive["catima.csv"])) { csv.append($0) }
    return String(decoding: csv, as: UTF8.self)
  }

  func testAReceiptsFieldsAreCheckedAsTypedAndKeptAsCorrections() throws {
    let file = "receipt-01-en-photo.jpg"
    let server = try Server([Self.out.path])
    defer { _ = server.interrupt() }
    let detail = try XCTUnwrap(server.request("/api/record?file=\(file)").json as? [String: Any])
    let receipt = try XCTUnwrap((detail["record"] as? [String: Any])?["receipt"] as? [String: Any])
    let total = try XCTUnwrap(receipt["total"] as? String)
    // What the page asks while a person types a total: the checks, nothing stored.
    let same = try XCTUnwrap(server.request("/api/checks?file=\(file)&total=\(total)").json as? [String: Any])
    XCTAssertEqual(same["problems"] as? [String], [], "the run's own total adds up")
    let typed = try XCTUnwrap(server.request("/api/checks?file=\(file)&total=999.99").json as? [String: Any])
    XCTAssertFalse(
      (typed["problems"] as? [String] ?? []).isEmpty, "a total the amounts do not make: \(typed)")
    XCTAssertEqual(try server.request("/api/checks?file=\(file)&total=abc").status, 400)

    let opened = try XCTUnwrap(detail["version"] as? String)
    let edited = try server.request(
      "/api/correct",
      post: ["file": file, "merchant": "Basket Market", "date": "2024-03-15", "version": opened])
    XCTAssertEqual(edited.status, 200, String(decoding: edited.data, as: UTF8.self))
    // A second tab still showing the record as it was opened: its write is refused, not lost unseen.
    let stale = try server.request(
      "/api/correct", post: ["file": file, "merchant": "Other", "version": opened])
    XCTAssertEqual(stale.status, 409)
    XCTAssertEqual(
      Set((edited.json as? [String: Any])?["corrected"] as? [String] ?? []), ["merchant", "date"])
    XCTAssertEqual(
      try server.request("/api/correct", post: ["file": file, "date": "2024-02-30"]).status, 400)
    let found = try CLI.run([
      "search", "--merchant", "basket market", "--from", "2024-03-15", "--db", Self.out.path,
    ])
    XCTAssertTrue(found.stdout.contains(file), found.stdout + found.stderr)
    let record = try XCTUnwrap(try show(file)["record"] as? [String: Any])
    XCTAssertEqual((record["receipt"] as? [String: Any])?["merchant"] as? String, "Basket Market")

    // The items, listed by hand: kept as a correction, checked against the subtotal, counted by stats.
    let runItems = try XCTUnwrap(receipt["items"] as? [[String: Any]])
    var listed: [[String: Any]] = runItems.dropFirst().map { item in
      ["description": item["description"]!, "amount": item["amount"]!]
    }
    listed.append(["description": "Oat milk", "quantity": "2", "unit_price": "1.20", "amount": "2,40"])
    let itemised = try server.request("/api/correct", post: ["file": file, "items": listed])
    XCTAssertEqual(itemised.status, 200, String(decoding: itemised.data, as: UTF8.self))
    let receiptNow = try XCTUnwrap(
      ((itemised.json as? [String: Any])?["record"] as? [String: Any])?["receipt"] as? [String: Any])
    XCTAssertEqual((receiptNow["items"] as? [[String: Any]])?.last?["amount"] as? String, "2.40")
    XCTAssertEqual((receiptNow["items"] as? [[String: Any]])?.count, runItems.count)
    XCTAssertEqual(
      (receiptNow["checks"] as? [String: Any])?["items_match_subtotal"] as? Bool, false,
      "the checks are those of the listed items")
    let stats = try CLI.run(["stats", "--json", "--db", Self.out.path])
    XCTAssertTrue(stats.stdout.contains("Oat milk") || stats.stdout.contains("oat milk"), stats.stdout)
    XCTAssertEqual(
      try server.request(
        "/api/correct", post: ["file": file, "items": [["description": "x", "amount": "abc"]]]
      )
      .status, 400)
    XCTAssertEqual(
      try server.request(
        "/api/correct", post: ["file": file, "items": [["description": " ", "amount": "1"]]]
      )
      .status, 400)
    XCTAssertEqual(
      try records()[file].flatMap { ($0["receipt"] as? [String: Any])?["date"] as? String }, "2024-03-14",
      "records.jsonl keeps what the run read")
  }

  func testClearErrorsForAFolderThatIsNoRunAndATakenPort() throws {
    let empty = Self.directory.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let notARun = try CLI.run(["review", empty.path])
    XCTAssertEqual(notARun.status, 2)
    XCTAssertTrue(notARun.stderr.contains("is not a run's output folder"), notARun.stderr)
    let missing = try CLI.run(["review", Self.directory.appendingPathComponent("nowhere").path])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("is not a folder"), missing.stderr)

    let first = try Server([Self.out.path])
    defer { _ = first.interrupt() }
    let taken = try CLI.run(["review", Self.out.path, "--port", String(first.url.port!)])
    XCTAssertEqual(taken.status, 2)
    XCTAssertTrue(taken.stderr.contains("is taken"), taken.stderr)
  }

  // MARK: - Support

  /// A `snapsort review` process and the URL it printed.
  final class Server {
    let process = Process()
    let errors = Pipe()
    let url: URL
    var token: String { URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems![0].value! }
    var base: String { "http://127.0.0.1:\(url.port!)" }

    init(_ arguments: [String]) throws {
      let output = Pipe()
      process.executableURL = CLI.executable
      process.arguments = ["review"] + arguments
      process.currentDirectoryURL = CLI.root
      var environment = ProcessInfo.processInfo.environment
      environment["OMP_THREAD_LIMIT"] = "1"
      process.environment = environment
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      var line = Data()
      while !line.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
      }
      let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let url = URL(string: text), text.hasPrefix("http://127.0.0.1:") else {
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        throw ChromiumPipe.Failure(description: "review printed no URL: \(text) \(stderr)")
      }
      self.url = url
    }

    /// Ctrl-C; returns the exit status and what was printed on stderr.
    func interrupt() -> (status: Int32, stderr: String) {
      process.interrupt()
      process.waitUntilExit()
      return (
        process.terminationStatus,
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      )
    }

    /// One request over real HTTP; the body decoded as JSON.
    func request(
      _ path: String, post body: [String: Any]? = nil, token: Bool = true, type: String = "application/json"
    ) throws -> (status: Int, json: Any?, data: Data) {
      var request = URLRequest(url: URL(string: base + path)!)
      if token { request.setValue(self.token, forHTTPHeaderField: "X-Review-Token") }
      if let body {
        request.httpMethod = "POST"
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
      }
      let done = DispatchSemaphore(value: 0)
      nonisolated(unsafe) var answer: (Data?, URLResponse?, (any Error)?)
      URLSession.shared.dataTask(with: request) { data, response, error in
        answer = (data, response, error)
        done.signal()
      }.resume()
      done.wait()
      if let error = answer.2 { throw error }
      let data = answer.0 ?? Data()
      return (
        (answer.1 as? HTTPURLResponse)?.statusCode ?? 0, try? JSONSerialization.jsonObject(with: data), data
      )
    }
  }

  func records() throws -> [String: [String: Any]] {
    let text = try String(contentsOf: Self.out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    var byFile: [String: [String: Any]] = [:]
    for line in text.split(separator: "\n") {
      let record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      byFile[record["file"] as! String] = record
    }
    return byFile
  }

  func quad(of file: String) throws -> [[Double]] {
    let card = try XCTUnwrap(records()[file]?["card"] as? [String: Any])
    return try XCTUnwrap(card["quad"] as? [[Double]])
  }

  func crop(of file: String) throws -> Data {
    let card = try XCTUnwrap(records()[file]?["card"] as? [String: Any])
    return try Data(contentsOf: Self.out.appendingPathComponent(try XCTUnwrap(card["crop"] as? String)))
  }

  func show(_ file: String) throws -> [String: Any] {
    let shown = try CLI.run(["show", file, "--json", "--db", Self.out.path])
    XCTAssertEqual(shown.status, 0, shown.stderr)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
  }
}
