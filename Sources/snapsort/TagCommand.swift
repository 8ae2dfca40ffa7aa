import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct TagCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tag",
    abstract: "Add tags to a photo's record (kept across reruns: tags follow the content hash).",
    discussion:
      "Tags are lowercased. \"reimbursement\" is there from the start, with a category of the same name.")

  @Argument(help: "The photo, as named in records.jsonl (or the end of that path).")
  var file: String

  @Argument(help: "Tags to add.")
  var tags: [String] = []

  @Flag(name: .long, help: "Remove these tags instead.")
  var remove = false

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if tags.isEmpty { throw ValidationError("Give at least one tag.") }
  }

  func run() throws {
    let store = try store.open()
    try withStoreErrors {
      if remove {
        try store.untag(file: file, tags: tags)
      } else {
        let now = try store.tag(file: file, tags: tags)
        print("\(file): \(now.joined(separator: ", "))")
      }
    }
  }
}

struct AnnotateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "annotate",
    abstract: "Add a note to a photo's record; notes are searchable.")

  @Argument(help: "The photo, as named in records.jsonl (or the end of that path).")
  var file: String

  @Argument(help: "The note.")
  var text: String

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw ValidationError("The note is empty.")
    }
  }

  func run() throws {
    let store = try store.open()
    try withStoreErrors { try store.annotate(file: file, text: text) }
  }
}
