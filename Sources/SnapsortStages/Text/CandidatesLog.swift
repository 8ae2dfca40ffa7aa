import Foundation

/// Name candidates with their features and readings, appended to a JSON Lines file one photo per
/// line, for `bench/names/fit_names.py` to fit the name model on (the ocr stage's
/// `name_candidates_file`; a bench setting, off in every preset).
final class CandidatesLog: @unchecked Sendable {
  // Safety: `handle` is only touched while `lock` is held.
  private let handle: FileHandle
  private let lock = NSLock()

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
    // Every worker's stage opens the file; appending mode keeps their lines whole and apart.
    let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else {
      throw DataFileError(.unreadable, "cannot open \(url.path) to append name candidates")
    }
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  func append(file: String, entries: [Entry]) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard var data = try? encoder.encode(Photo(file: file, candidates: entries)) else { return }
    data.append(0x0A)
    lock.lock()
    defer { lock.unlock() }
    try? handle.write(contentsOf: data)
  }
}
