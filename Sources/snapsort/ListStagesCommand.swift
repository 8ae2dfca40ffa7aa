import ArgumentParser
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct ListStagesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list-stages",
    abstract: "List every stage pipeline.json can name, with its summary and options.")

  @Flag(name: .long, help: "Print a Markdown table (the README's stage table is generated this way).")
  var markdown = false

  func run() throws {
    print(StageCatalog.render(markdown: markdown), terminator: "")
  }
}
