import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`; produces `KindDecision`.
///
/// Decides whether the photo shows a card or a receipt from cheap evidence on the analysis copy
/// (the paper region's shape, rows of text and their height, a right-hand price column, colour),
/// weighed by a fitted model (`KindModel`); later stages with a `when` then run or not.
public final class ClassifyStage: Stage {
  public static let name = "classify"
  public static let summary =
    "Card or receipt from the paper region, text rows, a right-hand price column and colour"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let produces: [any Artifact.Type] = [KindDecision.self]

  public struct Options: StageOptions, Equatable {
    /// Below this confidence the kind the config assumes is kept.
    public var minimumConfidence: Double = 0.5
    /// The model file written by `bench/kind/fit_kind.py` (default: the bundled one).
    public var model: String = KindModel.bundledFileName
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (0...1).contains(options.minimumConfidence) else {
      throw ConfigError(path: "minimum_confidence", "must be between 0 and 1")
    }
    try ConfigError.at("model") { try KindModel.load(from: context.resolve(options.model)) }
  }

  private let options: Options
  private let model: KindModel

  public init(options: Options, context: StageContext) throws {
    self.options = options
    model = try KindModel.load(from: context.resolve(options.model))
  }

  public func process(_ item: PhotoItem) throws {
    let image = try item.pixels().analysis
    let evidence = KindEvidence.measure(image)
    // Too small to hold a row of text: nothing for the model to weigh, so the config's kind stays.
    let (kind, confidence) =
      min(image.width, image.height) < KindEvidence.minimumSide ? (.unknown, 0) : model.decide(evidence)
    item.artifacts.write(
      KindDecision(
        classification: Classification(
          kind: kind, confidence: Rounding.hundredths(confidence), evidence: evidence),
        kind: confidence >= options.minimumConfidence ? kind : nil))
  }
}
