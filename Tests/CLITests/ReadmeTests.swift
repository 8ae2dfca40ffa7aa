import Foundation
import XCTest

/// The README's stage table is generated from the registry; this keeps the two in step.
final class ReadmeTests: XCTestCase {
  func testStageTableMatchesTheRegistry() throws {
    let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
    let begin = try XCTUnwrap(readme.range(of: "<!-- stages:begin -->\n"))
    let end = try XCTUnwrap(readme.range(of: "<!-- stages:end -->"))
    let table = String(readme[begin.upperBound..<end.lowerBound])
    let generated = try CLI.run(["list-stages", "--markdown"])
    XCTAssertEqual(generated.status, 0)
    XCTAssertEqual(table, generated.stdout, "README stage table is stale: run scripts/update-readme.sh")
  }

  func testReadmeStartsWithTheTwoCommands() throws {
    let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
    let firstBlock = readme.components(separatedBy: "```sh\n").dropFirst().first ?? ""
    XCTAssertTrue(firstBlock.hasPrefix("make run"), firstBlock)
    XCTAssertTrue(firstBlock.contains("make test"))
  }
}
