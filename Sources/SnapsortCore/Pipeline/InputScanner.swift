import Foundation
import SnapsortNative

/// Finds the inputs under the given paths: image files by extension or signature, sorted, hidden
/// files skipped, symbolic links followed only when they stay inside the input tree.
public struct InputScanner: Sendable {
  public struct Input: Sendable, Equatable {
    /// Stable name in records: the path under the input root, `/`-separated.
    public var relativePath: String
    public var url: URL
  }

  public struct Listing: Sendable {
    public var inputs: [Input]
    /// Files that are not images (README, sidecar .txt/.json), by relative path.
    public var skipped: [String]
  }

  public init() {}

  public func scan(_ paths: [URL]) throws -> Listing {
    var inputs: [Input] = []
    var skipped: [String] = []
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
        inputs.append(Input(relativePath: root.lastPathComponent, url: root))
        continue
      }
      let realRoot = root.resolvingSymlinksInPath().path
      walk(root, relative: "", realRoot: realRoot, prefix: prefix, into: &inputs, skipped: &skipped)
    }
    inputs.sort { $0.relativePath < $1.relativePath }
    return Listing(inputs: inputs, skipped: skipped.sorted())
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

  private func walk(
    _ directory: URL, relative: String, realRoot: String, prefix: String, into inputs: inout [Input],
    skipped: inout [String]
  ) {
    let fileManager = FileManager.default
    guard let names = try? fileManager.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names.sorted() where !name.hasPrefix(".") {
      let url = directory.appendingPathComponent(name)
      let relativePath = relative.isEmpty ? name : relative + "/" + name
      var isDirectory: ObjCBool = false
      let attributes = try? fileManager.attributesOfItem(atPath: url.path)
      if attributes?[.type] as? FileAttributeType == .typeSymbolicLink {
        let target = url.resolvingSymlinksInPath().path
        guard target == realRoot || target.hasPrefix(realRoot + "/") else {
          skipped.append(prefix + relativePath)
          continue
        }
        // Directories reached through links inside the tree are walked by their real path.
        _ = fileManager.fileExists(atPath: target, isDirectory: &isDirectory)
        if isDirectory.boolValue {
          skipped.append(prefix + relativePath)
          continue
        }
      } else {
        _ = fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory)
      }
      if isDirectory.boolValue {
        // A directory named like an image is an input the user meant; it gets an error record.
        if ImageFormat(fileExtension: url.pathExtension) != nil {
          inputs.append(Input(relativePath: prefix + relativePath, url: url))
        } else {
          walk(
            url, relative: relativePath, realRoot: realRoot, prefix: prefix, into: &inputs, skipped: &skipped)
        }
      } else if attributes?[.type] as? FileAttributeType != .typeRegular,
        attributes?[.type] as? FileAttributeType != .typeSymbolicLink
      {
        // A pipe, socket or device never becomes an input: reading one could block forever. One
        // named like an image still gets a record (an error) so nothing is silently dropped.
        if ImageFormat(fileExtension: url.pathExtension) != nil {
          inputs.append(Input(relativePath: prefix + relativePath, url: url))
        } else {
          skipped.append(prefix + relativePath)
        }
      } else if Self.looksLikeImage(url) {
        inputs.append(Input(relativePath: prefix + relativePath, url: url))
      } else {
        skipped.append(prefix + relativePath)
      }
    }
  }

  /// By extension, else by the first bytes (a photo saved without an extension).
  static func looksLikeImage(_ url: URL) -> Bool {
    if ImageFormat(fileExtension: url.pathExtension) != nil { return true }
    guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 12)) ?? Data()
    return ImageFormat(signature: head) != nil
  }
}

public struct InputError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
