import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools
import XCTest

/// Each rule of Screen Cache's query semantics, one test each.
final class SearchQueryTests: XCTestCase {
  typealias Term = SearchQuery.Term

  func parse(_ text: String) -> [[Term]] { SearchQuery(parsing: text).clauses }

  func testKeywordsAreCaseInsensitive() {
    XCTAssertEqual(parse("CoFFee"), [[Term("coffee")]])
    XCTAssertTrue(SearchQuery(parsing: "COFFEE").matches("Best coffee in town"))
    XCTAssertTrue(SearchQuery(parsing: "coffee").matches("BEST COFFEE"))
  }

  func testWhitespaceMeansAnd() {
    XCTAssertEqual(parse("coffee beans"), [[Term("coffee"), Term("beans")]])
    let query = SearchQuery(parsing: "coffee beans")
    XCTAssertTrue(query.matches("beans of coffee"))
    XCTAssertFalse(query.matches("coffee only"))
  }

  func testPlusAndTheWordAndMeanAnd() {
    XCTAssertEqual(parse("coffee+beans"), [[Term("coffee"), Term("beans")]])
    XCTAssertEqual(parse("coffee AND beans"), [[Term("coffee"), Term("beans")]])
    XCTAssertEqual(parse("coffee and beans"), parse("coffee beans"))
  }

  func testAnyOtherPunctuationMeansAnd() {
    for separator in [
      ",", ".", ";", ":", "/", "_", "*", "(", ")", "\"", "'", "!", "?", "&", "|", "#", "@", "€",
    ] {
      XCTAssertEqual(
        parse("coffee\(separator)beans"), [[Term("coffee"), Term("beans")]], "separator \(separator)")
    }
  }

  func testRunsOfWhitespaceAndPunctuationCountAsOneAnd() {
    XCTAssertEqual(parse("coffee ,,;  + \t beans"), [[Term("coffee"), Term("beans")]])
    XCTAssertEqual(parse("  coffee  "), [[Term("coffee")]])
  }

  func testOrMeansOr() {
    XCTAssertEqual(parse("coffee or tea"), [[Term("coffee")], [Term("tea")]])
    XCTAssertEqual(parse("coffee OR tea"), parse("coffee or tea"))
    let query = SearchQuery(parsing: "coffee or tea")
    XCTAssertTrue(query.matches("green tea"))
    XCTAssertTrue(query.matches("coffee"))
    XCTAssertFalse(query.matches("water"))
  }

  func testAndBindsTighterThanOr() {
    XCTAssertEqual(parse("a b or c"), [[Term("a"), Term("b")], [Term("c")]])
    let query = SearchQuery(parsing: "milk sugar or tea")
    XCTAssertTrue(query.matches("tea"))
    XCTAssertTrue(query.matches("milk and sugar"))
    XCTAssertFalse(query.matches("milk"))
  }

  func testMinusNegatesTheNextKeyword() {
    XCTAssertEqual(parse("coffee -decaf"), [[Term("coffee"), Term("decaf", negated: true)]])
    XCTAssertEqual(parse("-decaf"), [[Term("decaf", negated: true)]])
    let query = SearchQuery(parsing: "coffee -decaf")
    XCTAssertTrue(query.matches("coffee beans"))
    XCTAssertFalse(query.matches("decaf coffee"))
  }

  func testNotNegatesTheNextKeywordOnly() {
    XCTAssertEqual(
      parse("coffee not decaf beans"), [[Term("coffee"), Term("decaf", negated: true), Term("beans")]])
    XCTAssertEqual(parse("NOT decaf"), [[Term("decaf", negated: true)]])
  }

  func testMinusInsideARunOfPunctuationStillNegates() {
    XCTAssertEqual(parse("coffee, -decaf"), [[Term("coffee"), Term("decaf", negated: true)]])
    XCTAssertEqual(parse("coffee-decaf"), [[Term("coffee"), Term("decaf", negated: true)]])
    XCTAssertEqual(parse("coffee not -decaf"), [[Term("coffee"), Term("decaf", negated: true)]])
  }

  func testNegationAppliesWithinEachAlternative() {
    XCTAssertEqual(parse("-a or b"), [[Term("a", negated: true)], [Term("b")]])
    // A dangling negation before "or" does not leak into the next alternative.
    XCTAssertEqual(parse("a - or b"), [[Term("a")], [Term("b")]])
  }

  func testOnlyWhitespaceAndPunctuationAppliesNoFilter() {
    for text in ["", "   ", " ,.;-+ ", "\t\n", "!!!", "- -", "or", "and or not"] {
      XCTAssertTrue(SearchQuery(parsing: text).isEmpty, "\"\(text)\"")
      XCTAssertTrue(SearchQuery(parsing: text).matches("anything"))
    }
  }

  func testDanglingOperatorsAreIgnored() {
    XCTAssertEqual(parse("or coffee or"), [[Term("coffee")]])
    XCTAssertEqual(parse("coffee or or tea"), [[Term("coffee")], [Term("tea")]])
    XCTAssertEqual(parse("coffee not"), [[Term("coffee")]])
  }

  func testLettersAndDigitsOfAnyScriptAreKeywords() {
    // Folded as the store folds (`TextFolding`): no accents, lowercased.
    XCTAssertEqual(parse("Żabka 7-Eleven"), [[Term("zabka"), Term("7"), Term("eleven", negated: true)]])
    XCTAssertEqual(parse("Café#42"), [[Term("cafe"), Term("42")]])
    XCTAssertEqual(parse("Nørrebro Straße"), [[Term("norrebro"), Term("strasse")]])
  }

  func testKeywordsMatchAnywhereInTheText() {
    XCTAssertTrue(SearchQuery(parsing: "ffee").matches("coffee"))
    XCTAssertTrue(SearchQuery(parsing: "590123").matches("ean13 5901234123457"))
  }
}
