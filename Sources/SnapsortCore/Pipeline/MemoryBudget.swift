import Foundation
import SnapsortStages

#if canImport(Glibc)
  import Glibc
#endif

/// A ceiling on the process's resident memory (`snapsort run --max-memory`), kept by running
/// fewer photos at once instead of being killed by the kernel: each worker holds its own OCR
/// engines and one photo's buffers, so a worker stopped is memory given back.
public struct MemoryBudget: Sendable, Equatable, CustomStringConvertible {
  public var bytes: UInt64

  public init(bytes: UInt64) { self.bytes = bytes }

  /// Parses `300M`, `300MB`, `300MiB`, `1.5G`, `800K` (binary units, case ignored) or a plain
  /// number of MiB.
  public init(parsing text: String) throws(MemoryBudgetError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let number = trimmed.prefix { $0.isNumber || $0 == "." }
    var unit = Substring(trimmed.dropFirst(number.count)).trimmingCharacters(in: .whitespaces)
    for suffix in ["ib", "b"] where unit.count > 1 && unit.hasSuffix(suffix) {
      unit = String(unit.dropLast(suffix.count))
      break
    }
    let scale: Double? =
      switch unit {
      case "k": 1024
      case "", "m": 1024 * 1024
      case "g": 1024 * 1024 * 1024
      default: nil
      }
    guard let value = Double(number), let scale, value > 0, (value * scale).isFinite else {
      throw MemoryBudgetError(text: text)
    }
    bytes = UInt64(value * scale)
  }

  public var megabytes: Double { Double(bytes) / 1_048_576 }

  /// `bytes` in MiB to a tenth, as run.json gives memory.
  static func megabytes(_ bytes: UInt64) -> Double { Rounding.tenths(Double(bytes) / 1_048_576) }

  public var description: String { String(format: "%.0f MB", megabytes) }

  /// The process's resident memory now (the second field of /proc/self/statm), nil where the
  /// system does not say.
  public static func residentBytes() -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
    return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// The process's peak resident memory so far (getrusage's ru_maxrss), nil where it is not known.
  public static func peakResidentBytes() -> UInt64? {
    var usage = rusage()
    guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0, usage.ru_maxrss > 0 else {
      return nil
    }
    // Linux reports ru_maxrss in KiB.
    return UInt64(usage.ru_maxrss) * 1024
  }

  /// Gives the heap's free pages back to the system after a worker's engines are freed; glibc
  /// keeps them otherwise, and the resident size would not show what was released.
  static func returnFreedMemory() {
    #if canImport(Glibc)
      // malloc_trim is in malloc.h, which Swift's Glibc module leaves out.
      typealias MallocTrim = @convention(c) (Int) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
      }
    #endif
  }
}

public struct MemoryBudgetError: Error, CustomStringConvertible {
  public var text: String
  public var description: String {
    "cannot read \"\(text)\" as a memory size: give a number with K, M or G (e.g. 300M, 1.5G)"
  }
}

/// The runner stopping a worker to stay within the memory budget.
public struct JobsReduction: Sendable, Equatable {
  /// Photos finished when the worker stopped (0: the worker was never started).
  public var afterPhotos: Int
  /// Resident memory that was over the budget, in MiB.
  public var residentMB: Double
  /// Workers left running.
  public var workers: Int
}
