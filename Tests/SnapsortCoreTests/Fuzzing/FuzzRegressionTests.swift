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

  /// Kept inputs (`target/file`) their target accepts. Empty: every input kept so far was a
  /// crash, a leak, a hang or an out-of-memory that the fix turned into a refusal; an input that
  /// decodes legitimately once fixed is listed here, so the verdict is still asserted.
  static let acceptedKeptInputs: Set<String> = []

  /// Each kept input goes through its target again and must be refused (or accepted, when listed
  /// above); reaching the end without the process dying is the "no crash" part. Decoder inputs
  /// also go through the whole load stage, which must refuse them too. A target whose folder is
  /// missing fails, and so does a checkout with no kept input at all, which would replay nothing.
  func testKeptFuzzInputsAreRefusedWithoutCrashing() throws {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: Self.regressions.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return XCTFail("no folder at \(Self.regressions.path)") }
    // Counted apart from the replay loop: a file in a folder no target replays fails too.
    let files = try XCTUnwrap(manager.enumerator(atPath: Self.regressions.path)).compactMap { $0 as? String }
      .filter { path in
        var isDirectory: ObjCBool = false
        return !path.split(separator: "/").contains { $0.hasPrefix(".") }
          && manager.fileExists(
            atPath: Self.regressions.appendingPathComponent(path).path, isDirectory: &isDirectory)
          && !isDirectory.boolValue
      }
    XCTAssertGreaterThan(files.count, 0, "Fuzz/regressions/ holds no kept input: nothing would be replayed")

    var replayed: [String] = []
    for target in FuzzTargets.all.keys.sorted() {
      let body = try XCTUnwrap(FuzzTargets.all[target])
      let folder = Self.regressions.appendingPathComponent(target)
      let names: [String]
      do {
        names = try manager.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
      } catch {
        XCTFail(
          "Fuzz/regressions/\(target)/ is missing (make fuzz keeps \(target)'s findings there): \(error)")
        continue
      }
      for name in names {
        let key = "\(target)/\(name)"
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        let accepted = Self.acceptedKeptInputs.contains(key)
        XCTAssertEqual(body(data), accepted, "\(key): \(accepted ? "refused" : "accepted") after its fix")
        if ["jpeg", "png", "webp", "heif"].contains(target) {
          XCTAssertEqual(FuzzTargets.load(data), accepted, "\(key) through the load stage")
        }
        replayed.append(key)
      }
    }
    XCTAssertEqual(replayed.sorted(), files.sorted(), "every kept input is replayed by its target")
    XCTAssertTrue(Self.acceptedKeptInputs.isSubset(of: Set(replayed)), "listed accepted inputs exist")
    print("FuzzRegressionTests: replayed \(replayed.count) kept inputs: \(replayed)")
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
