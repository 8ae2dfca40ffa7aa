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

      Photos are split by file into train and test; a fraction of the folder's issuers is held out \
      of training entirely (removed from the catalog) and must come back unknown. The model is \
      fitted on the train part; its unknown threshold is set on folds that leave whole issuers \
      out, to reach --target-unknown-recall on them. The test numbers are printed and stored in \
      the model.

      With --corrections OUT, the cards of a run reviewed with `snapsort review` whose issuer was \
      chosen by hand are added as labelled cards (repeat it for several runs).

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

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A reviewed run (its output folder or snapsort.sqlite): cards whose issuer was chosen by hand are added.",
      valueName: "out"),
    completion: .file())
  var corrections: [String] = []

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

  @Option(
    name: .long, help: "Fraction of the folder's issuers held out of training entirely (tested as unknown).")
  var holdOut: Double = 0.1

  @Option(
    name: .long,
    help: "Unknown recall the threshold must reach on issuers left out of the calibration folds.")
  var targetUnknownRecall: Double = IssuerTrainer().targetUnknownRecall

  @Option(name: .long, help: "Gradient steps.")
  var iterations: Int = 300

  @Option(name: [.short, .long], help: "Worker threads (default: the number of cores).")
  var jobs: Int?

  @Flag(name: .long, help: "Print every wrong answer on the test split with the card's evidence.")
  var verbose = false

  func validate() throws {
    if dir == nil && records == nil && corrections.isEmpty && synthetic <= 0 {
      throw ValidationError(
        "Give a folder of labelled photos, --records FILE, --corrections OUT or --synthetic K.")
    }
    if synthetic < 0 { throw ValidationError("--synthetic must not be negative.") }
    if !(0..<1).contains(testFraction) { throw ValidationError("--test-fraction must be in [0, 1).") }
    if !(0..<1).contains(holdOut) { throw ValidationError("--hold-out must be in [0, 1).") }
    if !(0...1).contains(targetUnknownRecall) {
      throw ValidationError("--target-unknown-recall must be in [0, 1].")
    }
    if iterations < 1 { throw ValidationError("--iterations must be at least 1.") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
  }

  func run() throws {
    var training = IssuerTrainingRun()
    training.photos = dir.map { URL(fileURLWithPath: $0) }
    training.records = records.map { URL(fileURLWithPath: $0) }
    training.corrections = corrections.map { URL(fileURLWithPath: $0) }
    training.catalog = catalog.map { URL(fileURLWithPath: $0) }
    training.synthetic = synthetic
    training.simulation.missNameRate = syntheticMissRate
    training.simulation.charErrorRate = syntheticCharErrors
    training.testFraction = testFraction
    training.holdOut = holdOut
    training.iterations = iterations
    training.targetUnknownRecall = targetUnknownRecall
    training.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
    let outcome: IssuerTrainingRun.Outcome
    do {
      outcome = try training.run(log: Terminal.info)
    } catch let error as DataFileError {
      Terminal.error(error.message)
      throw SnapsortExit.usage
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    } catch let error as IssuerTrainingRun.TrainingError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
    if let report = outcome.report { print(report) }
    if verbose { outcome.failures.forEach { print($0) } }
    do {
      try outcome.model.write(to: URL(fileURLWithPath: output))
    } catch {
      Terminal.error("cannot write \(output): \(error.localizedDescription)")
      throw SnapsortExit.outputNotWritable
    }
    Terminal.info(
      String(
        format:
          "trained on %d cards (%d issuers, %d held out): features %.1f s (CPU %.1f s), fit %.1f s (CPU %.1f s), "
          + "threshold %.2f → %@",
        outcome.trainCards, outcome.trainIssuers, outcome.heldOutIssuers.count, outcome.featureSeconds.wall,
        outcome.featureSeconds.cpu, outcome.fitSeconds.wall, outcome.fitSeconds.cpu, outcome.model.threshold,
        output))
  }
}
