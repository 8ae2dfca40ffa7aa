import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

final class CardSnapBackupTests: XCTestCase {
  /// PBKDF2-HMAC-SHA256 test vectors of RFC 7914 §11 (also what Python's hashlib gives).
  func testPBKDF2MatchesRFC7914() throws {
    let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }
    let one = try CardSnapBackup.pbkdf2(
      password: "passwd", salt: Data("salt".utf8), iterations: 1, byteCount: 64)
    XCTAssertEqual(
      hex(one),
      "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    let many = try CardSnapBackup.pbkdf2(
      password: "Password", salt: Data("NaCl".utf8), iterations: 80_000, byteCount: 64)
    XCTAssertEqual(
      hex(many),
      "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
  }

  func makeContents() throws -> (CardSnapBackup.Contents, URL) {
    let directory = try TestImages.temporaryDirectory()
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("cards"), withIntermediateDirectories: true)
    try ImageEncoder.jpeg(TestImages.quadrants()).write(
      to: directory.appendingPathComponent("cards/green.jpg"))
    var records = StoreFixtures.sample
    records[0].card?.crop = "cards/green.jpg"
    // An issuer id that the bundled catalog holds, so stores.json has an entry.
    let catalog = try IssuerCatalog.bundled()
    let issuer = try XCTUnwrap(catalog.issuers.first)
    records[0].card?.issuer = IssuerMatch(id: issuer.id, name: issuer.name, confidence: 0.9, alternatives: [])
    let store = try RecordStore(url: directory.appendingPathComponent(RecordStore.fileName), create: true)
    try store.replaceRun(records: records)
    try store.tag(file: "cards/green.jpg", tags: ["family"])
    return (try CardSnapBackup.contents(of: store, catalog: catalog, cropsRoot: directory), directory)
  }

  func testRoundTrip() throws {
    let (contents, directory) = try makeContents()
    defer { try? FileManager.default.removeItem(at: directory) }
    XCTAssertEqual(contents.cards.count, 2)
    XCTAssertEqual(contents.stores.count, 1)
    let sealed = try CardSnapBackup.seal(contents, password: "correct horse", iterations: 150_000)
    let opened = try CardSnapBackup.open(sealed, password: "correct horse")
    XCTAssertEqual(opened.cards, contents.cards)
    XCTAssertEqual(opened.stores, contents.stores)
    XCTAssertEqual(opened.metadata, contents.metadata)
    XCTAssertEqual(opened.images, contents.images)
    XCTAssertEqual(opened.metadata.schemaVersion, 1)
    XCTAssertEqual(opened.cards.first { $0.code == "5901234123457" }?.tags, ["family"])
    XCTAssertEqual(opened.cards.first { $0.code == "5901234123457" }?.codeFormat, "EAN_13")
    // Nothing readable in the file without the password.
    let files = try ZipArchive.read(sealed)
    XCTAssertEqual(Set(files.keys), ["cardsnap-backup.json", "payload.bin"])
    let raw = String(decoding: sealed, as: UTF8.self)
    for secret in ["5901234123457", "Green", "cards.json", "Kaffee"] {
      XCTAssertFalse(raw.contains(secret), secret)
    }
    let header = try JSONSerialization.jsonObject(with: files["cardsnap-backup.json"]!) as? [String: Any]
    let kdf = header?["kdf"] as? [String: Any]
    XCTAssertEqual(kdf?["iterations"] as? Int, 150_000)
    XCTAssertEqual(kdf?["name"] as? String, "PBKDF2-HMAC-SHA256")
  }

  func testWrongPasswordIsAClearError() throws {
    let (contents, directory) = try makeContents()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sealed = try CardSnapBackup.seal(contents, password: "right", iterations: 150_000)
    XCTAssertThrowsError(try CardSnapBackup.open(sealed, password: "wrong")) { error in
      XCTAssertEqual("\(error)", "wrong password, or the backup has been altered (authentication failed)")
    }
  }

  func testTamperingIsDetected() throws {
    let (contents, directory) = try makeContents()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sealed = try CardSnapBackup.seal(contents, password: "pw", iterations: 150_000)
    let files = try ZipArchive.read(sealed)
    // One flipped bit of the ciphertext.
    var payload = try XCTUnwrap(files["payload.bin"])
    payload[payload.startIndex + 40] ^= 0x01
    let flipped = try ZipArchive.make([
      ("cardsnap-backup.json", files["cardsnap-backup.json"]!), ("payload.bin", payload),
    ])
    XCTAssertThrowsError(try CardSnapBackup.open(flipped, password: "pw")) { error in
      XCTAssertTrue("\(error)".contains("authentication failed"), "\(error)")
    }
    // The header is authenticated too: a raised iteration count fails, not just slows down.
    let header = String(decoding: files["cardsnap-backup.json"]!, as: UTF8.self)
      .replacingOccurrences(of: "150000", with: "150001")
    let edited = try ZipArchive.make([
      ("cardsnap-backup.json", Data(header.utf8)), ("payload.bin", files["payload.bin"]!),
    ])
    XCTAssertThrowsError(try CardSnapBackup.open(edited, password: "pw")) { error in
      XCTAssertTrue("\(error)".contains("authentication failed"), "\(error)")
    }
    // Truncated, or not a backup at all.
    XCTAssertThrowsError(try CardSnapBackup.open(sealed.prefix(sealed.count / 2), password: "pw"))
    XCTAssertThrowsError(try CardSnapBackup.open(Data("hello".utf8), password: "pw")) { error in
      XCTAssertTrue("\(error)".contains("not a Card Snap backup"), "\(error)")
    }
  }

  func testCardHashesAreChecked() throws {
    let (contents, directory) = try makeContents()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Sealed correctly (authenticates) but a card no longer matches its SHA-256 in metadata.json.
    var altered = contents
    altered.cards[0].code = "0000000000000"
    let sealed = try CardSnapBackup.seal(altered, password: "pw", iterations: 150_000)
    XCTAssertThrowsError(try CardSnapBackup.open(sealed, password: "pw")) { error in
      XCTAssertTrue("\(error)".contains("does not match metadata.json"), "\(error)")
    }
    var image = contents
    let path = try XCTUnwrap(image.images.keys.first)
    image.images[path] = Data("not the crop".utf8)
    XCTAssertThrowsError(
      try CardSnapBackup.open(
        try CardSnapBackup.seal(image, password: "pw", iterations: 150_000), password: "pw"))
  }

  func testTooFewIterationsAreRefused() throws {
    let (contents, directory) = try makeContents()
    defer { try? FileManager.default.removeItem(at: directory) }
    XCTAssertThrowsError(try CardSnapBackup.seal(contents, password: "pw", iterations: 1000))
  }
}
