import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct CategoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "category",
    abstract: "Saved searches: a name for a set of filters (`snapsort search --category NAME`).",
    subcommands: [Add.self, List.self, Remove.self])

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Save (or replace) a category.",
      discussion: "Names are lowercased, as tags are: \"Reimbursement\" is the category reimbursement.")

    @Argument(help: "The category's name.")
    var name: String

    // Unconditional: the value may begin with `-` (`--query -lidl`).
    @Option(
      name: .long, parsing: .unconditional, help: "Keywords, with the same rules as `snapsort search`.")
    var query: String?

    @OptionGroup var filters: FilterOptions

    @OptionGroup var store: StoreOptions

    func run() throws {
      let filter = filters.filter(query: query)
      if filter == SearchFilter() {
        Terminal.error("give at least one filter (--query, --kind, --merchant, --tag, …)")
        throw SnapsortExit.usage
      }
      let store = try store.open()
      let replaced = try withStoreErrors { try store.saveCategory(name: name, filter: filter) }
      print("\(replaced ? "replaced" : "saved") category \(RecordStore.normalizedName(name))")
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a saved category.")

    @Argument(help: "The category's name.")
    var name: String

    @OptionGroup var store: StoreOptions

    func run() throws {
      let store = try store.open()
      try withStoreErrors { try store.removeCategory(name: name) }
      print("removed category \(RecordStore.normalizedName(name))")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List saved categories and their filters.")

    @OptionGroup var store: StoreOptions

    func run() throws {
      let store = try store.open()
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      for (name, filter) in try store.categories() {
        print("\(name)\t\(String(decoding: try encoder.encode(filter), as: UTF8.self))")
      }
    }
  }
}

struct StatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Spend by merchant and by month, the most visited merchant and the most common items.")

  @Flag(name: .long, help: "Print JSON instead of text.")
  var json = false

  @OptionGroup var store: StoreOptions

  static let spendHeader = ["CURRENCY", "RECEIPTS", "TOTAL", "UNCONFIRMED"]

  static func spendRow(_ spend: StoreStats.Spend) -> [String] {
    let unconfirmed =
      spend.unconfirmedReceipts == 0 ? "" : "\(spend.unconfirmedTotal) (\(spend.unconfirmedReceipts))"
    return [spend.key, spend.currency ?? "?", "\(spend.receipts)", spend.total, unconfirmed]
  }

  func run() throws {
    let stats = try store.open().stats()
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(stats), as: UTF8.self))
      return
    }
    let kinds = stats.byKind.map { "\($0.count) \($0.key)" }.joined(separator: ", ")
    print("records: \(stats.records) (\(kinds)); errors: \(stats.errors)")
    print("\nspend by merchant (UNCONFIRMED: totals their own receipt's checks contradict):")
    print(
      TextTable.render(
        header: ["MERCHANT"] + Self.spendHeader, rows: stats.spendByMerchant.map(Self.spendRow)))
    print("\nspend by month:")
    print(TextTable.render(header: ["MONTH"] + Self.spendHeader, rows: stats.spendByMonth.map(Self.spendRow)))
    if let visited = stats.mostVisitedMerchant {
      print("\nmost visited merchant: \(visited.key) (\(visited.count) receipts)")
    }
    print("\nmost common items:")
    print(
      TextTable.render(
        header: ["ITEM", "COUNT"], rows: stats.mostCommonItems.map { [$0.key, "\($0.count)"] }))
  }
}
