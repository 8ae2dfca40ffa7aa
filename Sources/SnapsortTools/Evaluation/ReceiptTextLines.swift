import Foundation
import SnapsortNative

/// A receipt's text read from a file rather than a photo, as the boxes the receipt stage's OCR
/// gives: SROIE's `.lines.csv` (`x1,y1,x2,y2,x3,y3,x4,y4,text`, a box's four corners in pixels,
/// then its text) or plain text, one printed row per line.
///
/// Each line becomes one `TesseractEngine.Item`, so that `ReceiptLine.rows(from:)` joins them into
/// printed rows as it joins OCR words: SROIE boxes a price apart from its label on the same row.
/// Text is taken with its whitespace collapsed to single spaces, as OCR words joined into a row
/// are (a run of spaces is no evidence the extractor could get from tesseract).
public enum ReceiptTextLines {
  /// How a file lays out its lines.
  public enum Format: Sendable, Equatable {
    /// `x1,y1,x2,y2,x3,y3,x4,y4,text`: a quadrilateral's corners, then the text, commas and all.
    case boxed
    /// One printed row per line, top to bottom.
    case plain

    /// `.csv` files hold boxed lines; any other file is plain text.
    public init(fileName: String) {
      self = fileName.lowercased().hasSuffix(".csv") ? .boxed : .plain
    }
  }

  /// Every line's confidence (tesseract's 0–100): the text is taken as read without doubt.
  public static let confidence = 100.0

  /// Plain lines are laid out at the pitch `receipt_warp` scales printed rows to, with a text
  /// height that leaves a gap between them, so that no two lines share a row.
  static let plainPitch = 70.0
  static let plainHeight = 40.0
  static let plainCharacterWidth = 20.0

  /// Reads the lines of `url`, boxed or plain by its name (`Format`).
  ///
  /// - Parameters:
  ///   - url: the file.
  ///   - name: what errors call the file (its path by default).
  /// - Throws: `ReceiptTextError` when the file cannot be read or is not UTF-8, or naming the
  ///   first boxed line that is not eight numbers and a text.
  public static func read(_ url: URL, name: String? = nil) throws -> [TesseractEngine.Item] {
    let name = name ?? url.path
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw ReceiptTextError(file: name, line: nil, "cannot be read (\(error.localizedDescription))")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ReceiptTextError(file: name, line: nil, "is not UTF-8 text")
    }
    switch Format(fileName: url.lastPathComponent) {
    case .boxed: return try boxed(text, file: name)
    case .plain: return plain(text)
    }
  }

  /// The boxed lines of a `.lines.csv` text; blank lines and boxes without text are skipped.
  ///
  /// - Throws: `ReceiptTextError` naming `file` and the first line that is not eight numbers and
  ///   a text.
  public static func boxed(_ text: String, file: String) throws -> [TesseractEngine.Item] {
    var items: [TesseractEngine.Item] = []
    for (index, row) in rows(of: text).enumerated() {
      if let item = try boxedRow(row, file: file, line: index + 1) { items.append(item) }
    }
    return items
  }

  /// One item per non-blank line of plain text, laid out top to bottom.
  public static func plain(_ text: String) -> [TesseractEngine.Item] {
    rows(of: text).enumerated().compactMap { index, row in
      let text = collapsed(row)
      guard !text.isEmpty else { return nil }
      let box = Box(
        x: 0, y: Double(index) * plainPitch, width: Double(text.count) * plainCharacterWidth,
        height: plainHeight)
      return TesseractEngine.Item(text: text, box: box, confidence: confidence)
    }
  }

  /// The text's lines, a byte order mark dropped; `\n`, `\r\n` and `\r` all end a line, so line
  /// numbers are an editor's.
  static func rows(of text: String) -> [Substring] {
    let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
    return body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
  }

  /// One boxed line: its box is the rectangle around the four corners. Nil for a blank line or a
  /// box without text.
  static func boxedRow(_ row: Substring, file: String, line: Int) throws -> TesseractEngine.Item? {
    guard !row.allSatisfy(\.isWhitespace) else { return nil }
    // The text is everything after the eighth comma: SROIE writes it unquoted, commas and all.
    let fields = row.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
    guard fields.count == 9 else {
      throw ReceiptTextError(
        file: file, line: line,
        "expected x1,y1,x2,y2,x3,y3,x4,y4,text (eight numbers, then the text); found \(fields.count) field\(fields.count == 1 ? "" : "s")"
      )
    }
    var numbers: [Double] = []
    for (position, field) in fields.prefix(8).enumerated() {
      guard let value = Double(field.trimmingCharacters(in: .whitespaces)), value.isFinite else {
        throw ReceiptTextError(
          file: file, line: line,
          "coordinate \(position + 1) is \"\(field)\", not a number (expected x1,y1,x2,y2,x3,y3,x4,y4,text)")
      }
      numbers.append(value)
    }
    let text = collapsed(Substring(unquoted(fields[8].trimmingCharacters(in: .whitespaces))))
    guard !text.isEmpty else { return nil }
    let xs = stride(from: 0, to: 8, by: 2).map { numbers[$0] }
    let ys = stride(from: 1, to: 8, by: 2).map { numbers[$0] }
    let left = xs.min()!, top = ys.min()!
    let box = Box(x: left, y: top, width: xs.max()! - left, height: ys.max()! - top)
    return TesseractEngine.Item(text: text, box: box, confidence: confidence)
  }

  /// The text of an RFC 4180 quoted field (`"9"" TIN, ROUND"`) without its quotes; any other text
  /// as it is. SROIE writes quotes inside its text unescaped (`SR: 11" PROWESS`), and one of its
  /// lines begins with a quote it never closes: quotes are the text's own unless they wrap it
  /// whole with every quote inside doubled.
  static func unquoted(_ text: String) -> String {
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
    var result = ""
    var pendingQuote = false
    for character in text.dropFirst().dropLast() {
      if character == "\"" {
        if pendingQuote { result.append("\"") }
        pendingQuote.toggle()
      } else if pendingQuote {
        return text
      } else {
        result.append(character)
      }
    }
    return pendingQuote ? text : result
  }

  /// Words joined by single spaces.
  static func collapsed(_ text: Substring) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
