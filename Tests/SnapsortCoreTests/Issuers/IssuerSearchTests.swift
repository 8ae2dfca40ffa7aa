import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerSearchTests: XCTestCase {
  static let search = try! IssuerSearch(catalog: IssuerCatalog.bundled())

  func testFindsByNameAliasWithoutDiacriticsAndWithTypos() {
    XCTAssertEqual(Self.search.search("zabka").first?.issuer.id, "zabka")
    XCTAssertEqual(Self.search.search("Żabka").first?.issuer.id, "zabka")
    XCTAssertEqual(Self.search.search("clubcard").first?.issuer.id, "tesco")
    XCTAssertEqual(Self.search.search("biedronak").first?.issuer.id, "biedronka")
    XCTAssertEqual(Self.search.search("albert").first?.issuer.id, "albert-heijn")
  }

  func testCountryFilter() {
    let hits = Self.search.search("coop", country: "SE")
    XCTAssertEqual(hits.first?.issuer.id, "coop-sverige")
    XCTAssertTrue(hits.allSatisfy { $0.issuer.countries.contains("SE") })
    XCTAssertTrue(Self.search.search("walmart", country: "PL").isEmpty)
  }

  func testNonsenseFindsNothing() {
    XCTAssertTrue(Self.search.search("qqqqzzzz").isEmpty)
  }
}

extension IssuerSearchTests {
  func testIssuerRanksAboveProgrammePartners() {
    let hits = Self.search.search("payback")
    XCTAssertEqual(hits.first?.issuer.id, "payback")
    XCTAssertTrue(hits.contains { $0.issuer.id == "aral" })
  }
}

extension IssuerSearchTests {
  func testSwappedLettersInShortNames() {
    XCTAssertEqual(Self.search.search("lild").first?.issuer.id, "lidl")
    XCTAssertEqual(EditDistance.optimalStringAlignment(Array("lild"), Array("lidl")), 1)
    XCTAssertEqual(EditDistance.optimalStringAlignment(Array("kitten"), Array("sitting")), 3)
  }
}
