import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`; produces `KindDecision`.
///
/// Decides whether the photo shows a card, a receipt or something else from cheap evidence on
/// the analysis copy (the paper region's shape, rows of text, a right-hand price column); later
/// stages with a `when` then run or not.
public final class ClassifyStage: Stage {
  public static let name = "classify"
  public static let summary =
    "Card, receipt or other from the paper region, text rows and a right-hand price column"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let produces: [any Artifact.Type] = [KindDecision.self]

  public struct Options: StageOptions, Equatable {
    /// Below this confidence the kind the config assumes is kept.
    public var minimumConfidence: Double = 0.5
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (0...1).contains(options.minimumConfidence) else {
      throw ConfigError(path: "minimum_confidence", "must be between 0 and 1")
    }
  }

  private let options: Options

  public init(options: Options, context: StageContext) throws {
    self.options = options
  }

  public func process(_ item: PhotoItem) throws {
    let evidence = KindEvidence.measure(try item.pixels().analysis)
    let (kind, confidence) = evidence.decide()
    item.artifacts.write(
      KindDecision(
        classification: Classification(
          kind: kind, confidence: Rounding.hundredths(confidence), evidence: evidence),
        kind: confidence >= options.minimumConfidence ? kind : nil))
  }
}
