import Foundation

/// CIELAB conversion and distance for brand colours (sRGB, D65 white).
public enum CIELAB {
  public struct Lab: Sendable, Equatable {
    public var l: Double
    public var a: Double
    public var b: Double
    public init(l: Double, a: Double, b: Double) {
      self.l = l
      self.a = a
      self.b = b
    }
    /// Distance from the grey axis: brand colours under ~15 are neutral (white, black, grey).
    public var chroma: Double { (a * a + b * b).squareRoot() }
  }

  /// Parses `#rrggbb` (or `rrggbb`) into CIELAB; nil when it is not a colour.
  public static func lab(hex: String) -> Lab? {
    var text = Substring(hex)
    if text.hasPrefix("#") { text = text.dropFirst() }
    guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
    return lab(
      r: Double((value >> 16) & 0xff) / 255, g: Double((value >> 8) & 0xff) / 255,
      b: Double(value & 0xff) / 255)
  }

  /// sRGB components in 0…1 to CIELAB.
  public static func lab(r: Double, g: Double, b: Double) -> Lab {
    lab(linearR: linear(r), linearG: linear(g), linearB: linear(b))
  }

  /// An sRGB component in 0…1 as linear light, in which a light's colour multiplies each channel.
  public static func linear(_ c: Double) -> Double {
    c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// Linear-light sRGB components in 0…1 to CIELAB.
  public static func lab(linearR lr: Double, linearG lg: Double, linearB lb: Double) -> Lab {
    let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
    let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
    let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
    let (fx, fy, fz) = (f(x), f(y), f(z))
    return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }

  /// CIELAB back to `#rrggbb` (clamped to the sRGB gamut).
  public static func hex(_ lab: Lab) -> String {
    let c = srgb(lab)
    func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
    return String(format: "#%02x%02x%02x", byte(c.x), byte(c.y), byte(c.z))
  }

  /// CIELAB back to gamma-encoded sRGB components, 1 at full scale (not clamped to the gamut).
  public static func srgb(_ lab: Lab) -> SIMD3<Double> {
    let fy = (lab.l + 16) / 116
    let fx = fy + lab.a / 500
    let fz = fy - lab.b / 200
    func finv(_ t: Double) -> Double {
      t * t * t > 216.0 / 24389.0 ? t * t * t : (116 * t - 16) * 27.0 / 24389.0
    }
    let x = finv(fx) * 0.95047
    let y = finv(fy)
    let z = finv(fz) * 1.08883
    let lr = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z
    let lg = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z
    let lb = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z
    func gamma(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(max(c, 0), 1 / 2.4) - 0.055 }
    return SIMD3(gamma(lr), gamma(lg), gamma(lb))
  }

  /// CIE76 ΔE: Euclidean distance in CIELAB.
  public static func distance(_ p: Lab, _ q: Lab) -> Double {
    let dl = p.l - q.l
    let da = p.a - q.a
    let db = p.b - q.b
    return (dl * dl + da * da + db * db).squareRoot()
  }
}
