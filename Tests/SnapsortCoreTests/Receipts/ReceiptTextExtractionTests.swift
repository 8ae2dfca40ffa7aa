import Foundation
import XCTest

@testable import SnapsortCore
@testable import SnapsortStages
@testable import SnapsortTools

/// The receipt extraction on text files: which files a folder gives, and what each gives.
final class ReceiptTextExtractionTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "receipt-text-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    let files = [
      "b.lines.csv": "10,10,90,10,90,30,10,30,TOTAL\n200,10,260,10,260,30,200,30,9.00\n",
      "sub/a.txt": "SHOP\nTOTAL 4.50\n",
      "bad.csv": "10,10,90,10,90,30,10,30,SHOP\nTOTAL 9.00\n",
      ".hidden.csv": "", ".hidden/c.csv": "", "b.json": "{}", "b.jpg": "",
    ]
    for (name, text) in files {
      try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  func testAFolderGivesItsCsvAndTextFilesByPathBelowIt() throws {
    XCTAssertEqual(
      try ReceiptTextExtraction.inputs(at: [folder]).map(\.name), ["b.lines.csv", "bad.csv", "sub/a.txt"])
    let file = folder.appendingPathComponent("sub/a.txt")
    XCTAssertEqual(try ReceiptTextExtraction.inputs(at: [file]).map(\.name), ["a.txt"])
    XCTAssertThrowsError(try ReceiptTextExtraction.inputs(at: [folder.appendingPathComponent("nowhere")]))
  }

  func testEachFileGivesARecordShapedLine() throws {
    let extraction = ReceiptTextExtraction(catalog: nil)
    let inputs = try ReceiptTextExtraction.inputs(at: [folder])
    let outputs = inputs.map(extraction.output(for:))
    XCTAssertEqual(outputs.map(\.status), ["ok", "error", "ok"])
    XCTAssertEqual(outputs.map { $0.receipt?.total }, [Money(cents: 900), nil, Money(cents: 450)])
    XCTAssertEqual(
      outputs[1].error?.message,
      "bad.csv:2: expected x1,y1,x2,y2,x3,y3,x4,y4,text (eight numbers, then the text); found 1 field")

    let line = try ReceiptTextExtraction.jsonLine(outputs[0])
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    XCTAssertEqual(Set(object.keys), ["file", "kind", "receipt", "status"])
    XCTAssertEqual((object["receipt"] as? [String: Any])?["total"] as? String, "9.00")
    XCTAssertTrue(line.hasPrefix(#"{"file":"b.lines.csv","kind":"receipt","receipt":{"#), line)
    XCTAssertFalse(line.contains("\n"))
    XCTAssertEqual(
      try ReceiptTextExtraction.jsonLine(outputs[1]),
      #"{"error":{"message":"bad.csv:2: expected x1,y1,x2,y2,x3,y3,x4,y4,text (eight numbers, then the text); found 1 field"},"file":"bad.csv","kind":"receipt","status":"error"}"#
    )
  }
}
