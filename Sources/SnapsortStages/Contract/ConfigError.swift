/// A problem with `pipeline.json` or a preset, found before the first photo is touched.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Where in the config, e.g. `stages[2].max_pixels`; empty for the file as a whole.
  public var path: String
  public var message: String

  public init(path: String, _ message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension ConfigError {
  /// Runs a check of what the option at `path` names (a language, a catalog, a model) and reports
  /// its failure at that option.
  @discardableResult
  public static func at<T>(_ path: String, _ check: () throws -> T) throws(ConfigError) -> T {
    do {
      return try check()
    } catch let error as ConfigError {
      throw ConfigError(path: path, error.message)
    } catch {
      throw ConfigError(path: path, String(describing: error))
    }
  }
}
