import Foundation
import SnapsortNative

#if canImport(Glibc)
  import Glibc
#endif

/// Finds the inputs under the given paths: every regular file named or signed as an image,
/// sorted. Folders are walked whatever their names (a folder called `x.jpg` too); every other
/// entry reached is skipped with its reason (a file that is not an image, a pipe, socket or
/// device, a link that leads out of the tree, nowhere or to a folder), so each entry gives
/// exactly one input or one skip. Hidden files and folders are not entered.
public struct InputScanner: Sendable {
  public struct Input: Sendable, Equatable {
    /// Stable name in records: the path under the input root, `/`-separated; bytes of a name
    /// that are not UTF-8 are written `\xHH` (`FileSystemName.display`).
    public var relativePath: String
    public var url: URL
    /// The path's bytes when a name in it is not UTF-8: `url` cannot hold them, this opens it.
    public var fileSystemPath: [UInt8]? = nil
  }

  public struct Listing: Sendable {
    public var inputs: [Input]
    /// Entries that are not inputs (README, sidecar .txt/.json, pipes, links), by relative path.
    public var skipped: [String]
    /// Why each of `skipped` was skipped, by its relative path.
    public var reasons: [String: String] = [:]
  }

  /// What one directory entry is to the scan.
  private enum Entry {
    case folder, file, skip(String)
  }

  public init() {}

  public func scan(_ paths: [URL]) throws -> Listing {
    var listing = Listing(inputs: [], skipped: [])
    let fileManager = FileManager.default
    for root in paths {
      let root = root.standardizedFileURL
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
        throw InputError("no such file or directory: \(root.path)")
      }
      // With several roots, names are prefixed by each root's own name to stay unique.
      let prefix = paths.count > 1 ? root.lastPathComponent + "/" : ""
      if !isDirectory.boolValue {
        listing.inputs.append(Input(relativePath: root.lastPathComponent, url: root))
        continue
      }
      let rootPath = Array(root.path.utf8)
      let realRoot = FileSystemName.resolved(rootPath) ?? rootPath
      do {
        try walk(rootPath, relative: prefix, realRoot: realRoot, into: &listing)
      } catch {
        throw InputError("cannot read the folder \(root.path): \(error)")
      }
    }
    listing.inputs.sort { $0.relativePath < $1.relativePath }
    listing.skipped.sort()
    return listing
  }

  /// Where the photo a record names is, given the paths its run was given: the inverse of the
  /// names `scan` gives (a folder's files by their path under it, prefixed by the folder's own
  /// name when there were several paths; a file given on its own by its name), so a later
  /// command finds the photos from any working folder. Nil when no path could hold it.
  public static func url(of relativePath: String, roots: [URL]) -> URL? {
    let fileManager = FileManager.default
    for root in roots.map(\.standardizedFileURL) {
      var isDirectory: ObjCBool = false
      if fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        if root.lastPathComponent == relativePath { return root }
        continue
      }
      let prefix = roots.count > 1 ? root.lastPathComponent + "/" : ""
      guard relativePath.hasPrefix(prefix) else { continue }
      let candidate = root.appendingPathComponent(String(relativePath.dropFirst(prefix.count)))
      // Two folders of the same name give the same prefix: the one holding the file is meant.
      if roots.count == 1 || fileManager.fileExists(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// Adds each entry of the folder at `directory` (its path's bytes) to `listing`: one input or
  /// one skip each, a folder's entries in its place.
  ///
  /// - Throws: `FileReadError` when the folder itself cannot be read.
  private func walk(
    _ directory: [UInt8], relative: String, realRoot: [UInt8], into listing: inout Listing
  ) throws {
    let names = try FileSystemName.entries(of: directory)
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
      let path = directory + [UInt8(ascii: "/")] + name
      let relativePath = relative + FileSystemName.display(name)
      func skip(_ reason: String) {
        listing.skipped.append(relativePath)
        listing.reasons[relativePath] = reason
      }
      switch Self.entry(at: path, realRoot: realRoot) {
      case .folder:
        do {
          try walk(path, relative: relativePath + "/", realRoot: realRoot, into: &listing)
        } catch {
          skip("a folder that cannot be read: \(error)")
        }
      case .file:
        guard Self.looksLikeImage(path, name: relativePath) else {
          skip("not an image: no image extension, and its first bytes match no image format")
          continue
        }
        let text = String(decoding: path, as: UTF8.self)
        let isText = String(validating: path, as: UTF8.self) != nil
        listing.inputs.append(
          Input(
            relativePath: relativePath, url: URL(fileURLWithPath: text), fileSystemPath: isText ? nil : path))
      case .skip(let reason):
        skip(reason)
      }
    }
  }

  /// What the entry at `path` is, by `lstat`/`stat` alone: nothing is opened, since opening a
  /// pipe blocks until something writes to it.
  private static func entry(at path: [UInt8], realRoot: [UInt8]) -> Entry {
    guard var status = FileSystemName.status(of: path, followingLinks: false) else {
      return .skip("it disappeared while its folder was read")
    }
    if status.st_mode & S_IFMT == S_IFLNK {
      guard let target = FileSystemName.resolved(path) else {
        return .skip(
          errno == ELOOP
            ? "a symbolic link loop: following it never reaches a file"
            : "a symbolic link to nothing: its target is missing")
      }
      guard let followed = FileSystemName.status(of: target, followingLinks: true) else {
        return .skip("a symbolic link whose target disappeared")
      }
      // A file linked from elsewhere is read (a photo manager's selection folder is links), but
      // a folder outside is not walked: the run stays within the trees it was given. A folder
      // reached through a link inside the tree is walked where it really is.
      if followed.st_mode & S_IFMT == S_IFDIR {
        guard target == realRoot || target.starts(with: realRoot + [UInt8(ascii: "/")]) else {
          return .skip("a symbolic link to a folder outside the input folder")
        }
        return .skip("a symbolic link to a folder inside the input: its files are recorded where they are")
      }
      status = followed
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return .folder
    case S_IFREG: return .file
    case S_IFIFO: return .skip("a named pipe (FIFO), not a file: not read, reading it could block")
    case S_IFSOCK: return .skip("a socket, not a file")
    case S_IFCHR, S_IFBLK: return .skip("a device, not a file")
    default: return .skip("not a regular file")
    }
  }

  /// By extension, else by the first bytes (a photo saved without an extension).
  static func looksLikeImage(_ url: URL) -> Bool {
    looksLikeImage(Array(url.path.utf8), name: url.lastPathComponent)
  }

  /// `looksLikeImage(_:)` for a path's bytes; `name` gives the extension. Opened without blocking
  /// and read only when it is still a regular file: it may have been replaced since the scan.
  static func looksLikeImage(_ path: [UInt8], name: String) -> Bool {
    if ImageFormat(fileExtension: URL(fileURLWithPath: name).pathExtension) != nil { return true }
    let descriptor = FileSystemName.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    var head = [UInt8](repeating: 0, count: 12)
    let count = head.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 12) }
    return count > 0 && ImageFormat(signature: Data(head.prefix(count))) != nil
  }
}

public struct InputError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
