import Foundation
import SnapsortNative

/// Decodes a stage's options from its JSON object: defaults for missing keys, an error naming
/// the key path for unknown keys and wrong types.
package enum OptionsDecoder {
  package static func decode<Options: StageOptions>(
    _ type: Options.Type, from json: [String: Any], path: String
  ) throws -> Options {
    let defaults = try defaultsObject(type)
    for key in json.keys.sorted() {
      if let advice = type.retiredOptions[key] {
        throw ConfigError(path: path.isEmpty ? key : "\(path).\(key)", "no longer an option: \(advice)")
      }
    }
    let merged = try overlay(json, onto: defaults, path: path)
    let data = try JSONSerialization.data(withJSONObject: merged)
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    do {
      return try decoder.decode(Options.self, from: data)
    } catch let error as DecodingError {
      throw describe(error, path: path)
    }
  }

  /// The options as JSON with snake_case keys: the effective values, for hashing and docs.
  package static func encode<Options: StageOptions>(_ options: Options) throws -> [String: Any] {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let data = try encoder.encode(options)
    return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  package static func defaultsObject<Options: StageOptions>(_ type: Options.Type) throws -> [String: Any] {
    try encode(Options())
  }

  /// Lays the user's values over the defaults, rejecting keys the defaults do not have.
  private static func overlay(_ user: [String: Any], onto defaults: [String: Any], path: String)
    throws -> [String: Any]
  {
    var merged = defaults
    for key in user.keys.sorted() {
      let value = user[key]!
      let keyPath = path.isEmpty ? key : "\(path).\(key)"
      guard let defaultValue = defaults[key] else {
        let known = defaults.keys.sorted().joined(separator: ", ")
        throw ConfigError(
          path: keyPath,
          "unknown option" + (known.isEmpty ? " (this stage takes none)" : " (known: \(known))"))
      }
      if let nestedDefault = defaultValue as? [String: Any] {
        guard let nestedUser = value as? [String: Any] else {
          throw ConfigError(path: keyPath, "expected an object")
        }
        merged[key] = try overlay(nestedUser, onto: nestedDefault, path: keyPath)
      } else {
        merged[key] = value
      }
    }
    return merged
  }

  private static func describe(_ error: DecodingError, path: String) -> ConfigError {
    func join(_ codingPath: [CodingKey]) -> String {
      var text = path
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          let snake = snakeCase(key.stringValue)
          text += text.isEmpty ? snake : ".\(snake)"
        }
      }
      return text
    }
    switch error {
    case .typeMismatch(let type, let context):
      return ConfigError(path: join(context.codingPath), "expected \(describe(type))")
    case .valueNotFound(let type, let context):
      return ConfigError(path: join(context.codingPath), "expected \(describe(type)), found null")
    case .keyNotFound(let key, let context):
      return ConfigError(path: join(context.codingPath + [key]), "missing")
    case .dataCorrupted(let context):
      return ConfigError(path: join(context.codingPath), context.debugDescription)
    @unknown default:
      return ConfigError(path: path, "\(error)")
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is Int.Type: return "an integer"
    case is Double.Type, is Float.Type: return "a number"
    case is Bool.Type: return "true or false"
    case is String.Type: return "a string"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array") { return "a list" }
      if name.hasPrefix("Dictionary") { return "an object" }
      return "a value of type \(name)"
    }
  }

  static func snakeCase(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase {
        if !out.isEmpty { out.append("_") }
        out.append(contentsOf: character.lowercased())
      } else {
        out.append(character)
      }
    }
    return out
  }
}
