import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// zxing-cpp 1.4 through the CZXing shim: real reads, and inputs that must not take the process
/// down.
final class ZXingReaderTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func gray(_ relativePath: String) throws -> Bitmap {
    let url =
      relativePath.hasPrefix("/")
      ? URL(fileURLWithPath: relativePath) : root.appendingPathComponent(relativePath)
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    return try item.fullImage().grayscale()
  }

  func testReadsACode39ScreenshotWithItsCorners() throws {
    let gray = try Self.gray("samples/screenshots/screenshot-03-light.png")
    let symbols = try ZXingReader().read(gray)
    XCTAssertEqual(symbols.map(\.text), ["KR20931"])
    let symbol = try XCTUnwrap(symbols.first)
    XCTAssertEqual(Symbology(zxingFormat: symbol.format), .code39)
    XCTAssertEqual(symbol.symbologyIdentifier.prefix(2), "]A")
    for point in symbol.points {
      XCTAssert((0...Double(gray.width)).contains(point.x) && (0...Double(gray.height)).contains(point.y))
    }
    XCTAssertEqual(ZXingReader.libraryVersion.prefix(2), "1.")
  }

  func testReadsAQRCodeInADarkModeScreenshot() throws {
    let gray = try Self.gray("samples/screenshots/screenshot-02-dark.png")
    let symbols = try ZXingReader().read(gray)
    XCTAssertEqual(symbols.map { Symbology(zxingFormat: $0.format) }, [.qr])
    XCTAssertEqual(symbols.first?.text, "LIDLPLUS:4400012345678")
  }

  func testRejectsImpossibleSizesWithoutCallingTheLibrary() {
    let reader = ZXingReader()
    for (width, height) in [(0, 0), (70_000, 1), (1, 70_000)] {
      let bitmap = Bitmap(width: width, height: height, format: .gray, fill: 255)
      XCTAssertThrowsError(try reader.read(bitmap)) { error in
        XCTAssertEqual((error as? ZXingReader.Failure)?.kind, .invalidInput)
      }
    }
  }

  /// zxing 1.4's own downscaling fails `assert(lineCount() == 1)` on this image when it merges
  /// its layers (NOTES.md); the shim builds the pyramid itself, so the plural read, the single
  /// read and a read on another thread all return the code, with no abort to catch.
  func testTheImageThatTrippedZXingsLayerMergeReadsWithoutAnAbort() throws {
    let url = BarcodeDatasetTests.data.appendingPathComponent("code128-1/4.png")
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw XCTSkip("reads ../shared/data/barcodes, absent here")
    }
    let expected = try String(
      contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    let gray = try Self.gray(url.path)
    var options = ZXingReader.Options()
    options.multiple = true
    XCTAssertEqual(try ZXingReader(options: options).read(gray).map(\.text), [expected])
    XCTAssertEqual(try ZXingReader().read(gray).map(\.text), [expected])
    let elsewhere = try DispatchQueue(label: "other").sync { try ZXingReader(options: options).read(gray) }
    XCTAssertEqual(elsewhere.map(\.text), [expected])
  }

  /// The net under the next unknown assert: abort() under the shim's guard becomes an error, on
  /// this thread and on another, and the library still reads afterwards.
  func testAnAbortUnderTheGuardIsAnErrorNotTheEndOfTheProcess() throws {
    XCTAssertThrowsError(try ZXingReader.abortUnderGuardForTesting()) { error in
      XCTAssertEqual((error as? ZXingReader.Failure)?.kind, .assertion)
    }
    let caughtElsewhere = DispatchQueue(label: "other").sync { () -> Bool in
      do {
        try ZXingReader.abortUnderGuardForTesting()
        return false
      } catch {
        return (error as? ZXingReader.Failure)?.kind == .assertion
      }
    }
    XCTAssertTrue(caughtElsewhere)
    let code = try Self.gray("samples/screenshots/screenshot-02-dark.png")
    XCTAssertEqual(try ZXingReader().read(code).first?.text, "LIDLPLUS:4400012345678")
  }

  /// Tiny, flat, striped and noisy images of every size up to 40 × 40 with every binariser:
  /// nothing may crash, and nothing decodes from noise.
  func testDegenerateImagesNeitherCrashNorDecode() throws {
    var generator = SeededGenerator(seed: 4)
    var readers: [ZXingReader] = []
    for binarizer in [ZXingReader.Binarizer.localAverage, .globalHistogram, .fixedThreshold] {
      var options = ZXingReader.Options()
      options.binarizer = binarizer
      readers.append(ZXingReader(options: options))
    }
    var decoded = 0
    for size in stride(from: 1, through: 40, by: 3) {
      for pattern in 0..<4 {
        let bitmap = Bitmap(width: size, height: max(1, size / 2 + pattern), format: .gray) { p in
          for i in p.indices {
            switch pattern {
            case 0: p[i] = 0
            case 1: p[i] = (i / 2) % 2 == 0 ? 0 : 255
            default: p[i] = UInt8(truncatingIfNeeded: generator.next())
            }
          }
        }
        for reader in readers {
          do {
            decoded += try reader.read(bitmap).count
          } catch let failure {
            XCTAssertNotEqual(failure.kind, .invalidInput, "\(size): \(failure)")
          }
        }
      }
    }
    XCTAssertEqual(decoded, 0)
  }
}
