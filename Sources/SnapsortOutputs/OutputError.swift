import Foundation

/// A run's output (records, journal, store, report, crops) that cannot be written, with the path
/// and the reason in a person's words rather than a Foundation error dump.
public struct OutputError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// Runs `write`, turning a file-system failure into an `OutputError` for `url`.
  public static func writing<T>(_ url: URL, _ write: () throws -> T) throws -> T {
    do {
      return try write()
    } catch let error as OutputError {
      throw error
    } catch {
      throw OutputError(path: url.path, reason: Self.reason(error))
    }
  }

  /// The operating system's own words for a failure when there are some (`Permission denied`,
  /// `Not a directory`, `No space left on device`), else Foundation's description.
  static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    if let code = nsError.userInfo["errno"] as? Int32 { return String(cString: strerror(code)) }
    return nsError.localizedDescription
  }

  public var description: String { "cannot write \(path): \(reason)" }
}
