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

extension ReviewCommandTests {
  /// A receipt is checked against its page as the run flattened it, not the whole photo: the
  /// page comes back in the proportions of the record's outline, and a card has none.
  func testAReceiptIsShownFlattenedByItsOutline() throws {
    let file = "receipt-01-en-photo.jpg"
    let server = try Server([Self.out.path])
    defer { _ = server.interrupt() }
    let detail = try XCTUnwrap(server.request("/api/record?file=\(file)").json as? [String: Any])
    let path = try XCTUnwrap(detail["page"] as? String, "a receipt with an outline has a page")
    let receipt = try XCTUnwrap((detail["record"] as? [String: Any])?["receipt"] as? [String: Any])
    let corners = try XCTUnwrap(receipt["quad"] as? [[Double]])
    let image = try XCTUnwrap((detail["record"] as? [String: Any])?["image"] as? [String: Any])
    let photoWidth = try XCTUnwrap(image["width"] as? Int),
      photoHeight = try XCTUnwrap(image["height"] as? Int)
    func side(_ a: Int, _ b: Int) -> Double {
      hypot(corners[a][0] - corners[b][0], corners[a][1] - corners[b][1])
    }
    let aspect = (side(0, 1) + side(3, 2)) / (side(0, 3) + side(1, 2))

    let page = try server.request(path + "&token=\(server.token)", token: false)
    XCTAssertEqual(page.status, 200, String(decoding: page.data, as: UTF8.self))
    XCTAssertEqual(ImageFormat(signature: page.data.prefix(12)), .jpeg)
    let bitmap = try page.data.withUnsafeBytes { try JPEGDecoder.decode($0, reduction: 1) }
    XCTAssertEqual(Double(bitmap.width) / Double(bitmap.height), aspect, accuracy: 0.02)
    XCTAssertNotEqual(
      [bitmap.width, bitmap.height], [photoWidth, photoHeight], "the photo's paper, not the whole photo")

    let card = try XCTUnwrap(server.request("/api/record?file=card-01-wood.jpg").json as? [String: Any])
    XCTAssertNil(card["page"])
    XCTAssertEqual(try server.request("/page?file=card-01-wood.jpg").status, 404)
    XCTAssertEqual(try server.request("/page?file=..%2F..%2Fetc%2Fpasswd").status, 400)
  }
}
