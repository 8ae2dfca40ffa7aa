import Foundation

/// A logistic regression on standardised features as the fitting scripts under `bench/` write
/// it: feature names, their means and scales, weights and a bias.
public protocol StandardisedLogistic {
  var features: [String] { get }
  var mean: [Double] { get }
  var scale: [Double] { get }
  var weights: [Double] { get }
  var bias: Double { get }
}

extension StandardisedLogistic {
  /// The probability for the features `value` gives by name (a missing one counts as 0).
  func logistic(_ value: (String) -> Double?) -> Double {
    1 / (1 + exp(-score(value)))
  }

  /// The bias plus the weighted standardised features `value` gives by name (a missing one
  /// counts as 0): the logistic's argument, or a conditional logit's score.
  func score(_ value: (String) -> Double?) -> Double {
    var z = bias
    for (index, name) in features.enumerated() {
      z += weights[index] * ((value(name) ?? 0) - mean[index]) / scale[index]
    }
    return z
  }

  /// A conditional logit's probabilities over candidates, each given by its features by name:
  /// the softmax of their scores, in the candidates' order.
  func softmax(_ candidates: [[String: Double]]) -> [Double] {
    let scores = candidates.map { features in score { features[$0] } }
    let top = scores.max() ?? 0
    let exponentials = scores.map { exp($0 - top) }
    let total = exponentials.reduce(0, +)
    return exponentials.map { $0 / total }
  }

  /// Throws unless every feature has a mean, a positive scale and a weight, and this build
  /// computes it (`computes`).
  func checkShape(of description: String, at url: URL, computes: (String) -> Bool) throws {
    let sizes = [mean.count, scale.count, weights.count]
    guard sizes.allSatisfy({ $0 == features.count }), scale.allSatisfy({ $0 > 0 }) else {
      throw DataFileError(
        .invalid, "\(description) \(url.path) has features, means, scales and weights that do not match")
    }
    if let unknown = features.first(where: { !computes($0) }) {
      throw DataFileError(
        .incompatible,
        "\(description) \(url.path) uses the feature \"\(unknown)\", which this snapsort does not compute")
    }
  }
}
