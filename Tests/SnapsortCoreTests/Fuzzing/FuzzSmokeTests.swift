import Foundation
import XCTest

@testable import SnapsortImaging
@testable import SnapsortTools

/// Every fuzz target (the loaders, the config parser, zbar, zxing-cpp and tesseract on raw pixels)
/// gets mutated inputs for a bounded time on every `make test`, so CI fuzzes every decoder input
/// path without the coverage build `make fuzz` needs. A crash takes the test process down and
/// leaves the input that did it in the folder printed below, to be kept in `Fuzz/regressions/`.
final class FuzzSmokeTests: XCTestCase {
  /// Seconds per target: `FUZZ_SMOKE_SECONDS`, else 8 under CI and 2 on a developer's machine.
  static var secondsPerTarget: Double {
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["FUZZ_SMOKE_SECONDS"].flatMap(Double.init) { return value }
    return environment["CI"] == "true" ? 8 : 2
  }

  /// `FUZZ_SMOKE_SEED`, else the day's number: each day's runs try other inputs, and a failing
  /// day is reproduced by setting the seed it printed.
  static var seed: UInt64 {
    if let value = ProcessInfo.processInfo.environment["FUZZ_SMOKE_SEED"].flatMap(UInt64.init) {
      return value
    }
    return UInt64(Date().timeIntervalSince1970 / 86_400)
  }

  func testEveryTargetSurvivesMutatedInputs() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapsort-fuzz-smoke")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let (seconds, seed) = (Self.secondsPerTarget, Self.seed)
    print("fuzz smoke: seed \(seed), \(seconds) s per target; an input in flight is kept in \(folder.path)")
    let targets = FuzzTargets.all.keys.sorted()
    let outcomes = Slots<Result<MutationFuzzer.Outcome?, any Error>>(count: targets.count)
    // Two targets at a time: the machines this runs on have two cores.
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      for index in stride(from: lane, to: targets.count, by: 2) {
        let fuzzer = MutationFuzzer(
          target: targets[index], seed: seed &+ UInt64(index),
          inFlight: folder.appendingPathComponent("\(targets[index])-seed-\(seed).input"))
        outcomes.set(index, Result { try fuzzer.run(seconds: seconds) })
      }
    }
    var refused = 0
    let results = outcomes.values
    for (index, target) in targets.enumerated() {
      let outcome = try XCTUnwrap(try results[index]?.get(), "\(target) has no seeds")
      print("fuzz smoke: \(target): \(outcome.inputs) inputs, \(outcome.accepted) accepted")
      refused += outcome.inputs - outcome.accepted
      XCTAssertGreaterThanOrEqual(outcome.inputs, 5, "\(target) was barely fuzzed")
      // Blind byte edits almost never leave JSON valid, so the config parser's refusals are what
      // its inputs reach; every other target must decode some mutated inputs to get past headers
      // (PNG accepts ~3 % of them, so fewer than 300 inputs may accept none by chance).
      if target != "config", outcome.inputs >= 300 {
        XCTAssertGreaterThan(
          outcome.accepted, 0, "\(target): no mutated input was accepted, so none got deep")
      }
    }
    // Per target this could fail by chance on a slow machine (tesseract accepts ~85 % of its few
    // dozen inputs); over all nine, mutations that break the input must show up.
    XCTAssertGreaterThan(refused, 0, "no mutated input was refused: the mutations change nothing")
  }

  func testPixelInputsDescribeTheirBitmap() throws {
    let bars = try XCTUnwrap(FuzzPixels.bars(symbology: "ean13", value: "4006381333931", rows: 3))
    let decoded = try XCTUnwrap(FuzzPixels.bitmap(FuzzPixels.encode(bars), maxPixels: 1_000_000))
    XCTAssertEqual(decoded.width, bars.width)
    XCTAssertEqual(decoded.height, 3)
    XCTAssertEqual(decoded.pixels, bars.pixels)
    XCTAssertNil(FuzzPixels.bitmap(Data([0, 9, 1, 2]), maxPixels: 100), "less than one row of 10")
    let scanLine = try XCTUnwrap(FuzzPixels.bitmap(Data([0, 1, 7, 7, 7]), maxPixels: 100))
    XCTAssertEqual([scanLine.width, scanLine.height], [2, 1])
  }

  func testMutationIsReproducibleFromItsSeed() throws {
    let inFlight = FileManager.default.temporaryDirectory.appendingPathComponent("mutation-\(UUID()).input")
    let fuzzer = MutationFuzzer(target: "png", seed: 42, inFlight: inFlight)
    let seed = Data((0..<200).map { UInt8($0) })
    func mutations() -> [Data] {
      var generator = SeededGenerator(seed: 42)
      return (0..<50).map { _ in fuzzer.mutate(seed, other: Data(seed.reversed()), using: &generator) }
    }
    XCTAssertEqual(mutations(), mutations())
    XCTAssertTrue(mutations().contains { $0 != seed })
  }
}
