@preconcurrency import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

enum Terminal {
  static var stderrIsTerminal: Bool { isatty(2) == 1 }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data("snapsort: \(message)\n".utf8))
  }

  static func info(_ message: String) {
    FileHandle.standardError.write(Data("snapsort: \(message)\n".utf8))
  }

  /// An error as a sentence a person can act on: Foundation's file errors (`NSCocoaErrorDomain
  /// Code=512 "(null)"`) become what went wrong with which path; other errors keep their text.
  static func describe(_ error: any Error, path: String? = nil) -> String {
    if let input = error as? InputError { return input.description }
    let nsError = error as NSError
    guard nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain else {
      return "\(error)"
    }
    let subject =
      path ?? (nsError.userInfo[NSFilePathErrorKey] as? String)
      ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path ?? "the file"
    let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
      $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
    }
    if nsError.domain == NSPOSIXErrorDomain || posix != nil {
      let code = posix ?? Int32(nsError.code)
      return "\(subject): \(String(cString: strerror(code)).lowercased())"
    }
    switch CocoaError.Code(rawValue: nsError.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile:
      return "\(subject) does not exist"
    case .fileReadNoPermission, .fileWriteNoPermission:
      return "\(subject): permission denied"
    case .fileWriteOutOfSpace:
      return "\(subject): no space left on the device"
    case .fileWriteFileExists:
      return "\(subject) already exists"
    case .fileReadCorruptFile, .fileReadInapplicableStringEncoding:
      return "\(subject) cannot be read (not the expected format)"
    case .fileReadUnknown:
      return "\(subject) cannot be read"
    default:
      return "\(subject) cannot be written (is a parent folder a file, or read-only?)"
    }
  }
}

/// Set by SIGINT/SIGTERM: the runner starts no new photo, finishes those in flight and writes.
final class InterruptFlag: @unchecked Sendable {
  // Written on the signal source's queue and read by workers; one atomic-width Bool behind a lock.
  private let lock = NSLock()
  private var value = false
  private var sources: [DispatchSourceSignal] = []

  var isSet: Bool { lock.withLock { value } }

  /// - Parameter onSecond: runs on a second signal, before the process exits 130.
  static func install(onSecond: @escaping @Sendable () -> Void = {}) -> InterruptFlag {
    let flag = InterruptFlag()
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
      source.setEventHandler { [weak flag] in
        guard let flag else { return }
        let first = flag.lock.withLock { () -> Bool in
          defer { flag.value = true }
          return !flag.value
        }
        if first {
          Terminal.info(
            "interrupted: finishing the photos in flight, then writing what is done (again to quit now)")
        } else {
          onSecond()
          exit(130)
        }
      }
      source.resume()
      flag.sources.append(source)
    }
    return flag
  }
}

/// A progress bar on a terminal; plain log lines (every 10 %) otherwise.
final class ProgressReporter: @unchecked Sendable {
  // Called only from the runner's serial sink queue, then from the main thread after the run.
  private let enabled: Bool
  private let interactive = Terminal.stderrIsTerminal
  private let start = Date()
  private var lastDraw = Date.distantPast
  private var lastLoggedDecile = 0
  private var drewBar = false

  init(enabled: Bool) { self.enabled = enabled }

  func update(_ progress: Runner.Progress) {
    guard enabled, progress.total > 0 else { return }
    let elapsed = Date().timeIntervalSince(start)
    let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
    let remaining = rate > 0 ? Double(progress.total - progress.done) / rate : 0
    if interactive {
      guard Date().timeIntervalSince(lastDraw) > 0.1 || progress.done == progress.total else { return }
      lastDraw = Date()
      let width = 30
      let filled = width * progress.done / progress.total
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      let failed = progress.failed > 0 ? "  \(progress.failed) failed" : ""
      let line = String(
        format: "\r%@ %d/%d  %.1f/s  ETA %@%@\u{1B}[K", bar, progress.done, progress.total, rate,
        Self.clock(remaining), failed)
      FileHandle.standardError.write(Data(line.utf8))
      drewBar = true
    } else {
      let decile = progress.done * 10 / progress.total
      guard decile > lastLoggedDecile || progress.done == progress.total else { return }
      lastLoggedDecile = decile
      Terminal.info(
        String(
          format: "%d/%d files (%.1f/s, %d failed)", progress.done, progress.total, rate, progress.failed))
    }
  }

  /// A warning in the middle of a run, printed whether or not progress is shown; the progress bar
  /// is redrawn below it by the next update.
  func warn(_ message: String) {
    if drewBar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    Terminal.info("warning: \(message)")
    lastDraw = .distantPast
  }

  func finish() {
    if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
  }

  private static func clock(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    return String(format: "%d:%02d", total / 60, total % 60)
  }
}
