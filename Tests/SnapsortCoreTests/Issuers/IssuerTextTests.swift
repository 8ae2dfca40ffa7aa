import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerTextTests: XCTestCase {
  func testFoldRemovesDiacriticsAndPunctuation() {
    XCTAssertEqual(IssuerText.fold("Żabka"), "zabka")
    XCTAssertEqual(IssuerText.fold("Łódź ÅHLÉNS"), "lodz ahlens")
    XCTAssertEqual(IssuerText.fold("Sainsbury's"), "sainsburys")
    XCTAssertEqual(IssuerText.fold("Müller-Straße"), "muller strasse")
  }

  func testProgrammeNamesLoseTheWordsEveryCardPrints() {
    XCTAssertEqual(IssuerText.withoutCardVocabulary("Advantage Card"), "advantage")
    XCTAssertEqual(IssuerText.withoutCardVocabulary("Moja Biedronka Karta"), "moja biedronka")
    XCTAssertEqual(IssuerText.withoutCardVocabulary("Club Member Rewards"), "")
    XCTAssertEqual(IssuerText.withoutCardVocabulary("PAYBACK"), "payback")
  }

  func testSkeletonUnifiesLookAlikesButKeepsNumbers() {
    XCTAssertEqual(IssuerText.skeleton("c0sta"), IssuerText.skeleton("costa"))
    XCTAssertEqual(IssuerText.skeleton("bi1la"), IssuerText.skeleton("bilia"))
    XCTAssertEqual(IssuerText.skeleton("5901234"), "5901234")
  }

  func testDiceIsOneForEqualAndZeroForDisjoint() {
    let a = IssuerText.trigrams("biedronka")
    XCTAssertEqual(IssuerText.dice(a, a), 1)
    XCTAssertEqual(IssuerText.dice(a, IssuerText.trigrams("xyz")), 0)
    let noisy = IssuerText.dice(a, IssuerText.trigrams("bledronka"))
    XCTAssertGreaterThan(noisy, 0.5)
    XCTAssertLessThan(noisy, 1)
  }

  func testWindowsFindANameSplitOrMergedByOCR() {
    let windows = TextWindows(lines: ["MEMBER SINCE 2019", "ALBERTHEIJN bonus", "1234 5678"])
    XCTAssertEqual(windows.match(IssuerPhrase("Albert Heijn")).score, 1)
    let split = TextWindows(lines: ["Bied ronka {3"])
    XCTAssertEqual(split.match(IssuerPhrase("Biedronka")).score, 1)
    let damaged = TextWindows(lines: ["MOJA BlEDR0NKA"])
    XCTAssertGreaterThan(damaged.match(IssuerPhrase("Biedronka")).score, 0.99)
    let unrelated = TextWindows(lines: ["Kaffeerösterei Brühl"])
    XCTAssertLessThan(unrelated.match(IssuerPhrase("Biedronka")).score, 0.3)
  }

  func testWindowsJoinANamePrintedOverTwoLinesOnlyInReadingOrder() {
    let card = ["MEMBER 2019", "Clas", "OHLSON club", "1234 5678"]
    XCTAssertEqual(TextWindows(lines: [], readingOrder: card).match(IssuerPhrase("Clas Ohlson")).score, 1)
    // Name suggestions are alternatives, not a card's lines: they are never joined.
    XCTAssertLessThan(TextWindows(lines: card).match(IssuerPhrase("Clas Ohlson")).score, 0.7)
    // Only neighbouring lines join, the end of one with the start of the next.
    let apart = ["Clas", "MEMBER 2019", "Ohlson"]
    XCTAssertLessThan(
      TextWindows(lines: [], readingOrder: apart).match(IssuerPhrase("Clas Ohlson")).score, 0.7)
  }
}

extension IssuerTextTests {
  func testCyrillicNamesMatchWhatAnEnglishModelReads() {
    XCTAssertEqual(IssuerText.latinLookalike("Простор"), "npoctop")
    XCTAssertNil(IssuerText.latinLookalike("Biedronka"))
    // Readings tesseract printed for rendered cards of these issuers.
    XCTAssertEqual(IssuerText.latinLookalikeAlternative("Епіцентр"), "eniwehtp")
    XCTAssertEqual(IssuerText.latinLookalikeAlternative("Нова пошта"), "hoba nouita")
    XCTAssertNil(IssuerText.latinLookalikeAlternative("Простор"))
    XCTAssertNil(IssuerText.latinLookalikeAlternative("Biedronka"))
    let prepared = PreparedIssuer(Issuer(id: "epicentr", name: "Епіцентр", aliases: ["Epicentr"]))
    let card = CardEvidence(lines: ["EniweHTp", "Loyalty card"])
    XCTAssertEqual(IssuerFeatures.pairVector(card, prepared)[2], 1, "an exact match of the other reading")
    // What tesseract `eng` printed for rendered "Простор" and "Нова пошта" cards.
    let windows = TextWindows(lines: ["Npoctop", "Hosa nowta"])
    XCTAssertEqual(windows.match(IssuerPhrase(IssuerText.latinLookalike("Простор")!)).score, 1)
    XCTAssertEqual(windows.match(IssuerPhrase(IssuerText.latinLookalike("Нова пошта")!)).score, 1)
  }
}
