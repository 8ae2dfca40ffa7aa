// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Snapsort",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "SnapsortCore", targets: ["SnapsortCore"]),
    .executable(name: "snapsort", targets: ["snapsort"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
  ],
  targets: [
    // libjpeg reports errors by longjmp; this C target keeps jpeglib.h and setjmp out of Swift.
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
    .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
    // zxing-cpp 1.4 (Debian) has only a C++ API: this target gives Swift a C one and keeps the
    // library's exceptions and assertion failures from crossing into the caller.
    .target(
      name: "CZXing", cxxSettings: [.define("ZX_USE_UTF8")], linkerSettings: [.linkedLibrary("ZXing")]),
    .systemLibrary(
      name: "CTesseract", pkgConfig: "tesseract",
      providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
    .target(
      name: "SnapsortCore",
      dependencies: [
        "CJPEG", "CPNG", "CWebP", "CHeif", "CZBar", "CZXing", "CTesseract",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      resources: [.copy("Resources")]
    ),
    .executableTarget(
      name: "snapsort",
      dependencies: [
        "SnapsortCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The test bundle's sanitizer defaults (see the file for why).
    .target(name: "TestSanitizerOptions", path: "Tests/TestSanitizerOptions"),
    .testTarget(name: "SnapsortCoreTests", dependencies: ["SnapsortCore", "TestSanitizerOptions"]),
    .testTarget(name: "GoldenTests", dependencies: ["SnapsortCore"]),
    .testTarget(
      name: "CLITests",
      dependencies: ["SnapsortCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
      exclude: ["Snapshots"]),
  ],
  swiftLanguageModes: [.v6]
)
