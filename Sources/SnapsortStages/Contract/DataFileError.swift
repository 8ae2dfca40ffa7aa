/// A data file a stage reads (an issuer catalog, a trained model) that cannot be used: a problem
/// of the installation or the config, found before the first photo.
public struct DataFileError: Error, CustomStringConvertible, Sendable, Equatable {
  public enum Problem: Sendable, Equatable {
    /// The file cannot be read.
    case unreadable
    /// The file is read but its content is not what it should be.
    case invalid
    /// The file was written by another version of snapsort.
    case incompatible
  }

  public var problem: Problem
  /// The sentence a person reads: the file and what is wrong with it.
  public var message: String

  public init(_ problem: Problem, _ message: String) {
    self.problem = problem
    self.message = message
  }

  public var description: String { message }
}
