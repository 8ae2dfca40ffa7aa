import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class CheckDigitsTests: XCTestCase {
  func testGS1CheckDigits() {
    XCTAssertTrue(CheckDigits.gs1Valid("5901234123457"))
    XCTAssertFalse(CheckDigits.gs1Valid("5901234123458"))
    XCTAssertTrue(CheckDigits.gs1Valid("96385074"))
    XCTAssertTrue(CheckDigits.gs1Valid("036000291452"))
    XCTAssertFalse(CheckDigits.gs1Valid("03600029145X"))
  }

  func testUPCEExpansionAndGTIN() {
    XCTAssertEqual(CheckDigits.expandUPCE("04965802"), "049000006582")
    XCTAssertEqual(CheckDigits.gtin13(symbology: .upce, value: "04965802"), "0049000006582")
    XCTAssertEqual(CheckDigits.gtin13(symbology: .upca, value: "036000291452"), "0036000291452")
    XCTAssertEqual(CheckDigits.retailChecksum(symbology: .upce, value: "04965802"), true)
    XCTAssertNil(CheckDigits.retailChecksum(symbology: .qr, value: "x"))
  }

  func testZeroLedEAN13IsRecordedAsUPCA() {
    let record = BarcodeNormalizer.record(symbology: .ean13, bytes: Array("0036000291452".utf8))
    XCTAssertEqual(record.symbology, "upca")
    XCTAssertEqual(record.value, "036000291452")
    XCTAssertEqual(record.gtin, "0036000291452")
    XCTAssertEqual(record.checksumOK, true)
    let binary = BarcodeNormalizer.record(symbology: .qr, bytes: [0xFF, 0x00, 0x80])
    XCTAssertEqual(binary.bytes, "/wCA")
  }
}
