import XCTest

@testable import SnapsortStages

/// `PaymentCardNumber.findMasked`: a card that prints only its last four digits, on lines as
/// tesseract read them on training renders (`bench/gen/cards.py --split train`, layout
/// `payment_minimal`).
final class MaskedCardNumberTests: XCTestCase {
  func testMaskReadAsBulletsOrRoundLettersGivesTheLastFour() {
    XCTAssertEqual(
      PaymentCardNumber.findMasked(in: ["Cassa Luca", "Matteo Rossi", "VISA", "•••• 1881"]),
      .init(network: "visa", last4: "1881"))
    XCTAssertEqual(
      PaymentCardNumber.findMasked(in: ["BAHK POMALLKA", "VISA", "o0ee 5556"]),
      .init(network: "visa", last4: "5556"))
    XCTAssertEqual(
      PaymentCardNumber.findMasked(in: ["XXXX XXXX XXXX 4242", "Visa"]),
      .init(network: "visa", last4: "4242"))
  }

  func testNetworkNamedAcrossLines() {
    XCTAssertEqual(
      PaymentCardNumber.findMasked(in: ["Bank", "AMERICAN", "eceoe 0005", "EXPRESS"]),
      .init(network: "amex", last4: "0005"))
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["Bank", "AMERICAN", "eceoe 0005"]))
  }

  func testFourDigitsAloneCountUnlessAYear() {
    XCTAssertEqual(
      PaymentCardNumber.findMasked(in: ["ZIELONY OGROD BANK", "VISA", "1881"]),
      .init(network: "visa", last4: "1881"))
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["Bank", "VISA", "2019"]))
  }

  func testNoNetworkNoPayment() {
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["Lindenhof Bank", "eoee 8210"]))
  }

  func testWordsAndOtherGroupsAreNotAMask() {
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["VISA", "Member since 2010"]))
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["VISA", "MEMBER 4021"]))
    // A full number read apart: its first group alone is not a last four.
    XCTAssertNil(
      PaymentCardNumber.findMasked(in: ["4000", "“ae 0566 5566 5556", "VALID THRU 12/29", "VISA"]))
    // Two different endings: no way to tell which is the card's.
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["VISA", "•••• 1881", "eeee 4242"]))
  }

  /// A Luhn-valid number needs the card to say "payment card" too: a network, an expiry label or
  /// an expiry date; a member number alone does not.
  func testWhatSaysPaymentCard() {
    XCTAssertTrue(PaymentCardNumber.saysPaymentCard(["4000 0566 5566 5556", "VALID THRU 12/29"]))
    XCTAssertTrue(PaymentCardNumber.saysPaymentCard(["Nordbank", "VISA"]))
    XCTAssertTrue(PaymentCardNumber.saysPaymentCard(["Nordbank", "MARIE DUBOIS", "09 / 29"]))
    XCTAssertFalse(PaymentCardNumber.saysPaymentCard(["Carte Monoprix", "4970 1012 3456 7890"]))
    XCTAssertFalse(PaymentCardNumber.saysPaymentCard(["Member since 03/2019", "NUMERO CLIENT"]))
    XCTAssertFalse(PaymentCardNumber.saysPaymentCard(["Rabatt 13/25 %"]))
  }

  func testTwoNetworksNamedIsNoNetwork() {
    XCTAssertNil(PaymentCardNumber.findMasked(in: ["VISA", "mastercard", "•••• 1881"]))
  }
}
