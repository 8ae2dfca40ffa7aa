// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Snapsort",
  platforms: [.macOS(.v14)],
  products: [
    .library(
      name: "SnapsortCore",
      targets: [
        "SnapsortNative", "SnapsortImaging", "SnapsortStages", "SnapsortCore", "SnapsortOutputs",
        "SnapsortTools",
      ]),
    .executable(name: "snapsort", targets: ["snapsort"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
    // `snapsort review`'s HTTP server: no dependencies of its own (swift-nio would add minutes
    // to a clean build on two cores).
    .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
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
    // The layers, each depending only on those above it in this list (DESIGN.md): the compiler
    // holds the direction. Native owns the C handles and the pixel buffer they fill; Imaging the
    // pixel operations; Stages the record contract, the typed artifacts and every stage with its
    // domain code; Core the pipeline (registry, config, runner, record assembly); Outputs what a run
    // writes and the store; Tools training, evaluation, regression checks and fuzz entry points.
    .target(
      name: "SnapsortNative",
      dependencies: [
        "CJPEG", "CPNG", "CWebP", "CHeif", "CZBar", "CZXing", "CTesseract",
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .target(name: "SnapsortImaging", dependencies: ["SnapsortNative"]),
    .target(
      name: "SnapsortStages", dependencies: ["SnapsortImaging", "SnapsortNative"],
      resources: [.copy("Resources")]),
    .target(name: "SnapsortCore", dependencies: ["SnapsortStages", "SnapsortImaging", "SnapsortNative"]),
    .target(
      name: "SnapsortOutputs",
      dependencies: [
        "SnapsortCore", "SnapsortStages", "SnapsortImaging", "SnapsortNative",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]),
    .target(
      name: "SnapsortTools",
      dependencies: [
        "SnapsortOutputs", "SnapsortCore", "SnapsortStages", "SnapsortImaging", "SnapsortNative",
      ]),
    // `snapsort review`: the local page to check and correct a run, and the routes behind it.
    .target(
      name: "SnapsortReview",
      dependencies: [
        "SnapsortOutputs", "SnapsortCore", "SnapsortStages", "SnapsortImaging", "SnapsortNative",
        .product(name: "FlyingFox", package: "FlyingFox"),
      ]),
    .executableTarget(
      name: "snapsort",
      dependencies: [
        "SnapsortReview", "SnapsortTools", "SnapsortOutputs", "SnapsortCore", "SnapsortStages",
        "SnapsortImaging",
        "SnapsortNative",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The test bundle's sanitizer defaults (see the file for why).
    .target(name: "TestSanitizerOptions", path: "Tests/TestSanitizerOptions"),
    .testTarget(
      name: "SnapsortCoreTests",
      dependencies: [
        "SnapsortReview", "SnapsortTools", "SnapsortOutputs", "SnapsortCore", "SnapsortStages",
        "SnapsortImaging",
        "SnapsortNative", "TestSanitizerOptions",
      ]),
    .testTarget(
      name: "GoldenTests",
      dependencies: [
        "SnapsortTools", "SnapsortOutputs", "SnapsortCore", "SnapsortStages", "SnapsortImaging",
        "SnapsortNative",
      ]),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "SnapsortTools", "SnapsortOutputs", "SnapsortCore", "SnapsortStages", "SnapsortImaging",
        "SnapsortNative", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      exclude: ["Snapshots"]),
  ],
  swiftLanguageModes: [.v6]
)
