/// An error a stage throws for one item; the runner turns it into an error record.
public struct StageFailure: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
