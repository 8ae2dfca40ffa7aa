import Crypto
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file's bytes and their content hash: what every record is keyed by.
public enum FileBytes {
  /// The SHA-256 of the bytes, in lowercase hex.
  public static func sha256(of data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
  /// Reads a file with messages that say what is wrong in a person's terms. POSIX calls rather
  /// than `Data(contentsOf:)`: Foundation's error path leaks a buffer per unreadable file (found by
  /// LeakSanitizer), and `O_NONBLOCK` keeps a FIFO in the folder from blocking a worker at open.
  public static func read(_ url: URL) throws -> Data {
    try read(fileSystemPath: Array(url.path.utf8))
  }

  /// `read(_:)` by the path's bytes, for a name that is not UTF-8 (which a `URL` cannot hold).
  public static func read(fileSystemPath path: [UInt8]) throws -> Data {
    let descriptor = FileSystemName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard descriptor >= 0 else { throw FileReadError(openFailure(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw FileReadError(openFailure(errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw FileReadError("a directory, not an image file")
    default: throw FileReadError("not a regular file (a pipe, socket or device), so it was not read")
    }
    var data = Data(count: Int(status.st_size))
    var filled = 0
    while true {
      if filled == data.count { data.count += max(64 * 1024, data.count / 2) }
      let got = data.withUnsafeMutableBytes { buffer in
        Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw FileReadError("cannot read the file: \(String(cString: strerror(errno)))")
      }
      if got == 0 { break }
      filled += got
    }
    data.count = filled
    return data
  }

  private static func openFailure(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "the file disappeared before it could be read"
    case ELOOP: return "a symbolic link that leads back to itself (a loop), so nothing was read"
    case EACCES, EPERM: return "permission denied: the file is not readable"
    default: return "cannot read the file: \(String(cString: strerror(code)))"
    }
  }
}

/// Why a file could not be read, in words a person can act on.
public struct FileReadError: Error, CustomStringConvertible, Sendable, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
