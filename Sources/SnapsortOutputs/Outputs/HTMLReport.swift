import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// `report.html`: one self-contained page a person reads offline from `file://`.
///
/// Summary counts on top, a filter box (the search rules of `snapsort search`, applied to each
/// entry's text), and one entry per record: the photo with its detected quad drawn over it,
/// the crop, colour swatches, barcodes drawn as bars where the symbology allows (as text
/// otherwise), name and issuer with confidence, a receipt's items and checks, an error's
/// message, the record's tags and notes from the store. Crops are relative links (`cards/…`,
/// inside the output folder); the photo itself is linked by its absolute `file://` URL, so the
/// report keeps its photos when the output folder moves. CSS and JS are inline. Every string
/// from a record goes through `HTMLText.escape`.
public struct HTMLReport {
  public static let fileName = "report.html"

  let records: [Record]
  let summary: RunSummary
  let outputDirectory: URL
  let sources: [String: URL]
  /// Tags and notes by record file, from the store.
  let labels: [String: (tags: [String], notes: [String])]
  /// The store's statistics, for the spending charts.
  let stats: StoreStats?
  /// The fields a person corrected (`snapsort review`), by record file: the records show the
  /// person's values, and the entry says which they are.
  let corrected: [String: [CorrectedField]]

  public init(
    records: [Record], summary: RunSummary, outputDirectory: URL, sources: [String: URL] = [:],
    labels: [String: (tags: [String], notes: [String])] = [:], stats: StoreStats? = nil,
    corrected: [String: [CorrectedField]] = [:]
  ) {
    self.records = records
    self.summary = summary
    self.outputDirectory = outputDirectory
    self.sources = sources
    self.labels = labels
    self.stats = stats
    self.corrected = corrected
  }

  /// Writes `report.html` into `outputDirectory` from the records with a person's corrections
  /// over them, and the photos, tags and notes the store holds: a run ends here, and so does
  /// every command that changes the store.
  public static func write(
    records: [Record], summary: RunSummary, store: RecordStore, to outputDirectory: URL
  )
    throws
  {
    let corrections = try store.correctionsByFile()
    let shown = records.map { record in corrections[record.file]?.applied(to: record) ?? record }
    let report = HTMLReport(
      records: shown.sorted { $0.file < $1.file }, summary: summary, outputDirectory: outputDirectory,
      sources: try store.sources(), labels: try store.labels(), stats: try store.stats(),
      corrected: corrections.mapValues(\.fields).filter { !$0.value.isEmpty })
    try AtomicFile.write(Data(report.render().utf8), to: outputDirectory.appendingPathComponent(fileName))
  }

  public func render() -> String {
    let byKind = Dictionary(grouping: records.filter { $0.status == .ok }, by: \.kind).mapValues(\.count)
    let errors = records.filter { $0.status == .error }.count
    let codes = records.reduce(0) { $0 + ($1.card?.barcodes?.count ?? 0) }
    var counts = [("photos", records.count)]
    counts += Kind.allCases.compactMap { kind in byKind[kind].map { (kind.rawValue + "s", $0) } }
    counts += [("barcodes", codes), ("errors", errors), ("skipped", summary.counts.skipped)]
    let countsHTML = counts.map { "<div class=\"count\"><b>\($0.1)</b> \($0.0)</div>" }.joined()
    let entries = records.map(entry).joined(separator: "\n")
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data: file:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
      <title>Snapsort report</title>
      <style>\(Self.css)\(Self.spendingCSS)</style></head>
      <body>
      <header><h1>Snapsort report</h1>
      <p class="meta">snapsort \(HTMLText.escape(summary.version)) · config \(HTMLText.escape(String(summary.configHash.prefix(12)))) · \(HTMLText.escape(summary.startedAt))</p>
      <div class="counts">\(countsHTML)</div>
      <input id="filter" type="search" placeholder="Filter: keywords, or, -not …" autocomplete="off">
      <span id="shown">\(records.count) shown</span></header>
      \(Self.spendingHTML(stats))
      <main id="entries">
      \(entries)
      </main>
      <p id="none" hidden>Your search criteria doesn't match any items</p>
      <script>\(Self.script)</script>
      </body></html>

      """
  }

  /// Writes `report.html` again in a run's output folder from what the folder holds:
  /// `records.jsonl`, `run.json` and the store (photos, tags, notes). `snapsort report` and every
  /// command that changes the store end here.
  ///
  /// - Throws: `InputError` when the folder holds no run.
  public static func rewrite(in outputDirectory: URL, store: RecordStore) throws {
    let recordsURL = outputDirectory.appendingPathComponent("records.jsonl")
    let summaryURL = outputDirectory.appendingPathComponent("run.json")
    guard FileManager.default.fileExists(atPath: recordsURL.path),
      FileManager.default.fileExists(atPath: summaryURL.path)
    else {
      throw InputError(
        "\(outputDirectory.path) holds no records.jsonl and run.json: is it the --out folder of a `snapsort run`?"
      )
    }
    let summary = try JSONDecoder().decode(RunSummary.self, from: Data(contentsOf: summaryURL))
    try write(
      records: try RecordCoding.readLines(recordsURL), summary: summary, store: store, to: outputDirectory)
  }

  // MARK: - One entry

  func entry(_ record: Record) -> String {
    let status = record.status == .error ? "error" : record.kind.rawValue
    var body = ""
    var searchable = [record.file]
    if let error = record.error {
      body += "<p class=\"error\">\(HTMLText.escape(error.stage)): \(HTMLText.escape(error.message))</p>"
      searchable.append(error.message)
    }
    if let card = record.card {
      body += cardHTML(card, record: record)
      searchable += [card.name?.suggested, card.issuer?.name].compactMap { $0 }
      searchable += (card.barcodes ?? []).map(\.value) + (card.text ?? []).map(\.text)
    }
    if let receipt = record.receipt {
      body += receiptHTML(receipt)
      searchable += [receipt.merchant].compactMap { $0 } + receipt.items.map(\.description)
      searchable += (receipt.text ?? []).map(\.text)
    }
    if let warnings = record.warnings, !warnings.isEmpty {
      body += "<p class=\"warning\">\(warnings.map(HTMLText.escape).joined(separator: " · "))</p>"
      searchable += warnings
    }
    if let fields = corrected[record.file] {
      let names = fields.map(\.rawValue).joined(separator: ", ")
      body += "<p class=\"corrected\">corrected by hand: \(HTMLText.escape(names))</p>"
    }
    if let notes = record.notes, !notes.isEmpty {
      body += "<p class=\"notes\">\(notes.map(HTMLText.escape).joined(separator: " · "))</p>"
    }
    if let label = labels[record.file] {
      if !label.tags.isEmpty {
        body +=
          "<p class=\"tags\">"
          + label.tags.map { "<span class=\"tag\">\(HTMLText.escape($0))</span>" }.joined()
          + "</p>"
      }
      for note in label.notes { body += "<p class=\"annotation\">\(HTMLText.escape(note))</p>" }
      searchable += label.tags + label.notes
    }
    return """
      <article class="entry \(status)" data-text="\(HTMLText.escape(searchable.joined(separator: " ")))">
      <h2><span class="badge">\(status)</span> \(HTMLText.escape(record.file))</h2>
      <div class="body">\(photoHTML(record))\(body)</div></article>
      """
  }

  /// The photo, lazily loaded and scaled to fit, under an SVG in the record's pixel coordinates
  /// that draws the quad; both fit the same box the same way, so the quad lands on the card.
  func photoHTML(_ record: Record) -> String {
    guard let image = record.image, image.width > 0, image.height > 0 else { return "" }
    var photo = ""
    if let source = sources[record.file] {
      let href = source.standardizedFileURL.absoluteString
      photo = "<img class=\"thumb\" src=\"\(HTMLText.escape(href))\" alt=\"photo\" loading=\"lazy\">"
    }
    var overlay = ""
    if let quad = record.card?.quad, quad.corners.count == 4 {
      let points = quad.corners.map { "\($0.x),\($0.y)" }.joined(separator: " ")
      let stroke = Double(max(image.width, image.height)) / 150
      overlay = "<polygon class=\"quad\" points=\"\(points)\" stroke-width=\"\(stroke)\"/>"
    }
    return """
      <figure class="photo"><div class="frame">\(photo)<svg viewBox="0 0 \(image.width) \(image.height)" \
      preserveAspectRatio="xMidYMid meet">\(overlay)</svg></div>\
      <figcaption>\(image.width)×\(image.height) \(HTMLText.escape(image.format))</figcaption></figure>
      """
  }

  func cardHTML(_ card: CardRecord, record: Record) -> String {
    var html = "<div class=\"card\">"
    if let crop = card.crop {
      html += "<img class=\"crop\" src=\"\(HTMLText.escape(crop))\" alt=\"crop\" loading=\"lazy\">"
    } else if let reason = card.reason {
      html += "<p class=\"muted\">no card found: \(HTMLText.escape(reason))</p>"
    }
    if let colors = card.colors, !colors.isEmpty {
      html += "<div class=\"swatches\">"
      for color in colors where color.hex.wholeMatch(of: /#[0-9a-fA-F]{6}/) != nil {
        html +=
          "<span class=\"swatch\" style=\"background:\(color.hex)\" title=\"\(color.hex)\">\(color.hex) \(Int((color.share * 100).rounded())) %</span>"
      }
      html += "</div>"
    }
    html += "<dl>"
    if let name = card.name?.suggested {
      html += "<dt>name</dt><dd class=\"name\">\(HTMLText.escape(name))</dd>"
    }
    if let issuer = card.issuer {
      let label = issuer.name ?? issuer.id ?? "unknown"
      html +=
        "<dt>issuer</dt><dd>\(HTMLText.escape(label)) <span class=\"conf\">\(Self.percent(issuer.confidence))</span></dd>"
    }
    if let confidence = card.confidence {
      html += "<dt>quad</dt><dd><span class=\"conf\">\(Self.percent(confidence))</span></dd>"
    }
    if let payment = card.payment {
      html +=
        "<dt>payment</dt><dd>\(HTMLText.escape(payment.network)) •••• \(HTMLText.escape(payment.last4))</dd>"
    }
    html += "</dl>"
    for code in card.barcodes ?? [] {
      html += "<div class=\"barcode\"><span class=\"sym\">\(HTMLText.escape(code.symbology))</span>"
      if let bars = BarcodeDrawing.svg(symbology: code.symbology, value: code.value) {
        html += bars
      } else {
        html +=
          "<code class=\"textual\" title=\"not drawn: shown as text\">\(HTMLText.escape(code.value))</code>"
      }
      if let ok = code.checksumOK {
        html += ok ? " <span class=\"ok\">✓ check digit</span>" : " <span class=\"bad\">✗ check digit</span>"
      }
      html += "</div>"
    }
    return html + "</div>"
  }

  func receiptHTML(_ receipt: ReceiptRecord) -> String {
    var html = "<div class=\"receipt\"><dl>"
    for (label, value) in [
      ("merchant", receipt.merchant), ("date", receipt.date), ("currency", receipt.currency),
    ] {
      if let value { html += "<dt>\(label)</dt><dd>\(HTMLText.escape(value))</dd>" }
    }
    html += "</dl><table><thead><tr><th>item</th><th>qty</th><th>unit</th><th>amount</th></tr></thead><tbody>"
    for item in receipt.items {
      html +=
        "<tr><td>\(HTMLText.escape(item.description))</td><td>\(HTMLText.escape(item.quantity ?? ""))</td>"
      html +=
        "<td>\(HTMLText.escape(item.unitPrice?.description ?? ""))</td><td class=\"num\">\(HTMLText.escape(item.amount.description))</td></tr>"
    }
    html += "</tbody><tfoot>"
    for (label, value) in [
      ("subtotal", receipt.subtotal), ("savings", receipt.savings), ("tax", receipt.tax),
      ("total", receipt.total),
    ] {
      if let value {
        html += "<tr><th colspan=\"3\">\(label)</th><td class=\"num\">\(value)</td></tr>"
      }
    }
    html += "</tfoot></table>"
    if let checks = receipt.checks {
      let mark = { (value: Bool?) in
        value.map { $0 ? "<span class=\"ok\">✓</span>" : "<span class=\"bad\">✗</span>" } ?? "–"
      }
      html += "<p class=\"checks\">\(mark(checks.itemsMatchSubtotal)) items add up to the subtotal · "
      html += "\(mark(checks.totalsConsistent)) subtotal − savings + tax = total</p>"
      for problem in checks.problems { html += "<p class=\"bad\">\(HTMLText.escape(problem))</p>" }
    }
    return html + "</div>"
  }

  static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded())) %" }

  // MARK: - Inline CSS and JS

  /// `TextFolding`'s spelled letters as a JSON object, for the script.
  static var foldingTableJSON: String {
    let table = Dictionary(uniqueKeysWithValues: TextFolding.letters.map { (String($0.key), $0.value) })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: (try? encoder.encode(table)) ?? Data("{}".utf8), as: UTF8.self)
  }

  static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}
    header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:8px 16px;z-index:1}
    h1{font-size:18px;margin:0 0 4px}.meta{color:#777;margin:0 0 6px;font-size:12px}
    .counts{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:6px}.count b{font-size:16px}
    #filter{width:min(480px,70vw);padding:4px 8px;font-size:14px}#shown{color:#777;margin-left:8px}
    main{padding:12px 16px;display:grid;gap:12px}
    .entry{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px}
    .entry.error{border-color:#d55}.entry h2{font-size:14px;margin:0 0 6px;word-break:break-all}
    .badge{display:inline-block;background:#446;color:#fff;border-radius:3px;padding:0 6px;font-size:12px}
    .error .badge{background:#c33}.body{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
    .photo{margin:0;width:220px}.frame{position:relative;width:220px;height:165px;background:#eee}
    .frame svg,.thumb{position:absolute;left:0;top:0;width:100%;height:100%}.thumb{object-fit:contain}
    .photo figcaption{font-size:11px;color:#777}.quad{fill:rgba(0,200,120,.15);stroke:#0c7}
    .crop{width:253px;height:160px;object-fit:contain;border:1px solid #ccc;border-radius:8px}
    .swatches{display:flex;gap:4px;margin:4px 0}.swatch{font:11px monospace;padding:14px 4px 2px;color:#fff;
    text-shadow:0 0 2px #000;border:1px solid #999;border-radius:3px}
    dl{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;margin:4px 0}dt{color:#777}dd{margin:0}
    .name{font-weight:600}.conf{color:#777;font-size:12px}.barcode{margin:4px 0}.sym{font:12px monospace;color:#555;margin-right:6px}
    .bars{vertical-align:middle;max-width:100%}.textual{background:#f0f0f0;padding:2px 6px;word-break:break-all}
    .ok{color:#080}.bad{color:#c00}.error,.notes,.warning{margin:4px 0}.warning{color:#a60}.error{color:#c00}.muted,.notes{color:#777}
    table{border-collapse:collapse;font-size:13px}td,th{border-bottom:1px solid #eee;padding:2px 6px;text-align:left}
    .num{text-align:right;font-variant-numeric:tabular-nums}.hidden{display:none}#none{padding:0 16px}
    .tags{margin:4px 0}.tag{display:inline-block;background:#e4ecf7;border-radius:3px;padding:0 6px;margin-right:4px;font-size:12px}
    .annotation{margin:4px 0;font-style:italic}.corrected{margin:4px 0;color:#36c}
    """

  /// The filter box: the same keyword rules as `snapsort search` (see `SearchQuery`), applied
  /// to each entry's text, folded as the store folds (`TextFolding.fold`: its table of spelled
  /// letters, then NFD without marks, lowercased).
  static let script = """
    (function(){
    var L=\(foldingTableJSON);
    function fold(s){return s.replace(/[^\\u0000-\\u007f]/g,function(c){return L[c]||c;})
    .normalize('NFD').replace(/\\p{M}/gu,'').toLowerCase();}
    function parse(q){var clauses=[[]],neg=false,tokens=q.match(/[\\p{L}\\p{N}]+|[-\\u2212]/gu)||[];
    tokens.forEach(function(t){var w=fold(t);
    if(w==='-'||w==='\\u2212'||w==='not'){neg=true;return;}
    if(w==='and')return;
    if(w==='or'){if(clauses[clauses.length-1].length)clauses.push([]);neg=false;return;}
    clauses[clauses.length-1].push({k:w,n:neg});neg=false;});
    return clauses.filter(function(c){return c.length;});}
    function matches(clauses,text){if(!clauses.length)return true;
    return clauses.some(function(c){return c.every(function(t){return text.includes(t.k)!==t.n;});});}
    var box=document.getElementById('filter'),entries=[].slice.call(document.querySelectorAll('.entry'));
    var texts=entries.map(function(e){return fold(e.getAttribute('data-text')||'');});
    function apply(){var c=parse(box.value),shown=0;entries.forEach(function(e,i){var m=matches(c,texts[i]);
    e.classList.toggle('hidden',!m);if(m)shown++;});
    document.getElementById('shown').textContent=shown+' shown';document.getElementById('none').hidden=shown>0;}
    // report.html#q=coffee opens with the filter filled in (a link can share a filtered view).
    var m=/^#q=(.*)$/.exec(location.hash);if(m)box.value=decodeURIComponent(m[1]);
    box.addEventListener('input',apply);apply();
    })();
    """
}
