import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct TrainIssuersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "train-issuers",
    abstract: "Train the issuer classifier on labelled card photos and write a model file.",
    discussion: """
      DIR holds one folder per issuer, named by its catalog id, with photos of its cards \
      (DIR/<issuer-id>/*.jpg|png|webp); a folder named unknown holds cards of issuers in no \
      catalog; an optional DIR/catalog.json (the format of issuers.json) adds or replaces issuers \
      and is stored in the model. Every photo goes through the pipeline stages before the issuer \
      stage (load, detect_card, warp, palette, barcode, ocr: those this build has).

      Photos are split by file into train and test; a fraction of issuers is held out of training \
      entirely (removed from the catalog) and must come back unknown. The model is fitted on the \
      train part and the test numbers are printed and stored in the model.

      With --synthetic K, K simulated cards per catalog issuer (from names, brand colours and \
      barcode patterns) are added to the training data, or used alone when no DIR is given.
      """
  )

  @Argument(help: "Folder of labelled photos: DIR/<issuer-id>/*.jpg.", completion: .directory)
  var dir: String?

  @Option(name: [.short, .long], help: "Model file to write.")
  var output: String = "issuer-model.json"

  @Option(
    name: .long,
    help: "A records.jsonl from `snapsort run` over a labelled folder, used instead of running the pipeline.")
  var records: String?

  @Option(name: .long, help: "Catalog to train against (default: the bundled issuers.json).")
  var catalog: String?

  @Option(name: .long, help: "Simulated cards per catalog issuer added to the training data.")
  var synthetic: Int = 0

  @Option(name: .long, help: "Share of simulated cards on which OCR misses the brand entirely.")
  var syntheticMissRate: Double = SyntheticCards().missNameRate

  @Option(name: .long, help: "Share of simulated characters OCR gets wrong.")
  var syntheticCharErrors: Double = SyntheticCards().charErrorRate

  @Option(name: .long, help: "Fraction of files kept for the test split.")
  var testFraction: Double = 0.2

  @Option(name: .long, help: "Fraction of issuers held out of training entirely (tested as unknown).")
  var holdOut: Double = 0.1

  @Option(name: .long, help: "Gradient steps.")
  var iterations: Int = 300

  @Option(name: [.short, .long], help: "Worker threads (default: the number of cores).")
  var jobs: Int?

  @Flag(name: .long, help: "Print every wrong answer on the test split with the card's evidence.")
  var verbose = false

  func validate() throws {
    if dir == nil && records == nil && synthetic <= 0 {
      throw ValidationError("Give a folder of labelled photos, --records FILE or --synthetic K.")
    }
    if synthetic < 0 { throw ValidationError("--synthetic must not be negative.") }
    if !(0..<1).contains(testFraction) { throw ValidationError("--test-fraction must be in [0, 1).") }
    if !(0..<1).contains(holdOut) { throw ValidationError("--hold-out must be in [0, 1).") }
    if iterations < 1 { throw ValidationError("--iterations must be at least 1.") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
  }

  func run() throws {
    let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    let start = Date()
    let startCPU = Self.processCPUSeconds()
    var fullCatalog: IssuerCatalog
    var additions: [Issuer] = []
    var photoCards: [LabelledCard] = []
    do {
      fullCatalog =
        try catalog.map { try IssuerCatalog.load(from: URL(fileURLWithPath: $0)) } ?? IssuerCatalog.bundled()
      if let dir {
        let photos = try LabelledPhotos(root: URL(fileURLWithPath: dir))
        additions = photos.catalogAdditions
        fullCatalog = fullCatalog.merging(additions)
        let known = Set(fullCatalog.issuers.map(\.id))
        for label in Set(photos.photos.compactMap(\.label)).sorted() where !known.contains(label) {
          Terminal.info("folder \(label)/ names no catalog issuer: its photos are treated as unknown")
        }
        if let records {
          photoCards = try LabelledPhotos.cards(fromRecords: URL(fileURLWithPath: records))
        } else {
          Terminal.info("running the pipeline on \(photos.photos.count) photos with \(jobs) workers…")
          photoCards = try photos.cards(jobs: jobs)
        }
      } else if let records {
        photoCards = try LabelledPhotos.cards(fromRecords: URL(fileURLWithPath: records))
      }
    } catch let failure as DataFileError {
      Terminal.error(failure.message)
      throw SnapsortExit.usage
    } catch let failure as StageFailure {
      Terminal.error(failure.message)
      throw SnapsortExit.usage
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
    let featureSeconds = Date().timeIntervalSince(start)
    let featureCPU = Self.processCPUSeconds() - startCPU

    let heldOut = Set(
      fullCatalog.issuers.map(\.id).filter { IssuerTrainer.stableFraction("holdout:" + $0) < holdOut })
    let trainCatalog = fullCatalog.removing(heldOut)
    var train: [LabelledCard] = []
    var test: [LabelledCard] = []
    for card in photoCards {
      if let label = card.label, heldOut.contains(label) {
        test.append(card)
      } else if IssuerTrainer.stableFraction("split:" + card.source) < testFraction {
        test.append(card)
      } else {
        train.append(card)
      }
    }
    if synthetic > 0 {
      var generator = SyntheticCards()
      generator.missNameRate = syntheticMissRate
      generator.charErrorRate = syntheticCharErrors
      train += generator.dataset(
        catalog: trainCatalog, perIssuer: synthetic,
        unknown: max(20, trainCatalog.issuers.count * synthetic / 6),
        seed: 1)
      if photoCards.isEmpty {
        // No photos: test on fresh simulated cards of the training issuers, of held-out issuers
        // and of invented ones.
        test = generator.dataset(
          catalog: fullCatalog, perIssuer: max(2, synthetic / 2),
          unknown: max(20, fullCatalog.issuers.count / 2), seed: 2)
      }
    }
    guard !train.isEmpty else {
      Terminal.error("nothing to train on")
      throw SnapsortExit.usage
    }
    var trainer = IssuerTrainer()
    trainer.iterations = iterations
    let fitStart = Date()
    let fitStartCPU = Self.processCPUSeconds()
    var model = trainer.train(
      train, catalog: trainCatalog, workers: jobs,
      training: [
        "source": records.map {
          "records \(URL(fileURLWithPath: $0).lastPathComponent)"
            + (synthetic > 0 ? " + synthetic \(synthetic)/issuer" : "")
        } ?? dir.map {
          "photos in \(URL(fileURLWithPath: $0).lastPathComponent)"
            + (synthetic > 0 ? " + synthetic \(synthetic)/issuer" : "")
        }
          ?? "synthetic cards simulated from the catalog, \(synthetic) per issuer",
        "held_out_issuers": heldOut.sorted().joined(separator: ","),
        "train_cards": "\(train.count)",
      ])
    let fitSeconds = Date().timeIntervalSince(fitStart)
    let fitCPU = Self.processCPUSeconds() - fitStartCPU
    model.catalogAdditions = additions

    if !test.isEmpty {
      let classifier = IssuerClassifier(model: model, catalog: trainCatalog)
      let evaluation = IssuerEvaluation.run(classifier, on: test)
      print(evaluation.render(title: "test split (\(test.count) cards; held-out issuers must be unknown)"))
      let heldOutCards = test.filter { $0.label.map(heldOut.contains) ?? false }
      if !heldOutCards.isEmpty {
        let heldOutEvaluation = IssuerEvaluation.run(classifier, on: heldOutCards)
        print(
          String(
            format: "  unknown recall on held-out catalog issuers only: %.1f %% (%d/%d)\n",
            heldOutEvaluation.unknownRecall * 100, heldOutEvaluation.correctUnknown, heldOutEvaluation.unknown
          ))
        model.training["test_held_out_unknown_recall"] = String(
          format: "%.3f", heldOutEvaluation.unknownRecall)
      }
      if verbose { for failure in evaluation.failures { print(failure) } }
      model.training["test_cards"] = "\(test.count)"
      model.training["test_top1"] = String(format: "%.3f", evaluation.top1Accuracy)
      model.training["test_top3"] = String(format: "%.3f", evaluation.top3Accuracy)
      model.training["test_unknown_precision"] = String(format: "%.3f", evaluation.unknownPrecision)
      model.training["test_unknown_recall"] = String(format: "%.3f", evaluation.unknownRecall)
    }
    do {
      try model.write(to: URL(fileURLWithPath: output))
    } catch {
      Terminal.error("cannot write \(output): \(error.localizedDescription)")
      throw SnapsortExit.outputNotWritable
    }
    Terminal.info(
      String(
        format:
          "trained on %d cards (%d issuers, %d held out): features %.1f s (CPU %.1f s), fit %.1f s (CPU %.1f s), "
          + "threshold %.2f → %@",
        train.count, trainCatalog.issuers.count, heldOut.count, featureSeconds, featureCPU, fitSeconds,
        fitCPU,
        model.threshold, output))
  }

  /// User and system CPU time of the whole process so far: on a shared machine the wall times
  /// above mostly measure the other load, the CPU times what training itself cost.
  static func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}
