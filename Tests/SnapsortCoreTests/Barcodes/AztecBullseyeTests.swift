import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortStages

/// The Aztec locator of the rescue: a symbol turned and foreshortened so that zxing-cpp 1.4's
/// own detector misses it is found by its bullseye, rectified and read; a bullseye that is not
/// part of a symbol gives no code.
final class AztecBullseyeTests: XCTestCase {
  /// A compact Aztec symbol of "SNAPSORT-AZTEC-TEST-0042" (zxing-cpp 3.1's writer,
  /// `create_barcode(text, BarcodeFormat.Aztec)`), one character per module.
  static let compactSymbol = [
    "#...#.#.#.##..#..##",
    "#..#.#.....###.....",
    "..#####...#...##..#",
    "###........##.##...",
    "##.###.#.#.##.##.#.",
    "..#.############.#.",
    ".#.###.......#.#.##",
    ".#..##.#####.#.....",
    "....##.#...#.#.###.",
    ".#...#.#.#.#.#####.",
    "#...##.#...#.##..#.",
    "#.####.#####.#..##.",
    ".#.#.#.......#..#.#",
    "..##.##########.#..",
    "......###.#.#..##..",
    "#.#...###.#..#..#..",
    ".###.....##.....#.#",
    "###..#...##.#...#..",
    "#......#...#####..#",
  ]

  /// `modules` (rows of "#" and ".") drawn into a white 480 × 400 image at `pixelsPerModule`,
  /// turned by `degrees` about the image centre, its right side `perspective` larger and its left
  /// side as much smaller (a photo taken from the right), antialiased by 3 × 3 sub-samples.
  static func photographed(
    _ modules: [String], pixelsPerModule: Double, degrees: Double, perspective: Double
  ) -> Bitmap {
    let grid = modules.map { $0.map { $0 == "#" } }
    let n = Double(grid.count), side = n * pixelsPerModule, angle = degrees * Double.pi / 180
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].enumerated().map { index, corner in
      let grow = index == 1 || index == 2 ? 1 + perspective : 1 - perspective
      let x = corner.0 * side / 2 * grow, y = corner.1 * side / 2 * grow
      return Point(240 + x * cos(angle) - y * sin(angle), 200 + x * sin(angle) + y * cos(angle))
    }
    let square = [Point(0, 0), Point(n, 0), Point(n, n), Point(0, n)]
    let toModules = Homography(from: corners, to: square)!
    return Bitmap(width: 480, height: 400, format: .gray) { out in
      for y in 0..<400 {
        for x in 0..<480 {
          var light = 0
          for sy in 0..<3 {
            for sx in 0..<3 {
              let m = toModules.apply(
                Point(Double(x) + (Double(sx) + 0.5) / 3, Double(y) + (Double(sy) + 0.5) / 3))
              let (column, row) = (Int(m.x.rounded(.down)), Int(m.y.rounded(.down)))
              let dark = m.x >= 0 && m.y >= 0 && row < grid.count && column < grid.count && grid[row][column]
              if !dark { light += 1 }
            }
          }
          out[y * 480 + x] = UInt8(light * 255 / 9)
        }
      }
    }.blurred()
  }

  static func aztecTexts(_ image: Bitmap) throws -> [String] {
    try ZXingReader().read(image).filter { Symbology(zxingFormat: $0.format) == .aztec }.map(\.text)
  }

  func testATurnedForeshortenedAztecThatZXingMissesIsRead() throws {
    let photo = Self.photographed(Self.compactSymbol, pixelsPerModule: 6, degrees: 7, perspective: 0.16)
    // zxing-cpp 1.4 with try-harder and try-rotate, on the photo and on its inverse: nothing.
    XCTAssertEqual(try Self.aztecTexts(photo), [])
    XCTAssertEqual(try Self.aztecTexts(photo.inverted()), [])

    let copies = AztecBullseye(photo).rectified()
    XCTAssertFalse(copies.isEmpty)
    let texts = try copies.flatMap { try Self.aztecTexts($0.image) }
    XCTAssert(texts.contains("SNAPSORT-AZTEC-TEST-0042"), "\(texts)")

    // The scanner's rescue does the same, and maps the symbol's corners back onto the photo.
    let scanner = try BarcodeScanner(strategy: .init())
    var findings = BarcodeScanner.Findings(expectedCodes: 1)
    scanner.scan(photo, toImage: { $0 }, into: &findings)
    let code = try XCTUnwrap(findings.records.first)
    XCTAssertEqual(code.symbology, Symbology.aztec.rawValue)
    XCTAssertEqual(code.value, "SNAPSORT-AZTEC-TEST-0042")
    let centre = try XCTUnwrap(code.quad).corners.reduce(Point(0, 0)) {
      Point($0.x + $1.x / 4, $0.y + $1.y / 4)
    }
    XCTAssertEqual(centre.x, 240, accuracy: 12)
    XCTAssertEqual(centre.y, 200, accuracy: 12)
  }

  /// Concentric squares with random modules around them: the locator finds the bullseye and
  /// rectifies it, and still no pass reports a code (a 2-D read needs its error correction).
  func testABullseyeWithoutASymbolGivesNoCode() throws {
    var generator = SeededGenerator(seed: 26)
    let modules = (-9...9).map { y in
      String(
        (-9...9).map { x -> Character in
          let ring = max(abs(x), abs(y))
          if ring <= 4 { return ring % 2 == 0 ? "#" : "." }
          return Bool.random(using: &generator) ? "#" : "."
        })
    }
    let photo = Self.photographed(modules, pixelsPerModule: 6, degrees: 7, perspective: 0.16)
    XCTAssertFalse(BullseyeCentres(photo).find().isEmpty)
    XCTAssertFalse(AztecBullseye(photo).rectified().isEmpty)
    let scanner = try BarcodeScanner(strategy: .init())
    var findings = BarcodeScanner.Findings(expectedCodes: 0)
    scanner.scan(photo, toImage: { $0 }, into: &findings)
    XCTAssertEqual(findings.records, [])
    XCTAssertEqual(findings.unconfirmed, [])
  }
}
