import Foundation
import SnapsortNative
import SnapsortStages

/// The registry rendered for people: `snapsort list-stages` and the README's stage table.
public enum StageCatalog {
  public static func render(markdown: Bool) -> String {
    var out = ""
    if markdown {
      out += "| stage | what it does | options (defaults) |\n|---|---|---|\n"
    }
    for type in StageRegistry.all {
      let options = optionsSummary(type)
      if markdown {
        out += "| `\(type.name)` | \(type.summary) | \(options.isEmpty ? "—" : "`" + options + "`") |\n"
      } else {
        out += type.name.padding(toLength: 14, withPad: " ", startingAt: 0) + type.summary + "\n"
        if !options.isEmpty { out += String(repeating: " ", count: 14) + options + "\n" }
      }
    }
    return out
  }

  static func optionsSummary(_ type: any Stage.Type) -> String {
    func defaults<S: Stage>(_ stage: S.Type) -> String {
      guard let object = try? OptionsDecoder.defaultsObject(S.Options.self), !object.isEmpty,
        let data = try? JSONSerialization.data(
          withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      else { return "" }
      return String(decoding: data, as: UTF8.self)
    }
    return defaults(type)
  }
}
