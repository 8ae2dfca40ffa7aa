import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct SearchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract: "Search the store: OCR text, names, merchants, issuers, items, barcodes, tags and annotations.",
    discussion: """
      Keywords match case- and accent-insensitively anywhere in a record's text ("zabka" finds \
      Żabka, "norrebro" finds Nørrebro; --merchant and --issuer fold the same way). Keywords separated by \
      whitespace, punctuation, + or "and" must all appear; "or" separates alternatives (AND binds \
      tighter: "a b or c" is (a and b) or c); "-" or "not" before a keyword means it must not \
      appear. A query of only whitespace and punctuation matches every record, so the filters \
      alone select.
      """)

  /// Every word that is not an option, so a query may begin with `-` (`search -lidl`, the
  /// exclusion syntax itself); a word starting with `--` that names no option is still an error.
  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp(
      "Keywords, e.g. \"coffee or tea -decaf\" (may begin with -: \"-lidl\").", valueName: "query"))
  var words: [String] = []

  var query: String { words.joined(separator: " ") }

  @OptionGroup var filters: FilterOptions

  @Option(name: .long, help: "Also apply this saved category's filters (see `snapsort category list`).")
  var category: String?

  @Flag(
    name: .long,
    help: "Print the matches as a JSON array instead of a table (with barcodes and the crop's absolute path)."
  )
  var json = false

  @OptionGroup var store: StoreOptions

  /// For the benchmark: how long the query took inside the process, on stderr.
  @Flag(name: .long, help: .hidden)
  var time = false

  func validate() throws {
    if let unknown = words.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
      throw ValidationError("Unknown option '\(unknown)'. (A keyword to exclude takes one -: \"-word\".)")
    }
  }

  func run() throws {
    let store = try store.open()
    let started = DispatchTime.now().uptimeNanoseconds
    let startedCPU = Self.cpuNanoseconds()
    let hits = try withStoreErrors { () -> [SearchHit] in
      var filter = SearchFilter()
      if let category { filter = try store.category(named: category) }
      return try store.search(filter.merging(filters.filter()), queries: [query])
    }
    if time {
      let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
      let cpu = Double(Self.cpuNanoseconds() - startedCPU) / 1e6
      Terminal.info(String(format: "search took %.2f ms (%.2f ms CPU)", ms, cpu))
    }
    if json {
      // Crops as absolute paths: the JSON is read from anywhere.
      let folder = store.url.deletingLastPathComponent()
      let hits = hits.map { hit in
        var hit = hit
        hit.crop = hit.crop.map { folder.appendingPathComponent($0).path }
        return hit
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(hits), as: UTF8.self))
      if hits.isEmpty { Terminal.info(Self.noMatch) }
      return
    }
    if hits.isEmpty {
      print(Self.noMatch)
      return
    }
    let rows = hits.map { hit -> [String] in
      let amount = [hit.total, hit.currency].compactMap { $0 }.joined(separator: " ")
      return [
        hit.file, hit.status == "error" ? "error" : hit.kind, hit.merchant ?? hit.name ?? "",
        hit.issuer ?? "",
        hit.date ?? "", amount, hit.tags.joined(separator: ","),
      ]
    }
    print(TextTable.render(header: ["FILE", "KIND", "NAME", "ISSUER", "DATE", "TOTAL", "TAGS"], rows: rows))
    print("\(hits.count) \(hits.count == 1 ? "match" : "matches")")
  }

  static let noMatch = "Your search criteria doesn't match any items"

  /// CPU time of the process: on a busy machine, what the query itself costs.
  static func cpuNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}

/// A plain text table with columns padded to their widest cell.
enum TextTable {
  static func render(header: [String], rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
  }
}
