import Foundation

/// Name candidates with their features and readings, appended to a JSON Lines file one photo per
/// line, for `bench/names/fit_names.py` to fit the name model on (the ocr stage's
/// `name_candidates_file`; a bench setting, off in every preset).
final class CandidatesLog: Sendable {
  private let log: JSONLinesLog

  struct Entry: Encodable {
    var text: String
    var box: [Double]
    var features: [String: Double]
    var reread: CardNameReader.LineReading?
    var reconciled: String
    /// The most confident Cyrillic pack's reading with Cyrillic letters, if any.
    var cyrillic: CardNameReader.LineReading?

    init(
      candidate: CardNamePicker.Candidate, reading: CardNameReader.LineReading?, reconciled: String,
      cyrillic: CardNameReader.LineReading?
    ) {
      text = candidate.text
      box = [candidate.box.x, candidate.box.y, candidate.box.width, candidate.box.height]
      features = candidate.features
      reread = reading
      self.reconciled = reconciled
      self.cyrillic = cyrillic
    }
  }

  private struct Photo: Encodable {
    var file: String
    var candidates: [Entry]
  }

  init(url: URL) throws {
    log = try JSONLinesLog(url: url)
  }

  func append(file: String, entries: [Entry]) {
    log.append(Photo(file: file, candidates: entries))
  }
}
