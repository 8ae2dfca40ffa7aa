import ArgumentParser
import Foundation
import SnapsortOutputs

struct MerchantCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merchant",
    abstract: "Merchants as the store groups receipts: list them, merge two, or split two apart.",
    discussion: """
      Receipts are grouped under one merchant when their headers print the same registration, tax \
      or phone number, or when their names differ only by what OCR confuses (`D.I.Y.`/`D.1.¥.`), \
      punctuation, legal forms (`SDN BHD`, `GmbH`) or a branch in parentheses. Two groups whose \
      names clearly differ are not joined by a number they share (a franchise's hotline) unless \
      one receipt prints the other's name in its first lines. `stats` and \
      `search --merchant` use the group's name: its most common name, in the \
      spelling closest to the others. A merge or split is kept in the store and holds on every rerun.
      """,
    subcommands: [List.self, Merge.self, Split.self])

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List merchants with their receipts and the spellings they were read with.")

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() throws {
      let merchants = try store.open().merchants()
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(merchants), as: UTF8.self))
        return
      }
      let rows = merchants.map { merchant in
        let others = merchant.spellings.filter { $0.name != merchant.name }
          .map { "\($0.name) (\($0.receipts))" }.joined(separator: "; ")
        return [merchant.name, "\(merchant.receipts)", others]
      }
      print(TextTable.render(header: ["MERCHANT", "RECEIPTS", "ALSO READ AS"], rows: rows))
    }
  }

  /// The two names a merge or split is about, and the store it is kept in.
  struct MerchantPair: ParsableArguments {
    @Argument(help: "A merchant name.") var first: String
    @Argument(help: "The other merchant name.") var second: String
    @OptionGroup var store: StoreOptions

    func choose(_ kind: MerchantGrouping.Choice.Kind) throws {
      let store = try store.open()
      try withStoreErrors { try store.chooseMerchants(first, second, kind: kind) }
      refreshReport(of: store)
    }
  }

  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Group two merchant names as one merchant.",
      discussion: "Give names as `merchant list` shows them, or any spelling a receipt was read with.")

    @OptionGroup var names: MerchantPair

    func run() throws {
      try names.choose(.merge)
      print("merged \"\(names.first)\" and \"\(names.second)\"")
    }
  }

  struct Split: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Keep two merchant names apart, however alike they are.",
      discussion: "Give names as receipts were read (`merchant list` shows every spelling).")

    @OptionGroup var names: MerchantPair

    func run() throws {
      try names.choose(.split)
      print("split \"\(names.first)\" from \"\(names.second)\"")
    }
  }
}
