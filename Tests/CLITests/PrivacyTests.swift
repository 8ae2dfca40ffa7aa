import Foundation
import XCTest

/// A payment card's full number must never appear in any output file.
final class PrivacyTests: XCTestCase {
  func testNoOutputFileHoldsAFullCardNumber() throws {
    let directory = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fixtures = CLI.root.appendingPathComponent("Tests/Fixtures/ocr")
    let out = directory.appendingPathComponent("out")
    let result = try CLI.run(["run", fixtures.path, "--out", out.path, "--preset", "cards", "--quiet"])
    XCTAssertLessThanOrEqual(result.status, 1, result.stderr)
    let numbers = ["4111111111111111", "2223003122003222", "378282246310005"]
    var patterns: [String] = []
    for number in numbers {
      patterns.append(number)
      // Printed groupings: 4-4-4-4, and Amex's 4-6-5.
      let d = Array(number)
      patterns.append(
        number.count == 15
          ? "\(String(d[0..<4])) \(String(d[4..<10])) \(String(d[10...]))"
          : stride(from: 0, to: 16, by: 4).map { String(d[$0..<($0 + 4)]) }.joined(separator: " "))
    }
    var checked = 0
    let enumerator = FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil)!
    for case let file as URL in enumerator where !file.hasDirectoryPath {
      let bytes = try Data(contentsOf: file)
      let text = String(decoding: bytes, as: UTF8.self)
      for pattern in patterns {
        XCTAssertFalse(text.contains(pattern), "\(file.lastPathComponent) contains a card number")
        XCTAssertFalse(file.lastPathComponent.contains(pattern))
      }
      checked += 1
    }
    XCTAssertGreaterThan(checked, 2)
    let records = try String(contentsOf: out.appendingPathComponent("records.jsonl"), encoding: .utf8)
    XCTAssertTrue(
      records.contains(#""network":"visa""#), "the Visa card was read, so the check means something")
  }
}
