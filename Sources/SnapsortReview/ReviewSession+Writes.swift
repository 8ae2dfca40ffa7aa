import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages

extension ReviewSession {
  /// A person's field values: a name, an issuer from the catalog by id, a background colour;
  /// `clear` removes the person's value of those fields (the pipeline's shows again).
  public struct FieldEdit: Decodable, Sendable {
    public var file: String
    public var name: String?
    public var issuer: String?
    public var color: String?
    public var clear: [CorrectedField]?
  }

  /// Stores the edit as corrections and answers with the record as it now reads.
  public func correct(_ edit: FieldEdit) throws -> Data {
    var issuer: RecordCorrections.IssuerChoice?
    if let id = edit.issuer {
      guard let found = issuers.catalog.issuers.first(where: { $0.id == id }) else {
        throw ReviewError(400, "no issuer \(id) in the catalog")
      }
      issuer = .init(id: found.id, name: found.name)
    }
    _ = try inputErrors {
      try store.correct(file: edit.file) { corrections in
        if let name = edit.name { corrections.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let issuer { corrections.issuer = issuer }
        if let color = edit.color { corrections.color = color.lowercased() }
        for field in edit.clear ?? [] {
          switch field {
          case .quad: corrections.quad = nil
          case .name: corrections.name = nil
          case .issuer: corrections.issuer = nil
          case .color: corrections.color = nil
          }
        }
      }
    }
    refreshReport()
    return try detail(file: edit.file)
  }

  /// New corners for a card.
  public struct CornerEdit: Decodable, Sendable {
    public var file: String
    /// Four `[x, y]`, clockwise from the card's own top-left, in oriented-image pixels.
    public var quad: [[Double]]
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
        [correction], records: records, sources: [record.file: photo], config: try runConfig(summary),
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

  /// The run's config, loaded once and only if it is the one that made the run.
  private func runConfig(_ summary: RunSummary) throws -> PipelineConfig {
    if let config = loadedConfig { return config }
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
    loadedConfig = config
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

    enum CodingKeys: String, CodingKey {
      case file
      case addTags = "add_tags"
      case removeTags = "remove_tags"
      case addNote = "add_note"
      case removeNote = "remove_note"
    }
  }

  /// Tags and notes through the store's own calls (those of `snapsort tag` and `annotate`).
  public func label(_ edit: LabelEdit) throws -> Data {
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
