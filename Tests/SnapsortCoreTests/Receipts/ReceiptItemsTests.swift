import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortStages

/// Line items on the printed text of receipts from bench/gen/receipts.py's training split (the
/// rows as printed, spacing kept) and on rows written in the test for the layouts item 5 of issue
/// #23 names: a description over several rows, discounts on their own rows, the quantity above,
/// after or beside the name, a row of quantity, unit price and amount.
final class ReceiptItemsTests: XCTestCase {
  private func items(_ lines: [String]) -> [ReceiptItem] {
    ReceiptExtractor().extract(receiptRows(lines)).items
  }

  private func item(_ description: String, _ quantity: String, _ unit: String, _ amount: String)
    -> ReceiptItem
  {
    ReceiptItem(
      description: description, quantity: quantity, unitPrice: Money.parse(unit), amount: Money.parse(amount)!
    )
  }

  /// Rendered receipt train-11 #5 (discount_lines, es): a discount row under an item, printed
  /// `-1,30` or `1,90-`, is no item, and the items below it are still read.
  func testDiscountRowsAreNoItemsAndDoNotEndTheList() {
    let read = items([
      "         Ultramarinos La Plaza", "            Plaza España 59", "              28013 Madrid",
      "            Tel. 20 103 4977", "----------------------------------------",
      "10/07/22 09:47                     #2790", "========================================",
      "Chorizo                             6,88", "  Descuento                        -1,30", "Arroz bomba",
      "  6 * 0,73                          4,38", "Pan de barra                        2,82",
      "  Descuento                        -0,70", "Cerveza lata                        6,07",
      "Queso manchego",
      "  2 X 6,92                         13,84", "Detergente", "  4 X 0,85                          3,40",
      "Patatas 3kg                         0,34", "Pollo entero                        7,64",
      "  Dto.                             1,90-", "Atún en aceite",
      "  3 * 2,37                          7,11",
      "  Descuento                        1,70-", "----------------------------------------",
      "Subtotal                           52,48", "Descuentos                         -5,60",
      "Total compra                     46,88 €", "         GRACIAS POR SU VISITA",
    ])
    XCTAssertEqual(
      read.map(\.description),
      [
        "Chorizo", "Arroz bomba", "Pan de barra", "Cerveza lata", "Queso manchego", "Detergente",
        "Patatas 3kg",
        "Pollo entero", "Atún en aceite",
      ])
    XCTAssertEqual(read[1], item("Arroz bomba", "6", "0.73", "4.38"))
    XCTAssertEqual(
      read.map(\.amount).reduce(Money(cents: 0), +), Money(cents: 5248), "the items make the subtotal")
  }

  /// Rendered receipt train-11 #128 (sku_multiline, de): a description printed over two rows
  /// under the article number, then `6 x  1,06  6,36`.
  func testADescriptionOverTwoRowsAboveItsQuantityRow() {
    let read = items([
      "          MARKT MÜLLER & SÖHNE", "             Lindenweg 173", "               50667 Köln",
      "24.03.18 15:42                   #191972", "----------------------------------------", "4180989423185",
      "Joghurt Natur", "         1 x             3,16       3,16", "5338027236126", "Apfelsaft 1,5l",
      "         6 x             3,53      21,18", "4468683626406", "Schokolade", "Vollmilch",
      "         6 x             1,06       6,36", "1053679514193", "Mineralwasser 6x1,5l",
      "         4 x             2,85      11,40", "========================================",
      "Zwischensumme                      42,10", "Gesamt                            €42,10",
    ])
    XCTAssertEqual(
      read,
      [
        item("Joghurt Natur", "1", "3.16", "3.16"), item("Apfelsaft 1,5l", "6", "3.53", "21.18"),
        item("Schokolade Vollmilch", "6", "1.06", "6.36"), item("Mineralwasser 6x1,5l", "4", "2.85", "11.40"),
      ])
  }

  /// Rendered receipt train-11 #67 (plain, en): the header's reference and cashier row right above
  /// the first item is no part of its description.
  func testTheHeaderRowAboveTheFirstItemIsNoDescription() {
    let read = items([
      "             BLUE DOOR FOODS", "             219 Main Street", "            Portland, OR 97205",
      "==========================================", "10/03/2019                           20:25",
      "Trans # 5466                    Operator 4", "Peanut Butter                         2.85",
      "  Member Savings                     0.20-", "Avocado                               1.95",
      "==========================================", "TOTAL                                 4.60",
    ])
    XCTAssertEqual(read, [item("Peanut Butter", "1", "2.85", "2.85"), item("Avocado", "1", "1.95", "1.95")])
  }

  /// Below the first item, rows of words without an amount begin the next item's description;
  /// above the first one they may be the header's, so it keeps its own row's words.
  func testADescriptionWrappedOverRowsAboveItsAmount() {
    let read = items([
      "SHOP", "Cashier Anna", "Whole Milk             1.00", "Organic Bananas", "Family Pack            3.98",
      "Sourdough Bread        4.99", "TOTAL                  9.97",
    ])
    XCTAssertEqual(read.map(\.description), ["Whole Milk", "Organic Bananas Family Pack", "Sourdough Bread"])
  }

  func testQuantityAboveAfterOrBesideTheName() {
    let read = items([
      "SHOP", "----------", "  2 x 1,99", "Milch              3,98", "Avocado (2)        3,90",
      "Kaffee x3          8,97",
      "003 Brot           2,49", "Tee (6 @ 3,80) ........ 22,80", "Butter", "  2      1,49      2,98",
      "SUMME             45,02",
    ])
    XCTAssertEqual(
      read,
      [
        item("Milch", "2", "1.99", "3.98"), item("Avocado", "2", "1.95", "3.90"),
        item("Kaffee", "3", "2.99", "8.97"),
        item("Brot", "1", "2.49", "2.49"), item("Tee", "6", "3.80", "22.80"),
        item("Butter", "2", "1.49", "2.98"),
      ])
  }
}
