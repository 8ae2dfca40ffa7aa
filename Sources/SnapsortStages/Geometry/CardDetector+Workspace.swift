import SnapsortImaging
import SnapsortNative

extension CardDetector {
  /// The buffers one worker's detections reuse from photo to photo.
  ///
  /// Each photo needs about a dozen buffers of a megabyte or so (the reduced copies, the
  /// gradient planes, the Hough votes). Allocated afresh, each is a mapping of its own (see
  /// `MemoryPolicy`) whose pages are faulted in and zeroed again for every photo: a fifth of
  /// the detection time. Not thread-safe: one per worker, as stages are.
  final class Workspace {
    let field = GradientField()
    var edges: [Int] = []
    var votes: [Int32] = []
    private var reducedPixels: [UInt8] = []
    private var searchPixels: [UInt8] = []

    init() {}

    /// The copy lines are searched on: a whole-factor box reduction first (cheap), then the
    /// filtered resize on what is left, written into the previous photo's buffers.
    func searchCopy(of image: Bitmap, maxSide: Int) -> Bitmap {
      let factor = max(1, max(image.width, image.height) / maxSide)
      let reduced = image.boxReduced(by: factor, recycling: Bitmap.take(&reducedPixels))
      let search = reduced.fitting(maxSide: maxSide, recycling: Bitmap.take(&searchPixels))
      // Kept for the next photo, unless they are the image itself, which is not ours to keep.
      if (reduced.width, reduced.height) != (image.width, image.height) { reducedPixels = reduced.pixels }
      if (search.width, search.height) != (reduced.width, reduced.height) { searchPixels = search.pixels }
      return search
    }
  }
}
