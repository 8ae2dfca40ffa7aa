import Foundation

/// A JSON Lines file that every worker of a run appends to, one value a line, for a bench script
/// to fit on (a bench setting, off in every preset).
final class JSONLinesLog: @unchecked Sendable {
  // Safety: `handle` is only touched while `lock` is held.
  private let handle: FileHandle
  private let lock = NSLock()

  init(url: URL) throws {
    // Every worker's stage opens the file; appending mode keeps their lines whole and apart.
    let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { throw DataFileError(.unreadable, "cannot open \(url.path) to append to") }
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  func append(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard var data = try? encoder.encode(value) else { return }
    data.append(0x0A)
    lock.lock()
    defer { lock.unlock() }
    try? handle.write(contentsOf: data)
  }
}
