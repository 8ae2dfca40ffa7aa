import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Every input `make fuzz` kept (`Fuzz/regressions/<target>/`) goes through its target's body
/// again: a crash there would take this test process down. The seeds must be accepted, which
/// checks that the bodies really decode and parse.
final class FuzzRegressionTests: XCTestCase {
  static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/regressions")

  func testSeedsAreAcceptedByTheirTargets() throws {
    for (target, body) in FuzzTargets.all.sorted(by: { $0.key < $1.key }) {
      let seeds = try FuzzTargets.seeds(for: target)
      XCTAssertFalse(seeds.isEmpty, target)
      for (index, seed) in seeds.enumerated() {
        XCTAssertTrue(body(seed), "\(target) seed \(index) was rejected")
      }
    }
  }

  func testKeptFuzzInputsNoLongerCrash() throws {
    var replayed = 0
    for (target, body) in FuzzTargets.all {
      let folder = Self.regressions.appendingPathComponent(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names.sorted() where !name.hasPrefix(".") {
        _ = body(try Data(contentsOf: folder.appendingPathComponent(name)))
        replayed += 1
      }
    }
    print("FuzzRegressionTests: replayed \(replayed) kept inputs")
  }

  func testTruncatedSeedsAreRejectedWithoutCrashing() throws {
    for target in ["jpeg", "png", "webp", "heif"] {
      let body = try XCTUnwrap(FuzzTargets.all[target])
      for seed in try FuzzTargets.seeds(for: target) {
        XCTAssertFalse(body(seed.prefix(seed.count / 3)), "\(target): a third of a file decoded")
      }
    }
  }
}
