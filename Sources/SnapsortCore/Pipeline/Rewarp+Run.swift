import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

extension Rewarp {
  /// Re-processes the corrected files from `warp` on and keeps each new record only when it is a
  /// complete card record of the same photo; otherwise the old record (and its crop) stands.
  ///
  /// The new crops are made in a folder of their own under `.snapsort/` and moved into `cards/`
  /// only for the records taken, so a failure never touches the old crop.
  ///
  /// - Parameters:
  ///   - records: the run's records (records.jsonl).
  ///   - sources: each corrected file's photo.
  ///   - config: the run's config.
  /// - Throws: `Failure` when a correction has a problem (see `problems`), a corrected file has
  ///   no photo in `sources` or the config has no `warp` stage: nothing is run then. An error
  ///   when a stage cannot start or a crop cannot be moved into place.
  public static func run(
    _ corrections: [Correction], records: [Record], sources: [String: URL], config: PipelineConfig,
    outputDirectory: URL
  ) throws -> Outcome {
    try checkRunnable(corrections, records: records, sources: sources, config: config)
    return try run(
      corrections, records: records, sources: sources,
      reanalysis: Reanalysis(config: config, outputDirectory: outputDirectory),
      outputDirectory: outputDirectory)
  }

  /// `run` with stages made once and kept for every later correction of the same folder
  /// (`snapsort review`, where loading the OCR models for each moved corner would cost more
  /// than the card's analysis).
  public static func run(
    _ corrections: [Correction], records: [Record], sources: [String: URL], reanalysis: Reanalysis,
    outputDirectory: URL
  ) throws -> Outcome {
    try checkRunnable(corrections, records: records, sources: sources, config: reanalysis.config)
    defer { try? FileManager.default.removeItem(at: reanalysis.staging) }
    let old = Dictionary(records.map { ($0.file, $0) }, uniquingKeysWith: { _, last in last })
    var rewarped: [String: Record] = [:]
    for correction in corrections {
      let input = InputScanner.Input(relativePath: correction.file, url: sources[correction.file]!)
      rewarped[correction.file] = reanalysis.pipeline.record(
        for: input, seeds: seeds(correction.quad, replacing: old[correction.file]))
    }
    return try replace(
      corrections, in: old, with: rewarped, from: reanalysis.staging, outputDirectory: outputDirectory)
  }

  /// A run's config with its stages made once, for corrections made one after another: crops are
  /// made in a folder of their own under `.snapsort/`, emptied after each correction.
  public final class Reanalysis {
    public let config: PipelineConfig
    let staging: URL
    let pipeline: PhotoPipeline
    public init(config: PipelineConfig, outputDirectory: URL) throws {
      self.config = config
      staging = outputDirectory.appendingPathComponent(".snapsort/rewarp-\(UUID().uuidString)")
      pipeline = try PhotoPipeline(config: config, outputDirectory: staging)
    }
  }

  /// Whether `config` cuts card crops, so a card can be re-run from the warp on.
  public static func hasWarpStage(_ config: PipelineConfig) -> Bool {
    config.steps.contains { $0.produces.contains { $0 == CardCrop.self } }
  }

  /// - Throws: `Failure` when a correction has a problem, a corrected file has no photo in
  ///   `sources` or the config has no `warp` stage.
  private static func checkRunnable(
    _ corrections: [Correction], records: [Record], sources: [String: URL], config: PipelineConfig
  ) throws {
    let problems =
      problems(corrections, records: records)
      + corrections.filter { sources[$0.file] == nil }.map { "\($0.file): its photo was not found" }
    guard problems.isEmpty else { throw Failure(problems.joined(separator: "; ")) }
    guard hasWarpStage(config) else { throw Failure("the pipeline has no warp stage to re-run") }
  }

  /// The old records with each rewarped one put in place where `refusal` allows, its crop moved
  /// from `staging` into the output folder.
  private static func replace(
    _ corrections: [Correction], in old: [String: Record], with rewarped: [String: Record], from staging: URL,
    outputDirectory: URL
  ) throws -> Outcome {
    var byFile = old
    var outcome = Outcome(records: [], replaced: [], kept: [])
    for correction in corrections {
      let file = correction.file
      if let reason = refusal(of: rewarped[file], replacing: byFile[file]!) {
        outcome.kept.append((file, reason))
        continue
      }
      let new = rewarped[file]!
      if let crop = new.card?.crop {
        try AtomicFile.move(
          staging.appendingPathComponent(crop), over: outputDirectory.appendingPathComponent(crop))
      }
      byFile[file] = new
      outcome.replaced.append(file)
    }
    outcome.records = byFile.values.sorted { $0.file < $1.file }
    return outcome
  }

  /// What a corrected photo starts with: the person's corners (their order is the card's, so warp
  /// keeps it), final, outlining what the run found (a pass stays a pass, cropped in its own
  /// shape), and the kind card with the run's classification, so that detection and
  /// classification are not run again.
  static func seeds(_ quad: [Point], replacing old: Record?) -> [any Artifact] {
    [
      KindDecision(classification: old?.classification, kind: .card),
      CardGeometry(
        quad: quad, confidence: 1, reason: nil, cornersAreFinal: true, shape: old?.card?.shape ?? .card),
    ]
  }

  /// Why `new` must not replace `old`, or nil when it is a complete card record of the same photo.
  static func refusal(of new: Record?, replacing old: Record) -> String? {
    guard let new else { return "the pipeline gave no record" }
    if new.status == .error {
      return new.error.map { "the \($0.stage) stage failed: \($0.message)" } ?? "it gave an error record"
    }
    if !old.sha256.isEmpty && new.sha256 != old.sha256 {
      return "the photo has changed since the run (its content differs): run it again first"
    }
    if new.kind != .card { return "it came out as \(new.kind.rawValue), not as a card" }
    return nil
  }
}
