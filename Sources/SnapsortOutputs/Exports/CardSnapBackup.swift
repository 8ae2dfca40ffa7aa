import Crypto
import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages
import _CryptoExtras

/// A Card Snap backup: an encrypted archive of the store's loyalty cards.
///
/// The file is a zip with two entries:
/// - `cardsnap-backup.json`, the header in clear: format, version, cipher (`AES-256-GCM`), KDF
///   (`PBKDF2-HMAC-SHA256`, iterations, base64 salt) and the base64 nonce;
/// - `payload.bin`: the AES-256-GCM ciphertext followed by its 16-byte tag, sealed with the
///   header's exact bytes as additional authenticated data, so changing any byte of either (the
///   iteration count included) fails authentication.
///
/// The plaintext is itself a zip: `cards.json` (LoyaltyCard objects), `stores.json` (the
/// issuers the cards name, from the issuer catalog), `metadata.json` (schema version, and the
/// SHA-256 of each card's canonical JSON and of its image) and `images/<card id>.png`.
/// Nothing about the cards (names, count) is readable without the password.
public enum CardSnapBackup {
  public static let format = "cardsnap-backup"
  public static let schemaVersion = 1
  public static let defaultIterations = 210_000
  /// Below this a backup is refused when written or read.
  public static let minimumIterations = 150_000

  public struct LoyaltyCard: Codable, Sendable, Equatable {
    public var id: String
    public var displayName: String
    public var code: String
    public var codeFormat: String
    public var storeId: String?
    public var colorHex: String?
    public var notes: String
    public var tags: [String]
    public var imagePath: String?
    public var sourceFile: String
    public var createdAt: String
    public var updatedAt: String
  }

  public struct Store: Codable, Sendable, Equatable {
    public var id: String
    public var brandName: String
    public var countryCode: String?
    public var countries: [String]
    public var program: String?
    public var colorHex: String?
  }

  public struct Metadata: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
      public var id: String
      public var sha256: String
      public var imageSha256: String?
    }
    public var schemaVersion: Int
    public var generator: String
    public var cardCount: Int
    public var cards: [Entry]
  }

  struct Header: Codable, Equatable {
    struct KDF: Codable, Equatable {
      var name: String
      var iterations: Int
      var salt: String
    }
    var format: String
    var version: Int
    var cipher: String
    var kdf: KDF
    var nonce: String
  }

  /// What a verified backup holds.
  public struct Contents: Sendable {
    public var cards: [LoyaltyCard]
    public var stores: [Store]
    public var metadata: Metadata
    public var images: [String: Data]
  }

  public struct Failure: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  // MARK: - Building

  /// The plaintext contents for the cards in `store` (the records `ExportSelection` takes: ok
  /// card records, confidently cards, with a barcode, payment cards excluded).
  public static func contents(
    of store: RecordStore, catalog: IssuerCatalog, cropsRoot: URL
  ) throws -> Contents {
    try contents(of: ExportSelection(store: store), catalog: catalog, cropsRoot: cropsRoot)
  }

  public static func contents(
    of selection: ExportSelection, catalog: IssuerCatalog, cropsRoot: URL
  ) throws -> Contents {
    let iso = ISO8601DateFormatter()
    var cards: [LoyaltyCard] = []
    var images: [String: Data] = [:]
    var storeIDs = Set<String>()
    for (record, tags, created, updated) in selection.cards {
      guard let card = record.card, let code = card.barcodes?.first else { continue }
      let id = cardID(record.sha256.isEmpty ? record.file : record.sha256)
      var imagePath: String?
      if let crop = card.crop, let data = try? Data(contentsOf: cropsRoot.appendingPathComponent(crop)) {
        imagePath = "images/\(id).png"
        images[imagePath!] = try CropImage.png(data)
      }
      let issuerID = card.issuer?.id.flatMap { catalog.issuer(id: $0) != nil ? $0 : nil }
      if let issuerID { storeIDs.insert(issuerID) }
      cards.append(
        LoyaltyCard(
          id: id,
          displayName: selection.displayName(of: card, file: record.file) ?? "Card \(cards.count + 1)",
          code: code.value,
          codeFormat: Symbology(rawValue: code.symbology)?.catimaName ?? code.symbology.uppercased(),
          storeId: issuerID, colorHex: card.headerColor ?? card.colors?.first?.hex,
          notes: "Imported from \(record.file) by snapsort", tags: tags, imagePath: imagePath,
          sourceFile: record.file, createdAt: iso.string(from: created), updatedAt: iso.string(from: updated))
      )
    }
    let stores = storeIDs.sorted().compactMap { catalog.issuer(id: $0) }.map { issuer in
      Store(
        id: issuer.id, brandName: issuer.name, countryCode: issuer.countries.first,
        countries: issuer.countries,
        program: issuer.program, colorHex: issuer.colors.first)
    }
    let metadata = Metadata(
      schemaVersion: schemaVersion, generator: "snapsort \(SnapsortVersion.current)", cardCount: cards.count,
      cards: try cards.map { card in
        Metadata.Entry(
          id: card.id, sha256: sha256Hex(try canonicalJSON(card)),
          imageSha256: card.imagePath.flatMap { images[$0] }.map(sha256Hex))
      })
    return Contents(cards: cards, stores: stores, metadata: metadata, images: images)
  }

  /// A stable UUID-shaped id from a content hash (or a path).
  static func cardID(_ seed: String) -> String {
    let hex = sha256Hex(Data(seed.utf8))
    let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(
        hex[
          hex.index(
            hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
              hex.startIndex, offsetBy: range.upperBound)])
    }
    return parts.joined(separator: "-")
  }

  /// Encrypts `contents` under `password`.
  public static func seal(
    _ contents: Contents, password: String, iterations: Int = defaultIterations
  ) throws -> Data {
    guard iterations >= minimumIterations else {
      throw Failure("PBKDF2 needs at least \(minimumIterations) iterations")
    }
    guard !password.isEmpty else { throw Failure("the password is empty") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var entries: [(path: String, data: Data)] = [
      ("cards.json", try encoder.encode(contents.cards)),
      ("stores.json", try encoder.encode(contents.stores)),
      ("metadata.json", try encoder.encode(contents.metadata)),
    ]
    entries += contents.images.keys.sorted().map { ($0, contents.images[$0]!) }
    let plaintext = try ZipArchive.make(entries)

    var salt = Data(count: 16)
    var generator = SystemRandomNumberGenerator()
    for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &generator) }
    let nonce = AES.GCM.Nonce()
    let header = Header(
      format: format, version: schemaVersion, cipher: "AES-256-GCM",
      kdf: .init(name: "PBKDF2-HMAC-SHA256", iterations: iterations, salt: salt.base64EncodedString()),
      nonce: Data(nonce).base64EncodedString())
    let headerData = try encoder.encode(header)
    let key = try deriveKey(password: password, salt: salt, iterations: iterations)
    let sealed = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: headerData)
    return try ZipArchive.make(
      [("cardsnap-backup.json", headerData), ("payload.bin", sealed.ciphertext + sealed.tag)], compress: false
    )
  }

  /// PBKDF2-HMAC-SHA256 (BoringSSL's, through swift-crypto's extras). Our own floor of
  /// iterations is checked by `seal` and `open`, so this also runs the RFC's small test vectors.
  public static func pbkdf2(password: String, salt: Data, iterations: Int, byteCount: Int = 32) throws -> Data
  {
    try deriveKey(password: password, salt: salt, iterations: iterations, byteCount: byteCount)
      .withUnsafeBytes { Data($0) }
  }

  static func deriveKey(password: String, salt: Data, iterations: Int, byteCount: Int = 32) throws
    -> SymmetricKey
  {
    try KDF.Insecure.PBKDF2.deriveKey(
      from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: byteCount,
      unsafeUncheckedRounds: iterations)
  }

  // MARK: - Reading

  /// Decrypts and checks a backup: the header, authentication, then every card's and image's
  /// SHA-256 against `metadata.json`.
  ///
  /// - Throws: `Failure` naming what is wrong; a wrong password and a tampered payload are the
  ///   same failure to GCM and are reported as one message that reveals nothing else.
  public static func open(_ archive: Data, password: String) throws -> Contents {
    let outer: [String: Data]
    do {
      outer = try ZipArchive.read(archive)
    } catch {
      throw Failure("not a Card Snap backup: the file is not a readable zip")
    }
    guard let headerData = outer["cardsnap-backup.json"], let payload = outer["payload.bin"] else {
      throw Failure("not a Card Snap backup: cardsnap-backup.json or payload.bin is missing")
    }
    guard let header = try? JSONDecoder().decode(Header.self, from: headerData), header.format == format
    else {
      throw Failure("not a Card Snap backup: the header cannot be read")
    }
    guard header.version == schemaVersion, header.cipher == "AES-256-GCM",
      header.kdf.name == "PBKDF2-HMAC-SHA256"
    else {
      throw Failure("unsupported backup: version \(header.version), \(header.cipher), \(header.kdf.name)")
    }
    guard header.kdf.iterations >= minimumIterations, header.kdf.iterations <= 10_000_000,
      let salt = Data(base64Encoded: header.kdf.salt), salt.count >= 16,
      let nonceData = Data(base64Encoded: header.nonce), let nonce = try? AES.GCM.Nonce(data: nonceData),
      payload.count >= 16
    else { throw Failure("the backup's header is damaged") }
    let key = try deriveKey(password: password, salt: salt, iterations: header.kdf.iterations)
    let plaintext: Data
    do {
      let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: payload.dropLast(16), tag: payload.suffix(16))
      plaintext = try AES.GCM.open(box, using: key, authenticating: headerData)
    } catch {
      throw Failure("wrong password, or the backup has been altered (authentication failed)")
    }
    let inner = try ZipArchive.read(plaintext)
    let decoder = JSONDecoder()
    guard let cardsData = inner["cards.json"], let storesData = inner["stores.json"],
      let metadataData = inner["metadata.json"]
    else { throw Failure("the backup is incomplete: cards.json, stores.json or metadata.json is missing") }
    let cards = try decoder.decode([LoyaltyCard].self, from: cardsData)
    let stores = try decoder.decode([Store].self, from: storesData)
    let metadata = try decoder.decode(Metadata.self, from: metadataData)
    guard metadata.cardCount == cards.count, metadata.cards.map(\.id) == cards.map(\.id) else {
      throw Failure("metadata.json lists other cards than cards.json")
    }
    var images: [String: Data] = [:]
    for (card, entry) in zip(cards, metadata.cards) {
      guard sha256Hex(try canonicalJSON(card)) == entry.sha256 else {
        throw Failure("card \(card.id): its SHA-256 does not match metadata.json")
      }
      if let path = card.imagePath {
        guard let image = inner[path], sha256Hex(image) == entry.imageSha256 else {
          throw Failure("card \(card.id): its image \(path) is missing or does not match metadata.json")
        }
        images[path] = image
      }
    }
    return Contents(cards: cards, stores: stores, metadata: metadata, images: images)
  }

  static func canonicalJSON(_ card: LoyaltyCard) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(card)
  }

  static func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
}
