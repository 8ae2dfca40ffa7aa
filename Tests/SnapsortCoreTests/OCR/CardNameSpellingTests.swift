import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class CardNameReconcilerTests: XCTestCase {
  func testTakesTheDiacriticReadingOfTheSameName() {
    XCTAssertEqual(
      CardNameReconciler.reconcile(page: "Ferreteria Nunez", diacritic: "Ferretería Núñez"),
      "Ferretería Núñez")
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Zabka", diacritic: "Żabka"), "Żabka")
    XCTAssertEqual(
      CardNameReconciler.reconcile(page: "Nerrebro Kaffe", diacritic: "Nørrebro Kaffe"), "Nørrebro Kaffe")
    // eng splits the letter it does not know in two.
    XCTAssertEqual(
      CardNameReconciler.reconcile(page: "Neorrebro Kaffe", diacritic: "Nørrebro Kaffe"), "Nørrebro Kaffe")
  }

  func testKeepsThePageReadingWhenTheLettersDiffer() {
    // No diacritics gained: the Latin model's plain-glyph misreading is not taken.
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Lidl Plus", diacritic: "Lidi Plus"), "Lidl Plus")
    // A letter invented next to the diacritic.
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Muller", diacritic: "Muüller"), "Muller")
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Coop", diacritic: "Cööp Extra"), "Coop")
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Tesco", diacritic: ""), "Tesco")
    // A substitution where the diacritic reading has a plain letter is a misreading.
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Decathlon", diacritic: "Decathlön Clüb"), "Decathlon")
    XCTAssertEqual(CardNameReconciler.reconcile(page: "Sephora", diacritic: "Sepköra"), "Sephora")
  }
}

final class CardNameCatalogTests: XCTestCase {
  func catalog() -> CardNameCatalog {
    CardNameCatalog(
      catalog: IssuerCatalog(issuers: [
        Issuer(id: "zabka", name: "Żabka", aliases: ["Zabka", "Żappka"]),
        Issuer(id: "lidl", name: "Lidl", aliases: ["Lidl Plus"]),
        Issuer(id: "decathlon", name: "Decathlon", aliases: []),
        Issuer(id: "mueller", name: "Müller", aliases: ["Mueller", "Muller"]),
        Issuer(id: "coop", name: "Coop", aliases: []),
        Issuer(id: "co-op", name: "Co-op", aliases: []),
        Issuer(id: "esselunga", name: "Esselunga", aliases: ["Fidaty"], program: "Fìdaty"),
      ]))
  }

  func testSnapsDiacriticsAndLookalikesToTheCatalogSpelling() {
    let names = catalog()
    XCTAssertEqual(names.glyphSpelling(of: "Zabka"), "Żabka")
    XCTAssertEqual(names.glyphSpelling(of: "ZABKA"), "Żabka")
    XCTAssertEqual(names.glyphSpelling(of: "Muller"), "Müller")
    XCTAssertEqual(names.glyphSpelling(of: "Lid! Plus"), "Lidl Plus")
    XCTAssertEqual(names.glyphSpelling(of: "Decathion"), "Decathlon")
    // An alias that is a different name keeps its own spelling.
    XCTAssertEqual(names.glyphSpelling(of: "Mueller"), "Mueller")
  }

  /// A word split in two or two words joined is one glyph, a space; a split that also loses an
  /// accent is two edits, and `Co op` is as near `Coop` as `Co-op`, so it names neither.
  func testOneSpaceSplitOrJoinedIsOneGlyph() {
    let names = catalog()
    XCTAssertEqual(names.glyphSpelling(of: "Deca thlon"), "Decathlon")
    XCTAssertEqual(names.glyphSpelling(of: "LidlPlus"), "Lidl Plus")
    XCTAssertNil(names.glyphSpelling(of: "Mul ler"))
    XCTAssertNil(names.glyphSpelling(of: "De ca thlon"))
  }

  /// A dropped letter or two lost accents could as well be a brand the catalog does not know:
  /// only the issuer the classifier named gets its spelling back.
  func testLargerEditsOnlyForTheNamedIssuer() {
    let names = catalog()
    XCTAssertNil(names.glyphSpelling(of: "Decathlo"))
    XCTAssertEqual(names.spelling(of: "Decathlo", issuer: "decathlon"), "Decathlon")
    XCTAssertNil(names.spelling(of: "Decathlo", issuer: "lidl"))
    XCTAssertEqual(names.spelling(of: "Coop", issuer: "coop"), "Coop")
  }

  /// Cards print the programme alone or after the brand; its accented spelling wins over the
  /// plain search alias listed for it.
  func testProgrammeNamesAloneAndAfterTheBrand() {
    let names = catalog()
    XCTAssertEqual(names.glyphSpelling(of: "Esselunga Fidaty"), "Esselunga Fìdaty")
    XCTAssertEqual(names.glyphSpelling(of: "Fidaty"), "Fìdaty")
    XCTAssertEqual(names.glyphSpelling(of: "Esselunga"), "Esselunga")
  }

  func testLeavesOtherTextAlone() {
    let names = catalog()
    XCTAssertNil(names.spelling(of: "Lidl Plus Bonus"), "only whole readings are snapped")
    XCTAssertNil(names.spelling(of: "Nørrebro Kaffe"))
    XCTAssertNil(names.spelling(of: "Zabko"), "short names match exactly or not at all")
    XCTAssertEqual(names.spelling(of: "Coop"), "Coop")
    XCTAssertEqual(names.spelling(of: "Co-op"), "Co-op")
  }

  func testTheBundledCatalogLoads() throws {
    let names = CardNameCatalog(catalog: try IssuerCatalog.bundled())
    XCTAssertEqual(names.glyphSpelling(of: "Ahléns"), "Åhléns")
    XCTAssertNil(names.glyphSpelling(of: "Ahlens"), "two accents away")
    XCTAssertEqual(names.spelling(of: "Ahlens", issuer: "ahlens"), "Åhléns")
  }

  /// The record shows the catalog's spelling with the reading as the first alternative.
  func testTheReadingStaysAsTheFirstAlternative() {
    let read = NameSuggestion(suggested: "Decathlo", alternatives: ["Decathlon", "Club"])
    let spelled = CatalogSpelling(name: "Decathlon").applied(to: read)
    XCTAssertEqual(
      spelled,
      NameSuggestion(suggested: "Decathlon", alternatives: ["Decathlo", "Club"], catalogSpelling: true))
  }
}

final class TextContrastTests: XCTestCase {
  /// An orange field (grey 158), white type (250) and a white box with black bars: after
  /// flattening the type and the bars are dark and both backgrounds white.
  func testTypeOfEitherPolarityBecomesDarkOnWhite() {
    let width = 640, height = 400
    var gray = Bitmap(width: width, height: height, format: .gray, fill: 158)
    for y in 40..<90 { for x in 40..<300 where (x / 12) % 2 == 0 { gray.pixels[y * width + x] = 250 } }
    // The box covers whole tiles (80 × 80 px), as a card's barcode box covers several.
    for y in 240..<400 {
      for x in 160..<640 {
        gray.pixels[y * width + x] = (x / 10) % 3 == 0 && (260..<360).contains(y) ? 0 : 250
      }
    }
    let flat = TextContrast.flattened(gray)
    XCTAssertEqual(flat.width, width)
    XCTAssertGreaterThan(flat.gray(x: 500, y: 20), 220, "orange field")
    XCTAssertLessThan(flat.gray(x: 50, y: 60), 100, "white type")
    XCTAssertGreaterThan(flat.gray(x: 415, y: 300), 220, "the barcode box's white")
    XCTAssertLessThan(flat.gray(x: 420, y: 300), 100, "a black bar")
  }

  /// A dark panel (grey 90) with light type (strokes 4 px wide every 16 px) up to just before its
  /// edge, a white panel (240) to the right, the edge inside a tile: with `keepingEdges` the
  /// type's last stroke stays dark and the dark panel's background by the edge stays white;
  /// interpolating the two tiles' backgrounds across the edge lost the stroke (`PrivatBan|k`).
  func testTypeBesideAPanelEdgeKeepsItsLastLetter() {
    let width = 640, height = 400
    var gray = Bitmap(width: width, height: height, format: .gray, fill: 90)
    for y in 0..<height { for x in 340..<width { gray.pixels[y * width + x] = 240 } }
    for y in 40..<90 { for x in 250..<336 where x % 16 < 4 { gray.pixels[y * width + x] = 200 } }
    let flat = TextContrast.flattened(gray, keepingEdges: true)
    XCTAssertLessThan(flat.gray(x: 321, y: 60), 100, "the last stroke")
    XCTAssertGreaterThan(flat.gray(x: 330, y: 60), 220, "between the last stroke and the edge")
    XCTAssertGreaterThan(flat.gray(x: 330, y: 200), 220, "the dark panel by the edge")
    XCTAssertGreaterThan(flat.gray(x: 350, y: 200), 220, "the white panel by the edge")
    XCTAssertLessThan(flat.gray(x: 257, y: 60), 100, "a stroke away from the edge")
    XCTAssertGreaterThan(TextContrast.flattened(gray).gray(x: 321, y: 60), 100, "blended across the edge")
  }

  func testSmallImagesPassThrough() {
    let gray = Bitmap(width: 40, height: 30, format: .gray, fill: 90)
    XCTAssertEqual(TextContrast.flattened(gray), gray)
  }

  /// The surroundings' median is selected, not sorted for: the same value a sort gives, at every
  /// rank, with ties and runs of equal values as a page's flat background makes them.
  func testSelectionGivesTheSortedValueAtEveryRank() {
    var generator = SystemRandomNumberGenerator()
    for count in [1, 2, 3, 9, 81] {
      for _ in 0..<20 {
        let values = (0..<count).map { _ in Double(Int.random(in: 0..<6, using: &generator)) * 40.5 }
        let sorted = values.sorted()
        for rank in 0..<count {
          var window = values
          XCTAssertEqual(
            window.selectElement(atRank: rank), sorted[rank],
            "\(values) rank \(rank)")
        }
      }
    }
  }
}
