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
    discussion: """
      Tags are lowercased, as category names are, and hold no comma (give several tags as \
      separate words). "reimbursement" is there from the start, with a category of the same name. \
      Prints the record's tags afterwards; report.html beside the store is written again.
      """)

  @Argument(help: "The photo, as named in records.jsonl (or the end of that path).")
  var file: String

  @Argument(help: "Tags to add.")
  var tags: [String] = []

  @Flag(name: .long, help: "Remove these tags instead.")
  var remove = false

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if tags.isEmpty { throw ValidationError("Give at least one tag.") }
    do {
      for tag in tags { try RecordStore.validateTag(tag) }
    } catch let error as InputError {
      throw ValidationError(error.description)
    }
  }

  func run() throws {
    let store = try store.open()
    let now = try withStoreErrors {
      remove ? try store.untag(file: file, tags: tags) : try store.tag(file: file, tags: tags)
    }
    print("\(file): \(now.isEmpty ? "no tags" : now.joined(separator: ", "))")
    refreshReport(of: store)
  }
}

struct AnnotateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "annotate",
    abstract: "Add a note to a photo's record (notes are searchable); list or remove its notes.",
    discussion: """
      Prints the record's notes afterwards, numbered from 1 (the numbers --remove takes); \
      report.html beside the store is written again.
      """)

  @Argument(help: "The photo, as named in records.jsonl (or the end of that path).")
  var file: String

  @Argument(help: "The note to add.")
  var text: String?

  @Flag(name: .long, help: "List the record's notes, numbered.")
  var list = false

  @Option(name: .long, help: ArgumentHelp("Remove note number N (as --list numbers them).", valueName: "n"))
  var remove: Int?

  @OptionGroup var store: StoreOptions

  func validate() throws {
    let actions = [text != nil, list, remove != nil].filter { $0 }.count
    if actions == 0 { throw ValidationError("Give a note to add, --list or --remove N.") }
    if actions > 1 { throw ValidationError("Give one of: a note to add, --list, --remove N.") }
    if let text, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw ValidationError("The note is empty.")
    }
    if let remove, remove < 1 { throw ValidationError("--remove takes a note's number, from 1.") }
  }

  func run() throws {
    let store = try store.open()
    let notes = try withStoreErrors { () -> [String] in
      if let text { return try store.annotate(file: file, text: text) }
      if let remove { return try store.removeNote(file: file, number: remove) }
      return try store.notes(file: file)
    }
    if notes.isEmpty {
      print("\(file): no notes")
    } else {
      print("\(file):")
      for (index, note) in notes.enumerated() { print("  \(index + 1). \(note)") }
    }
    if !list { refreshReport(of: store) }
  }
}

struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show one photo's record from the store, with its crop, tags and notes.",
    discussion: """
      The record shows the values a person corrected (`snapsort review`) over the run's; \
      "corrected" lists those fields, and records.jsonl keeps what the run read.
      """)

  @Argument(help: "The photo, as named in records.jsonl (or the end of that path).")
  var file: String

  @Flag(name: .long, help: "Print one JSON object: the record, crop (absolute path), tags and notes.")
  var json = false

  @OptionGroup var store: StoreOptions

  func run() throws {
    let store = try store.open()
    let entry = try withStoreErrors { try store.entry(file: file) }
    let corrected = try store.corrections(file: file).fields.map(\.rawValue)
    let record = entry.record
    let crop = record.card?.crop.map { store.url.deletingLastPathComponent().appendingPathComponent($0).path }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let recordJSON = try JSONSerialization.jsonObject(with: try RecordCoding.encodeLine(record))
    if json {
      var object: [String: Any] = [
        "record": recordJSON, "tags": entry.tags, "notes": entry.notes, "corrected": corrected,
      ]
      object["crop"] = crop ?? NSNull()
      let data = try JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      print(String(decoding: data, as: UTF8.self))
      return
    }
    print("file: \(record.file)")
    print("kind: \(record.status == .error ? "error" : record.kind.rawValue)")
    if let crop { print("crop: \(crop)") }
    if !corrected.isEmpty { print("corrected by hand: \(corrected.joined(separator: ", "))") }
    print("tags: \(entry.tags.isEmpty ? "none" : entry.tags.joined(separator: ", "))")
    if entry.notes.isEmpty {
      print("notes: none")
    } else {
      print("notes:")
      for (index, note) in entry.notes.enumerated() { print("  \(index + 1). \(note)") }
    }
    let data = try JSONSerialization.data(
      withJSONObject: recordJSON, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print("record:")
    print(String(decoding: data, as: UTF8.self))
  }
}

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write OUT/report.html again from OUT/records.jsonl, run.json and the store's tags and notes.")

  @Argument(help: "A run's output folder.", completion: .directory)
  var out: String = "out"

  func run() throws {
    let folder = URL(fileURLWithPath: out)
    let store = try StoreOptions.parse(["--db", out]).open()
    try withStoreErrors { try HTMLReport.rewrite(in: folder, store: store) }
    Terminal.info("→ \(folder.appendingPathComponent(HTMLReport.fileName).path)")
  }
}
