import Foundation
import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// The capture date a receipt's date is checked against (issue #27 item 2).
final class EXIFCaptureDayTests: XCTestCase {
  /// SOI and an APP1 Exif segment whose IFD0 holds DateTime and a pointer to an Exif IFD with
  /// DateTimeOriginal, in the byte order asked for; then the start of a scan.
  static func jpegHeader(original: String?, modified: String?, littleEndian: Bool) -> Data {
    func u16(_ value: Int) -> [UInt8] {
      littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
    func u32(_ value: Int) -> [UInt8] {
      littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
    }
    // Layout: header 8, IFD0 at 8 (2 entries: 2 + 24 + 4 = 30), Exif IFD at 38 (1 entry: 18),
    // strings at 56 and 76.
    var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
    tiff += u16(2)
    tiff += u16(0x0132) + u16(2) + u32(20) + u32(modified == nil ? 0 : 76)
    tiff += u16(0x8769) + u16(4) + u32(1) + u32(38)
    tiff += u32(0)
    tiff += u16(1) + u16(original == nil ? 0x9999 : 0x9003) + u16(2) + u32(20) + u32(56) + u32(0)
    for text in [original, modified] {
      tiff +=
        Array((text ?? "").utf8.prefix(19))
        + [UInt8](repeating: 0, count: 20 - min(19, (text ?? "").utf8.count))
    }
    let segment: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
    return Data([0xFF, 0xD8, 0xFF, 0xE1] + u16Big(segment.count + 2) + segment + [0xFF, 0xDA, 0, 2])
  }

  static func u16Big(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

  func testDateTimeOriginalFirstThenDateTimeInEitherByteOrder() {
    for little in [true, false] {
      XCTAssertEqual(
        EXIFReader.captureDay(
          inJPEG: Self.jpegHeader(
            original: "2019:06:30 14:03:11", modified: "2021:01:02 10:00:00", littleEndian: little)),
        "2019-06-30")
      XCTAssertEqual(
        EXIFReader.captureDay(
          inJPEG: Self.jpegHeader(original: nil, modified: "2021:01:02 10:00:00", littleEndian: little)),
        "2021-01-02")
    }
    XCTAssertNil(
      EXIFReader.captureDay(
        inJPEG: Self.jpegHeader(original: "0000:00:00 00:00:00", modified: nil, littleEndian: true)))
    XCTAssertNil(EXIFReader.captureDay(inJPEG: Data([0xFF, 0xD8, 0xFF, 0xDA])))
    XCTAssertNil(EXIFReader.captureDay(inJPEG: Data("not a jpeg".utf8)))
  }

  /// A real JPEG with the header's APP1 segment spliced in after its SOI, loaded by the load
  /// stage as a run loads it (the file's bytes are read once).
  private func loaded(original: String?) throws -> PhotoItem {
    let header = Self.jpegHeader(original: original, modified: nil, littleEndian: true)
    let pixels = try ImageEncoder.jpeg(Bitmap(width: 64, height: 96, format: .rgb, fill: 240))
    let data = pixels.prefix(2) + header.dropFirst(2).dropLast(4) + pixels.dropFirst(2)
    let photo = PhotoItem(
      relativePath: "r.jpg", url: URL(fileURLWithPath: "/nonexistent/r.jpg"), outputDirectory: nil,
      prefetched: Data(data))
    try LoadStage(options: .init(), context: StageContext()).process(photo)
    return photo
  }

  func testAReceiptCannotBeDatedAfterThePhotoWasTakenWhateverTheFileTime() throws {
    let photo = try loaded(original: nil)
    XCTAssertNil(ReceiptStage.latestDate(of: photo), "no EXIF date and no file: no limit")
    let taken = try loaded(original: "2018:02:14 09:00:00")
    XCTAssertEqual(ReceiptStage.latestDate(of: taken), "2018-02-15")
  }
}
