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

  /// The contributor section's example stage is the real `classify` stage, word for word.
  func testAddingAStageShowsTheRealClassifyStage() throws {
    let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try XCTUnwrap(readme.components(separatedBy: "### Adding a stage").dropFirst().first)
    let example = try XCTUnwrap(section.components(separatedBy: "```swift\n").dropFirst().first)
      .components(separatedBy: "```\n").first
    let source = try String(
      contentsOf: CLI.root.appendingPathComponent("Sources/SnapsortStages/Stages/ClassifyStage.swift"),
      encoding: .utf8)
    let body = try XCTUnwrap(source.range(of: "public final class ClassifyStage")).lowerBound
    XCTAssertEqual(
      example, String(source[body...]), "README's stage example is stale: copy ClassifyStage.swift")
  }
}
