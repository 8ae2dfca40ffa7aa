import Foundation

/// A typed fact about one photo (the decoded image, the card's corners, the codes read, …),
/// written by exactly one stage and read by the stages after it and by `RecordAssembly`.
///
/// Implementation requirements: a value type (or an immutable class) that says in `displayName`
/// what it is in a person's words, for config errors such as "warp needs the card's corners";
/// `notes` are remarks for the record's `notes` (not errors), in the order stages write them.
public protocol Artifact: SendableMetatype {
  static var displayName: String { get }
  var notes: [String] { get }
}

extension Artifact {
  public var notes: [String] { [] }
}

/// The artifacts of one photo, each written once.
///
/// Confined to the worker processing the photo, like the `PhotoItem` that holds it.
public final class Artifacts {
  private var values: [ObjectIdentifier: any Artifact] = [:]
  /// The order artifacts were written in: the record's notes follow it.
  public private(set) var written: [any Artifact] = []

  public init() {}

  public subscript<A: Artifact>(_ type: A.Type) -> A? {
    values[ObjectIdentifier(type)] as? A
  }

  public func contains(_ type: any Artifact.Type) -> Bool {
    values[ObjectIdentifier(type)] != nil
  }

  /// Stores an artifact. Writing one twice is a programming error: each fact has one author.
  public func write(_ value: any Artifact) {
    let type = Swift.type(of: value)
    let key = ObjectIdentifier(type)
    precondition(values[key] == nil, "\(type.displayName) was written twice")
    values[key] = value
    written.append(value)
  }
}
