import Foundation

/// A trained issuer classifier: a conditional logit ("is it this issuer?") over (card, candidate
/// issuer) feature vectors, with a "none of these" alternative for cards of unknown issuers.
///
/// Why this design rather than a multinomial logistic regression with one weight vector per
/// issuer: a per-issuer model needs photos of every issuer and must be retrained whenever the
/// catalog grows, while most of the 270-odd catalog entries will never have training photos.
/// Here one shared weight vector scores any candidate from features that compare the card with
/// the catalog entry (text against names, palette against brand colours, barcodes against known
/// patterns), so an issuer added to `issuers.json` is recognised without retraining. The
/// utilities of all candidates and of "none" go through one softmax (McFadden's conditional
/// logit), trained by maximum likelihood; training includes every labelled card a second time
/// with its own issuer removed from the candidates and "none" as the answer, which teaches the
/// open-set case directly. A threshold on the top probability, calibrated on held-out data, then
/// turns a weak winner into "unknown".
public struct IssuerModel: Codable, Sendable, Equatable, VersionedDataFile {
  public static let fileDescription = "the issuer model"
  public static let currentVersion = 1
  public static let bundledFileName = "issuer-model.json"

  public var version: Int
  public var design: String
  public var features: [String]
  public var weights: [Double]
  public var nullFeatures: [String]
  public var nullWeights: [Double]
  /// Below this top probability the answer is "unknown".
  public var threshold: Double
  /// Issuers from the training folder's `catalog.json`, added to (or replacing) the catalog's.
  public var catalogAdditions: [Issuer]
  /// The issuers of the labelled cards the model was trained on (photos, records, corrections;
  /// not simulated cards). A user's next card is most likely of an issuer whose cards they
  /// labelled: the `labelled` feature tells the model which those are, where the catalog alone
  /// offers every issuer whose colour and a few letters fit an unread name.
  public var labelledIssuers: [String]
  /// What the model was trained and measured on, for people.
  public var training: [String: String]

  public init(
    weights: [Double], nullWeights: [Double], threshold: Double, catalogAdditions: [Issuer] = [],
    labelledIssuers: [String] = [], training: [String: String] = [:]
  ) {
    self.version = Self.currentVersion
    self.design = "conditional-logit"
    self.features = IssuerFeatures.names
    self.weights = weights
    self.nullFeatures = IssuerFeatures.nullNames
    self.nullWeights = nullWeights
    self.threshold = threshold
    self.catalogAdditions = catalogAdditions
    self.labelledIssuers = labelledIssuers
    self.training = training
  }

  enum CodingKeys: String, CodingKey {
    case version, design, features, weights, threshold, training
    case nullFeatures = "null_features"
    case nullWeights = "null_weights"
    case catalogAdditions = "catalog_additions"
    case labelledIssuers = "labelled_issuers"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    design = try container.decode(String.self, forKey: .design)
    features = try container.decode([String].self, forKey: .features)
    weights = try container.decode([Double].self, forKey: .weights)
    nullFeatures = try container.decode([String].self, forKey: .nullFeatures)
    nullWeights = try container.decode([Double].self, forKey: .nullWeights)
    threshold = try container.decode(Double.self, forKey: .threshold)
    catalogAdditions = try container.decode([Issuer].self, forKey: .catalogAdditions)
    // Models written before the labelled feature know no labelled issuers.
    labelledIssuers = try container.decodeIfPresent([String].self, forKey: .labelledIssuers) ?? []
    training = try container.decode([String: String].self, forKey: .training)
  }

  /// Reads a model file and checks that it fits this build's features. A model trained before
  /// features were appended to `IssuerFeatures.names` reads with weight 0 on them, so it answers
  /// as it did.
  public static func load(from url: URL) throws -> IssuerModel {
    var model = try read(from: url)
    let names = IssuerFeatures.names
    if model.features.count < names.count, Array(names.prefix(model.features.count)) == model.features,
      model.weights.count == model.features.count
    {
      model.weights += [Double](repeating: 0, count: names.count - model.features.count)
      model.features = names
    }
    guard model.features == IssuerFeatures.names, model.weights.count == IssuerFeatures.count,
      model.nullFeatures == IssuerFeatures.nullNames,
      model.nullWeights.count == IssuerFeatures.nullNames.count
    else {
      throw DataFileError(
        .incompatible,
        "the issuer model \(url.path) was trained on other features than this snapsort computes; "
          + "retrain it with `snapsort train-issuers`")
    }
    return model
  }

  public func write(to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(self).write(to: url, options: .atomic)
  }
}

/// A model applied to a catalog: ranks every issuer for one card.
public struct IssuerClassifier: Sendable {
  public let model: IssuerModel
  public let catalog: IssuerCatalog
  package let prepared: [PreparedIssuer]

  public init(model: IssuerModel, catalog: IssuerCatalog) {
    self.model = model
    self.catalog = catalog.merging(model.catalogAdditions)
    self.prepared = self.catalog.issuers.map(PreparedIssuer.init)
    let labelled = Set(model.labelledIssuers)
    self.labelled = prepared.map { labelled.contains($0.issuer.id) }
  }

  /// Per prepared issuer, whether it is one of the model's labelled issuers.
  private let labelled: [Bool]

  /// Probabilities of "none of these" and of every issuer, best first.
  public struct Ranking: Sendable {
    public var unknown: Double
    public var issuers: [(index: Int, probability: Double)]
  }

  public func rank(_ card: CardEvidence) -> Ranking {
    let rows = IssuerFeatures.rows(card, prepared, labelled: labelled)
    let utilities = rows.map { dot(model.weights, $0) }
    let nullUtility = dot(model.nullWeights, IssuerFeatures.nullVector(card, rows: rows))
    let top = max(nullUtility, utilities.max() ?? nullUtility)
    let expNull = exp(nullUtility - top)
    let exps = utilities.map { exp($0 - top) }
    let total = expNull + exps.reduce(0, +)
    let ranked = exps.enumerated().map { ($0.offset, $0.element / total) }
      .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    return Ranking(unknown: expNull / total, issuers: ranked)
  }

  /// The record's answer: the best issuer, or `id: null` when its probability is under the
  /// model's threshold; alternatives are the next three (the top three for an unknown).
  public func classify(_ card: CardEvidence) -> IssuerMatch {
    let ranking = rank(card)
    guard let best = ranking.issuers.first else {
      return IssuerMatch(id: nil, name: nil, confidence: 1, alternatives: [])
    }
    func alternative(_ entry: (index: Int, probability: Double)) -> IssuerMatch.Alternative {
      IssuerMatch.Alternative(
        id: prepared[entry.index].issuer.id, confidence: Rounding.thousandths(entry.probability))
    }
    if best.probability < model.threshold {
      return IssuerMatch(
        id: nil, name: nil, confidence: Rounding.thousandths(1 - best.probability),
        alternatives: ranking.issuers.prefix(3).map(alternative))
    }
    let issuer = prepared[best.index].issuer
    return IssuerMatch(
      id: issuer.id, name: issuer.name, confidence: Rounding.thousandths(best.probability),
      alternatives: ranking.issuers.dropFirst().prefix(3).map(alternative))
  }

  /// Ids of the top `k` issuers regardless of the threshold.
  public func top(_ k: Int, _ card: CardEvidence) -> [String] {
    rank(card).issuers.prefix(k).map { prepared[$0.index].issuer.id }
  }
}

package func dot(_ p: [Double], _ q: [Double]) -> Double {
  var sum = 0.0
  for index in 0..<min(p.count, q.count) { sum += p[index] * q[index] }
  return sum
}
