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
    name: .long, help: "The store to read (written by every run into its output folder).", completion: .file()
  )
  var db: String = "out/\(RecordStore.fileName)"

  /// Opens the store, or exits 2 with a message naming the missing file.
  func open() throws -> RecordStore {
    do {
      return try RecordStore(url: URL(fileURLWithPath: db))
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

  func filter(query: String? = nil) -> SearchFilter {
    SearchFilter(
      query: query, kind: kind, merchant: merchant, issuer: issuer, from: from, to: to, minTotal: minTotal,
      maxTotal: maxTotal, tag: tag)
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
