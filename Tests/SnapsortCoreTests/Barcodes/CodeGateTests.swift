import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The code gate (issue #28): an absolute count of code-like blocks, zero where nothing looks like
/// a code, that stops a card crop's retries after first looks that read nothing.
final class CodeGateTests: XCTestCase {
  static let gate = BarcodeScanner.CodeGate(
    energy: BarcodeStage.Options().codeGateEnergy, coherence: BarcodeStage.Options().codeGateCoherence,
    blocks: BarcodeStage.Options().codeGateBlocks)

  /// A card-sized grey image with faint noise and no edges a code would have.
  static func plainCard() -> Bitmap {
    var state: UInt32 = 12_345
    return Bitmap(width: 1012, height: 638, format: .gray) { out in
      for i in 0..<(1012 * 638) {
        state = state &* 1_664_525 &+ 1_013_904_223
        out[i] = UInt8(180 + Int(state >> 29))
      }
    }
  }

  /// Vertical bars of 2 to 6 px, 400 × 160 px, on a white card: a linear code's pattern.
  static func cardWithBars() -> Bitmap {
    var card = plainCard()
    var x = 300, dark = true, width = 2
    card.pixels.withUnsafeMutableBufferPointer { p in
      while x < 700 {
        for column in x..<min(700, x + width) {
          for y in 240..<400 { p[y * 1012 + column] = dark ? 20 : 250 }
        }
        x += width
        dark.toggle()
        width = 2 + (x / 7) % 5
      }
    }
    return card
  }

  func testCountIsAbsoluteAndSeesBars() {
    let plain = CodeRegions.codeLikeBlocks(
      in: Self.plainCard(), energy: Self.gate.energy, coherence: Self.gate.coherence)
    XCTAssertEqual(plain, 0)
    let bars = CodeRegions.codeLikeBlocks(
      in: Self.cardWithBars(), energy: Self.gate.energy, coherence: Self.gate.coherence)
    XCTAssertGreaterThanOrEqual(bars, Self.gate.blocks)
    XCTAssertGreaterThanOrEqual(bars, 50 * 20 - 100)
  }

  func testGateStopsOnlyTheGatedScanOfAnImageWithoutCodeLikeBlocks() throws {
    var strategy = BarcodeScanner.Strategy()
    strategy.codeGate = Self.gate
    let scanner = try BarcodeScanner(strategy: strategy)
    func passes(_ image: Bitmap, gated: Bool) -> [String] {
      var findings = BarcodeScanner.Findings(expectedCodes: 1)
      findings.passCosts = []
      scanner.scan(image, toImage: { $0 }, into: &findings, gated: gated)
      return (findings.passCosts ?? []).map(\.pass)
    }
    XCTAssertEqual(passes(Self.plainCard(), gated: true), ["plain", "inverted", "gate"])
    let ungated = passes(Self.plainCard(), gated: false)
    XCTAssert(ungated.contains("sharpened"), "\(ungated)")
    let bars = passes(Self.cardWithBars(), gated: true)
    XCTAssert(bars.contains("gate") && bars.contains("sharpened"), "\(bars)")
  }

  func testFirstLooksAndTheRestSplitThePasses() throws {
    let scanner = try BarcodeScanner(strategy: .init())
    func passes(_ looks: BarcodeScanner.Looks) -> [String] {
      var findings = BarcodeScanner.Findings(expectedCodes: 1)
      findings.passCosts = []
      scanner.scan(Self.plainCard(), toImage: { $0 }, into: &findings, looks: looks)
      return (findings.passCosts ?? []).map(\.pass).filter { $0 != "regions" }
    }
    let first = passes(.first), rest = passes(.rest), all = passes(.all)
    XCTAssertEqual(first, ["plain", "inverted"])
    XCTAssertEqual(first + rest, all)
  }
}
