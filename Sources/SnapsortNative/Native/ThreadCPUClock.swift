import Foundation

/// The calling thread's CPU time, what tesseract readings' deadlines are measured in: the wall
/// clock runs on while other processes have the core, so a wall deadline stopped readings on a
/// busy machine that finished on an idle one, and the record depended on the machine's load.
public enum ThreadCPUClock {
  /// Milliseconds of CPU time the calling thread has used; 0 where the clock cannot be read.
  public static func milliseconds() -> Double {
    var spec = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return 0 }
    return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
  }
}
