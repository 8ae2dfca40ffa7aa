import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// libheif 1.15 follows item references without checking for cycles; HEIFItemGraph refuses such
/// files before libheif decodes them. The hand-built files below hold only the boxes it reads.
final class HEIFItemGraphTests: XCTestCase {
  func testTheGridFuzzingFoundIsRefusedWithAReason() throws {
    let finding = FuzzRegressionTests.regressions.appendingPathComponent("heif/heif-grid-recursion.heic")
    let data = try Data(contentsOf: finding)
    XCTAssertThrowsError(try data.withUnsafeBytes { try HEIFDecoder.decode($0, reduction: 1) }) { error in
      XCTAssertTrue("\(error)".contains("item 2 is derived from itself"), "\(error)")
    }
  }

  func testAReferenceBoxWithAWrongSizeIsReadAsLibheifReadsIt() throws {
    // FuzzHEIF's second find: the `dimg` box inside `iref` declares 589 838 bytes; libheif reads
    // its IDs anyway, and grid 2 is again its own tile.
    let finding = FuzzRegressionTests.regressions.appendingPathComponent(
      "heif/oom-b93bcf099dbfdceaeb0f3cf19f1469e2cc6a3747")
    let graph = HEIFItemGraph(try Data(contentsOf: finding))
    XCTAssertEqual(graph.refusal(), "item 2 is derived from itself (a reference cycle)")
  }

  func testGridsOfGridsThatMultiplyBeyondAnyRealImageAreRefused() {
    let tiles = [UInt32](repeating: 3, count: 400)
    let nested = Self.file(
      primary: 1, references: [("dimg", 1, [UInt32](repeating: 2, count: 400)), ("dimg", 2, tiles)])
    XCTAssertEqual(HEIFItemGraph(nested).refusal(), "its grids would decode more than 140000 images")
    let largest = Self.file(primary: 1, references: [("dimg", 1, [UInt32](repeating: 2, count: 65_535))])
    XCTAssertNil(HEIFItemGraph(largest).refusal())
  }

  func testADerivedImageWhoseInputIsNoImageIsRefused() throws {
    // FuzzHEIF's third find: libheif 1.15 asserts (SIGABRT) when a derived image names an item it
    // holds no image for; here a grid's tile is an Exif item.
    let exifTile = Self.file(primary: 1, references: [("dimg", 1, [2, 3])], types: [3: "Exif"])
    XCTAssertEqual(HEIFItemGraph(exifTile).refusal(), "item 1 is derived from item 3, which is not an image")
    let finding = FuzzRegressionTests.regressions.appendingPathComponent(
      "heif/crash-4eb883eff7d353fa8a34f1c984d28a70a91deb55")
    XCTAssertNotNil(HEIFItemGraph(try Data(contentsOf: finding)).refusal())
  }

  func testAnAuxiliaryItemThatIsNoImageIsIgnoredAsLibheifIgnoresIt() {
    let file = Self.file(primary: 1, references: [("dimg", 1, [2]), ("auxl", 3, [1])], types: [3: "mime"])
    XCTAssertNil(HEIFItemGraph(file).refusal())
  }

  func testARealHEICPassesAndStillDecodes() throws {
    let data = try ImageEncoder.heic(TestImages.quadrants(width: 64, height: 48))
    let graph = data.withUnsafeBytes { HEIFItemGraph($0) }
    XCTAssertNotNil(graph.primaryItem)
    XCTAssertNil(graph.refusal())
    let bitmap = try data.withUnsafeBytes { try HEIFDecoder.decode($0, reduction: 1) }
    XCTAssertEqual(bitmap.width, 64)
  }

  func testAGridMayUseOneTileManyTimesAndCarryAnAlphaGrid() {
    // Grid 1 shows tile 2 four times; alpha grid 3 (auxl → 1) has tiles 4 and 5.
    let file = Self.file(
      primary: 1,
      references: [("dimg", 1, [2, 2, 2, 2]), ("auxl", 3, [1]), ("dimg", 3, [4, 5]), ("thmb", 6, [1])])
    XCTAssertNil(HEIFItemGraph(file).refusal())
  }

  func testACycleThroughAnAuxiliaryImageIsRefused() {
    // Decoding grid 1 decodes its alpha 3, whose tile is grid 1 again.
    let file = Self.file(primary: 1, references: [("dimg", 1, [2]), ("auxl", 3, [1]), ("dimg", 3, [1])])
    XCTAssertEqual(HEIFItemGraph(file).refusal(), "item 1 is derived from itself (a reference cycle)")
  }

  func testAChainOfDerivedImagesDeeperThanLibheifNeedsIsRefused() {
    let chain = (1...6).map { ("dimg", UInt32($0), [UInt32($0 + 1)]) }
    XCTAssertEqual(
      HEIFItemGraph(Self.file(primary: 1, references: chain)).refusal(),
      "its images are derived more than 4 levels deep")
    XCTAssertNil(HEIFItemGraph(Self.file(primary: 1, references: Array(chain.prefix(3)))).refusal())
  }

  func testThirtyTwoBitItemIDsAreRead() {
    let file = Self.file(primary: 70_000, references: [("dimg", 70_000, [70_000])], wideItemIDs: true)
    XCTAssertEqual(HEIFItemGraph(file).primaryItem, 70_000)
    XCTAssertNotNil(HEIFItemGraph(file).refusal())
  }

  func testTruncatedBoxesAreLeftToLibheif() {
    let file = Self.file(primary: 1, references: [("dimg", 1, [1])])
    for length in [0, 7, 30, file.count - 3] {
      let graph = HEIFItemGraph(Data(file.prefix(length)))
      XCTAssertNil(graph.refusal(), "\(length) bytes")
    }
  }

  func testAGridCanvasLargerThanTheImageIsRefusedBeforeLibheifAllocatesIt() throws {
    // FuzzHEIF's fourth find: a 1 × 1 grid whose `ispe` says 24 × 16 declares a 21 110 × 25 393
    // output in `idat`; libheif 1.15 allocated two 1.6 GB canvases for it.
    let finding = FuzzRegressionTests.regressions.appendingPathComponent("heif/heif-grid-output-size.heic")
    let data = try Data(contentsOf: finding)
    XCTAssertThrowsError(try data.withUnsafeBytes { try HEIFDecoder.decode($0, reduction: 1) }) { error in
      XCTAssertTrue("\(error)".contains("21110 × 25393 canvas"), "\(error)")
    }
  }

  func testGridAndOverlayCanvasesAreReadFromIdatAndFromTheFile() {
    for method in [0, 1] as [UInt8] {
      for wide in [false, true] {
        let file = Self.file(
          primary: 1, references: [("dimg", 1, [2, 3]), ("dimg", 3, [4])], types: [3: "iovl"],
          canvases: [1: (4032, 3024), 3: (2016, 3024)], constructionMethod: method, wideCanvas: wide)
        let graph = HEIFItemGraph(file)
        XCTAssertEqual(graph.canvases[1]?.width, 4032, "method \(method), wide \(wide)")
        XCTAssertEqual(graph.canvases[3]?.height, 3024, "method \(method), wide \(wide)")
        XCTAssertNil(graph.canvasRefusal(width: 4032, height: 3024))
        // Rotated by irot, libheif reports the image as 3024 × 4032; the canvas still fits.
        XCTAssertNil(graph.canvasRefusal(width: 3024, height: 4032))
        XCTAssertEqual(
          graph.canvasRefusal(width: 24, height: 16),
          "item 1 declares a 4032 × 3024 canvas in its data, larger than the 24 × 16 image")
      }
    }
  }

  func testATileGridLargerThanTheImageIsRefusedToo() {
    let file = Self.file(
      primary: 1, references: [("dimg", 1, [2]), ("dimg", 2, [3])],
      canvases: [1: (640, 480), 2: (60_000, 60_000)], constructionMethod: 1)
    XCTAssertEqual(
      HEIFItemGraph(file).canvasRefusal(width: 640, height: 480),
      "item 2 declares a 60000 × 60000 canvas in its data, larger than the 640 × 480 image")
  }

  // MARK: - Building boxes

  private static func file(
    primary: UInt32, references: [(String, UInt32, [UInt32])], types: [UInt32: String] = [:],
    wideItemIDs: Bool = false, canvases: [UInt32: (Int, Int)] = [:], constructionMethod: UInt8 = 1,
    wideCanvas: Bool = false
  ) -> Data {
    let version: UInt8 = wideItemIDs ? 1 : 0
    func item(_ id: UInt32) -> [UInt8] { wideItemIDs ? bigEndian(id, bytes: 4) : bigEndian(id, bytes: 2) }
    let pitm = box("pitm", [version, 0, 0, 0] + item(primary))
    // Items with inputs are grids, the rest coded tiles, unless `types` says otherwise.
    let derived = Set(references.filter { $0.0 == "dimg" }.map(\.1))
    let items = Set([primary] + references.flatMap { [$0.1] + $0.2 }).sorted()
    let infeBoxes = items.map { id -> [UInt8] in
      let header: [UInt8] = [wideItemIDs ? 3 : 2, 0, 0, 0] + bigEndian(id, bytes: wideItemIDs ? 4 : 2)
      let type = types[id] ?? (derived.contains(id) ? "grid" : "hvc1")
      // protection_index 0, the item type, an empty item name.
      return box("infe", header + [0, 0] + Array(type.utf8) + [0])
    }
    let iinf = box(
      "iinf", [0, 0, 0, 0] + bigEndian(UInt32(items.count), bytes: 2) + infeBoxes.flatMap { $0 })
    let iref = box(
      "iref",
      [version, 0, 0, 0]
        + references.flatMap { type, from, to in
          box(type, item(from) + bigEndian(UInt32(to.count), bytes: 2) + to.flatMap(item))
        })
    let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    // Each canvas as ImageGrid or ImageOverlay data, one after another; `iloc` version 1 with
    // 4-byte offsets and lengths and no base offset.
    var itemData: [UInt8] = []
    var locations: [(item: UInt32, offset: Int, length: Int)] = []
    for (id, size) in canvases.sorted(by: { $0.key < $1.key }) {
      let field = wideCanvas ? 4 : 2
      let sizeBytes = bigEndian(UInt32(size.0), bytes: field) + bigEndian(UInt32(size.1), bytes: field)
      let flags: UInt8 = wideCanvas ? 1 : 0
      let fillAndLayerOffsets = [UInt8](repeating: 0, count: 8 + 2 * field)
      let bytes: [UInt8] =
        types[id] == "iovl"
        ? [0, flags] + fillAndLayerOffsets.prefix(8) + sizeBytes + fillAndLayerOffsets.suffix(2 * field)
        : [0, flags, 0, 0] + sizeBytes
      locations.append((id, itemData.count, bytes.count))
      itemData += bytes
    }
    // Method 0 counts from the file's start, so there the data goes first, in a `free` box after
    // `ftyp`; method 1 counts from the start of `idat`.
    let start = constructionMethod == 0 ? ftyp.count + 8 : 0
    var entries: [UInt8] = []
    for location in locations {
      let header: [UInt8] = bigEndian(location.item, bytes: 2) + [0, constructionMethod, 0, 0, 0, 1]
      let offset = bigEndian(UInt32(start + location.offset), bytes: 4)
      entries += header + offset + bigEndian(UInt32(location.length), bytes: 4)
    }
    let iloc = box("iloc", [1, 0, 0, 0, 0x44, 0x00] + bigEndian(UInt32(locations.count), bytes: 2) + entries)
    let meta: [UInt8] = [0, 0, 0, 0] + pitm + iinf + iref + iloc
    if constructionMethod == 0 { return Data(ftyp + box("free", itemData) + box("meta", meta)) }
    return Data(ftyp + box("meta", meta + box("idat", itemData)))
  }

  private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    bigEndian(UInt32(8 + payload.count), bytes: 4) + Array(type.utf8) + payload
  }

  private static func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
    (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}

extension HEIFItemGraph {
  fileprivate init(_ data: Data) {
    self = data.withUnsafeBytes { HEIFItemGraph($0) }
  }
}
