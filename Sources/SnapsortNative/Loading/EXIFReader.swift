/// Reads the orientation tag from EXIF data, defensively: offsets are bounds-checked and any
/// inconsistency means "no orientation" rather than an error, as image viewers behave.
enum EXIFReader {
  /// The orientation from a JPEG's APP1 Exif segment, or 1.
  static func orientation(inJPEG data: UnsafeRawBufferPointer) -> Int {
    var offset = 2
    while offset + 4 <= data.count {
      guard data[offset] == 0xFF else { return 1 }
      let marker = data[offset + 1]
      if marker == 0xFF {
        offset += 1
        continue
      }
      // Start of scan or end of image: no metadata beyond this point.
      if marker == 0xDA || marker == 0xD9 { return 1 }
      if (0xD0...0xD7).contains(marker) || marker == 0x01 {
        offset += 2
        continue
      }
      let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
      guard length >= 2, offset + 2 + length <= data.count else { return 1 }
      if marker == 0xE1, length >= 8 {
        let start = offset + 4
        if data[start] == 0x45, data[start + 1] == 0x78, data[start + 2] == 0x69,
          data[start + 3] == 0x66, data[start + 4] == 0, data[start + 5] == 0
        {
          let tiff = UnsafeRawBufferPointer(rebasing: data[(start + 6)..<(offset + 2 + length)])
          return orientation(inTIFF: tiff)
        }
      }
      offset += 2 + length
    }
    return 1
  }

  /// The orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block, or 1.
  static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> Int {
    guard tiff.count >= 8 else { return 1 }
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return 1
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= tiff.count else { return nil }
      return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
      return high << 16 | low
    }
    guard let ifd = u32(4), let count = u16(ifd), count < 1000 else { return 1 }
    for entry in 0..<count {
      let at = ifd + 2 + entry * 12
      guard let tag = u16(at) else { return 1 }
      if tag == 0x0112 {
        guard let value = u16(at + 8), (1...8).contains(value) else { return 1 }
        return value
      }
    }
    return 1
  }
}
