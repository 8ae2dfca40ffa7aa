import Crypto
import Foundation
import SnapsortImaging
import SnapsortNative
import SnapsortStages

/// A validated pipeline: the stages `pipeline.json` names, with their decoded options, ready
/// to be instantiated once per worker.
public struct PipelineConfig: Sendable {
  public static let currentVersion = 1

  /// One configured stage.
  public struct Step: Sendable {
    public let name: String
    /// Run only for photos of these kinds; empty means every photo.
    public let when: [Kind]
    /// The effective options (defaults filled in), as canonical JSON.
    public let optionsJSON: String
    /// The stage's declared artifacts (`Stage.needs`, `Stage.produces`).
    public let needs: [any Artifact.Type]
    public let produces: [any Artifact.Type]
    let make: @Sendable (StageContext) throws -> any Stage
  }

  public let steps: [Step]
  /// What kind a photo is assumed to be before any stage classifies it.
  public let assumedKind: Kind
  /// Wall-clock budget for one photo; stages past it are not started and OCR is cancelled.
  public let secondsPerImage: Double
  /// Payment cards' crops are written as cut rather than painted over (`StageContext`).
  public let keepCardNumbers: Bool
  /// SHA-256 of the canonical effective config: two runs with equal hashes ran the same thing.
  public let hash: String
  public let description: String

  /// Parses and validates a config file.
  public static func load(
    from url: URL, context: StageContext, registry: [any Stage.Type] = StageRegistry.all
  ) throws -> PipelineConfig {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ConfigError(path: "", "cannot read \(url.path): \(error.localizedDescription)")
    }
    var context = context
    context.configDirectory = url.deletingLastPathComponent()
    return try parse(data, context: context, registry: registry)
  }

  /// - Parameter registry: the stages the config may name; tests add test-only stages here.
  public static func parse(
    _ data: Data, context: StageContext, registry: [any Stage.Type] = StageRegistry.all
  ) throws -> PipelineConfig {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw ConfigError(path: "", "not valid JSON: \(jsonErrorSummary(error))")
    }
    guard let root = object as? [String: Any] else {
      throw ConfigError(path: "", "expected a JSON object at the top level")
    }
    let knownKeys: Set<String> = ["version", "description", "kind", "limits", "stages"]
    for key in root.keys.sorted() where !knownKeys.contains(key) {
      throw ConfigError(path: key, "unknown key (known: \(knownKeys.sorted().joined(separator: ", ")))")
    }
    let version = try Self.version(root["version"])
    let description = root["description"] as? String ?? ""
    let assumedKind = try Self.assumedKind(root["kind"])
    let secondsPerImage = try Self.secondsPerImage(root["limits"])
    guard let stageList = root["stages"] as? [Any], !stageList.isEmpty else {
      throw ConfigError(path: "stages", "expected a non-empty list of stages")
    }
    var steps: [Step] = []
    var canonicalStages: [[String: Any]] = []
    for (index, entry) in stageList.enumerated() {
      let step = try Self.step(entry, path: "stages[\(index)]", context: context, registry: registry)
      steps.append(step)
      var canonical: [String: Any] = ["stage": step.name]
      if !step.when.isEmpty { canonical["when"] = step.when.map(\.rawValue) }
      canonical["options"] = step.optionsJSON
      canonicalStages.append(canonical)
    }
    try checkOrder(steps, registry: registry)
    let canonical: [String: Any] = [
      "version": version, "kind": assumedKind.rawValue, "stages": canonicalStages,
      "limits": ["seconds_per_image": secondsPerImage],
      // Another snapsort version may give other records: its runs are not resumed from.
      "snapsort_version": SnapsortVersion.current,
      // Crops differ with it; and a run from before crops were painted over is not resumed
      // from, so that its crops are written again.
      "card_numbers": context.keepCardNumbers ? "kept" : "painted over",
    ]
    let canonicalData = try JSONSerialization.data(withJSONObject: canonical, options: [.sortedKeys])
    let hash = SHA256.hash(data: canonicalData).map { String(format: "%02x", $0) }.joined()
    return PipelineConfig(
      steps: steps, assumedKind: assumedKind, secondsPerImage: secondsPerImage,
      keepCardNumbers: context.keepCardNumbers, hash: hash, description: description)
  }

  private static func version(_ value: Any?) throws -> Int {
    guard let version = value as? Int else {
      throw ConfigError(
        path: "version", "missing or not an integer (this snapsort reads version \(currentVersion))")
    }
    guard version == currentVersion else {
      throw ConfigError(
        path: "version", "unsupported version \(version) (this snapsort reads version \(currentVersion))")
    }
    return version
  }

  private static func assumedKind(_ value: Any?) throws -> Kind {
    switch value {
    case nil: return .unknown
    case let text as String:
      guard let kind = Kind(rawValue: text == "auto" ? "unknown" : text) else {
        throw ConfigError(path: "kind", "expected one of auto, card, receipt, other")
      }
      return kind
    default: throw ConfigError(path: "kind", "expected a string")
    }
  }

  private static func secondsPerImage(_ value: Any?) throws -> Double {
    guard let value else { return 60 }
    guard let limits = value as? [String: Any] else {
      throw ConfigError(path: "limits", "expected an object")
    }
    for key in limits.keys.sorted() where key != "seconds_per_image" {
      throw ConfigError(path: "limits.\(key)", "unknown key (known: seconds_per_image)")
    }
    guard let seconds = limits["seconds_per_image"] else { return 60 }
    guard let number = (seconds as? NSNumber)?.doubleValue, !(seconds is Bool), number > 0 else {
      throw ConfigError(path: "limits.seconds_per_image", "expected a positive number of seconds")
    }
    return number
  }

  /// One entry of `stages`: its stage, `when` and options, decoded and validated.
  private static func step(_ entry: Any, path: String, context: StageContext, registry: [any Stage.Type])
    throws
    -> Step
  {
    guard var object = entry as? [String: Any] else {
      throw ConfigError(path: path, "expected an object such as {\"stage\": \"load\"}")
    }
    guard let name = object.removeValue(forKey: "stage") as? String else {
      throw ConfigError(path: "\(path).stage", "missing: every entry names its stage")
    }
    guard let type = registry.first(where: { $0.name == name }) else {
      let known = registry.map { $0.name }.joined(separator: ", ")
      throw ConfigError(path: "\(path).stage", "unknown stage \"\(name)\" (known: \(known))")
    }
    var when: [Kind] = []
    if let rawWhen = object.removeValue(forKey: "when") {
      let names = (rawWhen as? [String]) ?? (rawWhen as? String).map { [$0] }
      guard let names, case let kinds = names.compactMap(Kind.init(rawValue:)), kinds.count == names.count
      else {
        throw ConfigError(path: "\(path).when", "expected a kind or a list of kinds (card, receipt, other)")
      }
      when = kinds
    }
    return try type.makeStep(options: object, path: path, when: when, context: context)
  }

  /// Checks from the stages' declarations that each one's needs are written before it, by a stage
  /// that runs for every kind of photo it runs for, and that no artifact is written twice.
  static func checkOrder(_ steps: [Step], registry: [any Stage.Type]) throws {
    var producer: [ObjectIdentifier: Int] = [:]
    for (index, step) in steps.enumerated() {
      for need in step.needs {
        guard let source = producer[ObjectIdentifier(need)].map({ steps[$0] }) else {
          let makers = registry.filter { $0.produces.contains { $0 == need } }.map { "\"\($0.name)\"" }
          let advice =
            makers.isEmpty ? "" : ", which \(makers.joined(separator: " or ")) writes: put it before"
          throw ConfigError(
            path: "stages[\(index)].stage", "\"\(step.name)\" needs \(need.displayName)\(advice)")
        }
        if !source.when.isEmpty && (step.when.isEmpty || !Set(step.when).isSubset(of: source.when)) {
          throw ConfigError(
            path: "stages[\(index)].when",
            "\"\(step.name)\" runs for photos that \"\(source.name)\" skips, and needs its \(need.displayName)"
          )
        }
      }
      for product in step.produces {
        if let earlier = producer[ObjectIdentifier(product)] {
          throw ConfigError(
            path: "stages[\(index)].stage",
            "\"\(step.name)\" writes \(product.displayName), which \"\(steps[earlier].name)\" has written already"
          )
        }
        producer[ObjectIdentifier(product)] = index
      }
    }
    guard producer[ObjectIdentifier(ImageFile.self)] != nil else {
      throw ConfigError(path: "stages", "no stage reads the photo: put \"load\" first")
    }
  }

  /// Creates one instance of every stage, for one worker.
  ///
  /// - Throws: `PipelineSetupError` naming the first stage that cannot be created.
  public func instantiate(context: StageContext) throws(PipelineSetupError) -> [(Step, any Stage)] {
    var worker = context
    worker.workerEngines = WorkerTesseractEngines()
    var stages: [(Step, any Stage)] = []
    for step in steps {
      do {
        stages.append((step, try step.make(worker)))
      } catch {
        throw PipelineSetupError(stage: step.name, error: error)
      }
    }
    return stages
  }

  private static func jsonErrorSummary(_ error: Error) -> String {
    let nsError = error as NSError
    return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
  }
}

extension Stage {
  static func makeStep(options json: [String: Any], path: String, when: [Kind], context: StageContext)
    throws -> PipelineConfig.Step
  {
    let options = try OptionsDecoder.decode(Options.self, from: json, path: path)
    do {
      try validate(options, context: context)
    } catch let error as ConfigError {
      throw ConfigError(path: error.path.isEmpty ? path : "\(path).\(error.path)", error.message)
    }
    let effective = try OptionsDecoder.encode(options)
    let canonical = try JSONSerialization.data(withJSONObject: effective, options: [.sortedKeys])
    return PipelineConfig.Step(
      name: name, when: when, optionsJSON: String(decoding: canonical, as: UTF8.self), needs: needs,
      produces: produces,
      make: { context in try Self(options: options, context: context) })
  }
}
