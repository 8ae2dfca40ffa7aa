import Foundation

/// An amount of money in minor units (cents), never a floating-point number. Records write it as
/// the decimal string the contract shows (`"17.44"`, `"-1.00"`): a reader in any language gets
/// the exact amount, with no binary fraction in between.
public struct Money: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public var cents: Int

  public init(cents: Int) { self.cents = cents }

  /// The decimal string of the record: `"17.44"`, `"-1.00"`.
  public var description: String {
    let magnitude = abs(cents)
    let fraction = magnitude % 100
    return "\(cents < 0 ? "-" : "")\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// Reads the record's own form back: an optional minus, digits, a point and two digits.
  public init?(recordString text: String) {
    let negative = text.hasPrefix("-")
    let parts = text.dropFirst(negative ? 1 : 0).split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count == 2, !parts[0].isEmpty,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let units = Int(parts[0]), let minor = Int(parts[1])
    else { return nil }
    self.init(cents: (units * 100 + minor) * (negative ? -1 : 1))
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let money = Money(recordString: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not an amount such as \"17.44\"")
    }
    self = money
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  public var magnitude: Money { Money(cents: abs(cents)) }

  public static func < (a: Money, b: Money) -> Bool { a.cents < b.cents }
  public static func + (a: Money, b: Money) -> Money { Money(cents: a.cents + b.cents) }
  public static func - (a: Money, b: Money) -> Money { Money(cents: a.cents - b.cents) }
}
