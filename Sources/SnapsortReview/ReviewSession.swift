import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages

/// What the search box asked for, as `snapsort search` parses the same words.
public struct ReviewSearch: Sendable {
  public var query: String
  public var filter: SearchFilter
  /// A saved category whose filters also apply.
  public var category: String?
  public init(query: String, filter: SearchFilter, category: String?) {
    self.query = query
    self.filter = filter
    self.category = category
  }
}

/// A refusal the page shows as it is: the HTTP status and one sentence.
public struct ReviewError: Error, CustomStringConvertible, Sendable {
  public var status: Int
  public var description: String
  public init(_ status: Int, _ description: String) {
    self.status = status
    self.description = description
  }
}

/// One run's output folder opened for review: reads answer from the store, writes go through
/// the store's corrections, tags and notes, and a moved corner through the rewarp path.
///
/// `@unchecked Sendable`: the store, the cached config and the files of the folder are touched
/// only inside `perform`, which runs one body at a time on a serial queue.
public final class ReviewSession: @unchecked Sendable {
  public let outputDirectory: URL
  let store: RecordStore
  let issuers: IssuerSearch
  /// The config file of the run (checked against run.json's hash before its first use).
  let configURL: URL?
  let parseSearch: @Sendable (String) throws -> ReviewSearch
  /// The run's stages and config once made (by `reanalysis`), kept for every later moved corner.
  var keptReanalysis: Rewarp.Reanalysis?
  let preparedStages = PreparedStages()
  private let serial = DispatchQueue(label: "snapsort.review.session")

  /// Opens `outputDirectory`, which must hold a finished run (run.json, records.jsonl and the
  /// store).
  ///
  /// - Parameters:
  ///   - configURL: the run's config, needed only to re-run a card with moved corners.
  ///   - parseSearch: the search box's words to a search, as `snapsort search` reads them.
  /// - Throws: `ReviewError` (status 0) naming what is missing.
  public init(
    outputDirectory: URL, configURL: URL?, catalog: IssuerCatalog,
    parseSearch: @escaping @Sendable (String) throws -> ReviewSearch
  ) throws {
    self.outputDirectory = outputDirectory.standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: outputDirectory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw ReviewError(0, "\(outputDirectory.path) is not a folder: give a run's output folder") }
    for name in ["run.json", "records.jsonl", RecordStore.fileName]
    where !FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(name).path) {
      throw ReviewError(
        0,
        "\(outputDirectory.path) is not a run's output folder (it has no \(name)): run `snapsort run PHOTOS --out DIR` first"
      )
    }
    do {
      store = try RecordStore(url: outputDirectory.appendingPathComponent(RecordStore.fileName))
    } catch {
      throw ReviewError(0, "\(error)")
    }
    issuers = IssuerSearch(catalog: catalog)
    self.configURL = configURL
    self.parseSearch = parseSearch
  }

  /// Runs `body` alone: no other read or write of the folder happens meanwhile.
  public func perform<T: Sendable>(_ body: @escaping @Sendable (ReviewSession) throws -> T) async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      serial.async { continuation.resume(with: Result { try body(self) }) }
    }
  }

  // MARK: - Reading

  /// The most queue entries one request answers with: a page of them, so a folder of thousands
  /// opens as fast as one of a hundred.
  public static let queuePageLimit = 500

  /// The queue: the records the search selects, the ones most in need of a look first; `limit`
  /// of them from `offset` on, with the count of all.
  public func queue(search text: String, offset: Int = 0, limit: Int = 100) throws -> Data {
    guard offset >= 0, (1...Self.queuePageLimit).contains(limit) else {
      throw ReviewError(400, "offset must be 0 or more and limit 1 to \(Self.queuePageLimit)")
    }
    let search: ReviewSearch
    do {
      search = try parseSearch(text)
    } catch {
      throw ReviewError(400, "\(error)")
    }
    let files = try inputErrors {
      var filter = SearchFilter()
      if let category = search.category { filter = try store.category(named: category) }
      return Set(try store.search(filter.merging(search.filter), queries: [search.query]).map(\.file))
    }
    var ranked: [(score: Int, reasons: [ReviewQueue.Reason], record: Record, tags: [String])] = []
    for (record, tags, _, _) in try store.allRecords() where files.contains(record.file) {
      let reasons = ReviewQueue.reasons(for: record)
      ranked.append((ReviewQueue.score(of: reasons), reasons, record, tags))
    }
    ranked.sort { ($0.score, $1.record.file) > ($1.score, $0.record.file) }
    // Only the page's entries are written out: their crops' dates and notes are looked up here.
    let labels = try store.labels()
    let page = ranked.dropFirst(offset).prefix(limit).map { entry in
      var json = summary(of: entry.record)
      json["score"] = entry.score
      json["reasons"] = entry.reasons.map { ["points": $0.points, "text": $0.text] }
      json["tags"] = entry.tags
      json["notes"] = labels[entry.record.file]?.notes.count ?? 0
      return json
    }
    return try Self.json(["count": ranked.count, "offset": offset, "entries": Array(page)])
  }

  /// One record as the page shows it: the corrected record, what the pipeline read beside each
  /// corrected field, tags, notes, the reasons it is in the queue, and its `version`.
  public func detail(file: String) throws -> Data {
    var object = try detailObject(file: file)
    object["version"] = try Self.version(of: object)
    object["known_tags"] = try store.knownTags()
    return try Self.json(object)
  }

  /// Refuses a write made on an older view of the record than the store now holds (a second
  /// tab changed it meanwhile), so no edit is lost unseen: the page shows the record again.
  func checkVersion(file: String, _ version: String?) throws {
    guard let version else { return }
    guard try Self.version(of: detailObject(file: file)) == version else {
      throw ReviewError(
        409, "\(file) was changed in another tab or window since it was opened here: it is shown as it now is"
      )
    }
  }

  /// What the page shows of a record, apart from the store-wide tag list: its version is a hash
  /// of exactly this.
  private static func version(of object: [String: Any]) throws -> String {
    String(FileBytes.sha256(of: try json(object)).prefix(16))
  }

  private func detailObject(file: String) throws -> [String: Any] {
    let entry = try inputErrors { try store.entry(file: file) }
    let corrections = try store.corrections(file: file)
    let record = entry.record
    let reasons = ReviewQueue.reasons(for: record)
    var object = summary(of: record)
    object["record"] = try JSONSerialization.jsonObject(with: RecordCoding.encodeLine(record))
    object["corrected"] = corrections.fields.map(\.rawValue)
    object["pipeline"] = try pipelineValues(of: record.file)
    object["tags"] = entry.tags
    object["notes"] = entry.notes
    object["score"] = ReviewQueue.score(of: reasons)
    object["reasons"] = reasons.map { ["points": $0.points, "text": $0.text] }
    let hasPhoto = try store.sources()[record.file] != nil
    object["photo"] = hasPhoto ? "/photo?file=" + Self.escape(record.file) : nil
    object["page"] = hasPhoto && record.receipt?.quad != nil ? "/page?file=" + Self.escape(record.file) : nil
    return object
  }

  /// The fields a person may correct, as the run itself read them (records.jsonl holds the
  /// pipeline's records; the store lays the corrections over them).
  private func pipelineValues(of file: String) throws -> [String: Any] {
    let records = try RecordCoding.readLines(outputDirectory.appendingPathComponent("records.jsonl"))
    guard let record = records.first(where: { $0.file == file }) else { return [:] }
    var values: [String: Any] = [:]
    if let receipt = record.receipt {
      values["merchant"] = receipt.merchant
      values["date"] = receipt.date
      values["currency"] = receipt.currency
      values["subtotal"] = receipt.subtotal?.description
      values["tax"] = receipt.tax?.description
      values["total"] = receipt.total?.description
    }
    guard let card = record.card else { return values }
    values["name"] = card.name?.suggested
    values["issuer"] = card.issuer?.name ?? card.issuer?.id
    values["color"] = card.headerColor
    values["quad"] = card.quad.map { $0.corners.map { [$0.x, $0.y] } }
    return values
  }

  /// The fields the queue lists for a record.
  private func summary(of record: Record) -> [String: Any] {
    var object: [String: Any] = [
      "file": record.file, "kind": record.kind.rawValue, "status": record.status.rawValue,
    ]
    if let card = record.card {
      object["title"] = card.name?.suggested
      object["issuer"] = card.issuer?.name ?? card.issuer?.id
      object["color"] = card.headerColor ?? card.colors?.first?.hex
      object["crop"] = card.crop.map { "/crop?file=\(Self.escape(record.file))&v=\(cropVersion($0))" }
    }
    if let receipt = record.receipt {
      object["title"] = receipt.merchant
      object["total"] = [receipt.total?.description, receipt.currency].compactMap { $0 }.joined(
        separator: " ")
      object["date"] = receipt.date
    }
    return object
  }

  /// Changes whenever the crop file is written again, so the page never shows a cached old crop.
  private func cropVersion(_ crop: String) -> String {
    let attributes = try? FileManager.default.attributesOfItem(
      atPath: outputDirectory.appendingPathComponent(crop).path)
    let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return String(Int((modified * 1000).rounded()))
  }

  /// Catalog issuers matching what was typed, for the issuer field's type-ahead.
  public func issuerOptions(_ text: String) throws -> Data {
    let hits = text.trimmingCharacters(in: .whitespaces).isEmpty ? [] : issuers.search(text, limit: 8)
    return try Self.json(
      hits.map { ["id": $0.issuer.id, "name": $0.issuer.name, "countries": $0.issuer.countries] })
  }

  // MARK: - Files

  /// The photo of a record, as the run read it: the path comes from the store, never from the
  /// request. A HEIC photo, which browsers do not show, is decoded as the load stage decodes it
  /// (turned upright, so the quad lands where the record says) and sent as a JPEG.
  public func photo(file: String) throws -> (data: Data, type: String) {
    let record = try inputErrors { try store.entry(file: file).record }
    guard let url = try store.sources()[record.file] else {
      throw ReviewError(404, "no photo is known for \(file)")
    }
    let format = record.image.flatMap { ImageFormat(rawValue: $0.format.lowercased()) }
    let types: [ImageFormat: String] = [.jpeg: "image/jpeg", .png: "image/png", .webp: "image/webp"]
    guard let format, format == .heic || types[format] != nil else {
      throw ReviewError(415, "\(file): the browser cannot show this format")
    }
    let bytes: Data
    do {
      bytes = try FileBytes.read(url)
    } catch {
      throw ReviewError(404, "\(url.path) cannot be read: \(error)")
    }
    guard format == .heic else { return (bytes, types[format]!) }
    do {
      return (try Self.uprightJPEG(heic: bytes), "image/jpeg")
    } catch {
      throw ReviewError(422, "\(file): the HEIC photo cannot be decoded for the browser: \(error)")
    }
  }

  static func uprightJPEG(heic: Data) throws -> Data {
    try ImageEncoder.jpeg(uprightBitmap(heic, format: .heic), quality: 88)
  }

  /// A photo decoded at full size and turned upright by its EXIF orientation, as the load stage
  /// decodes it, so that a record's quads land where they were found.
  static func uprightBitmap(_ data: Data, format: ImageFormat) throws -> Bitmap {
    let decoder = LoadStage.decoder(for: format)
    return try data.withUnsafeBytes { bytes in
      let header = try decoder.header(of: bytes)
      return try decoder.decode(bytes, reduction: 1).applyingOrientation(header.orientation)
    }
  }

  /// A card's crop: `cards/<hash>.jpg` inside the output folder, as its record names it.
  public func crop(file: String) throws -> Data {
    let record = try inputErrors { try store.entry(file: file).record }
    guard let crop = record.card?.crop else { throw ReviewError(404, "\(file) has no crop") }
    let url = outputDirectory.appendingPathComponent(crop).standardizedFileURL
    let cards = outputDirectory.appendingPathComponent("cards").path + "/"
    guard url.path.hasPrefix(cards), let data = try? FileBytes.read(url) else {
      throw ReviewError(404, "\(file): its crop \(crop) is not in \(cards)")
    }
    return data
  }

  // MARK: - Support

  /// Runs a store call, turning a person's mistake (an unknown file, category) into a 400.
  func inputErrors<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as InputError {
      throw ReviewError(400, error.description)
    }
  }

  static func json(_ object: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
  }

  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}

/// The run's stages made on a thread of their own while the page loads; the first moved corner
/// waits for them instead of loading the models a second time.
final class PreparedStages: @unchecked Sendable {
  // Safety: `stages` is written once before `group` is left and read only after waiting on it.
  private let group = DispatchGroup()
  private let lock = NSLock()
  private var stages: Rewarp.Reanalysis?

  func make(_ body: @escaping @Sendable () -> Rewarp.Reanalysis?) {
    group.enter()
    DispatchQueue.global(qos: .utility).async { [self] in
      let made = body()
      lock.withLock { stages = made }
      group.leave()
    }
  }

  /// The stages once made; nil when none were asked for or they could not be made. Hands them
  /// over once.
  func wait() -> Rewarp.Reanalysis? {
    group.wait()
    return lock.withLock {
      defer { stages = nil }
      return stages
    }
  }
}
