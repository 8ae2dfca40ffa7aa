/// Why a native library could not be set up: what is missing and how to install it.
///
/// These are failures of the machine, not of a photo: a run stops before its first photo when a
/// stage cannot create its handles.
public enum NativeLibraryError: Error, CustomStringConvertible, Sendable, Equatable {
  /// A tesseract traineddata file is not installed.
  case missingLanguage(language: String, package: String)
  /// The library returned no handle (out of memory, or a broken installation).
  case handleNotCreated(library: String)
  /// The library refused to load what it was given.
  case loadFailed(library: String, detail: String)

  public var description: String {
    switch self {
    case .missingLanguage(let language, let package):
      return
        "tesseract language \"\(language)\" is not installed; run `make deps` or apt-get install \(package)"
    case .handleNotCreated(let library): return "\(library) could not create a handle"
    case .loadFailed(let library, let detail): return "\(library) could not load \(detail)"
    }
  }
}
