// swift-tools-version: 6.1
// libFuzzer targets for the loaders, the config parser and the decoders of pixels (zbar, zxing-cpp,
// tesseract); built and run by `make fuzz`, never by `swift build` at the top level (their entry
// points need libFuzzer's driver to link).
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which is whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let harnesses = [
  "FuzzJPEG", "FuzzPNG", "FuzzWebP", "FuzzHEIF", "FuzzLoad", "FuzzConfig", "FuzzZBar", "FuzzZXing",
  "FuzzTesseract",
]

let package = Package(
  name: "SnapsortFuzz",
  platforms: [.macOS(.v14)],
  dependencies: [.package(path: root.path)],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [.product(name: "SnapsortCore", package: root.lastPathComponent)])
  ]
    + harnesses.map { .executableTarget(name: $0, dependencies: ["FuzzSupport"]) },
  swiftLanguageModes: [.v6]
)
