import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class IssuerCatalogTests: XCTestCase {
  func testBundledCatalogCoversTheMarkets() throws {
    let catalog = try IssuerCatalog.bundled()
    XCTAssertGreaterThanOrEqual(catalog.issuers.count, 150)
    for country in ["PL", "DE", "FR", "ES", "IT", "NL", "SE", "UA", "GB", "US"] {
      let count = catalog.issuers.filter { $0.countries.contains(country) }.count
      XCTAssertGreaterThanOrEqual(count, 15, "too few issuers in \(country)")
    }
    for issuer in catalog.issuers {
      XCTAssertFalse(issuer.colors.isEmpty, "\(issuer.id) has no colours")
      // Every alias with diacritics has a folded twin, so plain-ASCII text finds it too.
      for text in [issuer.name] + issuer.aliases
      where text.unicodeScalars.contains(where: { $0.value > 0x7f }) {
        let latin = text.unicodeScalars.allSatisfy { $0.value < 0x0400 }
        if latin {
          let folded = IssuerText.fold(text)
          XCTAssertTrue(
            issuer.aliases.contains {
              IssuerText.fold($0) == folded && $0.unicodeScalars.allSatisfy { $0.value < 0x80 }
            },
            "\(issuer.id): no alias without diacritics for \(text)")
        }
      }
    }
  }

  func testMergingReplacesAndAdds() {
    let base = IssuerCatalog(issuers: [Issuer(id: "a", name: "A"), Issuer(id: "b", name: "B")])
    let merged = base.merging([Issuer(id: "b", name: "Bee"), Issuer(id: "c", name: "C")])
    XCTAssertEqual(merged.issuers.map(\.id), ["a", "b", "c"])
    XCTAssertEqual(merged.issuer(id: "b")?.name, "Bee")
    XCTAssertEqual(merged.removing(["a"]).issuers.map(\.id), ["b", "c"])
  }

  func testCheckRejectsBadIdsAndColours() {
    XCTAssertThrowsError(try IssuerCatalog(issuers: [Issuer(id: "Bad_Id", name: "x")]).check(source: "t"))
    XCTAssertThrowsError(
      try IssuerCatalog(issuers: [Issuer(id: "a", name: "x"), Issuer(id: "a", name: "y")]).check(source: "t"))
    XCTAssertThrowsError(
      try IssuerCatalog(issuers: [Issuer(id: "a", name: "x", colors: ["red"])]).check(source: "t"))
    XCTAssertNoThrow(
      try IssuerCatalog(issuers: [Issuer(id: "a-1", name: "x", colors: ["#ff0000"])]).check(source: "t"))
  }
}
