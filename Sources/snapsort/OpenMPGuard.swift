import Foundation

#if canImport(Glibc)
  import Glibc
#endif

enum OpenMPGuard {
  static func reexecIfNeeded() {
    guard ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil else { return }
    setenv("OMP_THREAD_LIMIT", "1", 1)
    let arguments = CommandLine.arguments
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    argv.append(nil)
    // Only returns on failure; then we carry on with tesseract's default threading.
    execv("/proc/self/exe", &argv)
  }
}
