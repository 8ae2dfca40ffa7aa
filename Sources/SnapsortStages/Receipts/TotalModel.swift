import Foundation

/// A conditional logit over a receipt's `TotalCandidates`: a softmax of standardised features
/// times weights, fitted by `bench/receipts/fit_total.py` (the file says on what, in
/// `training`). It overrides the extractor's rules only where its pick is more probable than the
/// rules' own total by more than `margin`, and never gives a total where the rules found none.
public struct TotalModel: Codable, Sendable, Equatable, VersionedDataFile, StandardisedLogistic {
  public static let fileDescription = "the total model"
  public static let currentVersion = 1
  public static let bundledFileName = "total-model.json"

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
  public static func bundled() throws -> TotalModel {
    try load(from: StageContext().resolve(bundledFileName))
  }

  /// Reads a model file and checks that this build computes its features.
  public static func load(from url: URL) throws -> TotalModel {
    let model = try read(from: url)
    try model.checkShape(of: fileDescription, at: url) { TotalCandidates.featureNames.contains($0) }
    return model
  }

  /// Each candidate's probability, in the candidates' order.
  func probabilities(_ candidates: [TotalCandidates.Candidate]) -> [Double] {
    softmax(candidates.map(\.features))
  }

  /// What speaks for an amount being the total besides its size and place: a total label on its
  /// row or a neighbour, a payment of it, a sum of the page it closes, a rounding above it.
  static let support = [
    "total_label", "label_above", "label_below", "payment", "cash_change", "vat_gross", "arithmetic",
    "items_sum", "rounding_above",
  ]

  /// Whether anything but its size and place speaks for `candidate`: a stray number that OCR
  /// made of a terminal's codes (`= 00 076 00`) never replaces the rules' total.
  static func supports(_ candidate: TotalCandidates.Candidate) -> Bool {
    support.contains { (candidate.features[$0] ?? 0) > 0 }
  }

  /// The candidate to take instead of the rules' total `rules`, with its probability; nil where
  /// the rules' total stands (or the rules found none), or the model's pick has no support.
  func override(_ candidates: [TotalCandidates.Candidate], rules: Money?) -> (
    candidate: TotalCandidates.Candidate, probability: Double
  )? {
    guard let rules, !candidates.isEmpty else { return nil }
    let probabilities = probabilities(candidates)
    // The first of equally probable candidates, as the fitting script's argmax takes.
    let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
    let rulesAt = candidates.firstIndex { $0.money == rules }
    guard best != rulesAt, Self.supports(candidates[best]),
      probabilities[best] - (rulesAt.map { probabilities[$0] } ?? 0) > margin
    else {
      return nil
    }
    return (candidates[best], probabilities[best])
  }
}
