import SnapsortImaging
import SnapsortNative
import SnapsortStages

// Boxes, points and quads written in tests as the records write them: `[x, y, width, height]`,
// `[x, y]` and `[[x, y], …]`.

extension Box: ExpressibleByArrayLiteral {
  public init(arrayLiteral numbers: Double...) {
    precondition(numbers.count == 4, "a box is [x, y, width, height]")
    self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }
}

extension Point: ExpressibleByArrayLiteral {
  public init(arrayLiteral numbers: Double...) {
    precondition(numbers.count == 2, "a point is [x, y]")
    self.init(numbers[0], numbers[1])
  }
}

extension Quad: ExpressibleByArrayLiteral {
  public init(arrayLiteral corners: Point...) { self.init(corners) }
}

// Amounts as the records write them: `"17.44"`.
extension Money: ExpressibleByStringLiteral {
  public init(stringLiteral text: String) {
    guard let money = Money(recordString: text) else { preconditionFailure("\"\(text)\" is not an amount") }
    self = money
  }
}
