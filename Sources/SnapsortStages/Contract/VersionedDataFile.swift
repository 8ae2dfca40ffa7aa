import Foundation

/// A JSON data file a stage reads (an issuer catalog, a trained model), with the version of its
/// layout: read, decoded and version-checked in one place, each failure a `DataFileError` naming
/// the file.
public protocol VersionedDataFile: Decodable {
  /// The layout version this build reads.
  static var currentVersion: Int { get }
  /// What a person calls the file in an error: "the issuer catalog".
  static var fileDescription: String { get }
  var version: Int { get }
}

extension VersionedDataFile {
  /// The file at `url`, decoded, when its version is this build's.
  public static func read(from url: URL) throws -> Self {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw DataFileError(
        .unreadable, "cannot read \(fileDescription) \(url.path): \(error.localizedDescription)")
    }
    let file: Self
    do {
      file = try JSONDecoder().decode(Self.self, from: data)
    } catch {
      throw DataFileError(.invalid, "\(fileDescription) \(url.path) is not valid: \(error)")
    }
    guard file.version == currentVersion else {
      throw DataFileError(
        .incompatible,
        "\(fileDescription) \(url.path) has version \(file.version); this snapsort reads \(currentVersion)")
    }
    return file
  }
}
