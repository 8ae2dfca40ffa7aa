import Foundation
import SnapsortNative
import XCTest

/// Browsers show JPEG, PNG and WebP but not HEIC, the format iPhones save: the review page gets a
/// HEIC photo as an upright JPEG of the same size, so the card's corners land where the record
/// says.
extension ReviewCommandTests {
  func testAHEICPhotoIsServedAsAJPEGOfTheSameSize() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let photos = directory.appendingPathComponent("photos")
    let out = directory.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    // Red on the left, blue on the right: a turned or mirrored photo would swap them.
    let (width, height) = (320, 200)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let index = (y * width + x) * 3
        if x < width / 2 { pixels[index] = 220 } else { pixels[index + 2] = 220 }
      }
    }
    let heic = try ImageEncoder.heic(Bitmap(width: width, height: height, format: .rgb, pixels: pixels))
    try heic.write(to: photos.appendingPathComponent("phone.heic"))
    _ = try CLI.run(["run", photos.path, "--out", out.path, "--jobs", "1", "--quiet"])

    let server = try Server([out.path])
    defer { _ = server.interrupt() }
    let photo = try server.request("/photo?file=phone.heic")
    XCTAssertEqual(photo.status, 200, String(decoding: photo.data, as: UTF8.self))
    XCTAssertEqual(ImageFormat(signature: photo.data.prefix(12)), .jpeg)
    let bitmap = try photo.data.withUnsafeBytes { try JPEGDecoder.decode($0, reduction: 1) }
    XCTAssertEqual([bitmap.width, bitmap.height], [width, height])
    let row = height / 2 * bitmap.rowBytes
    XCTAssertGreaterThan(Int(bitmap.pixels[row + 10 * 3]), 150, "red stays on the left")
    XCTAssertGreaterThan(Int(bitmap.pixels[row + (width - 10) * 3 + 2]), 150, "blue stays on the right")
  }
}
