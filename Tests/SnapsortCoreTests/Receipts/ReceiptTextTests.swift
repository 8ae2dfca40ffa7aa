import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Amounts, dates, items and checks on receipt text written in the test.
final class ReceiptTextTests: XCTestCase {
  func testAmountsWithCommaOrPointAndNotDatesTimesOrPercentages() {
    XCTAssertEqual(Money.amounts(in: "TOTAL USD 17.44").map(\.money.description), ["17.44"])
    XCTAssertEqual(Money.amounts(in: "SUMA PLN 34,27").map(\.money.description), ["34.27"])
    XCTAssertEqual(Money.amounts(in: "RABAT -2,00").map(\.money.description), ["-2.00"])
    XCTAssertEqual(Money.amounts(in: "Rabatt 0,50-").map(\.money.description), ["-0.50"])
    XCTAssertEqual(Money.amounts(in: "Gesamt 1.234,56 EUR").map(\.money.description), ["1234.56"])
    XCTAssertEqual(Money.amounts(in: "Total 1,234.56").map(\.money.description), ["1234.56"])
    XCTAssertEqual(Money.amounts(in: "BARGELD 40 ,00").map(\.money.description), ["40.00"])
    XCTAssertEqual(Money.amounts(in: "09:48 02.03.2020"), [])
    XCTAssertEqual(Money.amounts(in: "C 7,00% 17,33 1,21").map(\.money.description), ["17.33", "1.21"])
    XCTAssertEqual(Money.parse("RM 9.00"), Money(cents: 900))
  }

  func testAZeroReadAsAtSignInAnAmountButNotAnAtSign() {
    func amounts(_ text: String) -> [String] { Money.amounts(in: text).map(\.money.description) }
    XCTAssertEqual(amounts("2 AA Batteries 8p 5.8@"), ["5.80"])
    XCTAssertEqual(amounts("2x Lingonsylt 48, @6"), ["48.06"])
    XCTAssertEqual(amounts("4 x Kanelbulle 8@, 32"), ["80.32"])
    XCTAssertEqual(amounts("4 x 2.60 10.4@ SR"), ["2.60", "10.40"])
    // An @ before the units is "at": the unit price is read as printed.
    XCTAssertEqual(amounts("Prosciutto crudo (3 @1,95) 5,85"), ["1.95", "5.85"])
    XCTAssertEqual(amounts("3@1,95"), ["1.95"])
    XCTAssertEqual(amounts("GST @6% 12.34"), ["12.34"])
    // Three decimals with a 0 read as @ are a weight, not an amount.
    XCTAssertEqual(amounts("2,10@ kg * 11,41 23,96"), ["11.41", "23.96"])
    // The lone 0 of an amount under 1 read as @, Q or ®; not after a letter or a digit.
    XCTAssertEqual(amounts("Uova fresche x6 @,52 B"), ["0.52"])
    XCTAssertEqual(amounts("1 Tonno 0,35 Q,35"), ["0.35", "0.35"])
    XCTAssertEqual(amounts("Sconto -®,78"), ["-0.78"])
    XCTAssertEqual(amounts("Greek Yogurt (2 @ @.51) 1.02"), ["0.51", "1.02"])
    XCTAssertEqual(amounts("CODE AQ,52 X@.12"), [])
    XCTAssertEqual(amounts("@,745 kg x 2,64"), ["2.64"])
  }

  func testNumericAndNamedDatesInTheTenLanguages() {
    func iso(_ text: String, order: ReceiptDate.Order = .dayFirst) -> String? {
      ReceiptDate.dates(in: text, order: order).first?.iso
    }
    XCTAssertEqual(iso("18.11.2023 08:05"), "2023-11-18")
    XCTAssertEqual(iso("Date: 02/01/2018"), "2018-01-02")
    XCTAssertEqual(iso("03/14/2024 18:22"), "2024-03-14")
    XCTAssertEqual(iso("09/01/2024", order: .monthFirst), "2024-09-01")
    XCTAssertEqual(iso("03-07-2019", order: .monthFirst), "2019-03-07")
    XCTAssertEqual(iso("23-01-27 12:11", order: .yearFirst), "2023-01-27")
    // A year's 0 read as 8, 6 or 9, and a 0 read as @: mended, and marked so.
    XCTAssertEqual(iso("Date: 08/09/2817"), "2017-09-08")
    XCTAssertEqual(ReceiptDate.dates(in: "Datum: 22-05-2621 18:42").first?.repaired, true)
    XCTAssertEqual(iso("Date: 10/1@/24 19:@5"), "2024-10-10")
    XCTAssertNil(iso("Date: 08/09/2317"))
    XCTAssertEqual(iso("23-01-27 12:11"), "2027-01-23")
    // Year first, the usual order after it: the fallback for a reading after the photo was taken.
    XCTAssertEqual(
      ReceiptDate.dates(in: "27-01-23", order: .yearFirst).map(\.iso), ["2027-01-23", "2023-01-27"])
    XCTAssertEqual(iso("2024-05-02"), "2024-05-02")
    XCTAssertEqual(iso("17-03-18"), "2018-03-17")
    // A quantity and a price spaced like a date are not one.
    XCTAssertNil(iso("$ = 6/ 15. 00 70"))
    XCTAssertNil(iso("s = 6/ 25.74 1.54"))
    XCTAssertEqual(iso("8s 10PH 560197 30-06-16"), "2016-06-30")
    XCTAssertEqual(iso("02.03.20 09:48"), "2020-03-02")
    XCTAssertEqual(iso("29 MAR 2018"), "2018-03-29")
    XCTAssertEqual(iso("March 5, 2024"), "2024-03-05")
    XCTAssertEqual(iso("5 marca 2024"), "2024-03-05")
    XCTAssertEqual(iso("12. März 2024"), "2024-03-12")
    XCTAssertEqual(iso("3 août 2024"), "2024-08-03")
    XCTAssertEqual(iso("7 de diciembre de 2024"), nil)  // words between day and month: not read
    XCTAssertEqual(iso("7 dic 2024"), "2024-12-07")
    XCTAssertEqual(iso("1 ottobre 2024"), "2024-10-01")
    XCTAssertEqual(iso("14 mei 2024"), "2024-05-14")
    XCTAssertEqual(iso("14 maj 2024"), "2024-05-14")
    XCTAssertEqual(iso("14 мая 2024"), "2024-05-14")
    XCTAssertEqual(iso("14 травня 2024"), "2024-05-14")
    XCTAssertEqual(iso("Woda 1,5l 6 x 1,99"), nil)
    XCTAssertEqual(ReceiptDate.time(in: "03/14/2024 18:22"), "18:22")
    XCTAssertEqual(ReceiptDate.time(in: "Time: 09:29:00"), "09:29:00")
  }

  func testTheReceiptsLanguageAndCountryDecideHowItsDatesRead() {
    func date(_ lines: [String], latest: String? = nil) -> String? {
      ReceiptExtractor().extract(receiptRows(lines), latestDate: latest).date
    }
    let swedish = [
      "HANDLARN", "23-12-06 20:56", "Kvitto nr 762843", "Bananer 33,16", "SUMMA kr 33,16", "Moms 12% 3,55",
    ]
    XCTAssertEqual(date(swedish), "2023-12-06")
    // A year-first reading after the photo was taken gives way to the usual order.
    XCTAssertEqual(date(swedish, latest: "2010-01-01"), "2006-12-23")
    let american = [
      "CORNER STORE", "36 Main Street", "Portland, OR 97205", "Date: 03-07-2019", "Milk 3.98", "TOTAL 3.98",
    ]
    XCTAssertEqual(date(american), "2019-03-07")
    let malaysian = ["KEDAI MAJU", "47100 PUCHONG, SELANGOR", "03-07-2019", "TEH 3.00", "TOTAL RM 3.00"]
    XCTAssertEqual(date(malaysian), "2019-07-03")
    XCTAssertEqual(ReceiptLanguage.detect(inFolded: swedish.map(ReceiptKeywords.fold)), .sv)
    XCTAssertNil(ReceiptLanguage.detect(inFolded: american.map(ReceiptKeywords.fold)))
  }

  func testQuantityLinesAndMultiplicationInIntegers() throws {
    let q = try XCTUnwrap(ReceiptItems.quantity(in: "  0,532 kg x 3,49             1,86"))
    XCTAssertEqual(q.quantity, "0.532")
    XCTAssertEqual(q.unitPrice, Money(cents: 349))
    XCTAssertEqual(ReceiptItems.multiply("0.532", Money(cents: 349)), Money(cents: 186))
    XCTAssertEqual(ReceiptItems.quantity(in: "2 szt. x 1,99 3,98")?.quantity, "2")
    XCTAssertNil(ReceiptItems.quantity(in: "Eggs Large 12ct 3.89"))
  }

  /// Rows as the line builder would give them, one word per token on a 40-pixel grid.
  private func rows(_ texts: [String]) -> [ReceiptLine] { receiptRows(texts) }

  /// Issue #27 item 3: the currency the receipt's marks name most; a symbol inside a document
  /// number or an `E.&.O.E.` read as `€`/`£` is no mark, nor is an address's `Sek`.
  func testTheCurrencyIsTheOneTheMarksNameMost() {
    func currency(_ lines: [String]) -> String? { ReceiptExtractor().extract(rows(lines)).currency }
    XCTAssertEqual(
      currency([
        "KEDAI MAJU", "Jalan 3, Sek. U3", "Doc No €$00012543", "ITEM 2.00", "TOTAL RM 2.00", "E.&.0.£.",
      ]),
      "MYR")
    XCTAssertEqual(currency(["Pos Artikel €/Stk €/Ges", "Brot 2,49", "SUMME 2,49"]), "EUR")
    XCTAssertEqual(currency(["CAFE", "Latte 3.50 €", "Total 3.50"]), "EUR")
    XCTAssertEqual(currency(["SHOP", "Tea 2.00", "TOTAL USD 2.00", "Card £ ref 4471"]), "USD")
    XCTAssertNil(currency(["SHOP", "Ref £75474", "Tea 2.00", "TOTAL 2.00"]))
  }

  /// Issue #27 item 3: a receipt that prints no currency is in its country's (a legal form, a
  /// web address, a telephone's calling code, the country's name), else its language's; a `$`
  /// is the country's money when the receipt names a country.
  func testACurrencyFromTheCountryOrTheLanguageWhenNoMarkNamesIt() {
    func read(_ lines: [String]) -> (String?, String?) {
      let receipt = ReceiptExtractor().extract(rows(lines))
      return (receipt.currency, receipt.currencyEvidence)
    }
    let malaysian = ["KEDAI MAJU SDN BHD", "Jalan 3", "Tea 2.00", "TOTAL 2.00"]
    XCTAssertTrue(read(malaysian) == ("MYR", "country"))
    XCTAssertTrue(read(["SHOP", "www.shop.com.my", "Tea 2.00", "TOTAL 2.00"]) == ("MYR", "country"))
    XCTAssertTrue(
      read(["SHOP", "40150 SHAH ALAM, SELANGOR.", "Tea 2.00", "TOTAL 2.00"]) == ("MYR", "country"))
    XCTAssertTrue(read(["SHOP", "Austin, TX 78701", "Tea 2.00", "TOTAL 2.00"]) == ("USD", "country"))
    XCTAssertTrue(
      read(["SKLEP", "tel. +48 22 123 45 67", "Herbata 2,00", "RAZEM 2,00"]) == ("PLN", "country"))
    XCTAssertTrue(read(malaysian.dropLast() + ["TOTAL $2.00"]) == ("MYR", "marks"), "a ringgit printed as $")
    XCTAssertTrue(read(["SHOP", "Tea 2.00", "TOTAL $2.00"]) == ("USD", "marks"))
    XCTAssertTrue(
      read(["SHOP", "Tea 2.00", "TOTAL RM2.00"]) == ("MYR", "marks"), "a word against the amount")
    XCTAssertTrue(
      read(["BÄCKEREI", "Brot 2,49", "Zwischensumme 2,49", "Summe 2,49", "Bar 5,00", "Rückgeld 2,51"])
        == ("EUR", "language"))
    XCTAssertTrue(
      read(["KEDAI MAJU SDN BHD", "Tea 2.00", "TOTAL 2.00", "Rückgeld 0.00"]) == ("MYR", "country"),
      "one German word against the legal form: a tie the country wins")
    XCTAssertTrue(
      read(["SHOP", "Pfand +49.90", "Tea 2.00", "TOTAL 2.00"]) == (nil, nil), "a signed amount is no phone")
    XCTAssertTrue(
      read(["SHOP", "shop.de", "Tea 2.00", "TOTAL 2.00"]) == (nil, nil), "a word.de is no web address")
  }

  /// Issue #27: a date after the photo was taken is a misread; the next date read wins, and when
  /// none is left the record says which date it refused and why.
  func testDatesAfterThePhotoOrBefore1990AreRefused() {
    let lines = [
      "CORNER HARDWARE", "Date: 12/06/2072 10:14", "Hammer 12.00", "TOTAL 12.00", "Printed 12/06/2017",
    ]
    let taken = ReceiptExtractor().extract(rows(lines), latestDate: "2018-01-31")
    XCTAssertEqual(taken.date, "2017-06-12", "the later date read is the plausible one")
    XCTAssertNil(taken.dateRejected)
    let alone = ReceiptExtractor().extract(rows(Array(lines.prefix(4))), latestDate: "2018-01-31")
    XCTAssertNil(alone.date)
    XCTAssertEqual(alone.dateRejected, "2072-06-12 (line 1): after the photo was taken")
    XCTAssertEqual(
      ReceiptExtractor().extract(rows(Array(lines.prefix(4))), latestDate: nil).date, "2072-06-12",
      "without the photo's date nothing is refused")
    XCTAssertNil(ReceiptDate.dates(in: "Date: 12/06/1972").first, "years before 1990 are not read at all")
  }

  func testEnglishReceiptWithSplitItemSavingsTaxAndChecks() {
    let receipt = ReceiptExtractor().extract(
      rows([
        "GREEN BASKET MARKET", "12 Main Street", "03/14/2024 18:22", "----------", "Organic Bananas 1.29",
        "Whole Milk 1gal", "2 x 3.49 6.98", "Sourdough Bread 4.99", "Eggs Large 12ct 3.89", "---------",
        "SUBTOTAL 17.15", "YOU SAVED -1.00", "TAX 1.29", "TOTAL USD 17.44", "TRN 448812", "*** THANK YOU ***",
      ]))
    XCTAssertEqual(receipt.merchant, "GREEN BASKET MARKET")
    XCTAssertEqual(receipt.date, "2024-03-14")
    XCTAssertEqual(receipt.time, "18:22")
    XCTAssertEqual(receipt.currency, "USD")
    XCTAssertEqual(receipt.subtotal, "17.15")
    XCTAssertEqual(receipt.savings, "1.00")
    XCTAssertEqual(receipt.tax, "1.29")
    XCTAssertEqual(receipt.total, "17.44")
    XCTAssertEqual(receipt.referenceNumber, "448812")
    XCTAssertEqual(
      receipt.items,
      [
        ReceiptItem(description: "Organic Bananas", quantity: "1", unitPrice: "1.29", amount: "1.29"),
        ReceiptItem(description: "Whole Milk 1gal", quantity: "2", unitPrice: "3.49", amount: "6.98"),
        ReceiptItem(description: "Sourdough Bread", quantity: "1", unitPrice: "4.99", amount: "4.99"),
        ReceiptItem(description: "Eggs Large 12ct", quantity: "1", unitPrice: "3.89", amount: "3.89"),
      ])
    XCTAssertEqual(receipt.checks?.itemsMatchSubtotal, true)
    XCTAssertEqual(receipt.checks?.totalsConsistent, true)
    XCTAssertEqual(receipt.fields?["total"]?.line, 13)
  }

  func testPolishReceiptWithWeighedGoodsAndADisagreementNamed() {
    let good = ReceiptExtractor().extract(
      rows([
        "SKLEP POD LIPAMI", "ul. Przykładowa 1", "02.05.2024 10:41", "Chleb żytni 6,49", "Masło 200g",
        "2 x 7,99 15,98", "Jabłka", "0,532 kg x 3,49 1,86", "Woda 1,5l", "6 x 1,99 11,94",
        "SUMA CZĘŚCIOWA 36,27", "RABAT -2,00", "SUMA PLN 34,27", "Nr 0021/2024",
      ]))
    XCTAssertEqual(good.merchant, "SKLEP POD LIPAMI")
    XCTAssertEqual(good.date, "2024-05-02")
    XCTAssertEqual(good.currency, "PLN")
    XCTAssertEqual(good.total, "34.27")
    XCTAssertEqual(good.subtotal, "36.27")
    XCTAssertEqual(good.savings, "2.00")
    XCTAssertEqual(good.referenceNumber, "0021/2024")
    XCTAssertEqual(good.items.map(\.description), ["Chleb żytni", "Masło 200g", "Jabłka", "Woda 1,5l"])
    XCTAssertEqual(good.items[2].quantity, "0.532")
    XCTAssertEqual(good.checks?.problems, [])

    // One misread item price: the check says so and the total's confidence drops.
    let bad = ReceiptExtractor().extract(
      rows(["SKLEP POD LIPAMI", "Chleb żytni 8,49", "SUMA CZĘŚCIOWA 6,49", "SUMA PLN 6,49"]))
    XCTAssertEqual(bad.checks?.itemsMatchSubtotal, false)
    XCTAssertEqual(bad.checks?.problems, ["items add up to 8.49, the subtotal says 6.49"])
    XCTAssertLessThan(bad.fields?["total"]?.confidence ?? 1, good.fields?["total"]?.confidence ?? 0)
  }

  func testTotalFromCashMinusChangeAndMerchantFromTheCatalog() throws {
    let catalog = try IssuerCatalog.bundled()
    let receipt = ReceiptExtractor(catalog: catalog).extract(
      rows([
        "A L D I", "Pohlweg 110", "33100 Paderborn", "BIO HONIG 3,29 C", "SUMME 3,29", "ZU ZAHLEN EURO 24,23",
        "BARGELD 40,00",
        "ZURÜCK 15,77", "09:48 02.03.2020",
      ]))
    XCTAssertEqual(receipt.merchant, "ALDI")
    // "$" before a document code is not a dollar amount, so 12/02/2018 stays day first.
    let malaysian = ReceiptExtractor(catalog: catalog).extract(
      rows(["HARDWARE SDN BHD", "DocNo C$00013281 Date 12/02/2018", "TOTAL 270.30"]))
    XCTAssertEqual(malaysian.currency, "MYR", "the legal form's country's, not the `$`'s")
    XCTAssertEqual(malaysian.currencyEvidence, "country")
    XCTAssertEqual(malaysian.date, "2018-02-12")
    XCTAssertEqual(receipt.total, "24.23")
    XCTAssertEqual(receipt.fields?["total"]?.line, 5)
    XCTAssertEqual(receipt.currency, "EUR")
    XCTAssertEqual(receipt.date, "2020-03-02")
  }

  func testMerchantIsTheLegalNameAboveABrandAndALogoReadWithAnAtSign() throws {
    // The rules alone: these headers are rows of equal boxes, without the print heights and
    // positions the merchant model weighs (MerchantModelTests covers the model).
    let extractor = ReceiptExtractor(catalog: try IssuerCatalog.bundled(), merchantModel: nil)
    func merchant(_ lines: [String]) -> String? {
      extractor.extract(rows(lines + ["TOTAL 9.00"])).merchant
    }
    // The host shop under the legal name names a branch, not the merchant.
    XCTAssertEqual(
      merchant([
        "MR. D.I.Y. (KUCHAI) SDN BHD", "CO-REG: 750441-W", "LOT 1851-A, JALAN KPB 6", "(TESCO EXTRA KAJANG)",
      ]),
      "MR. D.I.Y. (KUCHAI) SDN BHD")
    // A registration number in lower case is dropped before the line is judged.
    XCTAssertEqual(
      merchant(["99 SPEED MART S/B (519537-x)", "LOT P.7. 2811, JALAN ANGSA"]), "99 SPEED MART S/B")
    // So is one at the name's edge with a bracket lost, or a till number before it, in the name
    // given; a postcode's five digits are no such number.
    XCTAssertEqual(merchant(["000002 BAIFU (M) SDN BHD", "NO 3, JALAN USJ 9"]), "BAIFU (M) SDN BHD")
    XCTAssertEqual(ReceiptExtractor.withoutEdgeNumber("99 SPEED MART 5/B 1519537-X)"), "99 SPEED MART 5/B")
    XCTAssertEqual(ReceiptExtractor.withoutEdgeNumber("33102 Paderborn"), "33102 Paderborn")
    XCTAssertEqual(merchant(["R@SSMANN", "Mein Drogeriemarkt"]), "ROSSMANN")
    // A thank-you line is not a name; a fuel brand spelt "Total" is not found in a total line.
    XCTAssertEqual(
      merchant(["TQ FOR SHOPPING WITH myNEWS.com", "PAGOH REST AND SERVICE AREA", "84600,PAGOH JOHOR"]),
      "PAGOH REST AND SERVICE AREA")
    XCTAssertEqual(merchant(["SYARIKAT PERNIAGAAN GIN KEE", "(81109-A)"]), "SYARIKAT PERNIAGAAN GIN KEE")
  }

  func testMalaysianTotalPhrasesAndCashWithALostSeparator() {
    let extractor = ReceiptExtractor()
    XCTAssertEqual(
      extractor.extract(
        rows(["Total Amt incl. GST @6 %: 1.00", "Total Amt Payable : 51.00", "Total Qty Tender 4"])
      ).total, "51.00")
    XCTAssertEqual(
      extractor.extract(
        rows(["Total Iter Otecount: 9.00", "Total Sales Inclusive GST : 4.70"])
      ).total, "4.70")
    XCTAssertEqual(
      extractor.extract(rows(["Grand Total", "Cash RM50 00", "Change RM11.00"])).total, "39.00")
  }

  func testDatesOcrBrokeAreMendedButLoseToWholeOnes() {
    func found(_ text: String) -> ReceiptDate.Found? { ReceiptDate.dates(in: text).first }
    XCTAssertEqual(found("Date > 09- 06 2018 16: 00:43")?.iso, "2018-06-09")
    XCTAssertEqual(found("2703/2018 NO CS-20243")?.iso, "2018-03-27")
    XCTAssertEqual(found("20:56 = OT/0T/17")?.iso, "2017-07-07")
    XCTAssertEqual(found("2703/2018 NO CS-20243")?.repaired, true)
    XCTAssertEqual(found("27/03/2018")?.repaired, false)
    // Numbers that only look like a broken date are not one.
    XCTAssertNil(found("INVOICE 1234/2018"))
    XCTAssertNil(found("2 X 0. 20 0.40 ZRL"))
    XCTAssertNil(found("Tel 12-34 5678"))
    // Specks read as quotes or a tilde around a separator.
    XCTAssertEqual(found("Date : 02- “04- 2018 1: M43")?.iso, "2018-04-02")
    XCTAssertEqual(found("Date : 20~06-2018 13: Mi 49")?.repaired, true)
    XCTAssertEqual(found("Date : 20~06-2018 13: Mi 49")?.iso, "2018-06-20")
    let extractor = ReceiptExtractor()
    XCTAssertEqual(
      extractor.extract(rows(["Doc 2703/2018", "Date: 26/03/2018 10:00", "TOTAL 9.00"])).date, "2018-03-26")
    // However placed: a labelled mended date loses to an unlabelled whole one further down.
    XCTAssertEqual(
      extractor.extract(rows(["Date: 02- “04- 2018", "Shop", "06/04/2018", "TOTAL 9.00"])).date, "2018-04-06")
  }

  func testATimeWithPointsAndSecondsIsATime() {
    XCTAssertEqual(ReceiptDate.time(in: "Date : 18/06/2018 08.18.00"), "08:18:00")
    XCTAssertEqual(ReceiptDate.time(in: "Date : 18/06/2018 08:18:01"), "08:18:01")
    XCTAssertNil(ReceiptDate.time(in: "2 x 12.50"))
    XCTAssertEqual(ReceiptDate.time(in: "Time: 14.17:00"), "14:17:00")
    // A date with points is no time: the time is the one after it.
    XCTAssertEqual(ReceiptDate.time(in: "23.09.16 14:05"), "14:05")
    XCTAssertEqual(ReceiptDate.time(in: "23.09.16 14.05.33"), "14:05:33")
    // A date without its year, then the time: the hour is no year, nor the seconds of "04:04".
    XCTAssertEqual(ReceiptDate.dates(in: "Zeit 04. 04. 13:43 Uhr"), [])
    XCTAssertEqual(ReceiptDate.time(in: "Zeit 04. 04. 13:43 Uhr"), "13:43")
    // The sale's date with its time beside it outranks a reprint's further down.
    let extractor = ReceiptExtractor()
    let lines =
      ["Date : 18/06/2018 08.18.00"] + (1...16).map { "Item \($0) 1.00" }
      + ["Date printed 18/06/2014 08:18:01"]
    XCTAssertEqual(extractor.extract(rows(lines)).date, "2018-06-18")
  }

  func testTotalsConfirmedByAPaymentOrTheVATTableOutvoteAMisreadLabel() {
    let extractor = ReceiptExtractor()
    // A misread label loses to the same sum read twice elsewhere.
    XCTAssertEqual(
      extractor.extract(rows(["Total RM 85.54", "Visa RM 85. 54", "Total Gross RM 88.54"])).total, "85.54")
    XCTAssertEqual(
      extractor.extract(
        rows(["Total (Inclusive of GST): 38.90", "TOTAL : 38.00", "Server: CASHIER", ": 38.00", "CASH"])
      ).total, "38.00")
    // The card payment and the VAT table's gross column agree against "SUMME".
    XCTAssertEqual(
      extractor.extract(
        rows([
          "SUMME EUR 29,18", "MasterCard EUR 29,78", "Mehrwertst. ohne MwSt mit MwSt",
          "V 19,0% 3,32 17,50 20,82",
          "E 7,0% 0,59 8,37 8,96", "Betrag EUR 29,18",
        ])
      ).total, "29.78")
    // A loyalty card's turnover line is not a payment.
    XCTAssertEqual(
      extractor.extract(
        rows(["SUMME EUR 26,90", "Mit der DeutschlandCard hatten Sie", "auf den Umsatz von: 24,23 EUR"])
      ).total, "26.90")
    // Tax included is the total; a total of the tax alone is not.
    XCTAssertEqual(
      extractor.extract(rows(["SUBTOTAL 13.80", "TOTAL «GST INCL) 13.78", "CASH 20.00"])).total, "13.78")
    XCTAssertEqual(extractor.extract(rows(["TOTAL 10.60", "TOTAL GST 0.60"])).total, "10.60")
    // Cash due rounded to five cents.
    XCTAssertEqual(
      extractor.extract(
        rows(["Total Sales (Inclusive GST) RM 27.28", "Rounding Adjustment RM 02", "Rounding RM 27.30"])
      ).total, "27.30")
    // German cash: "Bar" given, change returned; "elec.-cash" is a card payment.
    XCTAssertEqual(extractor.extract(rows(["Tatal a5", "bar €2,00", "Rückgeld (Bar) €0,05"])).total, "1.95")
    XCTAssertEqual(extractor.extract(rows(["kC~Garnitur", "elec.-cash 59 96", "Netto"])).total, "59.96")
  }

  func testMerchantAboveTheAddressUnderAnAdvertAndCompanyFormsMisread() throws {
    // The rules alone: these headers are rows of equal boxes, without the print heights and
    // positions the merchant model weighs (MerchantModelTests covers the model).
    let extractor = ReceiptExtractor(catalog: try IssuerCatalog.bundled(), merchantModel: nil)
    func merchant(_ lines: [String]) -> String? {
      extractor.extract(rows(lines + ["TOTAL 9.00"])).merchant
    }
    // An advert's lines above the name: the name is the line above the address.
    XCTAssertEqual(
      merchant([
        "VAL in ine Smartphone", "gintippen oder QR-Code", "scannen und Feedback geben.",
        "www. leh. honestly. de",
        "Marktkauf Lehr", "Detmolder Str. 4", "33102 Paderborn",
      ]), "Marktkauf Lehr")
    // Logo noise that reads like an address ("rd 7") does not hide the address under the name;
    // a street misread is still a street when its house number follows.
    XCTAssertEqual(
      merchant([
        "IN ad OrWonrg rd 7 l vie", "GLUCKLICH?", "URL in ine Smartphone", "eintippen oder QR-Cade",
        "scannen Wid Feedback geben.", "Marktkauf Lehr", "Cetmolder Stir. 4", "33102 Paderborn",
      ]), "Marktkauf Lehr")
    // A name and its branch above the address: the first line is the name.
    XCTAssertEqual(
      merchant(["JIN SENG PASAR MINI", "Mid Valley Megamall", "LOT 12, JALAN KERINCHI", "59200 KUALA LUMPUR"]
      ),
      "JIN SENG PASAR MINI")
    // Numbers below the items are no address to find a name above, nor a table heading a name.
    XCTAssertNil(
      merchant([
        "Warburger StraBe 130", "33100 Paderborn", "EUR", "Premium Vodka 4,99 B",
        "MWST% MWST + Netto = Brutto",
        "3182 14:38",
      ]))
    // A street OCR read with "B" for "ß" is an address, and a currency heading is no name.
    XCTAssertNil(merchant(["Warburger StraBe 130", "33100 Paderborn", "EUR"]))
    // A company form misread by one letter still marks the legal name.
    XCTAssertEqual(
      merchant(["tan woon yann", "PETRODELI ENIERPRISE", "LOT 485 TMN LEMBAH KERAMAT", "JLN ULU KELANG"]),
      "PETRODELI ENIERPRISE")
    // A company below the address operates the shop named above it.
    XCTAssertEqual(
      merchant([
        "TQ FOR SHOPPING WITH myNEWS.com", "PAGOH REST AND SERVICE AREA", "LOT R1, KWS REHAT PAGOH",
        "84600,PAGOH JOHOR", "MYNEWS RETAIL SB(305285-X) FKA BISON STORES SB",
      ]), "PAGOH REST AND SERVICE AREA")
    // A registration number in brackets goes, even misread or unclosed.
    XCTAssertEqual(
      merchant(["GARDENIA BAKERIES (KL) SDN BHD (to 886 X)", "Lot 3, Jalan Pelabur 23/1"]),
      "GARDENIA BAKERIES (KL) SDN BHD")
    XCTAssertEqual(
      merchant(["GARDENIA BAKERIES SDN BHD (139386", "Lot 3, Jalan Pelabur 23/1"]),
      "GARDENIA BAKERIES SDN BHD")
  }

  func testRowHeightIsTheMedianInkBandAndNeedsFiveBands() {
    // Rows of 20 inked pixel rows 30 apart, one taller band (a logo) and specks of one row.
    var ink = [Int](repeating: 0, count: 400)
    for start in stride(from: 10, to: 190, by: 30) { for y in start..<(start + 20) { ink[y] = 50 } }
    for y in 200..<260 { ink[y] = 50 }
    ink[300] = 50
    XCTAssertEqual(ReceiptImaging.rowHeight(rowInk: ink, width: 1000), 20)
    XCTAssertNil(ReceiptImaging.rowHeight(rowInk: Array(ink.prefix(100)), width: 1000))
  }

  func testASecondReadingIsSkippedOnlyWhenTheKeyFieldsAreThere() {
    let extractor = ReceiptExtractor()
    let whole = extractor.extract(rows(["SHOP SDN BHD", "Date: 12/02/2018", "TOTAL RM 9.00"]))
    XCTAssertTrue(ReceiptStage.hasKeyFields(whole))
    XCTAssertFalse(ReceiptStage.hasKeyFields(extractor.extract(rows(["SHOP SDN BHD", "TOTAL RM 9.00"]))))
    XCTAssertFalse(
      ReceiptStage.hasKeyFields(extractor.extract(rows(["SHOP SDN BHD", "Date: 12/02/2018", "9.00"]))))
  }

  func testWordsOfOneRowAreJoinedAcrossColumns() {
    let words = [
      TesseractEngine.Item(text: "4.99", box: [600, 102, 80, 30], confidence: 90),
      TesseractEngine.Item(text: "Sourdough", box: [10, 100, 180, 32], confidence: 90),
      TesseractEngine.Item(text: "Bread", box: [200, 101, 100, 31], confidence: 90),
      TesseractEngine.Item(text: "TOTAL", box: [10, 150, 100, 30], confidence: 90),
      TesseractEngine.Item(text: "17.44", box: [600, 152, 100, 30], confidence: 90),
    ]
    XCTAssertEqual(ReceiptLine.rows(from: words).map(\.text), ["Sourdough Bread 4.99", "TOTAL 17.44"])
  }

  // MARK: - Issue #23: the extractor's own errors on perfect text (example lines written here)

  func testDatesAfterOtherNumbersGluedToALabelWithAMonthNameOrCompact() {
    func iso(_ text: String) -> String? { ReceiptDate.dates(in: text).first?.iso }
    // A number with a dash before the date: "12- 25/03" is not a day and a month.
    XCTAssertEqual(iso("TBL #7 -POS #12- 25/03/2019 12:01:09"), "2019-03-25")
    XCTAssertEqual(iso("CHK #40 -TERM #19- 14/02/2019"), "2019-02-14")
    // A label's colon glued to the date; a time's colon still keeps its minutes from a day.
    XCTAssertEqual(iso("DATE:05/04/19"), "2019-04-05")
    XCTAssertEqual(iso(":17/08/19 08:15"), "2019-08-17")
    XCTAssertEqual(ReceiptDate.dates(in: "09:49 - 27/06/18").map(\.iso), ["2018-06-27"])
    // A month name between slashes.
    XCTAssertEqual(iso("SLIP# : 1234567 09/MAR/2019 11:02:33"), "2019-03-09")
    // YYYYMMDD only when it is a day that exists and stands alone.
    XCTAssertEqual(iso("DATE/TIME : 20190315/101500"), "2019-03-15")
    XCTAssertEqual(ReceiptDate.dates(in: "DATE/TIME : 20190315/101500").first?.compact, true)
    XCTAssertNil(iso("GST REG 002019031512"))
    XCTAssertNil(iso("INV 20191345"))
    XCTAssertNil(iso("REF A20190315"))
    // A day its month does not have is no date ("31/2 - 12" is an item code).
    XCTAssertNil(iso("AB31/2 - 12/360"))
    // Nor does one that continues a chain of numbers ("11/3-21 - 12/480", an item code).
    XCTAssertFalse(ReceiptDate.dates(in: "MI11/3-21 - 12/480").map(\.iso).contains("2012-03-21"))
    XCTAssertEqual(iso("REG 7 19- 18/01/2018"), "2018-01-18")
    XCTAssertNil(iso("30/02/2019"))
    XCTAssertEqual(iso("29/02/2020"), "2020-02-29")
    // No month is 13-19: such a line holds no date rather than a mended one.
    XCTAssertNil(iso("21-16-19"))
    // Two different separators still read where nothing plainer is on the line.
    XCTAssertEqual(iso("05/04-19 10:12"), "2019-04-05")
    let receipt = ReceiptExtractor().extract(
      rows(["SHOP", "CHK #40 -TERM #19- 14/02/2019 09:10", "Tea 2.00", "TOTAL 2.00"]))
    XCTAssertEqual(receipt.date, "2019-02-14")
  }

  func testACardsExpiryIsNotTheReceiptsDate() {
    let receipt = ReceiptExtractor().extract(
      rows([
        "SHOP", "02/03/19 17:40 SLIP 0042", "Pens 4.00", "TOTAL 4.00", "VISA 4.00", "CARD EXP: 28/11/21",
      ]))
    XCTAssertEqual(receipt.date, "2019-03-02")
    XCTAssertNil(
      ReceiptExtractor().extract(rows(["SHOP", "Tea 2.00", "TOTAL 2.00", "VALID UNTIL 30/06/2020"])).date)
  }

  func testATaxLineThatNamesTheTotalIsNotTheTotal() {
    // The tax included in the total, printed with its rate and a total word.
    XCTAssertEqual(
      ReceiptExtractor().extract(
        rows(["SHOP", "Soup 12.72", "TOTAL 12.72", "(TOTAL INCLUSIVE OF GST @ 6% : 0.72)", "CASH 20.00"])
      ).total, "12.72")
    XCTAssertEqual(
      ReceiptExtractor().extract(
        rows(["SHOP", "Tea 42.40", "SUB-TOTAL : 42.40", "(INCLUSIVE) GST 6% 2.40", "TOTAL : 42.40"])
      ).total, "42.40")
    // The total itself may name the tax and its rate.
    XCTAssertEqual(
      ReceiptExtractor().extract(rows(["SHOP", "Tea 25.00", "TOTAL INCL. GST@6% RM 25.00", "GST 1.42"]))
        .total,
      "25.00")
  }

  func testAShortWordOneLetterOffABrandIsNotTheBrand() throws {
    let extractor = ReceiptExtractor(catalog: try IssuerCatalog.bundled())
    func merchant(_ lines: [String]) -> String? { extractor.extract(rows(lines + ["TOTAL 9.00"])).merchant }
    XCTAssertEqual(
      merchant(["CITY PARKING SDN BHD", "LOT 5, JALAN MAJU 3", "50000 KUALA LUMPUR"]), "CITY PARKING SDN BHD")
    XCTAssertEqual(
      merchant(["OLD ASIA KITCHEN", "12, JALAN BARU 4", "47300 PETALING JAYA"]), "OLD ASIA KITCHEN")
    // A six-letter word a letter off a brand is a name of its own: a legal line's surname.
    XCTAssertNotEqual(
      merchant(["MARKT AM RING", "KRUGER VERTRIEBS GMBH & CO. KG", "Ringstr. 5", "12345 Musterstadt"]),
      "Kroger")
    XCTAssertNotEqual(merchant(["Miller Inc.", "Ringstr. 5", "12345 Musterstadt"]), "Müller")
    // A longer name a letter off is still the brand, and a logo's reading keeps its allowance.
    XCTAssertEqual(merchant(["ROSMANN", "Mein Drogeriemarkt"]), "Rossmann")
    // A short brand with one glyph misread as its look-alike is still the brand.
    XCTAssertEqual(merchant(["TKEA", "Ringstr. 5", "12345 Musterstadt"]), "IKEA")
    XCTAssertEqual(extractor.brand(readFromLogo: "LeDi"), "Lidl")
  }
}
