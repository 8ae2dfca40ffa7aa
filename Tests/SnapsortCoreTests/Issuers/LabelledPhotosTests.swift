import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

final class LabelledPhotosTests: XCTestCase {
  var root: URL!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("labelled-\(UUID().uuidString)")
    let fm = FileManager.default
    // PNG signature only: the folder scan looks at names and first bytes, not pixels.
    let png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + [UInt8](repeating: 0, count: 16))
    for (folder, files) in [("ikea", ["a.png", "b.png"]), ("unknown", ["c.png"]), ("my-shop", ["d.png"])] {
      try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
      for file in files {
        try png.write(to: root.appendingPathComponent(folder).appendingPathComponent(file))
      }
    }
    try Data("notes".utf8).write(to: root.appendingPathComponent("ikea/README.txt"))
    let catalog =
      ##"{"version": 1, "issuers": [{"id": "my-shop", "name": "My Shop", "colors": ["#123456"]}]}"##
    try Data(catalog.utf8).write(to: root.appendingPathComponent("catalog.json"))
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: root)
  }

  func testLabelsComeFromFolderNamesAndCatalogAdds() throws {
    let photos = try LabelledPhotos(root: root)
    XCTAssertEqual(
      photos.photos.map(\.input.relativePath), ["ikea/a.png", "ikea/b.png", "my-shop/d.png", "unknown/c.png"])
    XCTAssertEqual(photos.photos.map(\.label), ["ikea", "ikea", "my-shop", nil])
    XCTAssertEqual(photos.catalogAdditions.map(\.id), ["my-shop"])
  }

  /// Built from the stages' declarations: what the issuer stage reads and what that needs, each
  /// stage after the ones whose artifacts it reads.
  func testFeaturePipelineIsDerivedFromTheDeclarations() throws {
    let names = try LabelledPhotos.featurePipeline().steps.map(\.name)
    XCTAssertEqual(Set(names), ["load", "detect_card", "warp", "palette", "barcode", "ocr"])
    XCTAssertEqual(names.first, "load")
    let position = { (name: String) in names.firstIndex(of: name)! }
    XCTAssertLessThan(position("detect_card"), position("warp"))
    for reader in ["palette", "barcode", "ocr"] { XCTAssertLessThan(position("warp"), position(reader)) }
  }

  func testNotAFolderIsAClearError() {
    XCTAssertThrowsError(try LabelledPhotos(root: root.appendingPathComponent("missing"))) { error in
      XCTAssertTrue("\(error)".contains("not a folder"))
    }
  }
}
