import Foundation

/// Reads the orientation tag and the capture date from EXIF data, defensively: offsets are
/// bounds-checked and any inconsistency means "no tag" rather than an error, as image viewers
/// behave.
public enum EXIFReader {
  /// The orientation from a JPEG's APP1 Exif segment, or 1.
  static func orientation(inJPEG data: UnsafeRawBufferPointer) -> Int {
    tiffBlock(inJPEG: data).map(orientation(inTIFF:)) ?? 1
  }

  /// When the photo was taken, as the camera's clock wrote it (`YYYY-MM-DD`, no time zone):
  /// DateTimeOriginal (0x9003) of the Exif IFD, else DateTime (0x0132) of IFD0; nil when the
  /// JPEG has neither.
  public static func captureDay(inJPEG data: Data) -> String? {
    data.withUnsafeBytes { captureDay(inJPEG: $0) }
  }

  static func captureDay(inJPEG bytes: UnsafeRawBufferPointer) -> String? {
    guard let tiff = tiffBlock(inJPEG: bytes) else { return nil }
    let reader = TIFFReader(tiff)
    let ifd0 = reader.u32(4)
    let exif = ifd0.flatMap { reader.entry(0x8769, in: $0) }.flatMap { reader.u32($0 + 8) }
    let stamp =
      exif.flatMap { reader.entry(0x9003, in: $0) }.flatMap(reader.ascii)
      ?? ifd0.flatMap { reader.entry(0x0132, in: $0) }.flatMap(reader.ascii)
    // `2019:06:30 14:03:11`; cameras without a set clock write zeros or blanks.
    guard let stamp, stamp.count >= 10 else { return nil }
    let day = stamp.prefix(10).map { $0 == ":" ? "-" : $0 }
    let parts = String(day).split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1990...2099).contains(parts[0]), (1...12).contains(parts[1]),
      (1...31).contains(parts[2])
    else { return nil }
    return String(day)
  }

  /// The TIFF-structured block of a JPEG's APP1 Exif segment.
  static func tiffBlock(inJPEG data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    var offset = 2
    while offset + 4 <= data.count {
      guard data[offset] == 0xFF else { return nil }
      let marker = data[offset + 1]
      if marker == 0xFF {
        offset += 1
        continue
      }
      // Start of scan or end of image: no metadata beyond this point.
      if marker == 0xDA || marker == 0xD9 { return nil }
      if (0xD0...0xD7).contains(marker) || marker == 0x01 {
        offset += 2
        continue
      }
      let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
      guard length >= 2, offset + 2 + length <= data.count else { return nil }
      if marker == 0xE1, length >= 8 {
        let start = offset + 4
        if data[start] == 0x45, data[start + 1] == 0x78, data[start + 2] == 0x69,
          data[start + 3] == 0x66, data[start + 4] == 0, data[start + 5] == 0
        {
          return UnsafeRawBufferPointer(rebasing: data[(start + 6)..<(offset + 2 + length)])
        }
      }
      offset += 2 + length
    }
    return nil
  }

  /// The orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block, or 1.
  static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> Int {
    let reader = TIFFReader(tiff)
    guard let ifd = reader.u32(4), let entry = reader.entry(0x0112, in: ifd),
      let value = reader.u16(entry + 8),
      (1...8).contains(value)
    else { return 1 }
    return value
  }
}

/// Bounds-checked reads of a TIFF-structured block in its byte order.
struct TIFFReader {
  let tiff: UnsafeRawBufferPointer
  let little: Bool?

  init(_ tiff: UnsafeRawBufferPointer) {
    self.tiff = tiff
    switch tiff.count >= 8 ? (tiff[0], tiff[1]) : (0, 0) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: little = nil
    }
  }

  func u16(_ at: Int) -> Int? {
    guard let little, at >= 0, at + 2 <= tiff.count else { return nil }
    return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
  }

  func u32(_ at: Int) -> Int? {
    guard let little, let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else {
      return nil
    }
    return high << 16 | low
  }

  /// The offset of the 12-byte entry of `tag` in the IFD at `ifd`.
  func entry(_ tag: Int, in ifd: Int) -> Int? {
    guard let count = u16(ifd), count < 1000 else { return nil }
    return (0..<count).lazy.map { ifd + 2 + $0 * 12 }.first { u16($0) == tag }
  }

  /// The ASCII value of the entry at `entry` (type 2), without its terminating zero.
  func ascii(_ entry: Int) -> String? {
    guard u16(entry + 2) == 2, let count = u32(entry + 4), count > 0, count < 256 else { return nil }
    let start = count <= 4 ? entry + 8 : u32(entry + 8) ?? -1
    guard start >= 0, start + count <= tiff.count else { return nil }
    let bytes = tiff[start..<(start + count)].prefix { $0 != 0 }
    return String(bytes: bytes, encoding: .ascii)
  }
}
