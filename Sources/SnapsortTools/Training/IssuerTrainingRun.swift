import Foundation
import SnapsortStages

#if canImport(Glibc)
  import Glibc
#endif

/// What `snapsort train-issuers` does: gather labelled evidence (photos through the pipeline, a
/// run's records, simulated cards), split it by file with a share of issuers held out of training
/// entirely, fit the model and test it on what it was not fitted on.
public struct IssuerTrainingRun: Sendable {
  /// `DIR/<issuer-id>/*.jpg`, run through the feature stages.
  public var photos: URL?
  /// A records.jsonl of such a folder, used instead of running the pipeline.
  public var records: URL?
  /// Stores of reviewed runs (`snapsort.sqlite`): every card whose issuer a person chose is a
  /// labelled card, with the evidence its run measured.
  public var corrections: [URL] = []
  public var catalog: URL?
  /// Simulated cards per catalog issuer added to the training data (used alone without photos).
  public var synthetic = 0
  public var simulation = SyntheticCards()
  /// Share of files kept for the test split.
  public var testFraction = 0.2
  /// Share of issuers held out of training entirely, which must come back unknown.
  public var holdOut = 0.1
  public var iterations = 300
  /// Unknown recall the threshold must reach on the calibration folds' left-out issuers.
  public var targetUnknownRecall = IssuerTrainer().targetUnknownRecall
  public var jobs = 1

  public init() {}

  /// The fitted model, its test on the held-out part and what each step cost.
  public struct Outcome: Sendable {
    public var model: IssuerModel
    public var trainCards: Int
    public var trainIssuers: Int
    public var heldOutIssuers: [String]
    /// The test split's report, and the failures one by one.
    public var report: String?
    public var failures: [String]
    public var featureSeconds: (wall: Double, cpu: Double)
    public var fitSeconds: (wall: Double, cpu: Double)
  }

  /// - Parameter log: progress lines for a person (folders that name no issuer, pipeline runs).
  /// - Throws: `DataFileError` or `InputError` for input that cannot be used,
  ///   `TrainingError.nothingToTrainOn`.
  public func run(log: (String) -> Void) throws -> Outcome {
    let featureClock = Stopwatch()
    let evidence = try gatherEvidence(log: log)
    let featureSeconds = featureClock.elapsed
    let split = self.split(evidence.cards, catalog: evidence.catalog)
    var train = split.train
    var test = split.test
    if synthetic > 0 {
      train += simulation.dataset(
        catalog: split.trainCatalog, perIssuer: synthetic,
        unknown: max(20, split.trainCatalog.issuers.count * synthetic / 6), seed: 1)
      if evidence.cards.isEmpty {
        // No photos: test on fresh simulated cards of the training issuers, of held-out issuers
        // and of invented ones.
        test = simulation.dataset(
          catalog: evidence.catalog, perIssuer: max(2, synthetic / 2),
          unknown: max(20, evidence.catalog.issuers.count / 2), seed: 2)
      }
    }
    guard !train.isEmpty else { throw TrainingError.nothingToTrainOn }
    let fitClock = Stopwatch()
    var trainer = IssuerTrainer()
    trainer.iterations = iterations
    trainer.targetUnknownRecall = targetUnknownRecall
    var model = trainer.train(
      train, catalog: split.trainCatalog, workers: jobs,
      training: [
        "source": sourceDescription, "held_out_issuers": split.heldOut.sorted().joined(separator: ","),
        "train_cards": "\(train.count)",
      ])
    let fitSeconds = fitClock.elapsed
    model.catalogAdditions = evidence.additions
    let tested = Self.test(&model, on: test, catalog: split.trainCatalog, heldOut: split.heldOut)
    return Outcome(
      model: model, trainCards: train.count, trainIssuers: split.trainCatalog.issuers.count,
      heldOutIssuers: split.heldOut.sorted(), report: tested?.report, failures: tested?.failures ?? [],
      featureSeconds: featureSeconds, fitSeconds: fitSeconds)
  }

  public enum TrainingError: Error, CustomStringConvertible, Sendable {
    case nothingToTrainOn
    public var description: String { "nothing to train on" }
  }

  // MARK: - Steps

  private func gatherEvidence(log: (String) -> Void) throws -> (
    catalog: IssuerCatalog, additions: [Issuer], cards: [LabelledCard]
  ) {
    var catalog = try self.catalog.map { try IssuerCatalog.load(from: $0) } ?? IssuerCatalog.bundled()
    var additions: [Issuer] = []
    var cards: [LabelledCard] = []
    if let photos {
      let labelled = try LabelledPhotos(root: photos)
      additions = labelled.catalogAdditions
      catalog = catalog.merging(additions)
      let known = Set(catalog.issuers.map(\.id))
      for label in Set(labelled.photos.compactMap(\.label)).sorted() where !known.contains(label) {
        log("folder \(label)/ names no catalog issuer: its photos are treated as unknown")
      }
      if let records {
        cards = try LabelledPhotos.cards(fromRecords: records)
      } else {
        log("running the pipeline on \(labelled.photos.count) photos with \(jobs) workers…")
        cards = try labelled.cards(jobs: jobs)
      }
    } else if let records {
      cards = try LabelledPhotos.cards(fromRecords: records)
    }
    for store in corrections {
      let corrected = try LabelledPhotos.cards(fromCorrectionsIn: store)
      log("\(corrected.count) cards with an issuer chosen by hand in \(store.path)")
      cards += corrected
    }
    return (catalog, additions, cards)
  }

  /// Held-out issuers and the test files are chosen by a stable hash of their names, so the same
  /// folder always splits the same way.
  private func split(_ cards: [LabelledCard], catalog: IssuerCatalog) -> (
    train: [LabelledCard], test: [LabelledCard], heldOut: Set<String>, trainCatalog: IssuerCatalog
  ) {
    let heldOut = heldOutIssuers(cards, catalog: catalog)
    var train: [LabelledCard] = []
    var test: [LabelledCard] = []
    for card in cards {
      if let label = card.label, heldOut.contains(label) {
        test.append(card)
      } else if IssuerTrainer.stableFraction("split:" + card.source) < testFraction {
        test.append(card)
      } else {
        train.append(card)
      }
    }
    return (train, test, heldOut, catalog.removing(heldOut))
  }

  /// The issuers held out of training and of the catalog. With labelled cards, a `holdOut` share
  /// of the issuers that have cards (at least one when the share is not 0 and there are two or
  /// more): a share of the whole catalog would mostly pick issuers without a card, and a folder of
  /// a few dozen issuers would test its unknown answers on one or two of them, or none.
  private func heldOutIssuers(_ cards: [LabelledCard], catalog: IssuerCatalog) -> Set<String> {
    let ids = Set(catalog.issuers.map(\.id))
    let labelled = Set(cards.compactMap { $0.label.flatMap { ids.contains($0) ? $0 : nil } })
    guard !labelled.isEmpty else {
      return Set(ids.filter { IssuerTrainer.stableFraction("holdout:" + $0) < holdOut })
    }
    let share = Int((holdOut * Double(labelled.count)).rounded())
    let count = holdOut > 0 && labelled.count >= 2 ? max(1, share) : 0
    let ranked = labelled.sorted {
      (IssuerTrainer.stableFraction("holdout:" + $0), $0) < (
        IssuerTrainer.stableFraction("holdout:" + $1), $1
      )
    }
    return Set(ranked.prefix(count))
  }

  private var sourceDescription: String {
    var parts: [String] = []
    if let records {
      parts.append("records \(records.lastPathComponent)")
    } else if let photos {
      parts.append("photos in \(photos.lastPathComponent)")
    }
    if !corrections.isEmpty { parts.append("corrections of \(corrections.count) store(s)") }
    if synthetic > 0 {
      parts.append(
        parts.isEmpty
          ? "synthetic cards simulated from the catalog, \(synthetic) per issuer"
          : "synthetic \(synthetic)/issuer")
    }
    return parts.joined(separator: " + ")
  }

  /// Tests the model on the test split and stores the figures in it.
  private static func test(
    _ model: inout IssuerModel, on test: [LabelledCard], catalog: IssuerCatalog, heldOut: Set<String>
  ) -> (report: String, failures: [String])? {
    guard !test.isEmpty else { return nil }
    // The model keeps the folder's catalog additions, held-out issuers included (a deployed model
    // knows them all); the test must not add them back.
    let classifier = IssuerClassifier(model: model.withoutIssuers(heldOut), catalog: catalog)
    let evaluation = IssuerEvaluation.run(classifier, on: test)
    var report = evaluation.render(
      title: "test split (\(test.count) cards; held-out issuers must be unknown)")
    let heldOutCards = test.filter { $0.label.map(heldOut.contains) ?? false }
    if !heldOutCards.isEmpty {
      let heldOutEvaluation = IssuerEvaluation.run(classifier, on: heldOutCards)
      report +=
        "\n"
        + String(
          format: "  unknown recall on held-out catalog issuers only: %.1f %% (%d/%d)\n",
          heldOutEvaluation.unknownRecall * 100, heldOutEvaluation.correctUnknown, heldOutEvaluation.unknown)
      model.training["test_held_out_unknown_recall"] = String(format: "%.3f", heldOutEvaluation.unknownRecall)
    }
    model.training["test_cards"] = "\(test.count)"
    model.training["test_top1"] = String(format: "%.3f", evaluation.top1Accuracy)
    model.training["test_top3"] = String(format: "%.3f", evaluation.top3Accuracy)
    model.training["test_unknown_precision"] = String(format: "%.3f", evaluation.unknownPrecision)
    model.training["test_unknown_recall"] = String(format: "%.3f", evaluation.unknownRecall)
    return (report, evaluation.failures.map { "\($0)" })
  }
}

/// Wall and process CPU time since it was made: on a shared machine the wall time mostly measures
/// the other load, the CPU time what the work itself cost.
struct Stopwatch {
  private let wall = Date()
  private let cpu = Stopwatch.processCPUSeconds()

  var elapsed: (wall: Double, cpu: Double) {
    (Date().timeIntervalSince(wall), Stopwatch.processCPUSeconds() - cpu)
  }

  static func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}

extension IssuerModel {
  /// The issuers `train-issuers` held out of training and of its catalog, as stored in the model.
  public var heldOutIssuers: [String] {
    (training["held_out_issuers"] ?? "").split(separator: ",").map(String.init)
  }

  /// The model without these issuers among its catalog additions, for measuring it with them
  /// held out.
  public func withoutIssuers(_ ids: Set<String>) -> IssuerModel {
    var model = self
    model.catalogAdditions.removeAll { ids.contains($0.id) }
    return model
  }
}
