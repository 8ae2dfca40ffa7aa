import Foundation
import SnapsortNative

/// A step of the pipeline: reads artifacts earlier stages wrote on a `PhotoItem` and writes its
/// own; the record is assembled from them afterwards (`RecordAssembly`).
///
/// Implementation requirements:
/// - `name` is the stage's key in `pipeline.json`, in snake_case, unique in `StageRegistry`.
/// - `needs` lists the artifacts the stage cannot work without, `uses` those it reads when they
///   exist, `produces` those it writes (each artifact has one producer in a pipeline). The config
///   loader checks a pipeline's order from these before any photo is touched, and the runner
///   skips a stage whose every product is already there (a run seeded with a person's corners).
/// - `Options` lists every option as a non-optional property with its default in `init()`;
///   JSON keys are the snake_case forms of the property names. Unknown keys and wrong types are
///   rejected by the config loader before any photo is touched.
/// - `validate(_:context:)` checks what the options refer to (files, languages) up front.
/// - One instance is created per worker and used from that worker's thread only, so native
///   handles live in stored properties and are reused from photo to photo.
/// - `process(_:)` throws for a failure of this photo only; the runner turns it into an error
///   record naming the stage, and the other photos go on.
public protocol Stage: AnyObject, SendableMetatype {
  associatedtype Options: StageOptions
  static var name: String { get }
  /// One line for `snapsort list-stages` and the README's stage table.
  static var summary: String { get }
  static var needs: [any Artifact.Type] { get }
  static var uses: [any Artifact.Type] { get }
  static var produces: [any Artifact.Type] { get }
  static func validate(_ options: Options, context: StageContext) throws
  init(options: Options, context: StageContext) throws
  func process(_ item: PhotoItem) throws
}

extension Stage {
  public static func validate(_ options: Options, context: StageContext) throws {}
  public static var uses: [any Artifact.Type] { [] }
}

/// A stage's options: Codable with defaults for every key.
public protocol StageOptions: Codable, Sendable {
  init()
  /// Options that were replaced, by their old name: what to write instead. A config that still
  /// sets one is refused with that advice rather than as an unknown option.
  static var retiredOptions: [String: String] { get }
}

extension StageOptions {
  public static var retiredOptions: [String: String] { [:] }
}

/// For stages without options.
public struct NoOptions: StageOptions, Equatable {
  public init() {}
}

/// Run-wide facts a stage may need when it is created.
public struct StageContext: Sendable {
  /// Where crops and other files go; nil when nothing is written (tests, `check`).
  public var outputDirectory: URL?
  /// How many workers run at once (tesseract threading depends on it).
  public var jobs: Int
  /// The folder `pipeline.json` was read from, for resolving relative paths in options.
  public var configDirectory: URL?
  /// Write payment cards' crops as cut, their number, expiry and holder's name readable
  /// (`snapsort run --keep-card-numbers`); by default `CardCropFile` paints them over.
  public var keepCardNumbers: Bool
  /// Engines every worker of a run shares (one context is handed to all of a run's workers).
  public let sharedEngines: SharedTesseractEngines
  /// One worker's engines, shared by its stages; a run gives each worker its own
  /// (`PipelineConfig.instantiate`).
  public var workerEngines: WorkerTesseractEngines

  public init(
    outputDirectory: URL? = nil, jobs: Int = 1, configDirectory: URL? = nil, keepCardNumbers: Bool = false
  ) {
    self.outputDirectory = outputDirectory
    self.jobs = jobs
    self.configDirectory = configDirectory
    self.keepCardNumbers = keepCardNumbers
    self.sharedEngines = SharedTesseractEngines()
    self.workerEngines = WorkerTesseractEngines()
  }

  /// Resolves a path from the config: absolute as is, else against the config's folder, then
  /// the bundled resources, then the working folder. The bundle comes before the working folder:
  /// a stray `kind-model.json` where snapsort happens to run must not replace the bundled model
  /// the default config names.
  public func resolve(_ path: String) -> URL {
    if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
    if let configDirectory {
      let candidate = configDirectory.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    }
    if let bundled = Bundle.module.url(forResource: path, withExtension: nil, subdirectory: "Resources") {
      return bundled
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
  }
}
