import Foundation
import SnapsortImaging
import SnapsortStages

/// Accuracy of a classifier on labelled cards: top-1 and top-3 on cards of catalog issuers,
/// precision and recall of "unknown", and the most frequent confusions.
public struct IssuerEvaluation: Sendable, Equatable {
  public var known: Int
  public var unknown: Int
  public var top1Correct: Int
  public var top3Correct: Int
  /// Cards answered "unknown" (of any truth), and those whose truth was unknown.
  public var predictedUnknown: Int
  public var correctUnknown: Int
  /// (truth, answer) → count, "unknown" for nil, wrong answers only.
  public var confusions: [String: Int]
  /// Every wrong answer: the card's source, truth, answer, and the OCR lines it had.
  public var failures: [String]

  public var top1Accuracy: Double { known == 0 ? 0 : Double(top1Correct) / Double(known) }
  public var top3Accuracy: Double { known == 0 ? 0 : Double(top3Correct) / Double(known) }
  public var unknownPrecision: Double {
    predictedUnknown == 0 ? 0 : Double(correctUnknown) / Double(predictedUnknown)
  }
  public var unknownRecall: Double { unknown == 0 ? 0 : Double(correctUnknown) / Double(unknown) }

  /// Evaluates `classifier` on `cards`; a card whose label is nil or not in the classifier's
  /// catalog must come back unknown.
  public static func run(_ classifier: IssuerClassifier, on cards: [LabelledCard]) -> IssuerEvaluation {
    let ids = Set(classifier.catalog.issuers.map(\.id))
    var result = IssuerEvaluation(
      known: 0, unknown: 0, top1Correct: 0, top3Correct: 0, predictedUnknown: 0, correctUnknown: 0,
      confusions: [:],
      failures: [])
    for card in cards {
      let truth = card.label.flatMap { ids.contains($0) ? $0 : nil }
      let ranking = classifier.rank(card.evidence)
      let match = classifier.classify(card.evidence)
      if let truth {
        result.known += 1
        if match.id == truth { result.top1Correct += 1 }
        let top3 = ranking.issuers.prefix(3).map { classifier.prepared[$0.index].issuer.id }
        if top3.contains(truth) { result.top3Correct += 1 }
      } else {
        result.unknown += 1
      }
      if match.id == nil {
        result.predictedUnknown += 1
        if truth == nil { result.correctUnknown += 1 }
      }
      if match.id != truth {
        let key = "\(card.label ?? "unknown") → \(match.id ?? "unknown")"
        result.confusions[key, default: 0] += 1
        let colours = card.evidence.colours.map {
          CIELAB.hex($0.lab) + String(format: ":%.2f", $0.share)
        }
        result.failures.append(
          "\(card.source): \(key) p=\(match.confidence) text=\(card.evidence.lines) names=\(card.evidence.names) "
            + "colours=\(colours) codes=\(card.evidence.codes.map { "\($0.symbology):\($0.value)" })")
      }
    }
    return result
  }

  /// The most frequent wrong answers, most frequent first.
  public func mostConfused(_ limit: Int = 10) -> [(pair: String, count: Int)] {
    confusions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit).map {
      ($0.key, $0.value)
    }
  }

  /// The measures and every card's answer as JSON, for benchmarks that break the results down
  /// (photos against screenshots, per issuer); `cards` are those the evaluation ran on.
  public func report(classifier: IssuerClassifier, cards: [LabelledCard]) throws -> Data {
    let ids = Set(classifier.catalog.issuers.map(\.id))
    let answers: [[String: Any]] = cards.map { card in
      let match = classifier.classify(card.evidence)
      return [
        "source": card.source,
        "truth": card.label.flatMap { ids.contains($0) ? $0 : nil } ?? NSNull(),
        "label": card.label ?? NSNull(),
        "answer": match.id ?? NSNull(),
        "confidence": match.confidence,
        "top3": classifier.top(3, card.evidence),
      ]
    }
    let object: [String: Any] = [
      "known": known, "unknown": unknown,
      "top1": top1Accuracy, "top3": top3Accuracy,
      "unknown_precision": unknownPrecision, "unknown_recall": unknownRecall,
      "predicted_unknown": predictedUnknown, "correct_unknown": correctUnknown,
      "threshold": classifier.model.threshold,
      "confused": mostConfused().map { ["pair": $0.pair, "count": $0.count] as [String: Any] },
      "cards": answers,
    ]
    return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
  }

  /// A report for people.
  public func render(title: String) -> String {
    func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
    var out = "\(title)\n"
    out += "  cards of catalog issuers: \(known), of unknown issuers: \(unknown)\n"
    out += "  top-1 accuracy:    \(percent(top1Accuracy)) (\(top1Correct)/\(known))\n"
    out += "  top-3 accuracy:    \(percent(top3Accuracy)) (\(top3Correct)/\(known))\n"
    out += "  unknown precision: \(percent(unknownPrecision)) (\(correctUnknown)/\(predictedUnknown))\n"
    out += "  unknown recall:    \(percent(unknownRecall)) (\(correctUnknown)/\(unknown))\n"
    let confused = mostConfused()
    if !confused.isEmpty {
      out += "  most confused (truth → answer):\n"
      for entry in confused { out += "    \(entry.count)× \(entry.pair)\n" }
    }
    return out
  }
}
