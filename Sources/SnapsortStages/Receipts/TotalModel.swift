import Foundation

/// The conditional logit over a receipt's `TotalCandidates`, fitted by
/// `bench/receipts/fit_total.py`. It never gives a total where the rules found none.
public typealias TotalModel = ConditionalLogit<TotalCandidates>

extension TotalCandidates: ConditionalLogitCandidates {
  public static var modelDescription: String { "the total model" }
  public static var modelFileName: String { "total-model.json" }

  /// What speaks for an amount being the total besides its size and place: a total label on its
  /// row or a neighbour, a payment of it, a sum of the page it closes, a rounding above it.
  static let support = [
    "total_label", "label_above", "label_below", "payment", "cash_change", "vat_gross", "arithmetic",
    "items_sum", "rounding_above",
  ]
}

extension ConditionalLogit where Kind == TotalCandidates {
  /// Each candidate's probability, in the candidates' order.
  func probabilities(_ candidates: [TotalCandidates.Candidate]) -> [Double] {
    softmax(candidates.map(\.features))
  }

  /// Whether anything but its size and place speaks for `candidate`: a stray number that OCR
  /// made of a terminal's codes (`= 00 076 00`) never replaces the rules' total.
  static func supports(_ candidate: TotalCandidates.Candidate) -> Bool {
    TotalCandidates.support.contains { (candidate.features[$0] ?? 0) > 0 }
  }

  /// The candidate to take instead of the rules' total `rules`, with its probability; nil where
  /// the rules' total stands (or the rules found none), or the model's pick has no support.
  func override(_ candidates: [TotalCandidates.Candidate], rules: Money?) -> (
    candidate: TotalCandidates.Candidate, probability: Double
  )? {
    guard let rules, !candidates.isEmpty else { return nil }
    let probabilities = probabilities(candidates)
    let rulesAt = candidates.firstIndex { $0.money == rules }
    guard
      let best = overridingIndex(probabilities, rulesAt: rulesAt, allowed: { Self.supports(candidates[$0]) })
    else { return nil }
    return (candidates[best], probabilities[best])
  }
}
