import Foundation

/// A conditional logit over a header's `MerchantCandidates`: a softmax of standardised features
/// times weights, fitted by `bench/receipts/fit_merchant.py` (the file says on what, in
/// `training`). It overrides the extractor's rules only where its pick is more probable than the
/// rules' own candidate by more than `margin`: on the training folds, replacing the rules
/// outright lost more names than it fixed.
public struct MerchantModel: Codable, Sendable, Equatable, VersionedDataFile, StandardisedLogistic {
  public static let fileDescription = "the merchant model"
  public static let currentVersion = 1
  public static let bundledFileName = "merchant-model.json"

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
  public static func bundled() throws -> MerchantModel {
    try read(from: StageContext().resolve(bundledFileName))
  }

  /// Each candidate's probability, in the candidates' order.
  func probabilities(_ candidates: [MerchantCandidates.Candidate]) -> [Double] {
    softmax(candidates.map(\.features))
  }

  /// The candidate to take instead of the rules' answer `rules`, with its probability; nil
  /// where the rules' answer stands: it names a catalog brand, or the model's pick does not
  /// beat the rules' candidate by the margin. Where the rules found no name the model gives
  /// none either: the receipt stage then reads the logo for a brand, which a name from the
  /// model would keep it from doing.
  func override(
    _ candidates: [MerchantCandidates.Candidate], rules: String?, rulesNameBrand: Bool
  ) -> (candidate: MerchantCandidates.Candidate, probability: Double)? {
    guard let rules, !rules.isEmpty, !rulesNameBrand, !candidates.isEmpty else { return nil }
    let probabilities = probabilities(candidates)
    // The first of equally probable candidates, as the fitting script's argmax takes.
    let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
    let squeezed = { (name: String) in MerchantCandidates.fold(name).filter { $0 != " " } }
    let rulesAt = candidates.firstIndex { squeezed($0.value) == squeezed(rules) }
    guard best != rulesAt, probabilities[best] - (rulesAt.map { probabilities[$0] } ?? 0) > margin else {
      return nil
    }
    return (candidates[best], probabilities[best])
  }
}
