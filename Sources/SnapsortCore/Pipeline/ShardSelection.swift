import Crypto
import Foundation
import SnapsortImaging

/// Which part of the inputs this process handles when a run is split across machines.
///
/// Files are assigned by a stable hash of their relative path, so every machine agrees without
/// a coordinator and a merge of all shards equals a single run.
public struct ShardSelection: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) throws {
    guard count >= 1 else { throw InputError("shard count must be at least 1 (got \(count))") }
    guard (0..<count).contains(index) else {
      throw InputError("shard index \(index) is outside 0..<\(count)")
    }
    self.index = index
    self.count = count
  }

  /// Parses `I/N`.
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      throw InputError("--shard takes I/N, e.g. 0/4 (got \"\(text)\")")
    }
    try self.init(index: index, count: count)
  }

  /// The shard a batch scheduler assigned: Slurm job arrays (`SLURM_ARRAY_TASK_ID` and
  /// `SLURM_ARRAY_TASK_COUNT`) or Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, with the count
  /// from `shards`). Nil when neither is present.
  public static func fromEnvironment(_ environment: [String: String], shards: Int?) throws -> ShardSelection?
  {
    if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap(Int.init) {
      guard let count = environment["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) ?? shards else {
        throw InputError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards N")
      }
      // Arrays may start at 1 (--array=1-4); SLURM_ARRAY_TASK_MIN says where.
      let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
      return try ShardSelection(index: id - minimum, count: count)
    }
    if let index = environment["JOB_COMPLETION_INDEX"].flatMap(Int.init) {
      guard let shards else {
        throw InputError("JOB_COMPLETION_INDEX is set: pass --shards N (the Job's completions)")
      }
      return try ShardSelection(index: index, count: shards)
    }
    return nil
  }

  public func contains(_ relativePath: String) -> Bool {
    Self.bucket(of: relativePath, count: count) == index
  }

  static func bucket(of relativePath: String, count: Int) -> Int {
    let digest = SHA256.hash(data: Data(relativePath.utf8))
    let prefix = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Int(prefix % UInt64(count))
  }

  public var description: String { "\(index)/\(count)" }
}
