import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortOutputs
import SnapsortStages

/// A labelled folder: `DIR/<issuer-id>/*.{jpg,png,webp,…}`, optionally `DIR/catalog.json`.
///
/// A subfolder named `unknown` (or `_unknown`) holds cards of issuers that are in no catalog.
/// The photos go through the real pipeline stages to get the evidence a deployed classifier sees.
public struct LabelledPhotos: Sendable {
  public struct Photo: Sendable {
    public var input: InputScanner.Input
    public var label: String?
  }

  /// The stages that write what the issuer stage reads, and what those need, in pipeline order.
  public static var featureStages: [String] {
    StageRegistry.stages(producing: IssuerStage.uses).map { $0.name }
  }
  static let unknownFolders: Set<String> = ["unknown", "_unknown"]

  public let root: URL
  public let photos: [Photo]
  /// Issuers from `DIR/catalog.json`, if present.
  public let catalogAdditions: [Issuer]

  public init(root: URL) throws {
    self.root = root
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      throw InputError("\(root.path) is not a folder")
    }
    let catalogURL = root.appendingPathComponent("catalog.json")
    if FileManager.default.fileExists(atPath: catalogURL.path) {
      catalogAdditions = try IssuerCatalog.load(from: catalogURL).issuers
    } else {
      catalogAdditions = []
    }
    let folders = try FileManager.default.contentsOfDirectory(
      at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]
    ).filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    var photos: [Photo] = []
    for folder in folders {
      let name = folder.lastPathComponent
      let label: String? = Self.unknownFolders.contains(name) ? nil : name
      let listing = try InputScanner().scan([folder])
      for input in listing.inputs {
        var input = input
        input.relativePath = name + "/" + input.relativePath
        photos.append(Photo(input: input, label: label))
      }
    }
    self.photos = photos.sorted { $0.input.relativePath < $1.input.relativePath }
  }

  /// The pipeline of the feature stages.
  public static func featurePipeline() throws -> PipelineConfig {
    let stages = featureStages.map { ["stage": $0] }
    let object: [String: Any] = ["version": 1, "kind": "card", "stages": stages]
    let data = try JSONSerialization.data(withJSONObject: object)
    return try PipelineConfig.parse(data, context: StageContext())
  }

  /// Runs the feature stages on every photo; photos that fail become cards with no evidence
  /// (they still count in evaluation, as a deployed run would see them).
  public func cards(jobs: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [LabelledCard] {
    let config = try Self.featurePipeline()
    let records = try Runner(config: config, jobs: jobs, outputDirectory: nil).records(
      for: photos.map(\.input), progress: { progress?($0.done, $0.total) })
    return photos.map { photo in
      let record = records[photo.input.relativePath]
      return LabelledCard(
        evidence: CardEvidence(card: record?.card), label: photo.label, source: photo.input.relativePath)
    }
  }
}

extension LabelledPhotos {
  /// Labelled cards from a `records.jsonl` written by `snapsort run` over a labelled folder: the
  /// label is the first folder of each record's `file` (`unknown` for none), so a run done once
  /// can be trained and evaluated on without running the pipeline again.
  public static func cards(fromRecords url: URL) throws -> [LabelledCard] {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw InputError("cannot read \(url.path): \(error.localizedDescription)")
    }
    var cards: [LabelledCard] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
      let record: Record
      do {
        record = try JSONDecoder().decode(Record.self, from: Data(line.utf8))
      } catch {
        throw InputError("\(url.path) line \(number + 1) is not a record: \(error)")
      }
      let parts = record.file.split(separator: "/")
      guard parts.count >= 2 else {
        throw InputError("\(url.path) line \(number + 1): \(record.file) is not in a label folder")
      }
      let folder = String(parts[0])
      cards.append(
        LabelledCard(
          evidence: CardEvidence(card: record.card), label: unknownFolders.contains(folder) ? nil : folder,
          source: record.file))
    }
    return cards
  }

  /// The cards of a reviewed run whose issuer a person chose (`snapsort review`), each labelled
  /// with that issuer and carrying the evidence its run measured (not the person's other
  /// corrections: a deployed classifier sees what the pipeline reads).
  ///
  /// - Parameter store: a run's output folder or its `snapsort.sqlite`.
  public static func cards(fromCorrectionsIn store: URL) throws -> [LabelledCard] {
    var isDirectory: ObjCBool = false
    let isFolder =
      FileManager.default.fileExists(atPath: store.path, isDirectory: &isDirectory) && isDirectory.boolValue
    let url = isFolder ? store.appendingPathComponent(RecordStore.fileName) : store
    return try RecordStore(url: url).correctedEntries().compactMap { entry in
      guard entry.record.kind == .card, let issuer = entry.corrections.issuer else { return nil }
      return LabelledCard(
        evidence: CardEvidence(card: entry.record.card), label: issuer.id, source: entry.record.file)
    }
  }
}
