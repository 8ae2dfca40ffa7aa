import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class CIELABTests: XCTestCase {
  func testWhiteBlackAndRedInCIELAB() throws {
    let white = try XCTUnwrap(CIELAB.lab(hex: "#ffffff"))
    XCTAssertEqual(white.l, 100, accuracy: 0.05)
    XCTAssertEqual(white.chroma, 0, accuracy: 0.05)
    let black = try XCTUnwrap(CIELAB.lab(hex: "000000"))
    XCTAssertEqual(black.l, 0, accuracy: 0.05)
    // sRGB red is L* 53.24, a* 80.09, b* 67.20 (published reference values).
    let red = try XCTUnwrap(CIELAB.lab(hex: "#ff0000"))
    XCTAssertEqual(red.l, 53.24, accuracy: 0.05)
    XCTAssertEqual(red.a, 80.09, accuracy: 0.1)
    XCTAssertEqual(red.b, 67.20, accuracy: 0.1)
  }

  func testHexRoundTripAndRejectsGarbage() throws {
    for hex in ["#e30613", "#0058a3", "#ffdb00", "#00843d", "#7a1f85"] {
      XCTAssertEqual(CIELAB.hex(try XCTUnwrap(CIELAB.lab(hex: hex))), hex)
    }
    XCTAssertNil(CIELAB.lab(hex: "#12345"))
    XCTAssertNil(CIELAB.lab(hex: "#gg0000"))
  }

  func testDistanceSeparatesBrandRedsFromBlues() throws {
    let red1 = try XCTUnwrap(CIELAB.lab(hex: "#e30613"))
    let red2 = try XCTUnwrap(CIELAB.lab(hex: "#e2001a"))
    let blue = try XCTUnwrap(CIELAB.lab(hex: "#0058a3"))
    XCTAssertLessThan(CIELAB.distance(red1, red2), 5)
    XCTAssertGreaterThan(CIELAB.distance(red1, blue), 80)
  }
}
