import Foundation
import SnapsortCore
import ZIPFoundation

/// Zip files built and read whole in memory (exports are a few MB): the one place that talks to
/// ZIPFoundation.
public enum ZipArchive {
  /// A zip of `entries` in the order given, deflated; a fixed modification date keeps equal
  /// input byte-identical.
  public static func make(_ entries: [(path: String, data: Data)], compress: Bool = true) throws -> Data {
    let archive = try Archive(data: Data(), accessMode: .create)
    let date = Date(timeIntervalSince1970: 1_577_836_800)
    for (path, slice) in entries {
      // A slice keeps its parent's indices; the provider below counts from zero.
      let data = Data(slice)
      try archive.addEntry(
        with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
        compressionMethod: compress ? .deflate : .none
      ) { position, size in
        // ZIPFoundation asks for whole buffers; the last one is shorter.
        let start = Int(position)
        return data.subdata(in: start..<min(start + size, data.count))
      }
    }
    guard let data = archive.data else { throw InputError("could not build the zip archive") }
    return data
  }

  /// Every file entry of a zip, by path, CRC-checked.
  ///
  /// - Throws: `InputError` when the data is not a readable zip.
  public static func read(_ data: Data) throws -> [String: Data] {
    let archive: Archive
    do {
      archive = try Archive(data: data, accessMode: .read)
    } catch {
      throw InputError("not a zip archive")
    }
    var files: [String: Data] = [:]
    for entry in archive where entry.type == .file {
      var content = Data()
      do {
        _ = try archive.extract(entry) { content.append($0) }
      } catch {
        throw InputError("the zip entry \(entry.path) is damaged")
      }
      files[entry.path] = content
    }
    return files
  }
}
