import SnapsortNative
import SnapsortStages

/// A stage that cannot be created for a run: a native library, a language pack or a model file is
/// missing or unusable. A run stops before its first photo with it.
public struct PipelineSetupError: Error, CustomStringConvertible, Sendable {
  public enum Cause: Sendable {
    case nativeLibrary(NativeLibraryError)
    case dataFile(DataFileError)
    case config(ConfigError)
    case other(String)
  }

  /// The stage's name in the config.
  public var stage: String
  public var cause: Cause

  init(stage: String, error: Error) {
    self.stage = stage
    switch error {
    case let error as NativeLibraryError: cause = .nativeLibrary(error)
    case let error as DataFileError: cause = .dataFile(error)
    case let error as ConfigError: cause = .config(error)
    default: cause = .other(String(describing: error))
    }
  }

  public var description: String {
    let reason: String
    switch cause {
    case .nativeLibrary(let error): reason = error.description
    case .dataFile(let error): reason = error.description
    case .config(let error): reason = error.description
    case .other(let text): reason = text
    }
    return "stage \"\(stage)\" cannot start: \(reason)"
  }
}
