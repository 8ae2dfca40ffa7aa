/// Why an input could not be decoded, in words a person understands.
public struct ImageDecodeError: Error, CustomStringConvertible, Sendable, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
