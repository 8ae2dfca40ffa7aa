import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

/// `--db`, which every command that reads a store takes.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store: a run's output folder or its \(RecordStore.fileName) (every run writes one there).",
      valueName: "out"),
    completion: .file()
  )
  var db: String = "out"

  /// The store's file: `--db` itself, or `snapsort.sqlite` inside it when it names a folder.
  var url: URL {
    var isDirectory: ObjCBool = false
    let given = URL(fileURLWithPath: db)
    if (FileManager.default.fileExists(atPath: db, isDirectory: &isDirectory) && isDirectory.boolValue)
      || db.hasSuffix("/")
    {
      return given.appendingPathComponent(RecordStore.fileName)
    }
    return given
  }

  /// Opens the store, or exits 2 with a message naming the missing file.
  func open() throws -> RecordStore {
    do {
      return try RecordStore(url: url)
    } catch let error as InputError {
      Terminal.error(error.description)
      throw SnapsortExit.usage
    }
  }
}

/// Filters shared by `search` and `category add`.
struct FilterOptions: ParsableArguments {
  @Option(name: .long, help: "Only records of this kind.")
  var kind: Kind?

  @Option(name: .long, help: "Receipts whose merchant contains this text (case-insensitive).")
  var merchant: String?

  @Option(name: .long, help: "Cards of this issuer (its id, or part of its name).")
  var issuer: String?

  @Option(name: .long, help: "Receipts dated on or after this date (YYYY-MM-DD, YYYY-MM or YYYY).")
  var from: String?

  @Option(name: .long, help: "Receipts dated on or before this date (YYYY-MM-DD, YYYY-MM or YYYY).")
  var to: String?

  @Option(name: .customLong("min-total"), help: "Receipts whose total is at least this amount.")
  var minTotal: String?

  @Option(name: .customLong("max-total"), help: "Receipts whose total is at most this amount.")
  var maxTotal: String?

  @Option(name: .long, help: "Records carrying this tag.")
  var tag: String?

  @Flag(
    name: .long,
    help:
      "Receipts whose total their own checks contradict (items against subtotal, subtotal, savings and tax against total)."
  )
  var unconfirmed = false

  func filter(query: String? = nil) -> SearchFilter {
    SearchFilter(
      query: query, kind: kind, merchant: merchant, issuer: issuer, from: from, to: to, minTotal: minTotal,
      maxTotal: maxTotal, tag: tag, unconfirmedTotal: unconfirmed ? true : nil)
  }

  func validate() throws {
    do {
      try filter().validate()
    } catch let error as InputError {
      throw ValidationError(error.description)
    }
  }
}

extension Kind: ExpressibleByArgument {}

/// Runs a store operation, turning a user's mistake (unknown file, category) into exit 2.
func withStoreErrors<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as InputError {
    Terminal.error(error.description)
    throw SnapsortExit.usage
  }
}

/// After a command changed the store (tags, notes): `report.html` beside it is written again, so
/// the report never shows what the store no longer holds. Nothing happens without a report.
func refreshReport(of store: RecordStore) {
  let folder = store.url.deletingLastPathComponent()
  guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(HTMLReport.fileName).path) else {
    return
  }
  do {
    try HTMLReport.rewrite(in: folder, store: store)
  } catch {
    Terminal.error(
      "the store changed but \(HTMLReport.fileName) was not updated: \(Terminal.describe(error))")
  }
}
