import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortStages
import SnapsortTools

struct ReceiptTextCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "receipt-text",
    abstract: "Extract receipt fields from text lines read from files, without OCR.",
    discussion: """
      Runs the receipt stage's extraction (rows rebuilt from boxes; merchant, date, currency, \
      items, totals, reference, checks) on text a file holds instead of on what OCR read from a \
      photo. On a perfect transcription it gives the extractor's ceiling; against a run's records \
      of the same receipts, the gap is what OCR costs.

      A .csv file holds boxed lines as SROIE's .lines.csv does: x1,y1,x2,y2,x3,y3,x4,y4,text, a \
      box's four corners in pixels then its text (commas and quotes are part of the text; a text \
      wrapped whole in double quotes is unquoted). Boxes on one printed row are joined into one \
      line as the stage joins OCR words. Any other file is plain text, one printed row per line. \
      A folder is searched for .csv and .txt files. Every line counts as read with confidence \
      100, and the stage's OCR steps (a second reading of the binarised image, reading the \
      total's line, the date's and the logo again) do not apply.

      Exit status: 0 when every file was read, 1 when some could not be (each is named on \
      stderr with the line at fault, and with --json gets an error object), 2 for a missing \
      path, a folder without text files or a catalog that cannot be read.
      """
  )

  @Argument(help: "Text files (.csv boxed lines, else plain text) or folders of them.", completion: .file())
  var paths: [String]

  @Flag(
    name: .long,
    help: """
      One line of JSON per file, shaped like a record: file, kind, status, and receipt as \
      records.jsonl writes it (or error).
      """)
  var json = false

  @Flag(
    name: .long,
    help: """
      The paths are a run's records.jsonl: each record's receipt rows (text, box, confidence) \
      are extracted again, as the stage read them.
      """)
  var records = false

  @Flag(
    name: .long,
    help: """
      Instead of records, one line of JSON per file with the merchant model's evidence: file, \
      the rules' merchant (rules), whether it names a catalog brand (rules_brand), and the \
      header's candidates with their features, for bench/receipts/fit_merchant.py.
      """)
  var merchantCandidates = false

  @Flag(name: .long, help: "Name the merchant by the extractor's rules alone, without the merchant model.")
  var merchantRules = false

  @Flag(
    name: .long,
    help: """
      Instead of records, one line of JSON per file with the total model's evidence: file, the \
      rules' total (rules), and the page's amounts with their features, for \
      bench/receipts/fit_total.py.
      """)
  var totalCandidates = false

  @Flag(
    name: .long,
    help: """
      Instead of records, one line of JSON per file with what it says of its currency: the \
      marks' weights (marks, and dollar for the `$` sign), the kinds of evidence of a country \
      per currency (country) and the language's currency, for bench/receipts/fit_currency.py.
      """)
  var currencyEvidence = false

  @Flag(name: .long, help: "Choose the total by the extractor's rules alone, without the total model.")
  var totalRules = false

  @Option(
    name: .long,
    help:
      "Issuer catalog whose brands a header is matched against (default: the bundled one, the receipt stage's).",
    completion: .file(extensions: ["json"]))
  var catalog: String?

  func validate() throws {
    guard !paths.isEmpty else { throw ValidationError("give a text file or a folder of them") }
    guard [merchantCandidates, totalCandidates, currencyEvidence].filter({ $0 }).count <= 1 else {
      throw ValidationError(
        "--merchant-candidates, --total-candidates and --currency-evidence dump one kind of evidence each")
    }
  }

  func run() throws {
    let extraction = ReceiptTextExtraction(
      catalog: try loadCatalog(), merchantRules: merchantRules, totalRules: totalRules)
    if records { return try rerun(extraction) }
    let inputs: [ReceiptTextExtraction.Input]
    do {
      inputs = try ReceiptTextExtraction.inputs(at: paths.map { URL(fileURLWithPath: $0) })
    } catch {
      Terminal.error(Terminal.describe(error))
      throw SnapsortExit.usage
    }
    guard !inputs.isEmpty else {
      Terminal.error("no .csv or .txt files under \(paths.joined(separator: ", "))")
      throw SnapsortExit.usage
    }
    var failed = 0
    var rows: [[String]] = []
    for input in inputs {
      if let evidence {
        do {
          let lines = try ReceiptTextLines.read(input.url, name: input.name)
          try printEvidence(input.name, extraction.evidence(evidence, rows: ReceiptLine.rows(from: lines)))
        } catch {
          Terminal.error("\(error)")
          failed += 1
        }
        continue
      }
      let output = extraction.output(for: input)
      if let error = output.error {
        Terminal.error(error.message)
        failed += 1
      }
      if json {
        print(try ReceiptTextExtraction.jsonLine(output))
      } else if let receipt = output.receipt {
        let total = [receipt.total?.description, receipt.currency].compactMap { $0 }.joined(separator: " ")
        rows.append([
          output.file, receipt.merchant ?? "", receipt.date ?? "", total, "\(receipt.items.count)",
        ])
      }
    }
    if !json, !rows.isEmpty {
      print(TextTable.render(header: ["FILE", "MERCHANT", "DATE", "TOTAL", "ITEMS"], rows: rows))
    }
    if failed > 0 { throw SnapsortExit.someFailed }
  }

  /// `--records`: each record's rows extracted again, or a model's evidence on them.
  private func rerun(_ extraction: ReceiptTextExtraction) throws {
    for path in paths {
      let records: [(file: String, rows: [ReceiptLine])]
      do {
        records = try ReceiptTextExtraction.recordRows(at: URL(fileURLWithPath: path))
      } catch {
        Terminal.error("cannot read records \(path): \(error)")
        throw SnapsortExit.usage
      }
      for record in records {
        if let evidence {
          try printEvidence(record.file, extraction.evidence(evidence, rows: record.rows))
        } else {
          let output = ReceiptTextExtraction.Output(
            file: record.file, receipt: extraction.receipt(fromRows: record.rows))
          print(try ReceiptTextExtraction.jsonLine(output))
        }
      }
    }
  }

  /// The evidence a flag asks for instead of records; nil for records.
  private var evidence: ReceiptTextExtraction.Evidence? {
    if merchantCandidates { return .merchant }
    if totalCandidates { return .total }
    return currencyEvidence ? .currency : nil
  }

  /// One line of JSON: the file and a model's evidence on it.
  private func printEvidence(_ file: String, _ evidence: some Encodable) throws {
    var object =
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(evidence)) as? [String: Any] ?? [:]
    object["file"] = file
    let data = try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
  }

  /// The catalog the receipt stage would match against: `--catalog`, else the bundled one.
  private func loadCatalog() throws -> IssuerCatalog {
    do {
      if let catalog { return try IssuerCatalog.load(from: URL(fileURLWithPath: catalog)) }
      return try IssuerCatalog.bundled()
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
    }
  }
}
