import Foundation
import XCTest

@testable import SnapsortCore

/// Tesseract on flat card crops rendered by `scripts/render_samples.py --fixtures`.
final class OCRStageTests: XCTestCase {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/ocr")

  private func read(_ name: String) throws -> (PhotoItem, [String: String]) {
    let url = Self.fixtures.appendingPathComponent(name + ".png")
    let item = PhotoItem(relativePath: name, url: url, outputDirectory: nil)
    try LoadStage(options: .init(), context: StageContext()).process(item)
    try OCRStage(options: .init(), context: StageContext()).process(item)
    let truth = try JSONSerialization.jsonObject(
      with: Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".truth.json"))) as? [String: String] ?? [:]
    return (item, truth)
  }

  func testSuggestsTheBrandNotTheBoilerplate() throws {
    for name in ["tesco-clubcard", "ahlens", "kaffeeroesterei"] {
      let (item, truth) = try read(name)
      let suggested = try XCTUnwrap(item.record.card?.name?.suggested, name)
      // eng alone drops some diacritics (Kaffeerösterei → Kaffeerosterei): compare folded.
      XCTAssertEqual(
        suggested.folding(options: .diacriticInsensitive, locale: nil).lowercased(),
        truth["name"]!.folding(options: .diacriticInsensitive, locale: nil).lowercased(), name)
      XCTAssertFalse(item.record.card?.name?.alternatives.contains { $0.lowercased().contains("member") } ?? true)
    }
  }

  func testPaymentNetworkAndLastFourWithTheNumberMasked() throws {
    for name in ["visa-demo", "mastercard-demo", "amex-demo"] {
      let (item, truth) = try read(name)
      XCTAssertEqual(item.record.card?.payment, PaymentInfo(network: truth["network"]!, last4: truth["last4"]!), name)
      let encoded = String(decoding: try RecordCoding.encodeLine(item.record), as: UTF8.self)
      let number = truth["number"]!
      XCTAssertFalse(encoded.contains(number), name)
      // No group of the number other than the last four survives anywhere in the record.
      for group in stride(from: 0, to: number.count - 4, by: 4).map({ String(Array(number)[$0..<min($0 + 4, number.count - 4)]) })
      where group.count == 4 && group != truth["last4"]! {
        XCTAssertFalse(encoded.contains(group), "\(name): \(group) visible")
      }
    }
  }

  func testMissingLanguageIsAConfigError() {
    var options = OCRStage.Options()
    options.languages = "eng+xxx"
    XCTAssertThrowsError(try OCRStage.validate(options, context: StageContext())) {
      XCTAssertEqual(($0 as? ConfigError)?.path, "languages")
    }
  }
}

final class PaymentCardNumberTests: XCTestCase {
  func testLuhnAndNetworks() {
    let digits = { (s: String) in s.compactMap(\.wholeNumberValue) }
    XCTAssertTrue(PaymentCardNumber.luhnValid(digits("4111111111111111")))
    XCTAssertFalse(PaymentCardNumber.luhnValid(digits("4111111111111112")))
    XCTAssertEqual(PaymentCardNumber.network(of: digits("4111111111111111")), "visa")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("2223003122003222")), "mastercard")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("5555555555554444")), "mastercard")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("378282246310005")), "amex")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("6011111111111117")), "discover")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("3530111333300000")), "jcb")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("30569309025904")), "diners")
    XCTAssertEqual(PaymentCardNumber.network(of: digits("6200000000000005")), "unionpay")
    XCTAssertEqual(PaymentCardNumber.find(in: ["NORDBANK", "4111 1111 1111 1111"]), .init(network: "visa", last4: "1111"))
    XCTAssertNil(PaymentCardNumber.find(in: ["5901234123457"]), "an EAN-13 is no card number")
  }

  func testMasking() {
    XCTAssertEqual(PaymentCardNumber.mask("4111 1111 1111 1111"), "•••• •••• •••• 1111")
    XCTAssertEqual(PaymentCardNumber.mask("VALID THRU 09/29"), "VALID THRU 09/29")
    XCTAssertEqual(
      PaymentCardNumber.maskAllGroups(["4111", "1111", "1111", "1111", "09/29"], last4: "1111"),
      ["••••", "••••", "••••", "1111", "09/29"])
  }
}

final class CardNamePickerTests: XCTestCase {
  func testPrefersLargeTopTextOverBoilerplateAndHolderNames() {
    func item(_ text: String, y: Double, h: Double, conf: Double = 90) -> TesseractEngine.Item {
      TesseractEngine.Item(text: text, box: [50, y, Double(text.count) * h * 0.6, h], confidence: conf)
    }
    let lines = [item("Member since 2019", y: 150, h: 28), item("Żabka", y: 40, h: 90), item("ANNA KOWALSKA", y: 260, h: 30), item("1234 5678", y: 400, h: 40)]
    let words = lines.flatMap { line in
      line.text.split(separator: " ").map { TesseractEngine.Item(text: String($0), box: line.box, confidence: line.confidence) }
    }
    let picked = CardNamePicker.candidates(lines: lines, words: words, height: 638)
    XCTAssertEqual(picked.first?.text, "Żabka")
    XCTAssertFalse(picked.contains { $0.text == "ANNA KOWALSKA" || $0.text.hasPrefix("Member") })
  }
}
