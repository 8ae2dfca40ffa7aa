#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the process's resident memory flat over long runs.
///
/// glibc raises its mmap threshold each time a large block is freed (up to 32 MB), after which
/// decoded photos and crops come from the heap instead of their own mappings; workers on different
/// threads then leave freed holes in several arenas that the heap never gives back, so peak RSS
/// creeps up with the number of photos (measured on 40 rendered card photos repeated, cards preset,
/// 2 jobs: 199 MB for 100 photos, 221 MB for 400). A fixed threshold keeps every pixel buffer in a
/// mapping of its own that is returned to the system when freed (178 MB and 180 MB).
enum MemoryPolicy {
  /// Blocks at least this large get a mapping of their own.
  static let mmapThreshold: Int32 = 256 * 1024

  private static let applied: Void = {
    #if canImport(Glibc)
      // malloc.h's mallopt is not in Swift's Glibc module; it is looked up in the C library
      // itself. M_MMAP_THRESHOLD is -3 in glibc's malloc.h.
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let mmapThresholdParameter: Int32 = -3
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThresholdParameter, mmapThreshold)
      }
    #endif
  }()

  /// Applies the policy once per process; later calls do nothing.
  static func apply() { _ = applied }
}
