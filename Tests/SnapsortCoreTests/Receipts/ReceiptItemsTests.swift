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

  /// OCR reads the paper's edge or a column rule after a price as a stroke (`|`, `_`): the price
  /// still ends its row, as a tax class after it does.
  func testAStrokeAfterThePriceLeavesItThePrice() {
    XCTAssertEqual(
      items(["SHOP", "Pollo entero 7,64 |", "Jus d'orange 3,26 _", "PAPER A4 8.70SR_", "TOTAL 19,60"]),
      [
        item("Pollo entero", "1", "7.64", "7.64"), item("Jus d'orange", "1", "3.26", "3.26"),
        item("PAPER A4", "1", "8.70", "8.70"),
      ])
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

  /// Rendered receipt train-21 #111 (sku_multiline, en): a currency symbol printed after each
  /// amount (`6.00 $`) still leaves the amount the row's price.
  func testACurrencySymbolAfterTheAmount() {
    let read = items([
      "           MAPLE STREET DELI", "             81 Main Street", "           Portland, OR 97205",
      "06/07/18                           21:10", "Trans # 108977                 Cashier 8", "5686609890915",
      "Avocado", "         2 x             3.00     6.00 $", "212297969119", "Sourdough Bread",
      "         1 x             1.97     1.97 $", "8223626747110", "Dish Soap",
      "         1 x            14.30    14.30 $", "========================================",
      "SUBTOTAL                         22.27 $", "Sales Tax                         1.78 $",
      "AMOUNT DUE                       24.05 $", "VISA                               24.05",
    ])
    XCTAssertEqual(
      read,
      [
        item("Avocado", "2", "3.00", "6.00"), item("Sourdough Bread", "1", "1.97", "1.97"),
        item("Dish Soap", "1", "14.30", "14.30"),
      ])
  }

  /// Rendered receipt train-21 #121 (columns, pl): `SPRZEDAŻ OPODATK.` (taxable sales) is the
  /// subtotal's label, no item.
  func testThePolishTaxableSalesLineIsTheSubtotal() {
    let receipt = ReceiptExtractor().extract(
      receiptRows([
        "             MARKET ZIELONY", "           ul. Przykładowa 63",
        "22-05-2021                         12:09",
        "========================================", "Il.  Nazwa               Cena    Wartość",
        "----------------------------------------", "1    Jogurt natu        30,89      30,89",
        "1    Makaron            32,39      32,39", "6    Sok jabłkow        11,05      66,30",
        "6    Czekolada           1,49       8,94", "2    Ser żółty          10,38      20,76",
        "----------------------------------------", "SPRZEDAŻ OPODATK.                 159,28",
        "DO ZAPŁATY                     zł 159,28", "GOTÓWKA                           160,00",
        "RESZTA                              0,72",
      ]))
    XCTAssertEqual(
      receipt.items.map(\.description), ["Jogurt natu", "Makaron", "Sok jabłkow", "Czekolada", "Ser żółty"])
    XCTAssertEqual(receipt.subtotal, "159.28")
    XCTAssertEqual(receipt.checks?.itemsMatchSubtotal, true)
  }

  /// A quantity row without an amount belongs to the neighbour whose amount it comes to: the item
  /// above (`003 Brot 3,98` / `2 x 1,99`) or, printed above its item, the one below
  /// (`2 x 1,99` / `Milch 3,98`); the item above keeps its own price either way.
  func testAQuantityRowBelongsToTheItemItComesTo() {
    let read = items([
      "SHOP", "----------", "Brot               2,49", "  2 x 1,99", "Milch              3,98",
      "003 Kaffee         8,97", "  3 x 2,99", "  4 x 0,50", "Tee                2,00",
      "SUMME             17,44",
    ])
    XCTAssertEqual(
      read,
      [
        item("Brot", "1", "2.49", "2.49"), item("Milch", "2", "1.99", "3.98"),
        item("Kaffee", "3", "2.99", "8.97"),
        item("Tee", "4", "0.50", "2.00"),
      ])
  }

  /// Descriptions over several rows with the amount on the first: the rows left under the last
  /// item say so, and each item takes the rows below it instead of the next one's.
  func testADescriptionWrappedBelowItsAmount() {
    let read = items([
      "SHOP", "----------", "Organic Bananas        3.98", "Family Pack", "Whole Milk             1.00",
      "Sourdough Bread        4.99", "Reduced Fat", "Special", "----------", "TOTAL                  9.97",
    ])
    XCTAssertEqual(
      read.map(\.description),
      ["Organic Bananas Family Pack", "Whole Milk", "Sourdough Bread Reduced Fat Special"])
  }

  /// Rendered receipt train-21 #117 (qty_below, it), as snapsort's OCR read it: the rule under
  /// the items read as letters is no description, so the last item keeps its own.
  func testARuleReadAsLettersIsNoDescription() {
    let read = items([
      "MERCATO DA GINO", "Via Roma 115", "20121 Milano", "17/10/2018 14:04 #844793",
      "Serres se see SS SS SSS SS SE SS SS ES SE ES SSS SS ST SS", "Detersivo piatti 2,24",
      "Pomodori pelati 6,50", "Acqua naturale 2,71", "Insalata mista", "4 x 21,64 86,56", "SSS eeeeS SSeS",
      "SSSSSSSSSSSSseSSSSS", "TOTALE 98,01", "GRAZIE E ARRIVEDERCI",
    ])
    XCTAssertEqual(
      read.map(\.description), ["Detersivo piatti", "Pomodori pelati", "Acqua naturale", "Insalata mista"])
    XCTAssertEqual(read.last, item("Insalata mista", "4", "21.64", "86.56"))
  }

  /// A weight after the name (`Äpfel x0,532`) is the quantity; no unit price is printed.
  func testAWeightAfterTheName() {
    let read = items([
      "SHOP", "----------", "Äpfel x0,532          1,86", "Brot (2)              4,98", "SUMME   6,84",
    ])
    XCTAssertEqual(read, [item("Äpfel", "0.532", "", "1.86"), item("Brot", "2", "2.49", "4.98")])
  }

  /// Rendered receipt train-11 #25 and #51 (dot_leaders, OCR rows): a dot leader read as letters
  /// of a few kinds ends the description; the description's own words and numbers stay.
  func testADotLeaderReadAsLettersEndsTheDescription() {
    let read = items([
      "SHOP", "Applen cc cece ce cece eee ee ence 28,10", "Pasta co.cc ccc cc reece cece ees ceeeees 23,27",
      "Mjolk 3% ..o ccc cece ec eee ee tee eee 57,91", "TOMATEN wassanannnsnecnvnesevcesers 3,16",
      "Crème fraîche 2,00", "Kaffee cc 1,00", "SUMME 115,44",
    ])
    XCTAssertEqual(
      read.map(\.description), ["Applen", "Pasta", "Mjolk 3%", "TOMATEN", "Crème fraîche", "Kaffee cc"])
  }

  /// Rendered receipt train-11 #75 (indexed, OCR rows): the amount `4,90` was misread for `4,00`;
  /// the weight and price under it come to 4.00, and only with that reading do the items make the
  /// total. Where the items add up as read, or neither reading makes them, the printed amount stays.
  func testTheItemsArithmeticChoosesBetweenAnAmountAndItsQuantityRow() {
    let rows = ["SHOP", "01 Butter 250g 1,86", "05 Tomaten 4,90", "1,592 kg x 2,51", "08 Gouda jung 3,33"]
    XCTAssertEqual(
      items(rows + ["BETRAG EUR 9,19"]),
      [
        item("Butter 250g", "1", "1.86", "1.86"), item("Tomaten", "1.592", "2.51", "4.00"),
        item("Gouda jung", "1", "3.33", "3.33"),
      ])
    XCTAssertEqual(items(rows + ["BETRAG EUR 10,09"])[1], item("Tomaten", "1", "4.90", "4.90"))
    XCTAssertEqual(items(rows + ["BETRAG EUR 12,00"])[1], item("Tomaten", "1", "4.90", "4.90"))
    // A count and unit price before the amount that do not come to it: the same choice.
    XCTAssertEqual(
      items(["SHOP", "2 Milk 1,99 3,88", "Bread 2,00", "SUBTOTAL 5,98", "TOTAL 5,98"]).first,
      item("Milk", "2", "1.99", "3.98"))
    XCTAssertEqual(
      items(["SHOP", "2 Milk 1,99 3,88", "Bread 2,00", "SUBTOTAL 5,88", "TOTAL 5,88"]).first,
      item("Milk", "2", "1.94", "3.88"))
  }

  /// Rendered receipt train-11 #83 (indexed, OCR rows): a weight row whose digits were misread
  /// (`@,745 kg x 2,64`) leaves a unit and a times sign before its price: no item of its own.
  func testAUnitAndATimesSignAreNoDescription() {
    let read = items(["SHOP", "Q@2 Arroz bomba 1,97", "@,745 kg x 2,64", "@3 Chorizo 9,28", "Total 11,25"])
    XCTAssertEqual(read.map(\.amount), [Money.parse("1.97")!, Money.parse("9.28")!])
  }

  /// Rendered receipt train-41 #2 (qty_below, OCR rows): a price whose separator OCR lost, ended by
  /// the currency and tax class printed after it (`231€A`), or with its tax class B read as an 8
  /// (`1,678`), is still the row's price; a count or a weight is not (`Papas 2kg`).
  func testAPriceWithoutItsSeparatorBeforeATaxClassOrCurrency() {
    let read = items([
      "SHOP", "Huevos docena 231€A", "Chorizo 5,52 € A", "Tomates grappe 1,678", "MILO AIS 208 80 SR",
      "3x 1,46 438A", "Papas 2kg", "Pollo 1,95 € A", "TOTAL 225,04",
    ])
    XCTAssertEqual(
      read,
      [
        item("Huevos docena", "1", "2.31", "2.31"), item("Chorizo", "1", "5.52", "5.52"),
        item("Tomates grappe", "1", "1.67", "1.67"), item("MILO AIS", "1", "208.80", "208.80"),
        item("", "3", "1.46", "4.38"), item("Papas 2kg Pollo", "1", "1.95", "1.95"),
      ])
  }

  /// Rendered receipt train-11 #10 (discount_lines, OCR rows): neither the subtotal nor the total
  /// was read; the discounts under items do not end the list, the row whose amount the items come
  /// to (its label lost) does.
  func testWithoutATotalReadTheItemsRunPastTheirDiscounts() {
    let read = items([
      "SHOP", "Jogurt naturalny 25,92", "Makaron 37,44", "Jajka L 10szt 34,88", "Rabat 10,40-",
      "Woda 1,5l 174,24", "Pomidory 14,79", "Oszczedzasz -10,40", "Czekolada 45,12",
      "eZEDAZ OPODATK. 332,39", "A Zt 321,99", "DZIEKUJEMY",
    ])
    XCTAssertEqual(
      read.map(\.amount.description), ["25.92", "37.44", "34.88", "174.24", "14.79", "45.12"])
  }

  /// A count printed before the price in its own column (`Kiełbasa 4 245,36`) reads like a price
  /// with a space as its thousands separator: it is a count when the item would otherwise cost
  /// more than the receipt, or when it times the unit price printed before it is the rest. A price
  /// over a thousand that the total bears out stays one.
  func testACountBeforeThePriceIsNoThousandsGroup() {
    let read = items([
      "SKLEP", "----------", "Kiełbasa 4 245,36", "Chleb żytni 31,11 6 186,66", "Masło 20,37 1 20,37",
      "SUMA PLN 452,39",
    ])
    XCTAssertEqual(read.map(\.amount.description), ["245.36", "186.66", "20.37"])
    let dear = items(["SKLEP", "----------", "Telewizor 1 299,00", "Kabel 2 19,98", "SUMA PLN 1 318,98"])
    XCTAssertEqual(dear.map(\.amount.description), ["1299.00", "19.98"])
  }

  /// Train family long_names: descriptions over rows of their own, the last one only a pack size
  /// (`125g`), and a quantity row above the item it comes to.
  func testAWrappedDescriptionEndingInAPackSize() {
    let read = items([
      "SHOP", "Bon 7274 Kassa 5", "==========", "Milch 1,19", "Butter 250g", "Hähnchenbrust", "2 x 2,38 4,76",
      "Bergkäse", "125g", "Roggenbrötchen 20,06", "2 x 3,83", "Eieren 10st 7,66", "----------", "SUMME 33,67",
    ])
    XCTAssertEqual(
      read.map(\.description),
      ["Milch", "Butter 250g Hähnchenbrust", "Bergkäse 125g Roggenbrötchen", "Eieren 10st"])
    XCTAssertEqual(read.map(\.quantity), ["1", "2", "1", "2"])
  }

  /// A discount under an item whose description runs on below its amount closes that item: the
  /// rows under the discount begin the next item.
  func testADiscountClosesTheItemAbove() {
    let read = items([
      "SHOP", "----------", "Riso Carnaroli 3.94", "naturale", "Biscotti 1.21", "Sconto 0.20-",
      "Detersivo piatti",
      "naturale", "6 x 4.10 24.60", "Latte 5.24", "intero vergine", "----------", "TOTALE 34.79",
    ])
    XCTAssertEqual(
      read.map(\.description),
      ["Riso Carnaroli naturale", "Biscotti", "Detersivo piatti naturale", "Latte intero vergine"])
  }

  /// Train family long_names: where the items below take rows of words above their amounts, the
  /// first one takes its rows above too, though its amount row has words of its own.
  func testTheFirstItemTakesItsRowsAbove() {
    let read = items([
      "SHOP", "03-30-2022 13:34", "Baby", "Spinach 12ct 2 x 7.82 15.64", "Iced", "Tea 2 x 3.17 6.34",
      "Tortilla", "Chips 1,5l 7.00", "SUB-TOTAL 28.98",
    ])
    XCTAssertEqual(read.map(\.description), ["Baby Spinach 12ct", "Iced Tea", "Tortilla Chips 1,5l"])
  }

  /// A column heading, a labelled row or a till number over the first item is no part of it
  /// (`sroie_dev` folds 0-3 print `ITEM QTY RSP AMOUNT`, `CASHIER : …` there).
  func testAHeadingOverTheFirstItemIsNoDescription() {
    let heading = items([
      "SHOP", "CASHIER : ANN", "DESCRIPTION QTY AMOUNT", "Milk 1.99", "Organic", "Bananas 3.98", "TOTAL 5.97",
    ])
    XCTAssertEqual(heading.map(\.description), ["Milk", "Organic Bananas"])
    let till = items(["SHOP", "Bonnr. 2415 Kassa 6", "Milk 1.99", "Organic", "Bananas 3.98", "TOTAL 5.97"])
    XCTAssertEqual(till.map(\.description), ["Milk", "Organic Bananas"])
    XCTAssertTrue(ItemHeading.isHeading("ITEM QTY RSP AMOUNT"))
    XCTAssertTrue(ItemHeading.isHeading("Menge Artikel Preis Betrag"))
    XCTAssertFalse(ItemHeading.isHeading("Halfvolle melk"))
  }

  /// `sroie_dev` folds 0-3 (`238 1 10.00 10.00` under `ITEM QTY U/P DISC% AMOUNT`): the first
  /// amount row without words of its own keeps its amount, but not the heading over it as its
  /// description, nor the rows above the heading.
  func testTheFirstAmountRowWithoutWordsTakesNoHeading() {
    let read = items([
      "SHOP", "Organic", "ITEM QTY PRICE AMOUNT", "1 10.00 10.00", "Milk 3.00", "TOTAL 13.00",
    ])
    XCTAssertEqual(read.map(\.amount), [Money(cents: 1000), Money(cents: 300)])
    XCTAssertFalse(read[0].description.contains("ITEM") || read[0].description.contains("Organic"))
    let rows = items([
      "SHOP", "ITEM QTY PRICE AMOUNT", "Organic", "1 10.00 10.00", "Milk 3.00", "TOTAL 13.00",
    ])
    XCTAssertEqual(rows.map(\.description).first, "Organic")
    XCTAssertTrue(ItemHeading.isColumnHeading("Iter Gty RSP Amount!"))
    XCTAssertFalse(ItemHeading.isColumnHeading("DOLE PINEAPPLE PCS"))
    XCTAssertFalse(ItemHeading.isColumnHeading("BATTERY AA 4PCS BOX"))
    let item = items(["SHOP", "Organic", "BATTERY AA 4PCS BOX", "1 10.00 10.00", "Milk 3.00", "TOTAL 13.00"])
    XCTAssertEqual(item.map(\.description).first, "BATTERY AA 4PCS BOX")
  }

  /// A heading word of eight letters or more that OCR misread by one letter is still one; a
  /// shorter word one letter from a heading word is not (`Kontant`, `montant`).
  func testALongHeadingWordMisreadByOneLetterIsStillOne() {
    XCTAssertTrue(ItemHeading.isHeading("DESCRIPTON QTY"))
    XCTAssertTrue(ItemHeading.isHeading("DESIGNATION P.U. QTE"))
    XCTAssertFalse(ItemHeading.isHeading("Kontant"))
    XCTAssertFalse(ItemHeading.isHeading("Organic Bananas"))
  }

  /// Train family cut_names: a quantity row without an amount that comes to the item above it
  /// takes the rows of words between them as that item's description, not as an item of its own.
  func testAQuantityRowBelowTakesTheRowsAboveItToItsItem() {
    let read = items([
      "SHOP", "----------", "Yaourt nature        2,94", "  fermier 6x1l", "    2 x 1,47",
      "Poulet fermier  1,43",
      "Pates coquillett  4,48", "----------", "TOTAL  8,85",
    ])
    XCTAssertEqual(
      read,
      [
        item("Yaourt nature fermier 6x1l", "2", "1.47", "2.94"),
        item("Poulet fermier", "1", "1.43", "1.43"),
        item("Pates coquillett", "1", "4.48", "4.48"),
      ])
    let other = items(["SHOP", "----------", "Milk  1,99", "Bread", "  2 x 1,47", "Rice 3,00", "TOTAL  7,93"])
    XCTAssertEqual(other.map(\.description), ["Milk", "Bread", "Rice"])
  }

  /// Train family cut_names: the end of a word cut at the print width, on a row of its own, keeps
  /// the description rows above it.
  func testAWordCutAtThePrintWidthKeepsItsDescription() {
    let read = items([
      "SHOP", "----------", "Yoghurt  15,16", "Halfvolle me", "lk", "  6 x 2,01   12,06", "Spaghetti Bergkä",
      "se 200g", "  6 x 1,35   8,10", "TOTAL  35,32",
    ])
    XCTAssertEqual(read.map(\.description), ["Yoghurt", "Halfvolle me lk", "Spaghetti Bergkä se 200g"])
  }

  /// Train family cut_names: a description's further row is indented from its first row, the next
  /// item's first row is not, so the row under an item that prints its amount on its first row is
  /// still that item's. Without boxes (every row at the same place) it goes to the item below.
  func testAnIndentedRowUnderAnItemContinuesIt() {
    let lines = [
      "SHOP", "----------", "Jogurt natur  2,99", "  owocowy", "Chleb  3,49", "Mleko  2,10", "----------",
      "TOTAL  8,58",
    ]
    let read = ReceiptExtractor().extract(receiptRows(lines, indented: true)).items
    XCTAssertEqual(read.map(\.description), ["Jogurt natur owocowy", "Chleb", "Mleko"])
    XCTAssertEqual(items(lines).map(\.description), ["Jogurt natur", "owocowy Chleb", "Mleko"])
    let far = lines.map { $0 == "  owocowy" ? "        owocowy" : $0 }
    let farRead = ReceiptExtractor().extract(receiptRows(far, indented: true)).items
    XCTAssertEqual(farRead.map(\.description), ["Jogurt natur", "owocowy Chleb", "Mleko"])
  }

  /// The first item prints its amount on its indented second row: the row of words right above
  /// is its first row, where a row above at the same place or further right is a header's.
  func testTheFirstItemKeepsTheRowAboveItsIndentedAmountRow() {
    let lines = ["SHOP", "----------", "Jogurt natur", "  owocowy  2,99", "Chleb  3,49", "TOTAL  6,48"]
    let read = ReceiptExtractor().extract(receiptRows(lines, indented: true)).items
    XCTAssertEqual(read.map(\.description), ["Jogurt natur owocowy", "Chleb"])
    let header = ["SHOP", "----------", "     Ser zolty", "  owocowy  2,99", "Chleb  3,49", "TOTAL  6,48"]
    let headerRead = ReceiptExtractor().extract(receiptRows(header, indented: true)).items
    XCTAssertEqual(headerRead.map(\.description), ["owocowy", "Chleb"])
  }
}
