import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class LoadStageTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = try TestImages.temporaryDirectory()
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func load(_ data: Data, name: String, options: LoadStage.Options = .init()) throws -> PhotoItem {
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return try load(url: url, options: options)
  }

  private func load(url: URL, options: LoadStage.Options = .init()) throws -> PhotoItem {
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: options, context: StageContext()).process(item)
    return item
  }

  private func assertFails(
    _ data: Data, name: String, contains text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try load(data, name: name), file: file, line: line) { error in
      XCTAssertTrue(
        "\(error)".contains(text), "“\(error)” does not mention “\(text)”", file: file, line: line)
    }
  }

  func testDecodesJPEGPNGAndWebPToTheSamePixels() throws {
    let image = TestImages.quadrants()
    for (name, data) in [
      ("a.jpg", try ImageEncoder.jpeg(image, quality: 95)), ("a.png", try ImageEncoder.png(image)),
      ("a.webp", try ImageEncoder.webp(image, quality: 95)),
    ] {
      let item = try load(data, name: name)
      let analysis = try XCTUnwrap(item.artifacts[ImagePixels.self]?.analysis, name)
      XCTAssertEqual(analysis.width, 64, name)
      XCTAssertEqual(item.record.image?.height, 48, name)
      let red = TestImages.meanColour(analysis, x: 6, y: 6)
      XCTAssertGreaterThan(red[0], 180, name)
      XCTAssertLessThan(red[2], 70, name)
      XCTAssertEqual(item.record.sha256.count, 64)
    }
  }

  func testProgressiveGreyAndCMYKJPEG() throws {
    let image = TestImages.quadrants(width: 256, height: 128)
    let progressive = try load(ImageEncoder.jpeg(image, progressive: true), name: "progressive.jpg")
    XCTAssertGreaterThan(
      TestImages.meanColour(try XCTUnwrap(progressive.artifacts[ImagePixels.self]?.analysis), x: 200, y: 10)[
        1], 160)
    let grey = try load(ImageEncoder.jpeg(image.grayscale()), name: "grey.jpg")
    XCTAssertEqual(grey.artifacts[ImagePixels.self]?.analysis.format, .gray)
    // Full cyan ink and nothing else prints as cyan: red low, green and blue high. The encoder
    // writes an Adobe marker, so samples are stored inverted (0 = full ink).
    var cmyk = [UInt8](repeating: 255, count: 64 * 64 * 4)
    for i in 0..<(64 * 64) { cmyk[4 * i] = 0 }
    let cyan = try load(ImageEncoder.cmykJPEG(width: 64, height: 64, cmyk: cmyk), name: "cmyk.jpg")
    let colour = TestImages.meanColour(
      try XCTUnwrap(cyan.artifacts[ImagePixels.self]?.analysis), x: 30, y: 30)
    XCTAssertLessThan(colour[0], 60, "\(colour)")
    XCTAssertGreaterThan(colour[2], 200, "\(colour)")
  }

  func testDecodesHEIC() throws {
    let image = TestImages.quadrants(width: 128, height: 96)
    let item = try load(ImageEncoder.heic(image, quality: 90), name: "photo.heic")
    XCTAssertEqual(item.record.image?.format, "heic")
    let analysis = try XCTUnwrap(item.artifacts[ImagePixels.self]?.analysis)
    XCTAssertEqual(analysis.width, 128)
    let blue = TestImages.meanColour(analysis, x: 10, y: 70)
    XCTAssertGreaterThan(blue[2], 170)
    XCTAssertLessThan(blue[0], 80)
  }

  func testSixteenBitAndGreyPNG() throws {
    let image = TestImages.quadrants()
    let wide = try load(ImageEncoder.png(image, sixteenBit: true), name: "wide.png")
    XCTAssertEqual(wide.artifacts[ImagePixels.self]?.analysis.format, .rgb)
    let white = TestImages.meanColour(try XCTUnwrap(wide.artifacts[ImagePixels.self]?.analysis), x: 50, y: 40)
    XCTAssertGreaterThan(white[1], 240)
    let grey = try load(ImageEncoder.png(image.grayscale()), name: "grey.png")
    XCTAssertEqual(grey.artifacts[ImagePixels.self]?.analysis.format, .gray)
  }

  func testAppliesEveryEXIFOrientation() throws {
    let image = TestImages.quadrants(width: 64, height: 32)
    let jpeg = try ImageEncoder.jpeg(image, quality: 95)
    for orientation in 1...8 {
      let item = try load(
        TestImages.jpeg(jpeg, withOrientation: UInt16(orientation)), name: "o\(orientation).jpg")
      let expected = image.applyingOrientation(orientation)
      let analysis = try XCTUnwrap(item.artifacts[ImagePixels.self]?.analysis)
      XCTAssertEqual(analysis.width, expected.width, "orientation \(orientation)")
      XCTAssertEqual(item.record.image?.orientation, orientation)
      XCTAssertEqual(item.record.image?.width, expected.width)
      for (x, y) in [
        (2, 2), (expected.width - 6, 2), (2, expected.height - 6), (expected.width - 6, expected.height - 6),
      ] {
        let got = TestImages.meanColour(analysis, x: x, y: y)
        let want = TestImages.meanColour(expected, x: x, y: y)
        for c in 0..<3 {
          XCTAssertEqual(got[c], want[c], accuracy: 30, "orientation \(orientation) at \(x),\(y)")
        }
      }
    }
  }

  func testOrientationSixRotatesClockwise() {
    let image = TestImages.quadrants(width: 64, height: 32)
    let rotated = image.applyingOrientation(6)
    XCTAssertEqual(rotated.width, 32)
    // After a clockwise turn, the stored bottom-left (blue) is at the displayed top-left.
    XCTAssertEqual(TestImages.meanColour(rotated, x: 1, y: 1), [20, 20, 220])
  }

  func testBogusOrientationValuesAreIgnored() throws {
    let jpeg = try ImageEncoder.jpeg(TestImages.quadrants(), quality: 90)
    for value: UInt16 in [0, 9, 65535] {
      let item = try load(TestImages.jpeg(jpeg, withOrientation: value), name: "bogus\(value).jpg")
      XCTAssertEqual(item.record.image?.orientation, 1)
      XCTAssertEqual(item.artifacts[ImagePixels.self]?.analysis.width, 64)
    }
  }

  func testShrinkOnLoadKeepsFullResolutionAvailable() throws {
    let big = TestImages.quadrants(width: 4000, height: 3000)
    var options = LoadStage.Options()
    options.analysisMaxSide = 1000
    let item = try load(ImageEncoder.jpeg(big, quality: 80), name: "big.jpg", options: options)
    XCTAssertEqual(item.artifacts[ImagePixels.self]?.analysis.width, 1000)
    XCTAssertEqual(item.artifacts[ImagePixels.self]!.analysisScale, 4, accuracy: 0.01)
    XCTAssertNil(item.artifacts[ImagePixels.self]!.decodedFull, "full resolution is decoded only on demand")
    XCTAssertEqual(try item.fullImage().width, 4000)
  }

  func testPixelLimitIsCheckedFromTheHeader() throws {
    var options = LoadStage.Options()
    options.maxPixels = 1000
    XCTAssertThrowsError(
      try load(ImageEncoder.png(TestImages.quadrants()), name: "big.png", options: options)
    ) {
      XCTAssertTrue("\($0)".contains("over the limit"), "\($0)")
    }
  }

  func testBadInputsGiveMessagesAPersonUnderstands() throws {
    let jpeg = try ImageEncoder.jpeg(TestImages.quadrants(width: 256, height: 256), quality: 90)
    assertFails(Data(), name: "empty.jpg", contains: "empty file")
    assertFails(jpeg.prefix(jpeg.count / 2), name: "truncated.jpg", contains: "truncated JPEG")
    assertFails(Data("hello, I am text".utf8), name: "text.png", contains: "not an image")
    var corruptPNG = try ImageEncoder.png(TestImages.quadrants())
    corruptPNG.replaceSubrange(
      40..<corruptPNG.count, with: Data(repeating: 0x5A, count: corruptPNG.count - 40))
    assertFails(corruptPNG, name: "corrupt.png", contains: "PNG")
    assertFails(
      try ImageEncoder.png(Bitmap(width: 1, height: 1, format: .rgb)), name: "tiny.png", contains: "too small"
    )
    let webp = try ImageEncoder.webp(TestImages.quadrants(width: 128, height: 128))
    assertFails(webp.prefix(webp.count - 30), name: "truncated.webp", contains: "WebP")
  }

  func testDirectoryAndVanishedFile() throws {
    let folder = directory.appendingPathComponent("folder.jpg")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    XCTAssertThrowsError(try load(url: folder)) { XCTAssertTrue("\($0)".contains("directory")) }
    XCTAssertThrowsError(try load(url: directory.appendingPathComponent("gone.jpg"))) {
      XCTAssertTrue("\($0)".contains("disappeared"))
    }
  }

  /// A scan that breaks off at 60 % into garbage and then ends properly decodes, with libjpeg's
  /// warning in the record; without its end marker the file is refused as truncated.
  func testDamagedJPEGIsOKOnlyWithAWarningThatNamesTheDamage() throws {
    let jpeg = try ImageEncoder.jpeg(TestImages.quadrants(width: 256, height: 256), quality: 90)
    // No 0xFF byte in the garbage: a marker there would make libjpeg give up instead.
    let garbage = Data((0..<2000).map { (index: Int) -> UInt8 in UInt8((index * 37 + 11) % 255) })
    let cut = Data(jpeg.prefix(jpeg.count * 6 / 10)) + garbage
    let item = try load(cut + Data([0xFF, 0xD9]), name: "damaged.jpg")
    XCTAssertEqual(item.record.status, .ok)
    let warning = try XCTUnwrap(item.record.warnings?.first)
    XCTAssertTrue(warning.hasPrefix("damaged JPEG data: libjpeg warned"), warning)
    XCTAssertTrue(warning.contains("Corrupt JPEG data") || warning.contains("Premature end"), warning)
    assertFails(cut, name: "cut.jpg", contains: "truncated JPEG")
    // The intact file says nothing: samples' records stay as they were.
    XCTAssertNil(try load(jpeg, name: "intact.jpg").record.warnings)
  }

  /// A bad CRC on the image data (IDAT) makes libpng give up: an error record. On an ancillary
  /// chunk libpng drops the chunk and warns: ok, with the warning.
  func testPNGWithABadCRCIsAnErrorInItsDataAndAWarningElsewhere() throws {
    let png = [UInt8](try ImageEncoder.png(TestImages.quadrants()))
    let start = try XCTUnwrap(Self.chunkStart("IDAT", in: png))
    let length = png[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
    var badCRC = png
    badCRC[start + 8 + length] ^= 0x5A
    assertFails(Data(badCRC), name: "bad-crc.png", contains: "CRC")
    // A flipped byte in the data itself: zlib gives up before the CRC is even checked.
    var badData = png
    badData[start + 8 + 2] ^= 0x5A
    assertFails(Data(badData), name: "bad-idat.png", contains: "corrupt PNG")
    // A tEXt chunk after IHDR (8 + 25 bytes) whose CRC is wrong.
    let text = Array("tEXt".utf8) + Array("Comment\u{0}hi".utf8)
    let chunk = [0, 0, 0, UInt8(text.count - 4)] + text + [0xDE, 0xAD, 0xBE, 0xEF]
    let item = try load(Data(png.prefix(33) + chunk + png.dropFirst(33)), name: "bad-text.png")
    XCTAssertEqual(item.record.status, .ok)
    let warning = try XCTUnwrap(item.record.warnings?.first)
    XCTAssertTrue(warning.hasPrefix("damaged PNG data: libpng warned:"), warning)
    XCTAssertTrue(warning.contains("CRC"), warning)
    XCTAssertNil(try load(Data(png), name: "intact.png").record.warnings)
  }

  /// Where the chunk of `type` starts (its length field) in a PNG file.
  private static func chunkStart(_ type: String, in png: [UInt8]) -> Int? {
    var offset = 8
    while offset + 8 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      if Array(png[offset + 4..<offset + 8]) == Array(type.utf8) { return offset }
      offset += 12 + length
    }
    return nil
  }

  func testContentWinsOverAMisleadingExtension() throws {
    let item = try load(ImageEncoder.png(TestImages.quadrants()), name: "actually-png.jpg")
    XCTAssertEqual(item.record.image?.format, "png")
    XCTAssertEqual(item.record.notes, ["content is PNG although the extension says JPEG"])
  }
}

final class ResizeTests: XCTestCase {
  func testShrinkingAveragesAndKeepsFlatColoursExact() {
    let image = TestImages.quadrants(width: 640, height: 480)
    let small = image.resized(width: 64, height: 48)
    XCTAssertEqual(TestImages.meanColour(small, x: 4, y: 4), [220, 20, 20])
    XCTAssertEqual(TestImages.meanColour(small, x: 50, y: 40), [250, 250, 250])
    // A one-pixel checkerboard shrinks to its mean grey, not to aliased stripes.
    let checker = Bitmap(width: 300, height: 300, format: .gray) { out in
      for y in 0..<300 { for x in 0..<300 { out[y * 300 + x] = (x + y) % 2 == 0 ? 0 : 255 } }
    }
    let grey = checker.resized(width: 97, height: 97)
    XCTAssertTrue(
      grey.pixels.allSatisfy { (118...137).contains($0) }, "\(grey.pixels.min()!)…\(grey.pixels.max()!)")
  }

  func testEnlargingIsBilinear() {
    let ramp = Bitmap(width: 2, height: 1, format: .gray, pixels: [0, 200])
    let wide = ramp.resized(width: 8, height: 1)
    XCTAssertEqual(wide.pixels.first, 0)
    XCTAssertEqual(wide.pixels.last, 200)
    XCTAssertEqual(wide.pixels, wide.pixels.sorted(), "monotone ramp")
  }
}
