import Foundation
import XCTest

/// The review page in real headless Chromium, driven with real input over the DevTools pipe:
/// the queue renders without a console message, a corner dragged with the mouse posts new
/// corners and the page shows the new crop, arrow keys nudge the focused corner, a name typed and
/// a tag added on the page reach the export, and a receipt's items and checks follow what is
/// typed.
extension ReviewCommandTests {
  func testThePageDragsACornerAndShowsTheNewCrop() throws {
    guard let browser = StoreCommandTests.chromium() else {
      throw XCTSkip("chromium not found: `scripts/ensure-deps.sh chromium` (run by `make test`) installs it")
    }
    let file = "card-02-fabric.jpg"
    let server = try Server([Self.out.path])
    defer { _ = server.interrupt() }
    let chromium = try ChromiumPipe(
      browser: browser, profile: Self.directory.appendingPathComponent("chromium-review-profile"))
    try chromium.open(server.url.absoluteString)
    try chromium.wait(for: "document.body && document.body.dataset.queueLoads === '1'")
    XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('#queue > li').length") as? Int, 4)
    XCTAssertEqual(try chromium.evaluate("document.querySelector('#more').hidden") as? Bool, true)

    try chromium.evaluate("document.querySelector('#queue > li[data-file=\"\(file)\"]').click()")
    try chromium.wait(
      for: "!!document.querySelector('.corner') && !!document.querySelector('#photo') "
        + "&& document.querySelector('#photo').complete && document.querySelector('#crop').naturalWidth > 0")
    let oldCrop = try XCTUnwrap(chromium.evaluate("document.querySelector('#crop').src") as? String)
    let before = try quad(of: file)
    let corner = try XCTUnwrap(
      chromium.evaluate(
        "(() => { const c = document.querySelector('.corner[data-corner=\"2\"]'); c.scrollIntoView({block: 'center'}); "
          + "const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        as? [Double])
    try chromium.drag(from: (corner[0], corner[1]), by: (12, 9))
    try chromium.wait(for: "document.body.dataset.rewarps === '1'")
    try chromium.wait(
      for: "document.querySelector('#crop').complete && document.querySelector('#crop').naturalWidth > 0")
    let newCrop = try XCTUnwrap(chromium.evaluate("document.querySelector('#crop').src") as? String)
    XCTAssertNotEqual(newCrop, oldCrop, "the page shows the re-warped crop")
    let after = try quad(of: file)
    XCTAssertGreaterThan(after[2][0], before[2][0] + 5, "dragged right")
    XCTAssertGreaterThan(after[2][1], before[2][1] + 5, "dragged down")
    XCTAssertEqual(after[0], before[0], "the other corners stay")
    XCTAssertTrue(
      (try chromium.evaluate("document.querySelector('#status').textContent") as? String ?? "")
        .hasPrefix("re-warped"))

    // The keyboard: focus a corner, press an arrow key; the nudge is posted after a pause.
    try chromium.evaluate("document.querySelector('.corner[data-corner=\"0\"]').focus()")
    for _ in 0..<3 { try chromium.press("ArrowLeft", code: 37) }
    try chromium.wait(for: "document.body.dataset.rewarps === '2'")
    XCTAssertLessThan(try quad(of: file)[0][0], after[0][0], "nudged left")

    // Rename and tag through the page, then export and read the export back.
    try chromium.evaluate("document.querySelector('#name').select()")
    try chromium.send("Input.insertText", ["text": "Chromium Corner"])
    try chromium.evaluate("document.querySelector('#name').blur()")
    try chromium.wait(
      for:
        "!!document.querySelector('#name') && document.querySelector('#name').value === 'Chromium Corner' && !!document.querySelector('#name').parentElement.querySelector('.read')"
    )
    try chromium.evaluate("document.querySelector('#add-tag').focus()")
    try chromium.send("Input.insertText", ["text": "till"])
    try chromium.press("Enter", code: 13)
    try chromium.wait(
      for:
        "Array.from(document.querySelectorAll('#tags .chip')).some((chip) => chip.textContent.startsWith('till'))"
    )
    let csv = try catimaExport(named: "catima-from-page.zip")
    XCTAssertTrue(csv.contains("Chromium Corner"), csv)
    XCTAssertTrue(csv.contains("\r\ntill\r\n"), "the tag is a Catima group")
    let tagged = try CLI.run(["search", "--tag", "till", "--db", Self.out.path])
    XCTAssertTrue(tagged.stdout.contains(file), tagged.stdout + tagged.stderr)

    // A receipt: the focused field's source line is marked, and the checks follow a typed total.
    try chromium.evaluate(
      "document.querySelector('#queue > li[data-file=\"receipt-01-en-photo.jpg\"]').click()")
    try chromium.wait(for: "!!document.querySelector('#receipt-total')")
    XCTAssertEqual(
      try chromium.evaluate("document.querySelectorAll('.corner').length") as? Int, 0,
      "a receipt's page has no card corners to drag")
    // An item added by hand: saved when its amount is given, and the page shows the stored list.
    let rows = try XCTUnwrap(
      chromium.evaluate("document.querySelectorAll('#receipt-items tr').length") as? Int)
    try chromium.evaluate("document.querySelector('#add-item').click()")
    try chromium.send("Input.insertText", ["text": "Green tea"])
    try chromium.evaluate(
      "document.querySelector('#receipt-items tr:last-child input[data-key=\"amount\"]').focus()")
    try chromium.send("Input.insertText", ["text": "1,50"])
    try chromium.evaluate(
      "document.querySelector('#receipt-items tr:last-child input[data-key=\"amount\"]').blur()")
    try chromium.wait(
      for: "document.querySelectorAll('#receipt-items tr').length === \(rows + 1) "
        + "&& !!document.querySelector('.items .read')")
    // Another test may have listed items by hand already, so "listed by you" can show before this
    // row's save has reached the server: the stored list is asked for until it changes.
    func storedItems() throws -> [[String: Any]] {
      try XCTUnwrap(
        (server.request("/api/record?file=receipt-01-en-photo.jpg").json as? [String: Any]).flatMap {
          (($0["record"] as? [String: Any])?["receipt"] as? [String: Any])?["items"] as? [[String: Any]]
        })
    }
    var stored = try storedItems()
    let deadline = Date().addingTimeInterval(15)
    while stored.last?["description"] as? String != "Green tea", Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      stored = try storedItems()
    }
    XCTAssertEqual(stored.last?["description"] as? String, "Green tea")
    XCTAssertEqual(stored.last?["amount"] as? String, "1.50")
    // The save above re-renders the receipt's fields when its answer arrives, which can take the
    // focus away again: the total is focused on each poll until its line is marked.
    try chromium.wait(
      for: "(document.querySelector('#receipt-total').focus(), "
        + "document.querySelectorAll('#receipt-lines li.source').length === 1)")
    // The total's line is marked on the page too: inside the picture, below its middle (the
    // total is printed under the items).
    try chromium.wait(
      for: "!document.querySelector('#line-mark').hidden && document.querySelector('#receipt-page').complete "
        + "&& document.querySelector('#receipt-page').naturalWidth > 0")
    let markShare = try XCTUnwrap(
      chromium.evaluate(
        "(() => { const m = document.querySelector('#line-mark').getBoundingClientRect(), "
          + "p = document.querySelector('#receipt-page').getBoundingClientRect(); "
          + "return [(m.left - p.left) / p.width, (m.right - p.left) / p.width, "
          + "(m.top - p.top) / p.height, (m.bottom - p.top) / p.height]; })()") as? [Double])
    XCTAssertEqual(markShare.count, 4)
    XCTAssertTrue(markShare.allSatisfy { (-0.01...1.01).contains($0) }, "\(markShare)")
    XCTAssertGreaterThan(markShare[2], 0.5, "the total's line is in the lower half: \(markShare)")
    XCTAssertLessThan(markShare[3] - markShare[2], 0.1, "one line high: \(markShare)")
    // Where the record's own box and page size put it.
    let receipt = try XCTUnwrap(
      (server.request("/api/record?file=receipt-01-en-photo.jpg").json as? [String: Any]).flatMap {
        ($0["record"] as? [String: Any])?["receipt"] as? [String: Any]
      })
    let page = try XCTUnwrap(receipt["text_page"] as? [String: Any])
    let line = try XCTUnwrap(
      (receipt["fields"] as? [String: Any]).flatMap { ($0["total"] as? [String: Any])?["line"] as? Int })
    let box = try XCTUnwrap(((receipt["text"] as? [[String: Any]])?[line]["box"]) as? [Double])
    let (width, height) = try (XCTUnwrap(page["width"] as? Double), XCTUnwrap(page["height"] as? Double))
    let expected = [box[0] / width, (box[0] + box[2]) / width, box[1] / height, (box[1] + box[3]) / height]
    for (shown, placed) in zip(markShare, expected) {
      XCTAssertEqual(shown, placed, accuracy: 0.01, "\(markShare)")
    }
    try chromium.evaluate("document.querySelector('#receipt-total').select()")
    try chromium.send("Input.insertText", ["text": "999.99"])
    try chromium.wait(for: "!!document.querySelector('#checks .error')")
    XCTAssertEqual(chromium.problems(), [], "console messages, exceptions or CSP reports")
  }

  func testTheQueueOpensAPageAtATime() throws {
    guard let browser = StoreCommandTests.chromium() else {
      throw XCTSkip("chromium not found: `scripts/ensure-deps.sh chromium` (run by `make test`) installs it")
    }
    let server = try Server([Self.out.path])
    defer { _ = server.interrupt() }
    let chromium = try ChromiumPipe(
      browser: browser, profile: Self.directory.appendingPathComponent("chromium-review-pages-profile"))
    try chromium.open(server.url.absoluteString + "&page=3")
    try chromium.wait(for: "document.body && document.body.dataset.queueLoads === '1'")
    XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('#queue > li').length") as? Int, 3)
    XCTAssertEqual(
      try chromium.evaluate("document.querySelector('#count').textContent") as? String,
      "4 records, the first 3 shown")
    XCTAssertEqual(
      try chromium.evaluate("document.querySelector('#more').textContent") as? String, "Show 1 more")
    try chromium.evaluate("document.querySelector('#more').click()")
    try chromium.wait(for: "document.body.dataset.queueLoads === '2'")
    XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('#queue > li').length") as? Int, 4)
    XCTAssertEqual(try chromium.evaluate("document.querySelector('#more').hidden") as? Bool, true)
    XCTAssertEqual(
      try chromium.evaluate("Array.from(document.querySelectorAll('#queue > li')).map(li => li.dataset.file)")
        as? [String],
      try XCTUnwrap(
        (server.request("/api/queue?q=").json as? [String: Any])?["entries"] as? [[String: Any]]
      ).map { $0["file"] as! String },
      "the pages appended in the queue's order")
    XCTAssertEqual(chromium.problems(), [], "console messages, exceptions or CSP reports")
  }
}
