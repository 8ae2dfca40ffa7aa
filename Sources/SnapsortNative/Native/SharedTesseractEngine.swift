import Foundation

/// One `TesseractEngine` that several workers take turns on, behind a lock: for readings that
/// are short and rare next to a photo's other work (a name line read again with the Latin model),
/// where a model per worker would cost more memory than the waiting.
public final class SharedTesseractEngine: @unchecked Sendable {
  // Safety: `engine` is only touched while `lock` is held.
  private let engine: TesseractEngine
  private let lock = NSLock()
  public let languages: String

  public init(languages: String, wordLists: Bool = true) throws(NativeLibraryError) {
    engine = try TesseractEngine(languages: languages, wordLists: wordLists)
    self.languages = languages
  }

  /// `TesseractEngine.recognize`, once no other worker is reading; the deadline counts from the
  /// start of the reading itself.
  public func recognize(
    _ bitmap: Bitmap, segmentation: TesseractEngine.PageSegmentation, deadline: Int
  ) -> TesseractEngine.Result {
    lock.lock()
    defer { lock.unlock() }
    return engine.recognize(bitmap, segmentation: segmentation, deadline: deadline)
  }
}

/// The engines a run's workers share, made on first use, one per language set.
public final class SharedTesseractEngines: @unchecked Sendable {
  // Safety: `engines` is only touched while `lock` is held.
  private var engines: [String: SharedTesseractEngine] = [:]
  private let lock = NSLock()

  public init() {}

  /// - Parameter wordLists: see `TesseractEngine.init(languages:wordLists:)`; a set loaded with
  ///   and one without are two engines.
  public func engine(
    languages: String, wordLists: Bool = true
  ) throws(NativeLibraryError) -> SharedTesseractEngine {
    lock.lock()
    defer { lock.unlock() }
    let key = wordLists ? languages : languages + " without word lists"
    if let engine = engines[key] { return engine }
    let engine = try SharedTesseractEngine(languages: languages, wordLists: wordLists)
    engines[key] = engine
    return engine
  }
}

/// One worker's engines, one per language set, shared by the worker's stages: the card's OCR and
/// the receipt's reading use the same `eng` model instead of loading it twice. Made on first use.
public final class WorkerTesseractEngines: @unchecked Sendable {
  // Safety: confined to one worker. `PipelineConfig.instantiate` gives every worker its own, and
  // a worker's stages run on that worker's thread only.
  private var engines: [String: TesseractEngine] = [:]

  public init() {}

  public func engine(languages: String) throws(NativeLibraryError) -> TesseractEngine {
    if let engine = engines[languages] { return engine }
    let engine = try TesseractEngine(languages: languages)
    engines[languages] = engine
    return engine
  }
}
