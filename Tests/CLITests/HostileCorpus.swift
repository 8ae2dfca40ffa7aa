import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

/// Builds the hostile corpus: every kind of broken, extreme or awkward input a real folder can
/// hold. Each file must give exactly one record and nothing may crash.
enum HostileCorpus {
  /// Writes the corpus under `root` and returns the number of image inputs it holds.
  static func write(to root: URL) throws -> Int {
    let fm = FileManager.default
    try fm.createDirectory(at: root, withIntermediateDirectories: true)
    var count = 0
    func put(_ name: String, _ data: Data) throws {
      let url = root.appendingPathComponent(name)
      try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
      count += 1
    }
    let photo = Bitmap(width: 320, height: 200, format: .rgb) { out in
      for i in 0..<out.count { out[i] = UInt8((i * 7 + i / 960) % 256) }
    }
    let jpeg = try ImageEncoder.jpeg(photo)
    let png = try ImageEncoder.png(photo)
    let webp = try ImageEncoder.webp(photo)

    // Truncated and corrupted files of each format.
    try put("truncated/half.jpg", jpeg.prefix(jpeg.count / 2))
    try put("truncated/header-only.jpg", jpeg.prefix(200))
    try put("truncated/half.png", png.prefix(png.count / 2))
    try put("truncated/half.webp", webp.prefix(webp.count / 2))
    try put("truncated/signature-only.png", png.prefix(8))
    try put("corrupt/flipped.jpg", flip(jpeg, every: 97))
    try put("corrupt/flipped.png", flip(png, every: 51))
    try put("corrupt/flipped.webp", flip(webp, every: 41))
    try put("corrupt/random.jpg", Data([0xFF, 0xD8, 0xFF] + (0..<4000).map { UInt8(($0 * 7919) % 251) }))
    // Wrong magic, empty files.
    try put("magic/text.jpg", Data("Just some notes, not a photo.\n".utf8))
    try put("magic/png-named.webp", png)
    try put("magic/zip.png", Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 60)))
    try put("empty/zero.jpg", Data())
    try put("empty/zero.png", Data())
    try put("empty/zero.heic", Data())
    // Decompression bombs: small files that declare enormous sizes.
    try put("bombs/huge.png", pngBomb(width: 100_000, height: 100_000))
    try put("bombs/huge.jpg", jpegDeclaring(jpeg, width: 65_000, height: 65_000))
    try put("bombs/huge.webp", webpLosslessDeclaring(width: 16_384, height: 16_384))
    // Legitimate but unusual encodings.
    try put("formats/16-bit.png", try ImageEncoder.png(photo, sixteenBit: true))
    try put("formats/grey.png", try ImageEncoder.png(photo.grayscale()))
    try put("formats/palette.png", palettePNG(width: 64, height: 48))
    try put(
      "formats/cmyk.jpg",
      try ImageEncoder.cmykJPEG(
        width: 64, height: 48, cmyk: (0..<(64 * 48 * 4)).map { UInt8(($0 * 13) % 256) }))
    try put("formats/grey.jpg", try ImageEncoder.jpeg(photo.grayscale()))
    try put("formats/one-pixel.png", try ImageEncoder.png(Bitmap(width: 1, height: 1, format: .rgb)))
    // EXIF with bogus offsets and out-of-range orientations.
    try put("exif/orientation-0.jpg", exifJPEG(jpeg, orientation: 0, ifdOffset: 8))
    try put("exif/orientation-9.jpg", exifJPEG(jpeg, orientation: 9, ifdOffset: 8))
    try put("exif/bad-offset.jpg", exifJPEG(jpeg, orientation: 6, ifdOffset: 0x7FFF_FFF0))
    try put(
      "exif/short-segment.jpg",
      Data(jpeg.prefix(2)) + Data([0xFF, 0xE1, 0x00, 0x08] + Array("Exif".utf8) + [0, 0]) + jpeg.dropFirst(2))
    // Awkward names and deep folders.
    let deep = (0..<40).map { "d\($0)" }.joined(separator: "/")
    try put("\(deep)/deep.png", png)
    try put("names/with space.jpg", jpeg)
    try put("names/ünïcödé-カード.png", png)
    try put("names/new\nline.jpg", jpeg)
    // Folders named like images are walked like any folder.
    try put("folder.jpg/inside.jpg", jpeg)
    try put("folder.jpg/y.png/deep.png", png)
    // A scan that breaks off into garbage and ends properly: ok, with libjpeg's warning.
    try put("damaged/garbage-midway.jpg", damagedJPEG(jpeg))
    // Sidecars that must be skipped.
    try Data("sidecar".utf8).write(to: root.appendingPathComponent("names/with space.txt"))
    try Data("{}".utf8).write(to: root.appendingPathComponent("names/meta.json"))
    return count
  }

  /// `jpeg` cut at 60 %, garbage without a marker byte, and the end-of-image marker.
  static func damagedJPEG(_ jpeg: Data) -> Data {
    let garbage: [UInt8] = (0..<2000).map { UInt8(($0 * 37 + 11) % 255) }
    var damaged = Data(jpeg.prefix(jpeg.count * 6 / 10))
    damaged.append(contentsOf: garbage)
    damaged.append(contentsOf: [0xFF, 0xD9])
    return damaged
  }

  static func flip(_ data: Data, every stride: Int) -> Data {
    var bytes = [UInt8](data)
    // Keep the signature so the decoder, not the sniffer, meets the damage.
    for i in Swift.stride(from: 16, to: bytes.count, by: stride) { bytes[i] ^= 0x5A }
    return Data(bytes)
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + payload
    return be32(UInt32(payload.count)) + body + be32(crc32(body))
  }

  /// zlib with stored (uncompressed) deflate blocks: enough to hand-build small PNGs.
  static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let length = min(65_535, raw.count - offset)
      let final: UInt8 = offset + length >= raw.count ? 1 : 0
      out += [
        final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
      ]
      out += raw[offset..<(offset + length)]
      offset += length
    } while offset < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + be32(b << 16 | a)
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  static func palettePNG(width: Int, height: Int) -> Data {
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 3, 0, 0, 0]
    let palette: [UInt8] = [255, 0, 0, 0, 128, 0, 0, 0, 255, 250, 250, 250]
    var raw: [UInt8] = []
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width { raw.append(UInt8((x / 16 + y / 12) % 4)) }
    }
    return Data(
      pngSignature + chunk("IHDR", header) + chunk("PLTE", palette) + chunk("IDAT", zlibStored(raw))
        + chunk("IEND", []))
  }

  static func pngBomb(width: Int, height: Int) -> Data {
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 0, 0, 0, 0]
    return Data(
      pngSignature + chunk("IHDR", header) + chunk("IDAT", zlibStored([0, 0, 0, 0])) + chunk("IEND", []))
  }

  /// Rewrites the size in a JPEG's SOF0 marker.
  static func jpegDeclaring(_ jpeg: Data, width: Int, height: Int) -> Data {
    var bytes = [UInt8](jpeg)
    var i = 2
    while i + 9 < bytes.count {
      if bytes[i] == 0xFF, bytes[i + 1] == 0xC0 {
        bytes[i + 5] = UInt8(height >> 8)
        bytes[i + 6] = UInt8(height & 0xFF)
        bytes[i + 7] = UInt8(width >> 8)
        bytes[i + 8] = UInt8(width & 0xFF)
        break
      }
      i += 1
    }
    return Data(bytes)
  }

  /// A VP8L (lossless WebP) header declaring the given size, with no real image data.
  static func webpLosslessDeclaring(width: Int, height: Int) -> Data {
    let bits = UInt32(width - 1) | UInt32(height - 1) << 14
    let vp8l: [UInt8] =
      [
        0x2F, UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8((bits >> 16) & 0xFF),
        UInt8((bits >> 24) & 0xFF),
      ] + [UInt8](repeating: 0, count: 32)
    func le32(_ v: Int) -> [UInt8] {
      [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)]
    }
    let chunkData = Array("VP8L".utf8) + le32(vp8l.count) + vp8l
    return Data(Array("RIFF".utf8) + le32(4 + chunkData.count) + Array("WEBP".utf8) + chunkData)
  }

  /// A JPEG with an APP1 Exif block whose IFD offset and orientation value are as given.
  static func exifJPEG(_ jpeg: Data, orientation: UInt16, ifdOffset: UInt32) -> Data {
    var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(ifdOffset)
    tiff += [
      0, 1, 0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0, 0,
      0, 0, 0,
    ]
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return Data(jpeg.prefix(2)) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
      + jpeg.dropFirst(2)
  }
}
