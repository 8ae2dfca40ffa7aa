import Foundation
import XCTest

@testable import SnapsortStages

/// `CyrillicChoice.couldTake`, the gate before a name line's Cyrillic readings: it must say yes
/// for every reading the choice would take, and no for a confident Latin name.
final class CyrillicGateTests: XCTestCase {
  private func choice() throws -> CyrillicChoice {
    try XCTUnwrap(try NameModel.load(from: StageContext().resolve(NameModel.bundledFileName)).cyrillic)
  }

  /// Any reading of up to `letters` letters the choice takes is one the gate lets through.
  func testNoTakenReadingIsGatedOut() throws {
    let choice = try choice()
    let latins: [CardNameReader.LineReading?] = [
      nil, .init(text: "YKpHadta", confidence: 41), .init(text: "Bank CeBep", confidence: 77),
      .init(text: "Kruidvat", confidence: 93), .init(text: "Café Nord", confidence: 88),
    ]
    let cyrillicTexts = ["Укрнафта", "Банк Север", "Сад", "Зсап Ы] де Казза", "Кгиїдуаї 5раагргодгатта"]
    for latin in latins {
      for page in stride(from: 0.0, through: 1, by: 0.25) {
        for text in cyrillicTexts {
          let letters = text.filter(\.isLetter).count
          for confidence in stride(from: 0.0, through: 100, by: 10) {
            let reading = CardNameReader.LineReading(text: text, confidence: confidence)
            let values = CyrillicChoice.measurements(cyrillic: reading, latin: latin, pageConfidence: page)
            guard choice.takes(values) else { continue }
            XCTAssertTrue(
              choice.couldTake(over: latin, pageConfidence: page, letters: letters),
              "\(text) at \(confidence) over \(latin?.text ?? "nothing") on a page at \(page)")
          }
        }
      }
    }
  }

  /// A Latin name read confidently on a confident page is not worth reading in Cyrillic, and a
  /// Latin reading made of Cyrillic look-alikes with little confidence is.
  func testConfidentLatinNameIsGatedOut() throws {
    let choice = try choice()
    XCTAssertFalse(
      choice.couldTake(over: .init(text: "Kruidvat", confidence: 93), pageConfidence: 0.93, letters: 40))
    XCTAssertTrue(
      choice.couldTake(over: .init(text: "YKpHadta", confidence: 41), pageConfidence: 0.5, letters: 40))
    XCTAssertTrue(choice.couldTake(over: nil, pageConfidence: 0.9, letters: 10))
  }
}
