/// An axis-aligned rectangle in pixels: a word's or a line's box. Written in records as
/// `[x, y, width, height]`.
public struct Box: Sendable, Equatable, Codable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public static let zero = Box(x: 0, y: 0, width: 0, height: 0)

  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }

  /// The box with each number passed through `transform` (scaling, rounding).
  public func map(_ transform: (Double) -> Double) -> Box {
    Box(x: transform(x), y: transform(y), width: transform(width), height: transform(height))
  }

  public init(from decoder: Decoder) throws {
    var container = try decoder.unkeyedContainer()
    x = try container.decode(Double.self)
    y = try container.decode(Double.self)
    width = try container.decode(Double.self)
    height = try container.decode(Double.self)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(x)
    try container.encode(y)
    try container.encode(width)
    try container.encode(height)
  }
}
