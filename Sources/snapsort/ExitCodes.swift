import ArgumentParser

/// Exit statuses, documented in the README.
enum SnapsortExit {
  /// Every file was processed and gave an ok record.
  static let ok = ExitCode(0)
  /// The run completed, but some files gave error records.
  static let someFailed = ExitCode(1)
  /// Bad arguments or configuration; nothing was processed.
  static let usage = ExitCode(2)
  /// A native library, language pack or model the config needs is missing.
  static let missingDependency = ExitCode(3)
  /// The output folder cannot be written.
  static let outputNotWritable = ExitCode(4)
  /// An error snapsort has no name for: a bug to report.
  static let internalError = ExitCode(70)
  /// Interrupted (Ctrl-C): in-flight photos finished and what was done was written.
  static let interrupted = ExitCode(130)
}
