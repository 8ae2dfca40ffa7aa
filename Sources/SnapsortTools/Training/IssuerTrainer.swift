import Dispatch
import Foundation
import SnapsortImaging
import SnapsortStages

/// A labelled card for training or evaluation: its evidence and the issuer id, or nil for a card
/// whose issuer is not in the catalog.
public struct LabelledCard: Sendable {
  public var evidence: CardEvidence
  public var label: String?
  /// Where it came from (a file path, or "synthetic").
  public var source: String
  public init(evidence: CardEvidence, label: String?, source: String) {
    self.evidence = evidence
    self.label = label
    self.source = source
  }
}

/// Fits `IssuerModel` by maximum likelihood: full-batch gradient descent (Adam) on the
/// conditional-logit log-likelihood with an L2 penalty, then calibrates the unknown threshold.
public struct IssuerTrainer: Sendable {
  public var iterations = 300
  public var learningRate = 0.05
  public var l2 = 1e-3
  /// Weight of the "own issuer removed → none" copy of every known card.
  public var unknownViewWeight = 0.5
  /// The threshold is calibrated on out-of-fold answers: every card is answered by a model fitted
  /// on the other folds, and the model returned is then fitted on all cards. With about two cards
  /// per issuer, a single calibration slice (a fifth of the cards) held ~100 unknown views, so the
  /// 93rd percentile that sets the threshold rested on its 8 highest: it moved from 0.14 to 0.44
  /// between folds of the same training split, and the model lost that fifth of its data.
  ///
  /// A fold holds out whole issuers (all cards of an issuer are in one fold): the issuers a user
  /// never trained on are what the threshold must reject, and a fold of cards whose issuers'
  /// other cards were fitted answers them more surely than the stage will answer a new issuer.
  public var calibrationFolds = 5
  /// The threshold is the lowest whose unknown recall on the calibration cards reaches this,
  /// which keeps as many known cards as that allows.
  public var targetUnknownRecall = 0.93

  public init() {}

  /// One card's features against every candidate, flattened (candidate-major).
  struct Example: Sendable {
    var features: [Double]
    var nullFeatures: [Double]
    /// Candidate index of the true issuer, nil when "none" is the answer.
    var label: Int?
    /// A candidate left out of this example (the own issuer of an unknown view).
    var excluded: Int?
    var weight: Double
  }

  /// Pair features (without the relative ones) of every card against every catalog issuer,
  /// computed on `workers` threads.
  static func pairRows(_ cards: [LabelledCard], prepared: [PreparedIssuer], workers: Int) -> [[[Double]]] {
    let store = Slots<[[Double]]>(count: cards.count)
    let chunks = max(1, workers)
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      var index = chunk
      while index < cards.count {
        store.set(index, prepared.map { IssuerFeatures.pairVector(cards[index].evidence, $0) })
        index += chunks
      }
    }
    return store.values.map { $0 ?? [] }
  }

  /// An example whose candidates are all catalog issuers except `excluded`: relative features
  /// are computed among those candidates only, as for a card whose issuer is not in the catalog.
  static func example(
    _ card: CardEvidence, pairRows: [[Double]], labelled: [Bool] = [], label: Int?, excluded: Int?,
    weight: Double
  ) -> Example {
    var kept = pairRows
    var keptLabelled = labelled
    if let excluded {
      kept.remove(at: excluded)
      if excluded < keptLabelled.count { keptLabelled.remove(at: excluded) }
    }
    var rows = IssuerFeatures.withRelative(kept, labelled: keptLabelled)
    let null = IssuerFeatures.nullVector(card, rows: rows)
    if let excluded { rows.insert([Double](repeating: 0, count: IssuerFeatures.count), at: excluded) }
    return Example(
      features: Array(rows.joined()), nullFeatures: null, label: label, excluded: excluded, weight: weight)
  }

  /// Trains on `cards` against `catalog` and calibrates the threshold on their out-of-fold
  /// answers (folds by a hash of each card's source). Cards whose label is not in the catalog are
  /// "none" examples.
  public func train(
    _ cards: [LabelledCard], catalog: IssuerCatalog, workers: Int = 2, training: [String: String] = [:]
  ) -> IssuerModel {
    let prepared = catalog.issuers.map(PreparedIssuer.init)
    var indexByID: [String: Int] = [:]
    for (index, issuer) in catalog.issuers.enumerated() { indexByID[issuer.id] = index }
    let pairRows = Self.pairRows(cards, prepared: prepared, workers: workers)
    let folds = max(1, calibrationFolds)
    // Photos (or records of photos) are closer to what the stage will see than simulated cards:
    // calibrate on them when there are any. They are also the user's own cards, whose issuers
    // the `labelled` feature marks.
    let photoCards = cards.indices.filter { !cards[$0].source.hasPrefix(SyntheticCards.sourcePrefix) }
    let foldOfCard = Self.cardFolds(cards, indexByID: indexByID, folds: folds)
    let foldCount = folds > 1 ? folds : 0
    // The labelled flags of the fitted examples come from the cards that fit sees, those of the
    // held-out answers from all of them: each fold's model learns what being labelled is worth
    // from issuers whose labelled cards it fits, as the final model does, and answers the fold's
    // cards with their issuers labelled, as the stage will.
    func countLabelled(outside fold: Int?) -> [Int] {
      var count = [Int](repeating: 0, count: prepared.count)
      for index in photoCards where foldOfCard[index] != fold {
        if let label = cards[index].label.flatMap({ indexByID[$0] }) { count[label] += 1 }
      }
      return count
    }
    let labelledCount = countLabelled(outside: nil)
    let examplesOfCard = examples(
      cards, cards.indices, pairRows: pairRows, indexByID: indexByID, labelledCount: labelledCount)
    let fitted = (0..<foldCount).map { fold in
      examples(
        cards, cards.indices.filter { foldOfCard[$0] != fold }, pairRows: pairRows, indexByID: indexByID,
        labelledCount: countLabelled(outside: fold)
      ).flatMap { $0 }
    }
    let calibrationCards = photoCards.isEmpty ? Array(cards.indices) : photoCards

    let all = examplesOfCard.flatMap { $0 }
    let results = fits(
      all, fitted: fitted, examplesOfCard: examplesOfCard, foldOfCard: foldOfCard,
      calibrationCards: calibrationCards, candidates: prepared.count, workers: workers)
    var outcomes = results.prefix(foldCount).flatMap { $0?.outcomes ?? [] }
    guard let final = results[foldCount] else { preconditionFailure("the final fit always runs") }
    let (weights, nullWeights) = (final.weights, final.nullWeights)
    if outcomes.isEmpty {
      // One card, or one fold: nothing was held out, so calibrate on what the model was fitted on.
      outcomes = Self.outcomes(
        calibrationCards.flatMap { examplesOfCard[$0] }, weights: weights, nullWeights: nullWeights,
        candidates: prepared.count)
    }
    let threshold = Self.threshold(outcomes, targetUnknownRecall: targetUnknownRecall)
    var info = training
    info["examples"] = "\(all.count) fitted, \(outcomes.count) out-of-fold answers for calibration"
    info["calibration"] = "\(foldCount) folds of whole issuers, unknown recall target \(targetUnknownRecall)"
    info.merge(Self.calibrationMeasures(outcomes, threshold: threshold)) { $1 }
    info["catalog_size"] = "\(catalog.issuers.count)"
    let labelledIssuers = catalog.issuers.indices.filter { labelledCount[$0] > 0 }.map {
      catalog.issuers[$0].id
    }
    return IssuerModel(
      weights: weights, nullWeights: nullWeights, threshold: threshold, labelledIssuers: labelledIssuers,
      training: info)
  }

  /// The fold each card is held out in. Both views of a card stay in one fold: its unknown view
  /// must not be answered by a model fitted on its known view.
  static func cardFolds(_ cards: [LabelledCard], indexByID: [String: Int], folds: Int) -> [Int] {
    let foldOfIssuer = issuerFolds(
      cards.compactMap { card in card.label.flatMap { indexByID[$0] == nil ? nil : $0 } }, folds: folds)
    return cards.enumerated().map { index, card in
      if let id = card.label, let fold = foldOfIssuer[id] { return fold }
      return min(folds - 1, Int(stableFraction(card.source + "#\(index)") * Double(folds)))
    }
  }

  /// The examples of the cards at `indices`: its known view, and an unknown view with its own
  /// issuer removed when it has one.
  ///
  /// A card's `labelled` flags count the labelled cards of each issuer without the card itself:
  /// the stage meets a new card of an issuer with the cards it was trained on, and an issuer with
  /// one labelled card is, for that card, an issuer the user never labelled.
  private func examples(
    _ cards: [LabelledCard], _ indices: some Sequence<Int>, pairRows: [[[Double]]], indexByID: [String: Int],
    labelledCount: [Int]
  ) -> [[Example]] {
    indices.map { index in
      let card = cards[index]
      let label = card.label.flatMap { indexByID[$0] }
      var others = labelledCount
      if let label, !card.source.hasPrefix(SyntheticCards.sourcePrefix) { others[label] -= 1 }
      let labelled = others.map { $0 > 0 }
      var examples = [
        Self.example(
          card.evidence, pairRows: pairRows[index], labelled: labelled, label: label, excluded: nil, weight: 1
        )
      ]
      if let label {
        examples.append(
          Self.example(
            card.evidence, pairRows: pairRows[index], labelled: labelled, label: nil, excluded: label,
            weight: unknownViewWeight))
      }
      return examples
    }
  }

  /// The calibration fold of every issuer that has cards: issuers in the order of a stable hash
  /// of their ids, dealt to the folds in turn, so every fold holds whole issuers and, with at
  /// least as many issuers as folds, none is empty.
  static func issuerFolds(_ ids: [String], folds: Int) -> [String: Int] {
    let issuers = Set(ids).sorted {
      (stableFraction("issuer-fold:" + $0), $0) < (stableFraction("issuer-fold:" + $1), $1)
    }
    var fold: [String: Int] = [:]
    for (rank, issuer) in issuers.enumerated() { fold[issuer] = rank % folds }
    return fold
  }

  /// A fit on each of the `fitted` example sets (all but one fold), with its answers on that
  /// fold's calibration cards, then (last) the fit on `all`; a fold with nothing to fit or to hold
  /// out is nil.
  private func fits(
    _ all: [Example], fitted: [[Example]], examplesOfCard cardExamples: [[Example]],
    foldOfCard cardFolds: [Int],
    calibrationCards: [Int], candidates: Int, workers: Int
  ) -> [(weights: [Double], nullWeights: [Double], outcomes: [Outcome])?] {
    let foldCount = fitted.count
    // The fold fits and the final fit are independent: they run side by side. Inside one fit the
    // gradient is split into fixed chunks across threads too, but each step is a few milliseconds,
    // too short for two cores to share well.
    let fits = Slots<(weights: [Double], nullWeights: [Double], outcomes: [Outcome])>(count: foldCount + 1)
    DispatchQueue.concurrentPerform(iterations: foldCount + 1) { task in
      if task == foldCount {
        let (weights, nullWeights) = optimise(all, candidates: candidates, workers: workers)
        fits.set(task, (weights, nullWeights, []))
        return
      }
      let fit = fitted[task]
      let held = calibrationCards.filter { cardFolds[$0] == task }.flatMap { cardExamples[$0] }
      guard !fit.isEmpty, !held.isEmpty else { return }
      let (weights, nullWeights) = optimise(fit, candidates: candidates, workers: workers)
      fits.set(
        task,
        (
          weights, nullWeights,
          Self.outcomes(held, weights: weights, nullWeights: nullWeights, candidates: candidates)
        ))
    }
    return fits.values
  }

  static let gradientChunks = 8

  /// Adam on the mean weighted negative log-likelihood.
  func optimise(_ examples: [Example], candidates: Int, workers: Int) -> ([Double], [Double]) {
    let f = IssuerFeatures.count
    let g = IssuerFeatures.nullNames.count
    var params = [Double](repeating: 0, count: f + g)
    // Start from a sensible point: text and colour agreement raise an issuer's utility.
    params[0] = 4
    params[6] = 2
    var m = [Double](repeating: 0, count: f + g)
    var v = [Double](repeating: 0, count: f + g)
    let totalWeight = examples.reduce(0) { $0 + $1.weight }
    guard totalWeight > 0 else { return (Array(params[0..<f]), Array(params[f...])) }
    // A fixed partition (not one per worker) keeps the floating-point sums, and so the model,
    // identical whatever the number of workers.
    let chunks = Self.gradientChunks
    for step in 1...iterations {
      let partials = Slots<[Double]>(count: chunks)
      let current = params
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        var grad = [Double](repeating: 0, count: f + g)
        var index = chunk
        while index < examples.count {
          Self.accumulate(examples[index], params: current, candidates: candidates, into: &grad)
          index += chunks
        }
        partials.set(chunk, grad)
      }
      // Summed chunk by chunk in chunk order, so the sum does not depend on which thread ran what.
      var grad = [Double](repeating: 0, count: f + g)
      for partial in partials.values { for k in grad.indices { grad[k] += partial?[k] ?? 0 } }
      for k in 0..<(f + g) {
        var gk = grad[k] / totalWeight
        if k != f { gk += l2 * params[k] }  // the null bias is not penalised
        m[k] = 0.9 * m[k] + 0.1 * gk
        v[k] = 0.999 * v[k] + 0.001 * gk * gk
        let mHat = m[k] / (1 - pow(0.9, Double(step)))
        let vHat = v[k] / (1 - pow(0.999, Double(step)))
        params[k] -= learningRate * mHat / (vHat.squareRoot() + 1e-8)
      }
    }
    return (Array(params[0..<f]), Array(params[f...]))
  }

  /// Adds one example's gradient of −weight·log p(label).
  static func accumulate(_ example: Example, params: [Double], candidates: Int, into grad: inout [Double]) {
    let f = IssuerFeatures.count
    let g = IssuerFeatures.nullNames.count
    var utilities = [Double](repeating: -.infinity, count: candidates)
    var top = 0.0
    for c in 0..<g { top += params[f + c] * example.nullFeatures[c] }
    let nullUtility = top
    for j in 0..<candidates where j != example.excluded {
      var u = 0.0
      let base = j * f
      for k in 0..<f { u += params[k] * example.features[base + k] }
      utilities[j] = u
      if u > top { top = u }
    }
    var total = exp(nullUtility - top)
    for j in 0..<candidates where j != example.excluded {
      utilities[j] = exp(utilities[j] - top)
      total += utilities[j]
    }
    let w = example.weight
    for j in 0..<candidates where j != example.excluded {
      let p = utilities[j] / total
      let base = j * f
      for k in 0..<f { grad[k] += w * p * example.features[base + k] }
    }
    let pNull = exp(nullUtility - top) / total
    for c in 0..<g { grad[f + c] += w * pNull * example.nullFeatures[c] }
    if let label = example.label {
      let base = label * f
      for k in 0..<f { grad[k] -= w * example.features[base + k] }
    } else {
      for c in 0..<g { grad[f + c] -= w * example.nullFeatures[c] }
    }
  }

  /// The top candidate and its probability for one example under given weights.
  static func best(_ example: Example, weights: [Double], nullWeights: [Double], candidates: Int) -> (
    Int?, Double
  ) {
    let f = IssuerFeatures.count
    let nullUtility = dot(nullWeights, example.nullFeatures)
    var utilities: [(Int, Double)] = []
    for j in 0..<candidates where j != example.excluded {
      utilities.append((j, dot(weights, Array(example.features[(j * f)..<((j + 1) * f)]))))
    }
    let top = max(nullUtility, utilities.map(\.1).max() ?? nullUtility)
    let total = exp(nullUtility - top) + utilities.reduce(0) { $0 + exp($1.1 - top) }
    guard let winner = utilities.max(by: { $0.1 < $1.1 }) else { return (nil, 0) }
    return (winner.0, exp(winner.1 - top) / total)
  }

  /// How one calibration example was answered: whether its truth is a candidate, whether the top
  /// candidate is that truth, and the top candidate's probability.
  struct Outcome: Sendable, Equatable {
    var isKnown: Bool
    var correct: Bool
    var p: Double
  }

  static func outcomes(_ examples: [Example], weights: [Double], nullWeights: [Double], candidates: Int)
    -> [Outcome]
  {
    examples.map { example in
      let (winner, p) = best(example, weights: weights, nullWeights: nullWeights, candidates: candidates)
      return Outcome(isKnown: example.label != nil, correct: winner == example.label, p: p)
    }
  }

  /// The lowest threshold whose unknown recall on the calibration answers reaches
  /// `targetUnknownRecall` (a lower threshold accepts more known cards); without unknown
  /// examples, the one that maximises the mean of known accuracy and unknown recall.
  static func threshold(_ outcomes: [Outcome], targetUnknownRecall: Double? = nil) -> Double {
    let knownCount = Double(max(1, outcomes.filter(\.isKnown).count))
    let unknownCount = Double(max(1, outcomes.filter { !$0.isKnown }.count))
    if let targetUnknownRecall, outcomes.contains(where: { !$0.isKnown }) {
      for step in 1..<100 {
        let t = Double(step) / 100
        let recall = Double(outcomes.filter { !$0.isKnown && $0.p < t }.count) / unknownCount
        if recall >= targetUnknownRecall { return t }
      }
      return 0.99
    }
    var bestThreshold = 0.5
    var bestScore = -1.0
    for step in 1..<100 {
      let t = Double(step) / 100
      let knownOK = Double(outcomes.filter { $0.isKnown && $0.correct && $0.p >= t }.count) / knownCount
      let unknownOK = Double(outcomes.filter { !$0.isKnown && $0.p < t }.count) / unknownCount
      let score = (knownOK + unknownOK) / 2
      if score > bestScore + 1e-12 {
        bestScore = score
        bestThreshold = t
      }
    }
    return bestThreshold
  }

  /// What the threshold does to the out-of-fold answers: the share of known views answered with
  /// their issuer, and of unknown views answered unknown.
  static func calibrationMeasures(_ outcomes: [Outcome], threshold: Double) -> [String: String] {
    let known = outcomes.filter(\.isKnown)
    let unknown = outcomes.filter { !$0.isKnown }
    let top1 = Double(known.filter { $0.correct && $0.p >= threshold }.count) / Double(max(1, known.count))
    let recall = Double(unknown.filter { $0.p < threshold }.count) / Double(max(1, unknown.count))
    return [
      "calibration_top1": String(format: "%.3f", top1),
      "calibration_unknown_recall": String(format: "%.3f", recall),
    ]
  }

  /// A deterministic number in [0, 1) from a string (FNV-1a), for splits that do not depend on
  /// file order or on a random generator.
  public static func stableFraction(_ text: String) -> Double {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Double(hash >> 11) / Double(1 << 53)
  }
}

/// Values written by concurrent tasks, each to its own slot.
final class Slots<Value>: @unchecked Sendable {
  // Confinement: each slot is written once by its own task, under the lock, and read after
  // `concurrentPerform` has returned.
  private var slots: [Value?]
  private let lock = NSLock()
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }
  var values: [Value?] { lock.withLock { slots } }
}
