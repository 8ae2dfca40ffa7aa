import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the output folders of shard runs into one output, as a single run would write it.",
    discussion: """
      Records are combined by file path (a file present in several shards must have equal \
      records), crops are copied, and records.jsonl, run.json, the SQLite store and the report are \
      written into --out. All shards must have run the same config (same config_hash in run.json).
      """)

  @Argument(help: "Output folders of the shard runs.", completion: .directory)
  var shardOutputs: [String]

  @Option(name: [.short, .long], help: "Folder to write the merged output into.")
  var out: String

  func run() throws {
    do {
      let merged = try OutputMerger.merge(
        shardOutputs.map { URL(fileURLWithPath: $0) }, into: URL(fileURLWithPath: out))
      Terminal.info(
        "merged \(shardOutputs.count) outputs: \(merged.counts.inputs) records (\(merged.counts.error) failed) → \(out)/records.jsonl"
      )
      if merged.counts.error > 0 { throw SnapsortExit.someFailed }
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
  }
}
