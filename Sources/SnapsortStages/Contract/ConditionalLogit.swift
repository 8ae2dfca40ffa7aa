import Foundation

/// The candidates a `ConditionalLogit` chooses among: what its model file is called, and the
/// features this build computes for them.
public protocol ConditionalLogitCandidates {
  /// What a person calls the model file in an error: "the total model".
  static var modelDescription: String { get }
  static var modelFileName: String { get }
  static var featureNames: [String] { get }
}

/// A conditional logit over one kind of candidates: a softmax of standardised features times
/// weights, fitted by a script under `bench/` (the file says which, and on what, in `training`).
/// It overrides the extractor's rules only where its pick is more probable than the rules' own
/// candidate by more than `margin`: on the training folds, replacing the rules outright lost more
/// answers than it fixed.
public struct ConditionalLogit<Kind: ConditionalLogitCandidates>: Codable, Sendable, Equatable,
  VersionedDataFile, StandardisedLogistic
{
  public static var fileDescription: String { Kind.modelDescription }
  public static var currentVersion: Int { 1 }

  public var version: Int
  /// Feature names, in the order of `mean`, `scale` and `weights`.
  public var features: [String]
  public var mean: [Double]
  public var scale: [Double]
  public var weights: [Double]
  public var margin: Double
  /// None: a bias is the same for every candidate and cancels in the softmax.
  public var bias: Double { 0 }
  /// What the model was fitted and measured on, for people.
  public var training: [String: String]

  /// The model bundled with this build.
  public static func bundled() throws -> Self {
    try load(from: StageContext().resolve(Kind.modelFileName))
  }

  /// Reads a model file and checks that this build computes its features.
  public static func load(from url: URL) throws -> Self {
    let model = try read(from: url)
    try model.checkShape(of: fileDescription, at: url) { Kind.featureNames.contains($0) }
    return model
  }

  /// Which of candidates with `probabilities` to take instead of the rules' own (at `rulesAt`, if
  /// among them): the most probable, the first of equally probable ones as the fitting scripts'
  /// argmax takes, when it is not the rules' own, `allowed` lets it and it beats the rules'
  /// candidate by the margin.
  func overridingIndex(_ probabilities: [Double], rulesAt: Int?, allowed: (Int) -> Bool = { _ in true })
    -> Int?
  {
    guard let best = probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] }),
      best != rulesAt, allowed(best),
      probabilities[best] - (rulesAt.map { probabilities[$0] } ?? 0) > margin
    else { return nil }
    return best
  }
}
