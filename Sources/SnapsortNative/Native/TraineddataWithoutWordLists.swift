import Foundation

/// A tesseract `.traineddata` file rebuilt in memory without its word lists (the system and
/// frequent-word dawgs of the legacy engine and of the LSTM engine), for `TessBaseAPIInit5`.
///
/// A script model's word list covers every language of the script: `Latin`'s is 89 MB on disk
/// and about 210 MB resident, against half a megabyte for the network that reads. The
/// `load_system_dawg` variable cannot drop it: the LSTM recogniser builds its dictionary from its
/// own defaults, not from the variables given at init. And a brand name is rarely a dictionary
/// word, so the list mostly pulls a name's reading towards words it is not.
///
/// The file format (tesseract's `TessdataManager`): a little-endian `UInt32` count of components,
/// that many `Int64` offsets (−1 for a component not present), then the components in order.
public struct TraineddataWithoutWordLists {
  /// `TessdataType` values of the word lists: TESSDATA_SYSTEM_DAWG, TESSDATA_FREQ_DAWG and
  /// TESSDATA_LSTM_SYSTEM_DAWG. Punctuation and number patterns are small and kept.
  static let wordListComponents: Set<Int> = [7, 9, 19]
  /// More components than any tesseract release has: the header is not a traineddata header.
  static let maximumComponents = 1_000

  public let bytes: Data
  /// Bytes of word lists left out.
  public let droppedBytes: Int

  /// Reads only the header and the components kept, so the word list never enters memory.
  /// Returns nil when the file cannot be read or is not a traineddata file this code knows.
  public init?(path: String) {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    guard let size = try? file.seekToEnd(), (try? file.seek(toOffset: 0)) != nil,
      let countBytes = try? file.read(upToCount: 4), countBytes.count == 4
    else { return nil }
    let count = Int(countBytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
    guard count > 0, count <= Self.maximumComponents,
      let offsetBytes = try? file.read(upToCount: count * 8), offsetBytes.count == count * 8
    else { return nil }
    let offsets = (0..<count).map { index in
      offsetBytes.withUnsafeBytes {
        Int64(littleEndian: $0.loadUnaligned(fromByteOffset: index * 8, as: Int64.self))
      }
    }
    guard let ranges = Self.componentRanges(offsets: offsets, fileSize: Int64(size)) else { return nil }
    var components: [Int: Data] = [:]
    var dropped = 0
    for (index, range) in ranges {
      if Self.wordListComponents.contains(index) {
        dropped += Int(range.count)
        continue
      }
      guard (try? file.seek(toOffset: UInt64(range.lowerBound))) != nil,
        let data = try? file.read(upToCount: Int(range.count)), data.count == range.count
      else { return nil }
      components[index] = data
    }
    bytes = Self.assemble(count: count, components: components)
    droppedBytes = dropped
  }

  /// Each present component's byte range: from its offset to the next present one's, the last to
  /// the end of the file. Nil when the offsets do not increase or run past the file.
  static func componentRanges(offsets: [Int64], fileSize: Int64) -> [(Int, Range<Int64>)]? {
    let present = offsets.enumerated().filter { $0.element >= 0 }
    let header = Int64(4 + 8 * offsets.count)
    var ranges: [(Int, Range<Int64>)] = []
    for (position, entry) in present.enumerated() {
      let end = position + 1 < present.count ? present[position + 1].element : fileSize
      guard entry.element >= header, end >= entry.element, end <= fileSize else { return nil }
      ranges.append((entry.offset, entry.element..<end))
    }
    return ranges
  }

  static func assemble(count: Int, components: [Int: Data]) -> Data {
    var header = Data()
    withUnsafeBytes(of: UInt32(count).littleEndian) { header.append(contentsOf: $0) }
    var offset = Int64(4 + 8 * count)
    var body = Data()
    for index in 0..<count {
      guard let component = components[index] else {
        withUnsafeBytes(of: Int64(-1).littleEndian) { header.append(contentsOf: $0) }
        continue
      }
      withUnsafeBytes(of: offset.littleEndian) { header.append(contentsOf: $0) }
      body.append(component)
      offset += Int64(component.count)
    }
    return header + body
  }
}
