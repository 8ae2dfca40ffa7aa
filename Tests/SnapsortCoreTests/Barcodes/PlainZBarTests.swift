import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// No zbar scan twice (issue #28): the crop's plain zbar read taken from the warp's scan, and the
/// whole image's first look without a whole-image zbar scan once the crop was scanned.
final class PlainZBarTests: XCTestCase {
  static let ean13 = ZBarScanner.Symbol(
    type: 13, data: Array("4006381333931".utf8), points: [Point(100, 300), Point(500, 300)], quality: 1,
    orientation: 0)

  func testSymbolsScannedAlreadyAreTheZBarReadAndNoScanIsMade() throws {
    let scanner = try BarcodeScanner(strategy: .init())
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    findings.passCosts = []
    scanner.scan(
      CodeGateTests.plainCard(), toImage: { Point($0.x + 1, $0.y) }, into: &findings, looks: .first,
      plainZBar: .done([Self.ean13]))
    XCTAssertEqual(findings.unconfirmed.map(\.value), ["4006381333931"])
    XCTAssertEqual(findings.unconfirmed.first?.decoder, "zbar")
    // The symbol's points went through the scan's mapping.
    XCTAssertEqual(findings.unconfirmed.first?.quad?.corners.map(\.x).min(), 101)
    // The plain card alone reads nothing: the read came from the symbols given.
    var alone = BarcodeScanner.Findings(expectedCodes: 1)
    scanner.scan(CodeGateTests.plainCard(), toImage: { $0 }, into: &alone, looks: .first)
    XCTAssertFalse(alone.hasReads)
  }

  func testAroundOnlyConfirmsALinearCodeWithZBarAroundZXingsRead() throws {
    let screenshot = try ZXingReaderTests.gray("samples/screenshots/screenshot-03-light.png")
    let scanner = try BarcodeScanner(strategy: .init())
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    findings.passCosts = []
    scanner.scan(screenshot, toImage: { $0 }, into: &findings, thorough: false, plainZBar: .aroundOnly)
    XCTAssertEqual(findings.records.map(\.value), ["KR20931"])
    let reads = findings.trace.flatMap { $0["reads"] as? [String] ?? [] }
    XCTAssert(reads.contains("/plain+around/zbar"), "\(reads)")
    XCTAssertFalse(reads.contains("/plain/zbar"), "\(reads)")
  }

  func testTurnedScanMirrorsItsPointsThroughTheCentre() {
    let scan = CropCodeScan(symbols: [Self.ean13], inverted: true)
    let turned = scan.turned(width: 1012, height: 638)
    XCTAssertEqual(turned.symbols[0].points, [Point(911, 337), Point(511, 337)])
    XCTAssertEqual(turned.turned(width: 1012, height: 638).symbols, scan.symbols)
  }

  /// On a card photo the warp's orientation scan reaches the barcode stage, whose crop read then
  /// makes no zbar scan of its own and still confirms the card's EAN-13 with zxing.
  func testTheWarpsScanIsTheCropsZBarRead() throws {
    let url = ClassifyStageTests.root.appendingPathComponent("samples/cards/card-01-wood.jpg")
    let item = PhotoItem(relativePath: url.lastPathComponent, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    try CardDetectStage(options: .init(), context: StageContext()).process(item)
    try WarpStage(options: .init(), context: StageContext()).process(item)
    let scan = try XCTUnwrap(item.artifacts[CardCrop.self]?.codeScan)
    XCTAssertEqual(scan.symbols.map { String(decoding: $0.data, as: UTF8.self) }, ["2900012345671"])
    try BarcodeStage(options: .init(), context: StageContext()).process(item)
    XCTAssertEqual(item.artifacts[CodeReads.self]?.barcodes.map(\.value), ["2900012345671"])
  }

  func testOptionsAreValidated() {
    var options = BarcodeStage.Options()
    options.besideCardZbarDensity = 9
    XCTAssertThrowsError(try BarcodeStage.validate(options, context: StageContext()))
    options.besideCardZbarDensity = 0
    XCTAssertNoThrow(try BarcodeStage.validate(options, context: StageContext()))
  }
}
