import CZBar

/// Owns one `zbar_image_scanner_t`. Not thread-safe: each worker creates its own and reuses it.
public final class ZBarScanner {
  /// A symbol as zbar reports it, before normalisation.
  public struct Symbol: Sendable, Equatable {
    public var type: Int32
    public var data: [UInt8]
    public var points: [Point]
    public var quality: Int
    /// zbar's `zbar_orientation_t`: 0 upright, 1 rotated right, 2 upside down, 3 rotated left,
    /// −1 unknown.
    public var orientation: Int
  }

  private let scanner: OpaquePointer

  /// - Parameter testInverted: also try light-on-dark codes when nothing is found.
  public init(testInverted: Bool = true, scanDensity: Int = 1) throws {
    guard let scanner = zbar_image_scanner_create() else {
      throw NativeLibraryError.handleNotCreated(library: "zbar")
    }
    self.scanner = scanner
    // zbar's own defaults (as zbarimg uses them) read more than enabling every symbology: with
    // UPC-E and UPC-A enabled separately, short UPC-E codes go unread (measured on upce-3: 1 of 11
    // against 8); by default they come back as their EAN-13 form. Code 93 and Codabar are off by
    // default and cost nothing to add.
    zbar_image_scanner_set_config(scanner, ZBAR_CODE93, ZBAR_CFG_ENABLE, 1)
    zbar_image_scanner_set_config(scanner, ZBAR_CODABAR, ZBAR_CFG_ENABLE, 1)
    // GS1 DataBar is no wallet format, and zbar's decoder for it prints assertion warnings on
    // stripes.
    zbar_image_scanner_set_config(scanner, ZBAR_DATABAR, ZBAR_CFG_ENABLE, 0)
    zbar_image_scanner_set_config(scanner, ZBAR_DATABAR_EXP, ZBAR_CFG_ENABLE, 0)
    // SQ Code is no wallet format either, and zbar 0.23's decoder for it leaks its border lists
    // on stripes it gives up on (found by `make fuzz`: Fuzz/regressions/zbar/leak-sqcode-borders; the
    // upstream fix, mchehab/zbar#294, is not in Debian's package).
    zbar_image_scanner_set_config(scanner, ZBAR_SQCODE, ZBAR_CFG_ENABLE, 0)
    // Keep raw bytes: zbar's charset guessing mangles binary QR payloads.
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, testInverted ? 1 : 0)
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(scanDensity))
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(scanDensity))
  }

  deinit {
    // zbar_image_scanner_create's counterpart, per zbar.h.
    zbar_image_scanner_destroy(scanner)
  }

  /// Scans a grey bitmap and returns every symbol zbar decodes in it.
  public func scan(_ gray: Bitmap) -> [Symbol] {
    precondition(gray.format == .gray, "zbar scans Y800 (8-bit grey) images")
    guard let image = zbar_image_create() else { return [] }
    // zbar_image_create's counterpart; the pixel buffer is ours (no cleanup handler).
    defer { zbar_image_destroy(image) }
    zbar_image_set_format(image, zbar_fourcc_parse("Y800"))
    zbar_image_set_size(image, UInt32(gray.width), UInt32(gray.height))
    return gray.pixels.withUnsafeBufferPointer { pixels -> [Symbol] in
      zbar_image_set_data(image, pixels.baseAddress, UInt(pixels.count), nil)
      defer { zbar_image_set_data(image, nil, 0, nil) }
      guard zbar_scan_image(scanner, image) > 0 else { return [] }
      var symbols: [Symbol] = []
      var symbol = zbar_image_first_symbol(image)
      while let current = symbol {
        let length = Int(zbar_symbol_get_data_length(current))
        var bytes: [UInt8] = []
        if let data = zbar_symbol_get_data(current) {
          bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
          }
        }
        var points: [Point] = []
        for i in 0..<zbar_symbol_get_loc_size(current) {
          points.append(
            Point(Double(zbar_symbol_get_loc_x(current, i)), Double(zbar_symbol_get_loc_y(current, i))))
        }
        symbols.append(
          Symbol(
            type: Int32(zbar_symbol_get_type(current).rawValue), data: bytes, points: points,
            quality: Int(zbar_symbol_get_quality(current)),
            orientation: Int(zbar_symbol_get_orientation(current).rawValue)))
        symbol = zbar_symbol_next(current)
      }
      return symbols
    }
  }
}
