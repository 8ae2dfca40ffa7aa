import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// A Catima (v2) backup: a zip holding `catima.csv` and `card_<id>_front.png` per card.
///
/// `catima.csv` is RFC 4180 CSV with CRLF line ends, as Catima's own exporter (Apache Commons
/// CSV) writes it: the version line `2`, a blank line, the groups (`_id`), a blank line, the
/// cards, a blank line, the card-to-group links (`cardId,groupId`). The columns follow
/// CatimaLoyalty/Android `docs/EXPORT_FORMAT.md` and its exporter: dates in milliseconds,
/// `lastused` in seconds, `headercolor` a signed 32-bit ARGB integer. `barcodeencoding` is left
/// empty (Catima then picks its default); `barcodeid` is empty because the card id is the
/// barcode's value.
///
/// Exported: the records `ExportSelection` takes (ok card records, confidently cards, with a
/// barcode, which Catima requires as the card id, and not payment cards). Tags become groups.
public struct CatimaExport {
  public struct Card: Equatable, Sendable {
    public var id: Int
    public var store: String
    public var note: String
    public var cardID: String
    public var barcodeType: String
    public var headerColor: Int32?
    public var lastUsed: Int64
    public var groups: [String]
    public var crop: String?
  }

  public var cards: [Card] = []
  /// Card records left out, with why.
  public var skipped: [(file: String, reason: String)] = []

  public static let columns = [
    "_id", "store", "note", "validfrom", "expiry", "balance", "balancetype", "cardid", "barcodeid",
    "barcodetype",
    "barcodeencoding", "headercolor", "starstatus", "lastused", "archive",
  ]

  public init(
    store: RecordStore, minimumKindConfidence: Double = ExportSelection.defaultMinimumKindConfidence
  )
    throws
  {
    try self.init(selection: ExportSelection(store: store, minimumKindConfidence: minimumKindConfidence))
  }

  public init(selection: ExportSelection) throws {
    skipped = selection.skipped
    for (record, tags, createdAt, _) in selection.cards {
      guard let card = record.card, let code = card.barcodes?.first else { continue }
      let name = selection.displayName(of: card, file: record.file)
      cards.append(
        Card(
          id: cards.count + 1, store: name ?? "Card \(cards.count + 1)",
          note: "Imported from \(record.file) by snapsort",
          cardID: code.value, barcodeType: Symbology(rawValue: code.symbology)?.catimaName ?? "",
          headerColor: Self.argb(card.headerColor ?? card.colors?.first?.hex),
          lastUsed: Int64(createdAt.timeIntervalSince1970), groups: tags, crop: card.crop))
    }
  }

  /// `#rrggbb` as Android's signed ARGB integer (opaque).
  public static func argb(_ hex: String?) -> Int32? {
    guard let hex, hex.wholeMatch(of: /#[0-9a-fA-F]{6}/) != nil, let rgb = UInt32(hex.dropFirst(), radix: 16)
    else {
      return nil
    }
    return Int32(bitPattern: 0xFF00_0000 | rgb)
  }

  public func csv() -> String {
    var lines = ["2", "", "_id"]
    let groups = Set(cards.flatMap(\.groups)).sorted()
    lines += groups.map(Self.field)
    lines += ["", Self.columns.joined(separator: ",")]
    for card in cards {
      let values: [String] = [
        "\(card.id)", card.store, card.note, "", "", "0", "", card.cardID, "", card.barcodeType, "",
        card.headerColor.map { "\($0)" } ?? "", "0", "\(card.lastUsed)", "0",
      ]
      lines.append(values.map(Self.field).joined(separator: ","))
    }
    lines += ["", "cardId,groupId"]
    for card in cards {
      for group in card.groups { lines.append("\(card.id),\(Self.field(group))") }
    }
    return lines.map { $0 + "\r\n" }.joined()
  }

  /// RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled.
  static func field(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
    else {
      return value
    }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The zip: `catima.csv`, then each card's crop as `card_<id>_front.png`.
  ///
  /// - Parameter cropsRoot: the folder that crop paths in records are relative to (the run's
  ///   output folder, where the store lives).
  public func zip(cropsRoot: URL) throws -> Data {
    try archive(cropsRoot: cropsRoot).data
  }

  /// The zip, and how many cards have their image in it: a crop missing from `cropsRoot` leaves
  /// its card without one.
  public func archive(cropsRoot: URL) throws -> (data: Data, images: Int) {
    var entries: [(path: String, data: Data)] = [("catima.csv", Data(csv().utf8))]
    for card in cards {
      guard let crop = card.crop else { continue }
      let url = cropsRoot.appendingPathComponent(crop)
      guard let data = try? Data(contentsOf: url) else { continue }
      entries.append(("card_\(card.id)_front.png", try CropImage.png(data)))
    }
    return (try ZipArchive.make(entries), entries.count - 1)
  }
}

/// Crops as PNG (Catima's image format), decoded and re-encoded with the project's codecs.
public enum CropImage {
  public static func png(_ data: Data) throws -> Data {
    guard let format = ImageFormat(signature: data.prefix(16)) else {
      throw InputError("a crop is not an image")
    }
    if format == .png { return data }
    let bitmap = try data.withUnsafeBytes { try LoadStage.decoder(for: format).decode($0, reduction: 1) }
    return try ImageEncoder.png(bitmap)
  }
}
