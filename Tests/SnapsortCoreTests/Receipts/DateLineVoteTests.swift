import XCTest

@testable import SnapsortNative
@testable import SnapsortStages

/// Which lines of a page that read no date are read again for one, and which re-read date is taken.
final class DateLineVoteTests: XCTestCase {
  func testLinesShapedLikeAGarbledDateOrLabelledWithDigitsAreReadAgain() {
    XCTAssertTrue(DateLineVote.mayHoldDate("19/62/2018 16:45 5132 002"))
    XCTAssertTrue(DateLineVote.mayHoldDate("CB#: 45078640326 25/Fen/20t7 07:43:54"))
    XCTAssertTrue(DateLineVote.mayHoldDate("Date : 05- 0b\" 116 11:29:29"))
    XCTAssertTrue(DateLineVote.mayHoldDate("Date -06-2018 17:11:42"), "a label and digits")
    XCTAssertFalse(DateLineVote.mayHoldDate("TOTAL RM 14.40"))
    XCTAssertFalse(DateLineVote.mayHoldDate("TEL 03-7832 6929"))
    XCTAssertFalse(DateLineVote.mayHoldDate("Date"), "a label with no digit after it")
  }

  func testAtMostTwoLinesTopFirst() {
    let text = ["SHOP", "1/2/33", "TOTAL 9.00", "Date: 4", "12-13-14"].map {
      TextLine(text: $0, box: Box(x: 0, y: 0, width: 10, height: 10), confidence: 80)
    }
    XCTAssertEqual(DateLineVote.lines(text), [1, 3])
  }

  func testTwoReadingsMustAgreeAndNoOtherDateAsOften() {
    XCTAssertEqual(DateLineVote.decide(["2018-02-19", nil, "2018-02-19"]), "2018-02-19")
    XCTAssertEqual(DateLineVote.decide(["2017-06-14", "2017-08-14", "2017-08-14"]), "2017-08-14")
    XCTAssertNil(DateLineVote.decide(["2018-06-05", "2008-08-05", nil]), "no two agree")
    XCTAssertNil(DateLineVote.decide([nil, nil, "2018-01-01"]))
    XCTAssertNil(DateLineVote.decide(["2018-01-01", "2018-01-01", "2018-02-02", "2018-02-02"]), "a tie")
  }

  func testAReReadingMayNotOverruleAGroupThePageReadAsADate() {
    let anyDate: (String) -> Bool = { !$0.isEmpty }
    // The page read the month as 06, the crops (sharing its pixels) as 08: the page's group would
    // make a date, so the crops' reading contradicts it.
    XCTAssertTrue(
      DateLineVote.contradicts(
        page: "Date : (1 “06- 2018 18:", reread: "Date: 01-08-2018 18:21", isDate: anyDate))
    // A group no date can take (month 62) is what the crops are for.
    let validMonth: (String) -> Bool = { text in
      let groups = text.split(separator: "/")
      return groups.count == 3 && (Int(groups[1]).map { (1...12).contains($0) } ?? false)
    }
    XCTAssertFalse(
      DateLineVote.contradicts(page: "19/62/2018 16:45", reread: "19/02/2018 16:45", isDate: validMonth))
    XCTAssertFalse(
      DateLineVote.contradicts(page: "Date: 20/03/201", reread: "Date: 20/03/2018", isDate: anyDate),
      "a group of another length")
    XCTAssertFalse(DateLineVote.contradicts(page: "no date here", reread: "19/02/2018", isDate: anyDate))
  }
}
