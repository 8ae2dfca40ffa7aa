import ArgumentParser
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct Snapsort: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapsort",
    abstract: "Turn photos and screenshots of cards and receipts into structured records.",
    version: SnapsortVersionString.value,
    subcommands: [
      RunCommand.self, CheckCommand.self, MergeCommand.self, ListStagesCommand.self, TrainIssuersCommand.self,
      EvalIssuersCommand.self, IssuersCommand.self, SearchCommand.self, ShowCommand.self, TagCommand.self,
      AnnotateCommand.self, CategoryCommand.self, ReportCommand.self, StatsCommand.self, ExportCommand.self,
      VerifyBackupCommand.self,
      RewarpCommand.self, ReviewCommand.self,
      EvalBarcodesCommand.self,
      ReceiptTextCommand.self,
      MerchantCommand.self,
    ],
    defaultSubcommand: nil
  )
}

enum SnapsortVersionString {
  static let value = SnapsortStages.SnapsortVersion.current
}
