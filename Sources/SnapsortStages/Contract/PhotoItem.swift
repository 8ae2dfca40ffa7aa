import Foundation
import SnapsortNative

/// One input photo as it moves through the stages of one worker: where it comes from, its time
/// budget, and the artifacts stages have written about it.
///
/// An item is confined to the worker that created it, so it is a class without locking.
public final class PhotoItem {
  /// The path relative to the input root it was found under, with `/` separators.
  public let relativePath: String
  public let url: URL
  /// Where this run writes crops and other per-item files.
  public let outputDirectory: URL?
  /// What the config takes the photo to be until a stage decides (`KindDecision`).
  public let assumedKind: Kind
  /// When this photo's time budget (`limits.seconds_per_image`) runs out; OCR cancels at it.
  public let deadline: DispatchTime
  /// The file's bytes when the runner has read them already (to look its content up for resuming).
  public let prefetched: Data?
  /// The path's bytes when a name in it is not UTF-8, which `url` cannot hold.
  public let fileSystemPath: [UInt8]?
  public let artifacts = Artifacts()

  public init(
    relativePath: String, url: URL, outputDirectory: URL?, assumedKind: Kind = .unknown,
    deadline: DispatchTime = .distantFuture, prefetched: Data? = nil, fileSystemPath: [UInt8]? = nil
  ) {
    self.relativePath = relativePath
    self.url = url
    self.outputDirectory = outputDirectory
    self.assumedKind = assumedKind
    self.deadline = deadline
    self.prefetched = prefetched
    self.fileSystemPath = fileSystemPath
  }

  /// The kind stages' `when` conditions test: decided, or else assumed.
  /// The file's bytes, read now unless the runner read them already.
  ///
  /// - Throws: `FileReadError` saying why the file cannot be read.
  public func bytes() throws -> Data {
    if let prefetched { return prefetched }
    if let fileSystemPath { return try FileBytes.read(fileSystemPath: fileSystemPath) }
    return try FileBytes.read(url)
  }

  public var kind: Kind { artifacts[KindDecision.self]?.kind ?? assumedKind }

  /// Seconds left before `deadline` (0 when passed).
  public var secondsRemaining: Double {
    let now = DispatchTime.now().uptimeNanoseconds
    return deadline.uptimeNanoseconds > now ? Double(deadline.uptimeNanoseconds - now) / 1e9 : 0
  }

  /// The decoded image; a stage that cannot work without it says so.
  public func pixels() throws -> ImagePixels {
    guard let pixels = artifacts[ImagePixels.self] else { throw StageFailure("no image was loaded") }
    return pixels
  }

  /// The full-resolution image, decoded on first use.
  public func fullImage() throws -> Bitmap {
    guard let pixels = artifacts[ImagePixels.self] else {
      throw StageFailure("no image has been loaded (is the load stage first in the pipeline?)")
    }
    return try pixels.full()
  }

  /// The record as the artifacts written so far make it (`RecordAssembly`).
  public var record: Record { RecordAssembly.record(of: self, error: nil) }
}
