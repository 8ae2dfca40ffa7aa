import Foundation
import SnapsortImaging
import SnapsortNative

/// Straightens the wavy lines of print of a crumpled or folded receipt.
///
/// A crumpled receipt, flattened by its outline, still bends its lines up and down by a quarter
/// of a line's spacing or more: tesseract then splits a row or joins its amount to the next one,
/// and the item loses its price. The page is cut into vertical strips; in windows a few lines
/// high, each strip's profile of ink per row is matched against the page's, the best-matching
/// offset is the strip's displacement there, and the page is resampled with the displacements
/// (interpolated between strips and windows) undone. A flat page's strips all match at no offset
/// and the page is returned as it was.
public struct ReceiptDewarp: Sendable, Equatable {
  /// Vertical strips the page is cut into.
  public var strips: Int
  /// The least correlation (Pearson's r) between a strip's profile and the page's for the strip's
  /// offset to count: a strip of blank paper or of a rule matches anywhere.
  public var minimumCorrelation: Double
  /// The page is left as it is when no offset reaches this share of the line spacing.
  public var minimumShare: Double

  public init(strips: Int, minimumCorrelation: Double, minimumShare: Double) {
    self.strips = strips
    self.minimumCorrelation = minimumCorrelation
    self.minimumShare = minimumShare
  }

  /// Offsets are searched up to this share of the line spacing: beyond half of it a strip
  /// matches the next line as well as its own.
  static let searchShare = 0.4

  /// The displacement of print, in rows of the analysed copy, at each window centre (rows) and
  /// strip centre (columns).
  struct Field: Equatable {
    var rows: [Double]
    var columns: [Double]
    /// `shifts[window][strip]`: where the strip's print is found, relative to the page's.
    var shifts: [[Double]]

    var largest: Double { shifts.joined().map(abs).max() ?? 0 }
  }

  /// `gray` with its lines straightened, for print `pitch` pixels apart; the page itself when
  /// its lines are straight (or too few to tell).
  public func straightened(_ gray: Bitmap, pitch: Int) -> Bitmap {
    precondition(gray.format == .gray)
    // Lines about 24 pixels apart are enough to find offsets of a few pixels, at a quarter of
    // the cost of the page's own scale.
    let factor = max(1, pitch / 24)
    let small = gray.boxReduced(by: factor)
    let smallPitch = max(6, pitch / factor)
    guard
      let field = field(ink: Self.inkProfiles(small, strips: strips, pitch: smallPitch), pitch: smallPitch),
      field.largest * Double(factor) >= minimumShare * Double(pitch)
    else { return gray }
    return Self.resampled(gray, field: field, scale: Double(factor))
  }

  /// Each strip's ink per row (`profiles[strip][row]`) of a grey page: pixels darker than 70 %
  /// of the paper's brightness around them, smoothed over three rows.
  static func inkProfiles(_ gray: Bitmap, strips: Int, pitch: Int) -> [[Double]] {
    let lit = ReceiptImaging.evenlyLit(gray, block: max(2, pitch / 2))
    let w = lit.width, h = lit.height
    var profiles = [[Double]](repeating: [Double](repeating: 0, count: h), count: strips)
    lit.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        for x in 0..<w where p[y * w + x] < 178 {
          profiles[min(strips - 1, x * strips / w)][y] += 1
        }
      }
    }
    return profiles.map { raw in
      raw.indices.map { y in
        (raw[max(0, y - 1)] + 2 * raw[y] + raw[min(h - 1, y + 1)]) / 4
      }
    }
  }

  /// The strips' offsets, found twice: against the page's profile, then against the profile
  /// of the strips moved by the first offsets (sharper where the lines bend); nil when the page
  /// is too short for a window.
  func field(ink profiles: [[Double]], pitch: Int) -> Field? {
    guard let height = profiles.first?.count, strips >= 2, height >= 4 * pitch else { return nil }
    let window = 3 * pitch
    let rows = Array(stride(from: window / 2, through: height - window / 2 - 1, by: pitch))
    guard !rows.isEmpty else { return nil }
    let width = Double(strips)
    var field = Field(
      rows: rows.map(Double.init), columns: (0..<strips).map { (Double($0) + 0.5) / width },
      shifts: [[Double]](repeating: [Double](repeating: 0, count: strips), count: rows.count))
    let reach = max(1, Int(Self.searchShare * Double(pitch)))
    for _ in 0..<2 {
      let reference = Self.reference(profiles, field: field)
      field.shifts = rows.map { centre in
        let span = (centre - window / 2)..<(centre + window / 2)
        let found = profiles.map { offset(of: $0, against: reference, span: span, reach: reach) }
        return Self.filled(found)
      }
      field.shifts = Self.medianAlongRows(field.shifts)
    }
    return field
  }

  /// Each offset the median of itself and the windows above and below it: a bend is smooth, and a
  /// strip that matched the wrong line in one window (a logo, a double-height line) is an outlier.
  static func medianAlongRows(_ shifts: [[Double]]) -> [[Double]] {
    shifts.indices.map { i in
      shifts[i].indices.map { s in
        let around = [shifts[max(0, i - 1)][s], shifts[i][s], shifts[min(shifts.count - 1, i + 1)][s]]
        return around.sorted()[1]
      }
    }
  }

  /// The offset within ±`reach` at which `profile` best matches `reference` over `span`, nil
  /// when no offset matches well enough.
  func offset(of profile: [Double], against reference: [Double], span: Range<Int>, reach: Int) -> Double? {
    let target = Array(reference[span])
    guard let base = Self.centred(target) else { return nil }
    var best: (r: Double, shift: Int)?
    for shift in -reach...reach {
      let lower = span.lowerBound + shift, upper = span.upperBound + shift
      guard lower >= 0, upper <= profile.count, let moved = Self.centred(Array(profile[lower..<upper]))
      else { continue }
      let r = zip(base, moved).map { $0 * $1 }.reduce(0, +)
      if r > (best?.r ?? -2) { best = (r, shift) }
    }
    guard let best, best.r >= minimumCorrelation else { return nil }
    return Double(best.shift)
  }

  /// Values less their mean, scaled to unit length; nil for a flat run (no print to match).
  static func centred(_ values: [Double]) -> [Double]? {
    let mean = values.reduce(0, +) / Double(values.count)
    let deviations = values.map { $0 - mean }
    let length = deviations.map { $0 * $0 }.reduce(0, +).squareRoot()
    guard length > 1e-6 else { return nil }
    return deviations.map { $0 / length }
  }

  /// The page's profile with each strip moved by its current offsets.
  static func reference(_ profiles: [[Double]], field: Field) -> [Double] {
    let height = profiles[0].count
    var sum = [Double](repeating: 0, count: height)
    for (strip, profile) in profiles.enumerated() {
      for y in 0..<height {
        let source = Double(y) + field.shift(atRow: Double(y), strip: strip)
        sum[y] += sample(profile, at: source)
      }
    }
    return sum
  }

  /// A window's offsets relative to their median (a whole window moved is no bend), the strips
  /// with none found filled in from their nearest neighbours that have one.
  static func filled(_ found: [Double?]) -> [Double] {
    let known = found.compactMap { $0 }.sorted()
    guard !known.isEmpty else { return [Double](repeating: 0, count: found.count) }
    let median = known[known.count / 2]
    let indices = found.indices.filter { found[$0] != nil }
    return found.indices.map { i in
      if let value = found[i] { return value - median }
      let left = indices.last { $0 < i }, right = indices.first { $0 > i }
      switch (left, right) {
      case (let l?, let r?):
        let t = Double(i - l) / Double(r - l)
        return (found[l]! * (1 - t) + found[r]! * t) - median
      case (let l?, nil): return found[l]! - median
      case (nil, let r?): return found[r]! - median
      default: return 0
      }
    }
  }

  /// A profile's value at a fractional row, linearly interpolated, the ends held.
  static func sample(_ values: [Double], at position: Double) -> Double {
    let clamped = max(0, min(Double(values.count - 1), position))
    let low = Int(clamped), high = min(values.count - 1, low + 1)
    let t = clamped - Double(low)
    return values[low] * (1 - t) + values[high] * t
  }

  /// The page resampled so each pixel is read from where its strip's offset moved it, the
  /// field being in a copy reduced by `scale`.
  static func resampled(_ gray: Bitmap, field: Field, scale: Double) -> Bitmap {
    let w = gray.width, h = gray.height
    let strips = field.columns.count
    var shifts = [Double](repeating: 0, count: strips)
    return Bitmap(width: w, height: h, format: .gray) { out in
      gray.pixels.withUnsafeBufferPointer { p in
        for y in 0..<h {
          for s in 0..<strips { shifts[s] = field.shift(atRow: Double(y) / scale, strip: s) * scale }
          for x in 0..<w {
            let source = Double(y) + field.shift(atColumn: (Double(x) + 0.5) / Double(w), in: shifts)
            let clamped = max(0, min(Double(h - 1), source))
            let low = Int(clamped), high = min(h - 1, low + 1)
            let t = clamped - Double(low)
            out[y * w + x] = UInt8(
              (Double(p[low * w + x]) * (1 - t) + Double(p[high * w + x]) * t).rounded())
          }
        }
      }
    }
  }
}

extension ReceiptDewarp.Field {
  /// A strip's offset at a row, linearly interpolated between window centres, the ends held.
  func shift(atRow row: Double, strip: Int) -> Double {
    guard let first = rows.first, let last = rows.last, rows.count > 1 else {
      return shifts.first?[strip] ?? 0
    }
    if row <= first { return shifts[0][strip] }
    if row >= last { return shifts[rows.count - 1][strip] }
    let step = rows[1] - rows[0]
    let i = min(rows.count - 2, Int((row - first) / step))
    let t = (row - rows[i]) / step
    return shifts[i][strip] * (1 - t) + shifts[i + 1][strip] * t
  }

  /// The offset at a column (a share of the width), interpolated between strip centres from one
  /// row's offsets per strip.
  func shift(atColumn share: Double, in rowShifts: [Double]) -> Double {
    let position = share * Double(columns.count) - 0.5
    if position <= 0 { return rowShifts[0] }
    if position >= Double(columns.count - 1) { return rowShifts[columns.count - 1] }
    let i = Int(position)
    let t = position - Double(i)
    return rowShifts[i] * (1 - t) + rowShifts[i + 1] * t
  }
}
