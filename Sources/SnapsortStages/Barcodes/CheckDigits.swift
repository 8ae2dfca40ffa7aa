/// Check digits and GTIN forms of retail and numeric codes.
public enum CheckDigits {
  /// The GS1 mod-10 check (EAN-8, EAN-13, UPC-A, GTIN-14, ITF-14): weights 3,1 from the right,
  /// check digit included.
  public static func gs1Valid(_ digits: String) -> Bool {
    let values = digits.compactMap { $0.wholeNumberValue }
    guard values.count == digits.count, values.count >= 2 else { return false }
    var sum = 0
    for (i, value) in values.reversed().enumerated() {
      sum += i % 2 == 0 ? value : value * 3
    }
    return sum % 10 == 0
  }

  /// UPC-E (8 digits: number system, 6 data, check) expanded to its 12-digit UPC-A form.
  public static func expandUPCE(_ upce: String) -> String? {
    let d = upce.compactMap { $0.wholeNumberValue }
    guard d.count == 8, d[0] == 0 || d[0] == 1 else { return nil }
    let (ns, x, check) = (d[0], Array(d[1...6]), d[7])
    let body: [Int]
    switch x[5] {
    case 0, 1, 2: body = [x[0], x[1], x[5], 0, 0, 0, 0, x[2], x[3], x[4]]
    case 3: body = [x[0], x[1], x[2], 0, 0, 0, 0, 0, x[3], x[4]]
    case 4: body = [x[0], x[1], x[2], x[3], 0, 0, 0, 0, 0, x[4]]
    default: body = [x[0], x[1], x[2], x[3], x[4], 0, 0, 0, 0, x[5]]
    }
    return ([ns] + body + [check]).map(String.init).joined()
  }

  /// The 13-digit GTIN for a retail code, or nil for other symbologies.
  public static func gtin13(symbology: Symbology, value: String) -> String? {
    switch symbology {
    case .ean13, .isbn13: return value.count == 13 ? value : nil
    case .upca: return value.count == 12 ? "0" + value : (value.count == 13 ? value : nil)
    case .upce:
      if value.count == 8, let upca = expandUPCE(value) { return "0" + upca }
      return value.count == 13 ? value : nil
    case .ean8: return value.count == 8 ? "00000" + value : nil
    default: return nil
    }
  }

  /// Whether a retail code's check digit holds (nil for symbologies without one).
  public static func retailChecksum(symbology: Symbology, value: String) -> Bool? {
    switch symbology {
    case .ean13, .ean8, .upca, .isbn13: return gs1Valid(value)
    case .upce:
      guard let upca = expandUPCE(value) else { return false }
      return gs1Valid(upca)
    case .i25:
      // ITF carries no mandatory check digit; ITF-14 (GTIN-14 cartons) does.
      return value.count == 14 ? gs1Valid(value) : nil
    default: return nil
    }
  }
}
