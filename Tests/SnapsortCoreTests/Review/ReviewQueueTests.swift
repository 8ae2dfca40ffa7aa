import Foundation
import XCTest

@testable import SnapsortOutputs
@testable import SnapsortReview
@testable import SnapsortStages

/// The review queue's order and its reasons, on records built in code.
final class ReviewQueueTests: XCTestCase {
  func score(_ record: Record) -> Int { ReviewQueue.score(of: ReviewQueue.reasons(for: record)) }

  func testACompleteCardNeedsNoLook() {
    let card = StoreFixtures.card("a.jpg", name: "A", issuer: ("a", "A"), code: ("ean13", "5901234123457"))
    XCTAssertEqual(ReviewQueue.reasons(for: card), [])
  }

  func testFailuresFirstThenMissingCodesThenUnsureIssuers() {
    let failed = StoreFixtures.failure("bad.jpg", message: "corrupt")
    let noCode = StoreFixtures.card("b.jpg", name: "B", issuer: ("b", "B"))
    var unsure = StoreFixtures.card("c.jpg", name: "C", issuer: ("c", "C"), code: ("ean13", "5901234123457"))
    unsure.card?.issuer?.confidence = 0.3
    XCTAssertGreaterThan(score(failed), score(noCode))
    XCTAssertGreaterThan(score(noCode), score(unsure))
    XCTAssertGreaterThan(score(unsure), 0)
    XCTAssertEqual(ReviewQueue.reasons(for: failed).count, 1, "a failure lists only why it failed")
    XCTAssertTrue(ReviewQueue.reasons(for: failed)[0].text.contains("corrupt"))
    XCTAssertTrue(ReviewQueue.reasons(for: unsure)[0].text.contains("0.30"))
  }

  func testACorrectedIssuerStopsCounting() {
    var unsure = StoreFixtures.card("c.jpg", name: "C", issuer: ("c", "C"), code: ("ean13", "5901234123457"))
    unsure.card?.issuer?.confidence = 0.3
    let corrected = RecordCorrections(issuer: .init(id: "c", name: "C")).applied(to: unsure)
    XCTAssertEqual(ReviewQueue.reasons(for: corrected), [])
  }

  func testReceiptsWhoseAmountsDoNotAddUp() {
    var receipt = StoreFixtures.receipt(
      "r.jpg", merchant: "M", date: "2024-01-02", total: Money(cents: 300), items: [("x", Money(cents: 200))])
    XCTAssertEqual(score(receipt), 0)
    receipt.receipt?.checks = ReceiptChecks(
      itemsMatchSubtotal: false, totalsConsistent: nil, problems: ["items 2.00 ≠ 3.00"])
    receipt.receipt?.merchant = nil
    let reasons = ReviewQueue.reasons(for: receipt)
    XCTAssertEqual(reasons.map(\.points), [40, 15])
    XCTAssertTrue(reasons[0].text.contains("items 2.00"))
  }
}
