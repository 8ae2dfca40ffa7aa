@preconcurrency import Foundation

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Runs libFuzzer's driver over one of `FuzzTargets`' bodies.
///
/// SwiftPM links an executable target's entry point as `<Target>_main`, and libFuzzer's own
/// `main` cannot coexist with it, so each harness defines that symbol and hands the arguments to
/// `LLVMFuzzerRunDriver` from `libclang_rt.fuzzer_no_main` (linked by `make fuzz`).
public enum FuzzDriver {
  public static func run(
    _ target: String, argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    guard let body = FuzzTargets.all[target] else {
      fputs("no fuzz target named \(target)\n", stderr)
      return 2
    }
    harness = body
    // The first argument that is not a flag is the corpus folder: start it from the seeds.
    if let corpus = (1..<Int(argc)).lazy.compactMap({ argv?[$0].map { String(cString: $0) } })
      .first(where: { !$0.hasPrefix("-") }),
      (try? FileManager.default.contentsOfDirectory(atPath: corpus))?.isEmpty ?? false
    {
      for (index, seed) in ((try? FuzzTargets.seeds(for: target)) ?? []).enumerated() {
        try? seed.write(to: URL(fileURLWithPath: corpus).appendingPathComponent("seed-\(index)"))
      }
    }
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
      let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
      _ = FuzzDriver.harness?(data)
      return 0
    }
  }

  // Set once before the driver starts; libFuzzer calls back on the thread that called it.
  nonisolated(unsafe) static var harness: ((Data) -> Bool)?
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
