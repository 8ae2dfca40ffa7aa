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
Snapsort.main()
