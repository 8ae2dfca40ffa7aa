import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages

extension ReviewSession {
  /// A person's field values: on a card a name, an issuer from the catalog by id, a background
  /// colour; on a receipt its merchant, date, currency and amounts (`12.5`, `12,50`); `clear`
  /// removes the person's value of those fields (the run's shows again).
  public struct FieldEdit: Decodable, Sendable {
    public var file: String
    public var name: String?
    public var issuer: String?
    public var color: String?
    public var merchant: String?
    public var date: String?
    public var currency: String?
    public var subtotal: String?
    public var tax: String?
    public var total: String?
    /// Every item of the receipt as the person lists them (an empty list: it has none).
    public var items: [ItemEdit]?
    public var clear: [CorrectedField]?
    /// The record's `version` as the page last showed it.
    public var version: String?
  }

  /// One line item as a person types it; amounts as `amount` takes them.
  public struct ItemEdit: Decodable, Sendable {
    public var description: String
    public var quantity: String?
    public var unitPrice: String?
    public var amount: String

    enum CodingKeys: String, CodingKey {
      case description, quantity, amount
      case unitPrice = "unit_price"
    }

    func item() throws -> ReceiptItem {
      let quantity = quantity?.trimmingCharacters(in: .whitespaces)
      let unitPrice = unitPrice?.trimmingCharacters(in: .whitespaces)
      return ReceiptItem(
        description: description.trimmingCharacters(in: .whitespacesAndNewlines),
        quantity: quantity?.isEmpty == false ? quantity : nil,
        unitPrice: try unitPrice.flatMap { $0.isEmpty ? nil : try ReviewSession.amount($0) },
        amount: try ReviewSession.amount(amount))
    }
  }

  /// Stores the edit as corrections and answers with the record as it now reads.
  public func correct(_ edit: FieldEdit) throws -> Data {
    try checkVersion(file: edit.file, edit.version)
    var issuer: RecordCorrections.IssuerChoice?
    if let id = edit.issuer {
      guard let found = issuers.catalog.issuers.first(where: { $0.id == id }) else {
        throw ReviewError(400, "no issuer \(id) in the catalog")
      }
      issuer = .init(id: found.id, name: found.name)
    }
    let amounts = try [edit.subtotal, edit.tax, edit.total].map { try $0.map(Self.amount) }
    let items = try edit.items?.map { try $0.item() }
    let trimmed = { (text: String?) in text?.trimmingCharacters(in: .whitespacesAndNewlines) }
    _ = try inputErrors {
      try store.correct(file: edit.file) { corrections in
        corrections.name = trimmed(edit.name) ?? corrections.name
        corrections.issuer = issuer ?? corrections.issuer
        corrections.color = edit.color?.lowercased() ?? corrections.color
        corrections.merchant = trimmed(edit.merchant) ?? corrections.merchant
        corrections.date = trimmed(edit.date) ?? corrections.date
        corrections.currency = trimmed(edit.currency)?.uppercased() ?? corrections.currency
        corrections.subtotal = amounts[0] ?? corrections.subtotal
        corrections.tax = amounts[1] ?? corrections.tax
        corrections.total = amounts[2] ?? corrections.total
        corrections.items = items ?? corrections.items
        for field in edit.clear ?? [] { corrections.clear(field) }
      }
    }
    refreshReport()
    return try detail(file: edit.file)
  }

  /// An amount as a person types it: digits with an optional sign and up to two decimals after a
  /// point or a comma.
  static func amount(_ text: String) throws -> Money {
    let text = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
    guard let match = text.wholeMatch(of: /(-?)(\d+)(?:\.(\d{1,2}))?/), let units = Int(match.2) else {
      throw ReviewError(400, "\(text): an amount is written like 12.50")
    }
    let fraction = match.3.map { Int($0.padding(toLength: 2, withPad: "0", startingAt: 0))! } ?? 0
    return Money(cents: (units * 100 + fraction) * (match.1.isEmpty ? 1 : -1))
  }

  /// A receipt's checks as they would read with these amounts, nothing stored: the page shows
  /// them while a person types.
  public func checks(file: String, subtotal: String?, tax: String?, total: String?) throws -> Data {
    guard let receipt = try inputErrors({ try store.entry(file: file).record.receipt }) else {
      throw ReviewError(400, "\(file) is not a receipt")
    }
    let given = { (text: String?, current: Money?) throws -> Money? in
      guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return current }
      return try Self.amount(text)
    }
    let checks = ReceiptConsistency.check(
      items: receipt.items.map(\.amount), subtotal: try given(subtotal, receipt.subtotal),
      savings: receipt.savings,
      tax: try given(tax, receipt.tax), total: try given(total, receipt.total))
    return try Self.json([
      "problems": checks.problems,
      "items_sum": receipt.items.map(\.amount).reduce(Money(cents: 0), +).description,
    ])
  }

  /// New corners for a card.
  public struct CornerEdit: Decodable, Sendable {
    public var file: String
    /// Four `[x, y]`, clockwise from the card's own top-left, in oriented-image pixels.
    public var quad: [[Double]]
    public var version: String?
  }

  /// Re-runs the card from the warp on with the person's corners (the path `snapsort rewarp`
  /// takes), writes the run's files again, and keeps the corners as a correction.
  ///
  /// - Throws: `ReviewError` 422 when the corners cannot be a card here or the new record was
  ///   refused (the old one stands, nothing changes).
  public func rewarp(_ edit: CornerEdit) throws -> Data {
    guard edit.quad.count == 4, edit.quad.allSatisfy({ $0.count == 2 }) else {
      throw ReviewError(400, "the corners must be four [x, y] points")
    }
    try checkVersion(file: edit.file, edit.version)
    let record = try inputErrors { try store.entry(file: edit.file).record }
    let correction = Rewarp.Correction(file: record.file, quad: edit.quad.map { Point($0[0], $0[1]) })
    let records = try RecordCoding.readLines(outputDirectory.appendingPathComponent("records.jsonl"))
    let problems = Rewarp.problems([correction], records: records)
    guard problems.isEmpty else { throw ReviewError(422, problems.joined(separator: "; ")) }
    guard let summary = RunSummary.read(in: outputDirectory) else {
      throw ReviewError(500, "\(outputDirectory.path)/run.json cannot be read")
    }
    guard let photo = try store.sources()[record.file] else {
      throw ReviewError(422, "\(record.file): the store does not say where its photo is")
    }
    let outcome: Rewarp.Outcome
    do {
      outcome = try Rewarp.run(
        [correction], records: records, sources: [record.file: photo], reanalysis: try reanalysis(summary),
        outputDirectory: outputDirectory)
    } catch let failure as Rewarp.Failure {
      throw ReviewError(422, failure.description)
    }
    if let kept = outcome.kept.first { throw ReviewError(422, "the old record stands: \(kept.reason)") }
    let roots = (summary.inputPaths ?? []).map { URL(fileURLWithPath: $0) }
    try RewarpOutputs.write(outcome, summary: summary, roots: roots, to: outputDirectory)
    try store.correct(file: record.file) { $0.quad = Quad(correction.quad) }
    return try detail(file: record.file)
  }

  /// The run's stages, made once (in the background at start, `prepareReanalysis`, else on the
  /// first moved corner) and kept: the OCR models load once.
  private func reanalysis(_ summary: RunSummary) throws -> Rewarp.Reanalysis {
    if let kept = keptReanalysis ?? preparedStages.wait() {
      keptReanalysis = kept
      return kept
    }
    let made = try Rewarp.Reanalysis(
      config: try Self.loadRunConfig(configURL, summary: summary, outputDirectory: outputDirectory),
      outputDirectory: outputDirectory)
    keptReanalysis = made
    return made
  }

  /// Makes the run's stages off the session's queue, so that the first moved corner does not wait
  /// for the OCR models to load (about half a second) while the page stays quick; a config that
  /// cannot re-run a card is left for that corner to report.
  public func prepareReanalysis() {
    let directory = outputDirectory, configURL = configURL
    preparedStages.make {
      guard let summary = RunSummary.read(in: directory),
        let config = try? Self.loadRunConfig(configURL, summary: summary, outputDirectory: directory),
        Rewarp.hasWarpStage(config)
      else { return nil }
      return try? Rewarp.Reanalysis(config: config, outputDirectory: directory)
    }
  }

  /// The config file of the run, only if it is the one that made the run (run.json's hash).
  private static func loadRunConfig(_ configURL: URL?, summary: RunSummary, outputDirectory: URL) throws
    -> PipelineConfig
  {
    guard let configURL else {
      throw ReviewError(
        422, "run.json names no config file found here: start review with --config or --preset")
    }
    let config: PipelineConfig
    do {
      config = try PipelineConfig.load(
        from: configURL, context: StageContext(outputDirectory: outputDirectory))
    } catch {
      throw ReviewError(422, "config error in \(configURL.path): \(error)")
    }
    guard config.hash == summary.configHash else {
      throw ReviewError(
        422,
        "the run was made with another config than \(configURL.path): start review with the run's own --config or --preset"
      )
    }
    return config
  }

  // MARK: - Tags and notes

  public struct LabelEdit: Decodable, Sendable {
    public var file: String
    public var addTags: [String]?
    public var removeTags: [String]?
    public var addNote: String?
    /// A note's number, from 1, as the record lists them.
    public var removeNote: Int?
    public var version: String?

    enum CodingKeys: String, CodingKey {
      case file
      case addTags = "add_tags"
      case removeTags = "remove_tags"
      case addNote = "add_note"
      case removeNote = "remove_note"
      case version
    }
  }

  /// Tags and notes through the store's own calls (those of `snapsort tag` and `annotate`).
  public func label(_ edit: LabelEdit) throws -> Data {
    try checkVersion(file: edit.file, edit.version)
    try inputErrors {
      if let tags = edit.addTags, !tags.isEmpty { try store.tag(file: edit.file, tags: tags) }
      if let tags = edit.removeTags, !tags.isEmpty { try store.untag(file: edit.file, tags: tags) }
      if let note = edit.addNote {
        guard !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
          throw InputError("the note is empty")
        }
        try store.annotate(file: edit.file, text: note)
      }
      if let number = edit.removeNote { try store.removeNote(file: edit.file, number: number) }
    }
    refreshReport()
    return try detail(file: edit.file)
  }

  /// report.html beside the store shows what the store holds (as after `snapsort tag`).
  private func refreshReport() {
    guard
      FileManager.default.fileExists(atPath: outputDirectory.appendingPathComponent(HTMLReport.fileName).path)
    else { return }
    try? HTMLReport.rewrite(in: outputDirectory, store: store)
  }
}
