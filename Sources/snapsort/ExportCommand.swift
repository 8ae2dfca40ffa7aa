import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the store's loyalty cards for a card-wallet app.",
    subcommands: [Catima.self, CardSnap.self])

  struct Catima: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "catima",
      abstract: "Write a Catima backup (v2 zip: catima.csv and card_<id>_front.png), importable in Catima.",
      discussion: """
        Only cards are exported: ok records of kind card (with the classify stage's confidence \
        at least --min-kind-confidence) holding a barcode; payment cards never are. The others \
        are listed on stderr with the reason. The issuer's name, else the suggested name, \
        becomes the store; tags become groups.
        """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var destination: OutputFile

    @Option(name: .customLong("min-kind-confidence"), help: kindConfidenceHelp)
    var minKindConfidence: Double = ExportSelection.defaultMinimumKindConfidence

    func run() throws {
      let store = try store.open()
      let selection = try selectCards(store: store, minimumKindConfidence: minKindConfidence)
      let export = try CatimaExport(selection: selection)
      let archive = try export.archive(cropsRoot: store.url.deletingLastPathComponent())
      try writeOutput(archive.data, to: destination.path)
      Terminal.info(
        selection.summary(exported: export.cards.count, images: archive.images, destination: destination.path)
      )
    }
  }

  struct CardSnap: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cardsnap",
      abstract: "Write an encrypted Card Snap backup (AES-256-GCM, key from PBKDF2-HMAC-SHA256).",
      discussion: """
        Only cards are exported, as with `export catima`; the others are listed on stderr with \
        the reason. The password is the first line of --password-file (its line end, LF or \
        CRLF, dropped); check the result with `snapsort verify-backup`.
        """)

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("password-file"), help: "A file whose first line is the password.")
    var passwordFile: String

    @OptionGroup var destination: OutputFile

    @Option(name: .customLong("min-kind-confidence"), help: kindConfidenceHelp)
    var minKindConfidence: Double = ExportSelection.defaultMinimumKindConfidence

    @Option(name: .long, help: "PBKDF2 iterations (at least 150000).")
    var iterations: Int = CardSnapBackup.defaultIterations

    func validate() throws {
      if iterations < CardSnapBackup.minimumIterations {
        throw ValidationError("--iterations must be at least \(CardSnapBackup.minimumIterations).")
      }
    }

    func run() throws {
      let password = try readPassword(passwordFile)
      let store = try store.open()
      let selection = try selectCards(store: store, minimumKindConfidence: minKindConfidence)
      let contents = try CardSnapBackup.contents(
        of: selection, catalog: try IssuerCatalog.bundled(), cropsRoot: store.url.deletingLastPathComponent())
      let data = try CardSnapBackup.seal(contents, password: password, iterations: iterations)
      try writeOutput(data, to: destination.path)
      Terminal.info(
        selection.summary(
          exported: contents.cards.count, images: contents.images.count, stores: contents.stores.count,
          destination: destination.path))
    }
  }
}

struct VerifyBackupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify-backup",
    abstract: "Decrypt a Card Snap backup and check every card and image against its SHA-256.")

  @Argument(help: "The backup file.", completion: .file())
  var file: String

  @Option(name: .customLong("password-file"), help: "A file whose first line is the password.")
  var passwordFile: String

  func run() throws {
    let password = try readPassword(passwordFile)
    guard let data = FileManager.default.contents(atPath: file) else {
      Terminal.error("cannot read \(file)")
      throw SnapsortExit.usage
    }
    do {
      let contents = try CardSnapBackup.open(data, password: password)
      print(
        "ok: \(contents.cards.count) cards, \(contents.stores.count) stores, \(contents.images.count) images; "
          + "schema version \(contents.metadata.schemaVersion)")
    } catch let failure as CardSnapBackup.Failure {
      Terminal.error("\(file): \(failure.description)")
      throw ExitCode(1)
    }
  }
}

let kindConfidenceHelp = ArgumentHelp(
  "Export a card only when the classify stage was at least this sure it is a card (records without a classify stage count as sure)."
)

/// Selects the cards to export and lists the records that might be cards and are left out, on
/// stderr; the export's summary counts them all once it is written.
func selectCards(store: RecordStore, minimumKindConfidence: Double) throws -> ExportSelection {
  let selection = try ExportSelection(store: store, minimumKindConfidence: minimumKindConfidence)
  for (file, reason) in selection.skipped { Terminal.info("skipped: \(file) (\(reason))") }
  return selection
}

/// `-o/--out FILE`, the name every command uses for what it writes; `--output` (the old
/// spelling) still works, hidden.
struct OutputFile: ParsableArguments {
  @Option(name: [.short, .long], help: "The file to write.")
  var out: String?

  @Option(name: .customLong("output"), help: .hidden)
  var output: String?

  var path: String { out ?? output ?? "" }

  func validate() throws {
    if out != nil && output != nil { throw ValidationError("--out and --output name two files; give one.") }
    if out == nil && output == nil { throw ValidationError("Missing expected argument '--out <out>'") }
  }
}

/// The first line of a password file, without its line end.
func readPassword(_ path: String) throws -> String {
  guard let data = FileManager.default.contents(atPath: path) else {
    Terminal.error("cannot read the password file \(path)")
    throw SnapsortExit.usage
  }
  // "\r\n" is one Character in Swift, so splitting at "\n" alone would keep a CRLF file's line
  // end in the password (and report a wrong password): end the line at LF, CRLF or CR.
  let text = String(decoding: data, as: UTF8.self)
  let line = String(text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
  if line.isEmpty {
    Terminal.error("the password file \(path) is empty")
    throw SnapsortExit.usage
  }
  return line
}

func writeOutput(_ data: Data, to path: String) throws {
  do {
    try AtomicFile.write(data, to: URL(fileURLWithPath: path))
  } catch {
    Terminal.error("cannot write \(path): \(error.localizedDescription)")
    throw SnapsortExit.outputNotWritable
  }
}
