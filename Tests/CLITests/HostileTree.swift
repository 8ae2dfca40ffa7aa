import Foundation
import SnapsortNative

#if canImport(Glibc)
  import Glibc
#endif

/// Builds a tree of everything a folder can hold besides photos (folders named like images,
/// pipes, a socket, a device, link loops, names with newlines and bytes that are not UTF-8),
/// made at test time, never committed.
enum HostileTree {
  /// Writes the tree under `root`; returns the records a run must give (by `file`) and the skips
  /// it must count (by path, with the start of each reason).
  static func write(to root: URL, jpeg: Data) throws -> (records: Set<String>, skips: [String: String]) {
    let fm = FileManager.default
    try fm.createDirectory(at: root.appendingPathComponent("x.jpg/y.png"), withIntermediateDirectories: true)
    try fm.createDirectory(at: root.appendingPathComponent("new\nline"), withIntermediateDirectories: true)
    var records: Set<String> = []
    var skips: [String: String] = [:]
    for name in ["photo.jpg", "x.jpg/y.png/z.jpg", "new\nline/photo\n.jpg"] {
      try jpeg.write(to: root.appendingPathComponent(name))
      records.insert(name)
    }
    try Data().write(to: root.appendingPathComponent("empty.jpg"))
    records.insert("empty.jpg")
    try Data("notes".utf8).write(to: root.appendingPathComponent("x.jpg/notes.txt"))
    skips["x.jpg/notes.txt"] = "not an image"
    try jpeg.write(to: root.appendingPathComponent(".hidden.jpg"))
    // Names whose bytes are not UTF-8.
    try writeRaw(root, Array("bad".utf8) + [0xFF, 0xFE] + Array("name.jpg".utf8), jpeg)
    records.insert("bad\\xFF\\xFEname.jpg")
    try writeRaw(root, Array("bad".utf8) + [0xC3] + Array(".txt".utf8), Data("text".utf8))
    skips["bad\\xC3.txt"] = "not an image"
    // What is not a file: opening a pipe blocks; a socket and a device are not photos.
    for name in ["fifo.jpg", "fifo"] {
      try check(mkfifo(root.appendingPathComponent(name).path, 0o644), name)
      skips[name] = "a named pipe"
    }
    if bindSocket(at: root.appendingPathComponent("socket.png")) { skips["socket.png"] = "a socket" }
    // Only root may make a device node (and not in every container): /dev/null linked is tried too.
    if mknod(root.appendingPathComponent("device.jpg").path, mode_t(S_IFCHR) | 0o644, dev_t(0x103)) == 0 {
      skips["device.jpg"] = "a device"
    }
    let links: [(String, String, String?)] = [
      ("null.jpg", "/dev/null", "a device"),
      ("loop-a.jpg", "loop-b.jpg", "a symbolic link loop"),
      ("loop-b.jpg", "loop-a.jpg", "a symbolic link loop"),
      ("self.jpg", "self.jpg", "a symbolic link loop"),
      ("dangling.jpg", "missing.jpg", "a symbolic link to nothing"),
      ("up", "..", "a symbolic link to a folder outside"), ("again", "x.jpg", "a symbolic link to a folder"),
      ("link.jpg", "photo.jpg", nil),
    ]
    for (name, target, reason) in links {
      try check(symlink(target, root.appendingPathComponent(name).path), name)
      if let reason { skips[name] = reason } else { records.insert(name) }
    }
    return (records, skips)
  }

  /// Every entry under `root` that is not a folder, hidden ones left out, found by `lstat`.
  static func entries(under root: URL) -> Int {
    func count(_ path: [UInt8]) -> Int {
      let names = (try? FileSystemName.entries(of: path)) ?? []
      return names.filter { $0.first != UInt8(ascii: ".") }.reduce(0) { total, name in
        let child = path + [UInt8(ascii: "/")] + name
        let status = FileSystemName.status(of: child, followingLinks: false)
        let isFolder = status.map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
        return total + (isFolder ? count(child) : 1)
      }
    }
    return count(Array(root.path.utf8))
  }

  private static func writeRaw(_ root: URL, _ name: [UInt8], _ data: Data) throws {
    let path = Array(root.path.utf8) + [UInt8(ascii: "/")] + name
    let descriptor = FileSystemName.withCString(path) { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    guard written == data.count else { throw CocoaError(.fileWriteUnknown) }
  }

  /// A Unix socket bound at `url`; the socket file stays after the descriptor is closed.
  private static func bindSocket(at url: URL) -> Bool {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(url.path.utf8)
    let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Bool in
      guard path.count < raw.count else { return false }
      raw.copyBytes(from: path)
      return true
    }
    guard fits else { return false }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
      }
    }
  }

  /// Throws, naming `name`, when the call that made it returned other than 0.
  private static func check(_ result: Int32, _ name: String) throws {
    guard result != 0 else { return }
    let reason = "cannot make \(name): \(String(cString: strerror(errno)))"
    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
  }
}
