import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct EvalIssuersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "eval-issuers",
    abstract: "Measure the issuer classifier on a labelled folder of card photos.",
    discussion: """
      DIR has the layout train-issuers reads (DIR/<issuer-id>/*.jpg, DIR/unknown/*.jpg). Photos \
      of folders that name no catalog issuer must come back unknown. Prints top-1 and top-3 \
      accuracy, unknown precision and recall, and the most confused pairs.

      The issuers train-issuers held out of training (stored in the model) are removed from the \
      catalog unless --keep-held-out is given, so the figures are those of issuers the model never \
      saw: their cards must come back unknown.
      """
  )

  @Argument(help: "Folder of labelled photos: DIR/<issuer-id>/*.jpg.", completion: .directory)
  var dir: String?

  @Option(
    name: .long,
    help: "A records.jsonl from `snapsort run` over DIR, used instead of running the pipeline again.")
  var records: String?

  @Option(name: .long, help: "Model file (default: the bundled issuer-model.json).")
  var model: String?

  @Option(name: .long, help: "Catalog (default: the bundled issuers.json).")
  var catalog: String?

  @Option(name: [.short, .long], help: "Worker threads (default: the number of cores).")
  var jobs: Int?

  @Option(name: .long, help: "Also write the measures and every card's answer to this JSON file.")
  var json: String?

  @Flag(
    name: .long,
    help:
      "Keep in the catalog the issuers held out of the model's training (by default they are removed, so their cards must come back unknown)."
  )
  var keepHeldOut = false

  func validate() throws {
    if dir == nil && records == nil {
      throw ValidationError("Give a folder of labelled photos or --records FILE.")
    }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
  }

  func run() throws {
    let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
    let classifier: IssuerClassifier
    let cards: [LabelledCard]
    do {
      let context = StageContext()
      var loadedModel = try IssuerModel.load(from: context.resolve(model ?? IssuerModel.bundledFileName))
      var loadedCatalog = try IssuerCatalog.load(
        from: context.resolve(catalog ?? IssuerCatalog.bundledFileName))
      let photos = try dir.map { try LabelledPhotos(root: URL(fileURLWithPath: $0)) }
      loadedCatalog = loadedCatalog.merging(photos?.catalogAdditions ?? [])
      let heldOut = keepHeldOut ? [] : loadedModel.heldOutIssuers
      if !heldOut.isEmpty {
        Terminal.info(
          "\(heldOut.count) issuers the model was not trained on are out of the catalog; their cards must "
            + "come back unknown (--keep-held-out keeps them)")
        loadedCatalog = loadedCatalog.removing(Set(heldOut))
        loadedModel = loadedModel.withoutIssuers(Set(heldOut))
      }
      classifier = IssuerClassifier(model: loadedModel, catalog: loadedCatalog)
      if let records {
        cards = try LabelledPhotos.cards(fromRecords: URL(fileURLWithPath: records))
      } else if let photos {
        Terminal.info("running the pipeline on \(photos.photos.count) photos with \(jobs) workers…")
        cards = try photos.cards(jobs: jobs)
      } else {
        cards = []
      }
    } catch let failure as DataFileError {
      Terminal.error(failure.message)
      throw SnapsortExit.usage
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
    let evaluation = IssuerEvaluation.run(classifier, on: cards)
    print(evaluation.render(title: "\(records ?? dir ?? "") (\(cards.count) cards)"))
    if let json {
      do {
        try evaluation.report(classifier: classifier, cards: cards).write(to: URL(fileURLWithPath: json))
      } catch {
        Terminal.error("cannot write \(json): \(error.localizedDescription)")
        throw SnapsortExit.outputNotWritable
      }
    }
  }
}
