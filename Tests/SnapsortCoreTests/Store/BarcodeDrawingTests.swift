import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

/// The report's bar drawings, checked by decoding them with zbar (the real library).
final class BarcodeDrawingTests: XCTestCase {
  /// Rasterises modules at 3 px each with a quiet zone, 60 rows high, as zbar reads a photo.
  func raster(_ modules: [Bool]) -> Bitmap {
    let scale = 3, quiet = 12, height = 60
    let width = (modules.count + 2 * quiet) * scale
    var pixels = [UInt8](repeating: 255, count: width * height)
    for (index, dark) in modules.enumerated() where dark {
      for y in 0..<height {
        for x in 0..<scale { pixels[y * width + (quiet + index) * scale + x] = 0 }
      }
    }
    return Bitmap(width: width, height: height, format: .gray, pixels: pixels)
  }

  func decode(_ symbology: String, _ value: String) throws -> [String] {
    let modules = try XCTUnwrap(
      BarcodeDrawing.modules(symbology: symbology, value: value), "\(symbology) \(value)")
    return try ZBarScanner().scan(raster(modules)).map { String(decoding: $0.data, as: UTF8.self) }
  }

  func testEAN13DecodesToItsValue() throws {
    for value in ["5901234123457", "4006381333931", "0012345678905"] {
      XCTAssertEqual(try decode("ean13", value), [value])
    }
  }

  func testEAN8AndUPCADecode() throws {
    XCTAssertEqual(try decode("ean8", "96385074"), ["96385074"])
    // zbar reports UPC-A as its 13-digit EAN form unless UPC-A is enabled on its own.
    let upc = try decode("upca", "036000291452")
    XCTAssertTrue(upc == ["036000291452"] || upc == ["0036000291452"], "\(upc)")
  }

  func testCode128DecodesInCodeSetsBAndC() throws {
    for value in ["KR-00042", "Hello, World!", "12345678", "a"] {
      XCTAssertEqual(try decode("code128", value), [value])
    }
  }

  func testEveryCode128SymbolIsElevenModules() {
    for (index, widths) in BarcodeDrawing.code128Widths.enumerated() {
      let total = widths.compactMap(\.wholeNumberValue).reduce(0, +)
      XCTAssertEqual(total, index == 106 ? 13 : 11, "symbol \(index)")
    }
  }

  func testSymbologiesThatAreNotDrawnGiveNil() {
    XCTAssertNil(BarcodeDrawing.modules(symbology: "qr", value: "https://example.com"))
    XCTAssertNil(BarcodeDrawing.modules(symbology: "ean13", value: "12345"))
    XCTAssertNil(BarcodeDrawing.modules(symbology: "code128", value: "zaż"))
    XCTAssertNil(BarcodeDrawing.svg(symbology: "pdf417", value: "x"))
  }

  func testSVGEscapesTheValue() throws {
    let svg = try XCTUnwrap(BarcodeDrawing.svg(symbology: "code128", value: "<b>&"))
    XCTAssertTrue(svg.contains("&lt;b&gt;&amp;"))
    XCTAssertFalse(svg.contains("<b>"))
  }
}
