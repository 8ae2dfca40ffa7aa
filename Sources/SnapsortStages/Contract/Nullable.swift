/// A record field that is written as an explicit `null` when it has no value, where the contract
/// (DESIGN.md) shows the key: readers rely on it being present. Other optional fields are left out
/// when empty, as Codable does.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension KeyedDecodingContainer {
  /// A missing key reads as no value, as it does for a plain optional.
  public func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
    try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
  }
}
