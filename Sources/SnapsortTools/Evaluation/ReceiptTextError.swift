import Foundation

/// A text file whose receipt lines cannot be read: the file, the line at fault (1-based) when
/// one is, and what is wrong with it.
public struct ReceiptTextError: Error, CustomStringConvertible, Sendable, Equatable {
  public var file: String
  public var line: Int?
  public var message: String

  public init(file: String, line: Int?, _ message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `FILE:LINE: message`, as compilers name a line, so that an editor can jump to it.
  public var description: String {
    line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
  }
}
