import Foundation
import SnapsortImaging

/// Blind mutation fuzzing of one `FuzzTargets` body for a bounded time, without libFuzzer's
/// coverage build: what `make test` (and so CI) runs on every target, while `make fuzz` runs the
/// coverage-guided harnesses for longer.
///
/// Inputs are the target's seeds changed by a few random edits (bit flips, byte values at the
/// format's sensitive extremes, cuts, repeats, insertions and splices of two seeds), from a fixed
/// seed, so a run is reproducible. Before each input is tried it is written to `inFlight`: a
/// crash kills the process, and the file left behind is the input to keep as a regression.
public struct MutationFuzzer {
  public struct Outcome: Sendable {
    public var inputs = 0
    public var accepted = 0
  }

  public var target: String
  public var seed: UInt64
  public var inFlight: URL
  public var maxLength = 262_144

  public init(target: String, seed: UInt64, inFlight: URL) {
    self.target = target
    self.seed = seed
    self.inFlight = inFlight
  }

  /// Runs until `seconds` have passed; nil when no target has this name or it has no seeds.
  public func run(seconds: Double) throws -> Outcome? {
    guard let body = FuzzTargets.all[target] else { return nil }
    let seeds = try FuzzTargets.seeds(for: target)
    guard !seeds.isEmpty else { return nil }
    var generator = SeededGenerator(seed: seed)
    var outcome = Outcome()
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
      var input = seeds.randomElement(using: &generator)!
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        input = mutate(input, other: seeds.randomElement(using: &generator)!, using: &generator)
      }
      try input.write(to: inFlight)
      outcome.inputs += 1
      if body(input) { outcome.accepted += 1 }
    }
    try? FileManager.default.removeItem(at: inFlight)
    return outcome
  }

  /// Byte values that sit at the edges of lengths, markers and counts in the formats.
  static let interesting: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0xFE, 0xD8, 0xD9, 0xDA, 0xC0, 0x10]

  func mutate(_ data: Data, other: Data, using generator: inout SeededGenerator) -> Data {
    var bytes = [UInt8](data)
    guard !bytes.isEmpty else { return other }
    let at = Int.random(in: 0..<bytes.count, using: &generator)
    switch Int.random(in: 0..<7, using: &generator) {
    case 0: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
    case 1: bytes[at] = Self.interesting.randomElement(using: &generator)!
    case 2: bytes[at] = UInt8.random(in: 0...255, using: &generator)
    case 3: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &generator)))
    case 4:
      let chunk = bytes[at..<min(bytes.count, at + Int.random(in: 1...64, using: &generator))]
      bytes.insert(contentsOf: chunk, at: Int.random(in: 0...bytes.count, using: &generator))
    case 5: bytes = Array(bytes.prefix(at))
    default:
      let otherBytes = [UInt8](other)
      let from = Int.random(in: 0...otherBytes.count, using: &generator)
      bytes = Array(bytes.prefix(at)) + otherBytes[from...]
    }
    return Data(bytes.prefix(maxLength))
  }
}
