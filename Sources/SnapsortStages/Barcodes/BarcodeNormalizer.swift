import Foundation
import SnapsortImaging
import SnapsortNative

/// Turns a decoder's raw output into a record: text or base64 bytes, GTIN, check digit.
public enum BarcodeNormalizer {
  public static func record(symbology: Symbology, bytes: [UInt8]) -> BarcodeRecord {
    var symbology = symbology
    var bytes = bytes
    // An EAN-13 whose first digit is 0 is a UPC-A code (zbar reports UPC-A, and UPC-E too, in
    // that form): record the 12 digits printed under it, the GTIN keeps all 13.
    if symbology == .ean13, bytes.count == 13, bytes.first == UInt8(ascii: "0") {
      symbology = .upca
      bytes.removeFirst()
    }
    var record: BarcodeRecord
    if let text = String(bytes: bytes, encoding: .utf8) {
      record = BarcodeRecord(symbology: symbology.rawValue, value: text)
    } else {
      // Binary payloads keep their bytes; the value is a Latin-1 reading for display only.
      record = BarcodeRecord(
        symbology: symbology.rawValue, value: String(bytes.map { Character(Unicode.Scalar($0)) }))
      record.bytes = Data(bytes).base64EncodedString()
    }
    return completed(record, symbology: symbology)
  }

  /// A record from a decoder that converts character sets itself (zxing): `text` is the value,
  /// and the raw bytes are kept when the payload is binary or its text is not the bytes as UTF-8.
  public static func record(symbology: Symbology, text: String, bytes: [UInt8], binary: Bool) -> BarcodeRecord
  {
    var symbology = symbology
    var text = text
    if symbology == .ean13, text.count == 13, text.first == "0" {
      symbology = .upca
      text.removeFirst()
    }
    var record = BarcodeRecord(symbology: symbology.rawValue, value: text)
    if binary, !bytes.isEmpty, String(bytes: bytes, encoding: .utf8) != text {
      record.bytes = Data(bytes).base64EncodedString()
    }
    return completed(record, symbology: symbology)
  }

  private static func completed(_ record: BarcodeRecord, symbology: Symbology) -> BarcodeRecord {
    var record = record
    if symbology == .code39, record.bytes == nil {
      record.pharmacode = Code39Text.code32(record.value)
      if let value = Code39Text.interpreted(record.value) {
        record.raw = record.value
        record.value = value
      }
    }
    record.checksumOK = CheckDigits.retailChecksum(symbology: symbology, value: record.value)
    record.gtin = CheckDigits.gtin13(symbology: symbology, value: record.value)
    if symbology == .qr || symbology == .aztec || symbology == .datamatrix || symbology == .pdf417,
      let reason = DynamicCode.reason(record.value)
    {
      record.dynamic = true
      record.dynamicReason = reason
    }
    return record
  }

  /// The bounding quadrilateral of a decoder's location points, clockwise from top-left.
  ///
  /// zbar reports a polyline along the scan lines; a linear code gives many points, a QR four.
  public static func quad(of points: [Point]) -> [Point] {
    guard !points.isEmpty else { return [] }
    if points.count == 4 { return Quad.clockwise(points) }
    let xs = points.map(\.x), ys = points.map(\.y)
    let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
    return [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
  }
}
