import XCTest

@testable import SnapsortCore
@testable import SnapsortNative
@testable import SnapsortStages

final class TraineddataWithoutWordListsTests: XCTestCase {
  /// The rebuilt file keeps every component but the word lists, in a header tesseract reads.
  func testLatinLosesItsWordListOnly() throws {
    let path = "\(TesseractEngine.tessdata)/Latin.traineddata"
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let trimmed = try XCTUnwrap(TraineddataWithoutWordLists(path: path))
    XCTAssertGreaterThan(trimmed.droppedBytes, 50_000_000, "Latin's LSTM word list is ~89 MB")
    XCTAssertEqual(trimmed.bytes.count + trimmed.droppedBytes, original.count)
    let count = Int(original.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
    XCTAssertEqual(trimmed.bytes.prefix(4), original.prefix(4))
    let offsets = { (data: Data) in
      (0..<count).map { index in
        data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 + index * 8, as: Int64.self) }
      }
    }
    let before = offsets(original), after = offsets(trimmed.bytes)
    for index in 0..<count {
      let dropped = TraineddataWithoutWordLists.wordListComponents.contains(index)
      XCTAssertEqual(after[index] >= 0, before[index] >= 0 && !dropped, "component \(index)")
    }
    // The network itself is the same bytes.
    let lstm = 17
    let size = Int(before[lstm + 1] - before[lstm])
    XCTAssertEqual(
      trimmed.bytes.subdata(in: Int(after[lstm])..<Int(after[lstm]) + size),
      original.subdata(in: Int(before[lstm])..<Int(before[lstm]) + size))
  }

  func testRefusesWhatIsNotATraineddataFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let notOne = directory.appendingPathComponent("x.traineddata")
    try Data("not a traineddata file at all".utf8).write(to: notOne)
    XCTAssertNil(TraineddataWithoutWordLists(path: notOne.path))
    XCTAssertNil(TraineddataWithoutWordLists(path: directory.appendingPathComponent("missing").path))
    // Offsets that go backwards or past the end.
    XCTAssertNil(TraineddataWithoutWordLists.componentRanges(offsets: [40, 28, -1], fileSize: 100))
    XCTAssertNil(TraineddataWithoutWordLists.componentRanges(offsets: [28, 200], fileSize: 100))
    XCTAssertEqual(
      TraineddataWithoutWordLists.componentRanges(offsets: [28, -1, 60], fileSize: 100)?.map(\.1),
      [28..<60, 60..<100])
  }

  /// The engine made from the rebuilt file reads, and reads a name the list does not hold.
  func testEngineWithoutWordListsReads() throws {
    let engine = try TesseractEngine(languages: "Latin", wordLists: false)
    XCTAssertFalse(engine.hasWordLists)
    let image = try ZXingReaderTests.gray("Tests/Fixtures/ocr/zabka.png")
    let text = engine.recognize(image, segmentation: .sparseText).text
    XCTAssertTrue(text.contains("Żabka"), text)
  }
}
