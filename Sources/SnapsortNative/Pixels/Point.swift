/// A point in pixel coordinates.
public struct Point: Sendable, Equatable, Codable {
  public var x: Double
  public var y: Double
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }
}
