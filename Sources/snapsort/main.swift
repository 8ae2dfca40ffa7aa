import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

// OpenMP reads OMP_THREAD_LIMIT once, when libgomp loads with tesseract; setenv later is too
// late. Re-executing ourselves with it set keeps tesseract single-threaded per worker, which is
// 4–7× faster here when several workers run.
OpenMPGuard.reexecIfNeeded()

// ArgumentParser exits 64 (EX_USAGE) on a bad argument; the README and `run --help` promise 2
// for bad arguments, so every parsing and validation error of every command exits 2.
do {
  var command = try Snapsort.parseAsRoot()
  try command.run()
} catch {
  if Snapsort.exitCode(for: error) == .validationFailure {
    FileHandle.standardError.write(Data((Snapsort.fullMessage(for: error) + "\n").utf8))
    exit(SnapsortExit.usage.rawValue)
  }
  Snapsort.exit(withError: error)
}
