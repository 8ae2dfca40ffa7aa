import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

struct IssuersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "issuers",
    abstract: "Look up the issuer catalog.",
    subcommands: [Search.self]
  )

  struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Search issuers by name or alias (typos and missing diacritics tolerated).")

    @Argument(help: "Name or part of a name, e.g. \"zabka\" or \"clubcard\".")
    var text: String

    @Option(name: .long, help: "Only issuers present in this country (ISO code, e.g. PL).")
    var country: String?

    @Option(name: .long, help: "Catalog (default: the bundled issuers.json).")
    var catalog: String?

    @Option(name: .long, help: "At most this many results.")
    var limit: Int = 10

    func validate() throws {
      if text.trimmingCharacters(in: .whitespaces).isEmpty {
        throw ValidationError("Give some text to search for.")
      }
      if let country, country.count != 2 {
        throw ValidationError("--country takes a two-letter code such as PL.")
      }
      if limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
      let loaded: IssuerCatalog
      do {
        loaded = try IssuerCatalog.load(
          from: StageContext().resolve(catalog ?? IssuerCatalog.bundledFileName))
      } catch let failure as DataFileError {
        Terminal.error(failure.message)
        throw SnapsortExit.usage
      }
      let hits = IssuerSearch(catalog: loaded).search(text, country: country, limit: limit)
      if hits.isEmpty {
        Terminal.info("no issuer matches \"\(text)\"")
        throw ExitCode(1)
      }
      for hit in hits {
        let issuer = hit.issuer
        var line = "\(issuer.id)\t\(issuer.name)\t\(issuer.countries.joined(separator: ","))"
        line += "\t\(issuer.program ?? "")"
        if hit.matched != issuer.name { line += "\t(matched \(hit.matched))" }
        print(line)
      }
    }
  }
}
