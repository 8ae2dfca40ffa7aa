import Foundation
import SnapsortImaging
import SnapsortNative

/// Decides whether the photo shows a card, a receipt or something else from cheap evidence on
/// the analysis copy (the paper region's shape, rows of text, a right-hand price column) and
/// writes `kind` and `classification`; later stages with a `when` then run or not.
public final class ClassifyStage: Stage {
  public static let name = "classify"
  public static let summary =
    "Card, receipt or other from the paper region, text rows and a right-hand price column"

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
    guard let analysis = item.analysis else { throw StageFailure("no image was loaded") }
    let evidence = KindEvidence.measure(analysis)
    let (kind, confidence) = evidence.decide()
    item.record.classification = Classification(
      kind: kind, confidence: (confidence * 100).rounded() / 100, evidence: evidence)
    if confidence >= options.minimumConfidence { item.record.kind = kind }
  }
}
