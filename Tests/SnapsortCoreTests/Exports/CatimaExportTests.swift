import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

/// The Catima zip read back by a parser written from Catima's docs/EXPORT_FORMAT.md and
/// CARD_FIELDS.md (RFC 4180 CSV; sections separated by blank lines; version line "2").
final class CatimaExportTests: XCTestCase {
  /// catima.csv as Catima's importer sees it: version, groups, cards (by header name), links.
  struct ParsedCatima {
    var version: String
    var groups: [String]
    var cards: [[String: String]]
    var links: [(card: String, group: String)]
  }

  /// RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks.
  static func csvRecords(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var index = text.unicodeScalars.startIndex
    let scalars = text.unicodeScalars
    var atStart = true
    while index < scalars.endIndex {
      let c = scalars[index]
      index = scalars.index(after: index)
      if quoted {
        if c == "\"" {
          if index < scalars.endIndex && scalars[index] == "\"" {
            field.unicodeScalars.append("\"")
            index = scalars.index(after: index)
          } else {
            quoted = false
          }
        } else {
          field.unicodeScalars.append(c)
        }
        continue
      }
      switch c {
      case "\"" where atStart: quoted = true
      case ",":
        record.append(field)
        field = ""
        atStart = true
        continue
      case "\r": continue
      case "\n":
        record.append(field)
        records.append(record)
        record = []
        field = ""
        atStart = true
        continue
      default: field.unicodeScalars.append(c)
      }
      atStart = false
    }
    if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
    return records
  }

  static func parse(_ csv: String) throws -> ParsedCatima {
    // A blank record (one empty field) separates sections.
    var sections: [[[String]]] = [[]]
    for record in csvRecords(csv) {
      if record == [""] { sections.append([]) } else { sections[sections.count - 1].append(record) }
    }
    guard sections.count == 4 else { throw InputError("expected 4 sections, got \(sections.count)") }
    let version = sections[0].first?.first ?? ""
    guard sections[1].first == ["_id"] else { throw InputError("groups header") }
    let header = try XCTUnwrap(sections[2].first)
    let cards = sections[2].dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    guard sections[3].first == ["cardId", "groupId"] else { throw InputError("links header") }
    return ParsedCatima(
      version: version, groups: sections[1].dropFirst().map { $0[0] }, cards: cards,
      links: sections[3].dropFirst().map { ($0[0], $0[1]) })
  }

  func testZipReadsBackAsCatimaV2() throws {
    let directory = try TestImages.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cropData = try ImageEncoder.jpeg(TestImages.quadrants(width: 101, height: 64))
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("cards"), withIntermediateDirectories: true)
    try cropData.write(to: directory.appendingPathComponent("cards/green.jpg"))
    var records = StoreFixtures.sample
    records[0].card?.crop = "cards/green.jpg"
    records[1].card?.name = NameSuggestion(suggested: "Kaffee, \"Brühl\"\nStempel", alternatives: [])
    var payment = StoreFixtures.card("cards/visa.jpg", name: "VISA", code: ("qr", "https://pay.example/x"))
    payment.card?.payment = PaymentInfo(network: "visa", last4: "1234")
    records.append(payment)
    let store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: records)
    try store.tag(file: "cards/green.jpg", tags: ["Groceries", "reimbursement"])

    let export = try CatimaExport(store: store)
    let files = try ZipArchive.read(try export.zip(cropsRoot: directory))
    let csv = String(decoding: try XCTUnwrap(files["catima.csv"]), as: UTF8.self)
    XCTAssertTrue(csv.hasPrefix("2\r\n\r\n_id\r\n"), "RFC 4180 line ends, version first")
    let parsed = try Self.parse(csv)
    XCTAssertEqual(parsed.version, "2")
    XCTAssertEqual(parsed.groups, ["groceries", "reimbursement"])
    XCTAssertEqual(
      Array(try XCTUnwrap(Self.csvRecords(csv).first { $0.first == "_id" && $0.count > 1 })),
      [
        "_id", "store", "note", "validfrom", "expiry", "balance", "balancetype", "cardid", "barcodeid",
        "barcodetype",
        "barcodeencoding", "headercolor", "starstatus", "lastused", "archive",
      ])
    // Two cards with barcodes; the one without a code and the payment card are left out.
    XCTAssertEqual(parsed.cards.count, 2)
    XCTAssertEqual(Set(export.skipped.map(\.reason)), ["no barcode", "a payment card"])
    let coffee = try XCTUnwrap(parsed.cards.first { $0["cardid"] == "KR-00042" })
    XCTAssertEqual(coffee["store"], "Kaffee, \"Brühl\"\nStempel", "quoted fields survive")
    XCTAssertEqual(coffee["barcodetype"], "CODE_128")
    let green = try XCTUnwrap(parsed.cards.first { $0["cardid"] == "5901234123457" })
    XCTAssertEqual(green["store"], "Green Basket")
    XCTAssertEqual(green["barcodetype"], "EAN_13")
    XCTAssertEqual(green["headercolor"], "\(Int32(bitPattern: 0xFF1B_7F3A))")
    XCTAssertEqual(Int32(green["headercolor"]!).map { UInt32(bitPattern: $0) & 0xFF_FFFF }, 0x1B7F3A)
    XCTAssertEqual(green["balance"], "0")
    XCTAssertEqual(green["starstatus"], "0")
    XCTAssertEqual(green["archive"], "0")
    // lastused is in seconds (a 10-digit Unix time today), not milliseconds.
    XCTAssertEqual(green["lastused"]?.count, 10)
    XCTAssertEqual(
      Set(parsed.links.filter { $0.card == green["_id"] }.map(\.group)), ["groceries", "reimbursement"])
    // The crop as card_<id>_front.png, a real PNG of the crop's size.
    let png = try XCTUnwrap(files["card_\(green["_id"]!)_front.png"])
    XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    XCTAssertEqual(png.subdata(in: 16..<24), Data([0, 0, 0, 101, 0, 0, 0, 64]), "IHDR width and height")
    XCTAssertNil(files["card_\(coffee["_id"]!)_front.png"], "no crop, no image")
    XCTAssertFalse(csv.contains("pay.example") || csv.contains("VISA"), "nothing of a payment card")
  }

  func testARGB() {
    XCTAssertEqual(CatimaExport.argb("#ffffff"), -1)
    XCTAssertEqual(CatimaExport.argb("#000000"), Int32(bitPattern: 0xFF00_0000))
    XCTAssertNil(CatimaExport.argb("red"))
  }
}
