import SnapsortOutputs
import XCTest

final class ItemNameTests: XCTestCase {
  func testQuantityPrefixesAndCurrencyWordsAreSetAside() {
    XCTAssertEqual(ItemName.normalized("2 x Milk 1L"), "milk 1l")
    XCTAssertEqual(ItemName.normalized("1 MILK 1L"), "milk 1l")
    XCTAssertEqual(ItemName.normalized("2x Brötchen"), "brotchen")
    XCTAssertEqual(ItemName.normalized("0,5 kg Äpfel"), "apfel")
    XCTAssertEqual(ItemName.normalized("1 vegetables"), "vegetables")
    XCTAssertEqual(ItemName.normalized("Coffee beans x2"), "coffee beans")
    XCTAssertEqual(ItemName.normalized("RM KOPI O"), "kopi o")
    XCTAssertEqual(ItemName.normalized("Молоко 3,2%"), "молоко 3,2%")
  }

  func testOCRDebrisIsNotAnItem() {
    for debris in ["(st", "2 x rm", "1", "x", "-- 3.20 --", "a1 b2 c3", "RM 12.90", ":: ."] {
      XCTAssertNil(ItemName.normalized(debris), debris)
    }
  }
}
