import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// File names as the kernel holds them: bytes, not necessarily UTF-8. Foundation on Linux turns
/// bytes that are not UTF-8 into U+FFFD when it lists a folder, and the path it then gives opens
/// nothing; folders are read here through `readdir`, and such a name keeps its bytes for `open`.
public enum FileSystemName {
  /// The names in the folder at `path` (without `.` and `..`), as bytes.
  ///
  /// - Throws: `FileReadError` when the folder cannot be opened (permission, gone).
  public static func entries(of path: [UInt8]) throws -> [[UInt8]] {
    guard let directory = withCString(path, { opendir($0) }) else {
      throw FileReadError("the folder cannot be read: \(String(cString: strerror(errno)))")
    }
    // "closedir() closes the directory stream associated with dirp", freeing it (closedir(3)).
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      if name == [0x2E] || name == [0x2E, 0x2E] { continue }
      names.append(name)
    }
    return names
  }

  /// A name as records show it: the name itself when it is UTF-8; otherwise each byte that is not
  /// part of a UTF-8 character is written `\xHH`, so the name stays readable and two different
  /// names stay different.
  public static func display(_ bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var text = ""
    var index = 0
    outer: while index < bytes.count {
      // A valid UTF-8 character starting here is 1 to 4 bytes long, and only one length fits.
      for length in 1...4 where index + length <= bytes.count {
        if let character = String(validating: bytes[index..<index + length], as: UTF8.self) {
          text += character
          index += length
          continue outer
        }
      }
      text += String(format: "\\x%02X", bytes[index])
      index += 1
    }
    return text
  }

  /// The `stat` of `path` (`lstat` when `followingLinks` is false); nil when it is gone or a link
  /// leads nowhere (a loop, a missing target), with `errno` saying which.
  public static func status(of path: [UInt8], followingLinks: Bool) -> stat? {
    var status = stat()
    let result = withCString(path) { followingLinks ? stat($0, &status) : lstat($0, &status) }
    return result == 0 ? status : nil
  }

  /// The canonical path `path` leads to through every link, or nil (a loop, a missing target).
  public static func resolved(_ path: [UInt8]) -> [UInt8]? {
    guard let real = withCString(path, { realpath($0, nil) }) else { return nil }
    // "The caller should deallocate this buffer using free(3)" (realpath(3)).
    defer { free(real) }
    return Array(UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) })
  }

  /// Calls `body` with `path` as a NUL-terminated C string.
  public static func withCString<Result>(
    _ path: [UInt8], _ body: (UnsafePointer<CChar>) throws -> Result
  ) rethrows -> Result {
    try (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
  }
}
