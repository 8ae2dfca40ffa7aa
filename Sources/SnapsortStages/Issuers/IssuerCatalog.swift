import Foundation
import SnapsortImaging

/// One shop, programme or bank that issues cards, as `issuers.json` describes it.
public struct Issuer: Codable, Sendable, Equatable {
  /// A barcode layout the issuer's cards are known to use.
  public struct BarcodePattern: Codable, Sendable, Equatable {
    public var symbology: String
    /// Number of characters in the value, when fixed.
    public var length: Int?
    /// The value's leading characters, when fixed.
    public var prefix: String?
    public init(symbology: String, length: Int? = nil, prefix: String? = nil) {
      self.symbology = symbology
      self.length = length
      self.prefix = prefix
    }
  }

  /// Lowercase ASCII kebab case, unique in a catalog.
  public var id: String
  public var name: String
  public var aliases: [String]
  /// ISO 3166-1 alpha-2 codes of the markets where the issuer's cards are found.
  public var countries: [String]
  /// Brand colours as `#rrggbb`.
  public var colors: [String]
  public var symbologies: [String]
  public var barcodes: [BarcodePattern]
  /// The loyalty programme's name, when it differs from the issuer's.
  public var program: String?

  public init(
    id: String, name: String, aliases: [String] = [], countries: [String] = [], colors: [String] = [],
    symbologies: [String] = [], barcodes: [BarcodePattern] = [], program: String? = nil
  ) {
    self.id = id
    self.name = name
    self.aliases = aliases
    self.countries = countries
    self.colors = colors
    self.symbologies = symbologies
    self.barcodes = barcodes
    self.program = program
  }

  enum CodingKeys: String, CodingKey {
    case id, name, aliases, countries, colors, symbologies, barcodes, program
  }

  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    name = try c.decode(String.self, forKey: .name)
    aliases = try c.decodeIfPresent([String].self, forKey: .aliases) ?? []
    countries = try c.decodeIfPresent([String].self, forKey: .countries) ?? []
    colors = try c.decodeIfPresent([String].self, forKey: .colors) ?? []
    symbologies = try c.decodeIfPresent([String].self, forKey: .symbologies) ?? []
    barcodes = try c.decodeIfPresent([BarcodePattern].self, forKey: .barcodes) ?? []
    program = try c.decodeIfPresent(String.self, forKey: .program)
  }

  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(aliases, forKey: .aliases)
    try c.encode(countries, forKey: .countries)
    try c.encode(colors, forKey: .colors)
    try c.encode(symbologies, forKey: .symbologies)
    try c.encode(barcodes, forKey: .barcodes)
    try c.encode(program, forKey: .program)
  }
}

/// The issuers a classifier chooses among: the bundled `issuers.json`, optionally extended.
public struct IssuerCatalog: Codable, Sendable, Equatable, VersionedDataFile {
  public static let fileDescription = "the issuer catalog"
  public static let currentVersion = 1
  public static let bundledFileName = "issuers.json"

  public var version: Int
  public var issuers: [Issuer]

  public init(issuers: [Issuer]) {
    self.version = Self.currentVersion
    self.issuers = issuers
  }

  /// Reads and checks a catalog file.
  ///
  /// - Throws: `DataFileError` naming the file and the first problem found.
  public static func load(from url: URL) throws -> IssuerCatalog {
    let catalog = try read(from: url)
    try catalog.check(source: url.path)
    return catalog
  }

  /// The catalog shipped with the library.
  public static func bundled() throws -> IssuerCatalog {
    try load(from: StageContext().resolve(bundledFileName))
  }

  /// Checks ids (unique, kebab case) and colours (`#rrggbb`).
  public func check(source: String) throws {
    var seen = Set<String>()
    for issuer in issuers {
      guard Self.isValidID(issuer.id) else {
        throw DataFileError(
          .invalid, "\(source): issuer id \"\(issuer.id)\" is not lowercase ASCII kebab case")
      }
      guard seen.insert(issuer.id).inserted else {
        throw DataFileError(.invalid, "\(source): issuer id \"\(issuer.id)\" appears twice")
      }
      for color in issuer.colors where CIELAB.lab(hex: color) == nil {
        throw DataFileError(
          .invalid, "\(source): issuer \"\(issuer.id)\" has colour \"\(color)\", expected #rrggbb")
      }
    }
  }

  /// This catalog with `other`'s issuers added, replacing those with the same id.
  public func merging(_ other: [Issuer]) -> IssuerCatalog {
    var byID: [String: Int] = [:]
    var merged = issuers
    for (index, issuer) in merged.enumerated() { byID[issuer.id] = index }
    for issuer in other {
      if let index = byID[issuer.id] {
        merged[index] = issuer
      } else {
        byID[issuer.id] = merged.count
        merged.append(issuer)
      }
    }
    return IssuerCatalog(issuers: merged.sorted { $0.id < $1.id })
  }

  /// This catalog without the given ids (used to hold issuers out of training).
  public func removing(_ ids: Set<String>) -> IssuerCatalog {
    IssuerCatalog(issuers: issuers.filter { !ids.contains($0.id) })
  }

  public func issuer(id: String) -> Issuer? { issuers.first { $0.id == id } }

  static func isValidID(_ id: String) -> Bool {
    guard !id.isEmpty, !id.hasPrefix("-"), !id.hasSuffix("-"), !id.contains("--") else { return false }
    return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }
}
