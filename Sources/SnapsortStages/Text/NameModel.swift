import Foundation

/// Which of a card's candidate lines is its name: a logistic regression on standardised
/// `NameLineCandidates` features, fitted by `bench/names/fit_names.py` on the generator's training
/// split (the file says which in `training`, with its held-out figures). `threshold` is the
/// probability under which the best line is no name at all.
public struct NameModel: Codable, Sendable, Equatable, VersionedDataFile, StandardisedLogistic {
  public static let fileDescription = "the name model"
  public static let currentVersion = 1
  public static let bundledFileName = "name-model.json"

  public var version: Int
  /// Feature names, in the order of `mean`, `scale` and `weights`.
  public var features: [String]
  public var mean: [Double]
  public var scale: [Double]
  public var weights: [Double]
  public var bias: Double
  public var threshold: Double
  /// Tesseract's confidence in a name line read again on its own from which that reading is taken
  /// as it is, rather than only for the diacritics the page reading lost (`CardNameReconciler`);
  /// above 100: never.
  public var rereadConfidence: Double
  /// When a Cyrillic pack's reading of the suggested line replaces the Latin one; nil: never.
  public var cyrillic: CyrillicChoice?
  /// What the model was fitted and measured on, for people.
  public var training: [String: String]
  /// Candidates' features with the probability the fitting script gave them, so a test can check
  /// that this build computes the same.
  public var examples: [Example]?

  enum CodingKeys: String, CodingKey {
    case version, features, mean, scale, weights, bias, threshold, training, examples, cyrillic
    case rereadConfidence = "reread_confidence"
  }

  public struct Example: Codable, Sendable, Equatable {
    public var features: [String: Double]
    public var probability: Double
  }

  /// The probability that a line with these features is the card's name.
  public func probability(_ values: [String: Double]) -> Double {
    logistic { values[$0] }
  }

  /// The candidates scored and best first; those under `threshold` are dropped.
  public func rank(_ candidates: [CardNamePicker.Candidate]) -> [CardNamePicker.Candidate] {
    candidates.map { candidate in
      var scored = candidate
      scored.score = probability(candidate.features)
      return scored
    }
    .filter { $0.score >= threshold }
    .sorted { $0.score > $1.score }
  }

  /// Reads a model file and checks that this build computes its features.
  public static func load(from url: URL) throws -> NameModel {
    let model = try read(from: url)
    try model.checkShape(of: fileDescription, at: url) { NameLineCandidates.featureNames.contains($0) }
    try model.cyrillic?.checkShape(of: "\(fileDescription)'s Cyrillic choice", at: url) {
      CyrillicChoice.featureNames.contains($0)
    }
    return model
  }
}
