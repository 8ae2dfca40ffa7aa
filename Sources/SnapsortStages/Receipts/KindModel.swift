import Foundation

/// Card or receipt from `KindEvidence`: a logistic regression on standardised features (the
/// evidence's and, when the fit chose degree 2, their pairwise products), fitted by
/// `bench/kind/fit_kind.py` on training folds of real receipts and generated cards (the file says
/// which in `training`, with its held-out figures).
public struct KindModel: Codable, Sendable, Equatable, VersionedDataFile, StandardisedLogistic {
  public static let fileDescription = "the kind model"
  public static let currentVersion = 1
  public static let bundledFileName = "kind-model.json"

  public var version: Int
  /// Feature names, in the order of `mean`, `scale` and `weights` (`KindModel.value`).
  public var features: [String]
  public var mean: [Double]
  public var scale: [Double]
  public var weights: [Double]
  public var bias: Double
  /// What the model was fitted and measured on, for people.
  public var training: [String: String]
  /// Photos' evidence with the probability the fitting script gave them, so a test can check
  /// that this build computes the same.
  public var examples: [Example]?

  public struct Example: Codable, Sendable, Equatable {
    public var evidence: KindEvidence
    public var receiptProbability: Double

    enum CodingKeys: String, CodingKey {
      case evidence
      case receiptProbability = "receipt_probability"
    }
  }

  /// Every feature this build computes, by the name a model file uses.
  public static let featureNames = [
    "log_text_rows", "log_textual_rows", "text_like_share", "right_column_share", "row_height",
    "ink_share", "paper_share", "log_paper_aspect", "colorfulness", "log_image_aspect",
    "paper_colorfulness", "left_aligned_share", "right_aligned_share", "row_height_spread", "log_row_pitch",
    "log_text_block_aspect", "card_aspect_distance",
  ]

  /// Long over short side of an ID-1 card (85.60 × 53.98 mm).
  static let cardAspect = 85.60 / 53.98

  /// Feature `name` of `evidence`: one of `featureNames`, or the product of two (`a*b`). Keep in
  /// step with `features()` and `expanded()` in bench/kind/fit_kind.py.
  public static func value(_ name: String, of evidence: KindEvidence) -> Double? {
    let factors = name.split(separator: "*", omittingEmptySubsequences: false)
    if factors.count == 2 {
      guard let a = baseValue(String(factors[0]), of: evidence),
        let b = baseValue(String(factors[1]), of: evidence)
      else { return nil }
      return a * b
    }
    return baseValue(name, of: evidence)
  }

  private static func baseValue(_ name: String, of evidence: KindEvidence) -> Double? {
    switch name {
    case "log_text_rows": log1p(Double(evidence.textRows))
    case "log_textual_rows": log1p(Double(evidence.textRows) * evidence.textLikeShare)
    case "text_like_share": evidence.textLikeShare
    case "right_column_share": evidence.rightColumnShare
    case "row_height": evidence.rowHeight ?? 0
    case "ink_share": evidence.inkShare ?? 0
    case "paper_share": evidence.paperShare
    case "log_paper_aspect": log(max(1, evidence.paperAspect))
    case "colorfulness": evidence.colorfulness ?? 0
    case "log_image_aspect": log(max(1, evidence.imageAspect ?? 1))
    case "paper_colorfulness": evidence.paperColorfulness ?? evidence.colorfulness ?? 0
    case "left_aligned_share": evidence.leftAlignedShare ?? 0
    case "right_aligned_share": evidence.rightAlignedShare ?? 0
    case "row_height_spread": evidence.rowHeightSpread ?? 0
    case "log_row_pitch": log1p(evidence.rowPitch ?? 0)
    case "log_text_block_aspect": log(max(0.01, evidence.textBlockAspect ?? 1))
    case "card_aspect_distance": abs(log(max(1, evidence.paperAspect) / cardAspect))
    default: nil
    }
  }

  /// The probability that the photo is a receipt.
  public func receiptProbability(_ evidence: KindEvidence) -> Double {
    logistic { Self.value($0, of: evidence) }
  }

  /// The kind and how sure the model is of it (0.5…1).
  public func decide(_ evidence: KindEvidence) -> (kind: Kind, confidence: Double) {
    let p = receiptProbability(evidence)
    return p >= 0.5 ? (.receipt, p) : (.card, 1 - p)
  }

  /// Reads a model file and checks that this build computes its features.
  public static func load(from url: URL) throws -> KindModel {
    let model = try read(from: url)
    let probe = KindEvidence(
      paperShare: 0, paperAspect: 1, textRows: 0, rightColumnShare: 0, textLikeShare: 0)
    try model.checkShape(of: fileDescription, at: url) { value($0, of: probe) != nil }
    return model
  }
}
