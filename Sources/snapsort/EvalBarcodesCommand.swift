import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct EvalBarcodesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "eval-barcodes",
    abstract: "Measure barcode decoding on a labelled folder: zbar alone, zxing-cpp alone, Snapsort.",
    discussion: """
      DIR has zxing-cpp's blackbox layout: DIR/<folder>/<stem>.<image> with the expected text in \
      <stem>.txt (or raw bytes in <stem>.bin). Prints a markdown table of exact matches per \
      folder, decoding time per image, and the codes reported on --negatives (files without any \
      code, where every code is a false positive).
      """
  )

  @Argument(help: "Folder of labelled barcode images.", completion: .directory)
  var dir: String

  @Option(name: .long, help: "Folder of images without any code.", completion: .directory)
  var negatives: String?

  @Option(name: .long, help: "The barcode stage's expected_codes (default: the stage's default).")
  var expectedCodes: Int?

  @Option(
    name: .long,
    help: "Turn barcode stage passes off for an experiment: enhance, rotations, multi-scale, inverted.")
  var without: [String] = []

  @Flag(name: .long, help: "Only Snapsort, without the zbar-alone and zxing-alone columns.")
  var noBaselines = false

  @Flag(name: .long, help: "Also list the images Snapsort missed and what it read there.")
  var listMissed = false

  func run() throws {
    var options = BarcodeStage.Options()
    if let expectedCodes { options.expectedCodes = expectedCodes }
    for pass in without {
      switch pass {
      case "enhance": options.enhance = false
      case "rotations": options.rotations = false
      case "multi-scale": options.multiScale = false
      case "inverted": options.testInverted = false
      default: throw ValidationError("--without takes enhance, rotations, multi-scale or inverted")
      }
    }
    let report: BarcodeEvaluation.Report
    do {
      report = try BarcodeEvaluation.run(
        root: URL(fileURLWithPath: dir), negatives: negatives.map { URL(fileURLWithPath: $0) },
        options: options, baselines: !noBaselines)
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
    // Zeros over nothing measured would read as a result.
    if report.total.images == 0 {
      Terminal.error(
        "no labelled images under \(dir): expected \(dir)/<folder>/<stem>.<image> with the code's text in <stem>.txt"
      )
      throw SnapsortExit.someFailed
    }
    print(report.markdown(title: "Barcodes: \(dir)"), terminator: "")
    if listMissed { print(report.missedListing) }
  }
}
