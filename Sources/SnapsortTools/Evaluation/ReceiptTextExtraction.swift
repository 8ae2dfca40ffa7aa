import Foundation
import SnapsortCore
import SnapsortNative
import SnapsortStages

/// The receipt stage's field extraction run on text lines from files instead of on OCR: with a
/// dataset's own transcription it measures the extractor's ceiling, and against a run's records
/// of the same receipts, what OCR costs (`bench/receipts`).
///
/// The extraction is the stage's own: lines are joined into printed rows by
/// `ReceiptLine.rows(from:)` and read by `ReceiptExtractor.extract`, as the stage does with each
/// OCR reading. What the stage does about OCR itself (reading the binarised image too, reading the
/// total's line, the date's and the logo again) needs pixels, and has none to work on here.
public struct ReceiptTextExtraction: Sendable {
  /// One file's result in a record's shape, so that the tools that read `records.jsonl` read it:
  /// `file`, `kind`, `status`, and `receipt` (as records write it) or `error`.
  public struct Output: Codable, Sendable, Equatable {
    public struct Failure: Codable, Sendable, Equatable {
      public var message: String
    }

    public var file: String
    public var kind = "receipt"
    public var status: String
    public var receipt: ReceiptRecord?
    public var error: Failure?

    public init(file: String, receipt: ReceiptRecord) {
      self.file = file
      status = "ok"
      self.receipt = receipt
    }

    public init(file: String, error message: String) {
      self.file = file
      status = "error"
      error = Failure(message: message)
    }
  }

  /// A text file to read and the name its output carries.
  public struct Input: Sendable, Equatable {
    public var url: URL
    /// The path below the folder given, `/`-separated; a file given itself is named by its name.
    public var name: String
  }

  private let extractor: ReceiptExtractor

  /// - Parameters:
  ///   - catalog: the issuer names a header is matched against (the receipt stage's `catalog`);
  ///     none matches no brand.
  ///   - merchantRules: the extractor's rules alone name the merchant, without the bundled
  ///     merchant model (the model's before and after).
  ///   - totalRules: the extractor's rules alone choose the total, without the bundled total
  ///     model.
  public init(catalog: IssuerCatalog?, merchantRules: Bool = false, totalRules: Bool = false) {
    extractor = ReceiptExtractor(
      catalog: catalog, merchantModel: merchantRules ? nil : ReceiptExtractor.bundledMerchantModel,
      totalModel: totalRules ? nil : ReceiptExtractor.bundledTotalModel)
  }

  /// The receipt the stage would extract from a record's rows (`receipt.text`), each taken as
  /// one printed row, as the stage read it.
  public func receipt(fromRows rows: [ReceiptLine]) -> ReceiptRecord {
    extractor.extract(rows)
  }

  /// What `receipt-text` dumps for a fitting script instead of records.
  public enum Evidence: Sendable {
    /// The merchant model's: the rules' answer and the header's candidates with their features.
    case merchant
    /// The total model's: the rules' total and the page's amounts with their features.
    case total
    /// What the receipt says of its currency: marks, country and language.
    case currency
  }

  /// One kind of evidence on one receipt's rows (a record's, or those `ReceiptLine.rows(from:)`
  /// rebuilds from boxed lines).
  public func evidence(_ kind: Evidence, rows: [ReceiptLine]) -> any Encodable {
    switch kind {
    case .merchant: extractor.merchantEvidence(rows)
    case .total: extractor.totalEvidence(rows)
    case .currency: extractor.currencyEvidence(rows)
    }
  }

  /// Each record of a run's `records.jsonl` that has receipt rows: its file and its rows, each
  /// row one `ReceiptLine` of its text, box and confidence.
  public static func recordRows(at url: URL) throws -> [(file: String, rows: [ReceiptLine])] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").compactMap { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard let file = object?["file"] as? String, let receipt = object?["receipt"] as? [String: Any],
        let rows = receipt["text"] as? [[String: Any]]
      else { return nil }
      return (
        file,
        rows.map { row in
          let box = (row["box"] as? [Double]) ?? [0, 0, 0, 0]
          return ReceiptLine(
            text: row["text"] as? String ?? "", box: Box(x: box[0], y: box[1], width: box[2], height: box[3]),
            confidence: row["confidence"] as? Double ?? 0)
        }
      )
    }
  }

  /// The receipt the stage would extract from OCR that read exactly `lines`.
  public func receipt(from lines: [TesseractEngine.Item]) -> ReceiptRecord {
    extractor.extract(ReceiptLine.rows(from: lines))
  }

  /// One input's output: its receipt, or the error that kept it from being read.
  public func output(for input: Input) -> Output {
    do {
      let lines = try ReceiptTextLines.read(input.url, name: input.name)
      return Output(file: input.name, receipt: receipt(from: lines))
    } catch {
      return Output(file: input.name, error: "\(error)")
    }
  }

  /// The text files to read: each path that is a file, and the `.csv` and `.txt` files under each
  /// folder (hidden ones skipped), sorted by name. With several paths, names begin with each
  /// path's own name, as `snapsort run` names records, so that they stay apart.
  ///
  /// - Throws: `InputError` for a path that does not exist.
  public static func inputs(at paths: [URL]) throws -> [Input] {
    var inputs: [Input] = []
    for root in paths.map(\.standardizedFileURL) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
        throw InputError("no such file or directory: \(root.path)")
      }
      let prefix = paths.count > 1 ? root.lastPathComponent + "/" : ""
      guard isDirectory.boolValue else {
        inputs.append(Input(url: root, name: root.lastPathComponent))
        continue
      }
      let walker = FileManager.default.enumerator(atPath: root.path)
      while let relative = walker?.nextObject() as? String {
        let url = root.appendingPathComponent(relative)
        if url.lastPathComponent.hasPrefix(".") {
          walker?.skipDescendants()
          continue
        }
        var isFolder: ObjCBool = false
        guard ["csv", "txt"].contains(url.pathExtension.lowercased()),
          FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue
        else { continue }
        inputs.append(Input(url: url, name: prefix + relative))
      }
    }
    return inputs.sorted { $0.name < $1.name }
  }

  /// An output as one line of JSON, keys sorted as `records.jsonl` writes them.
  public static func jsonLine(_ output: Output) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(output), as: UTF8.self)
  }
}
