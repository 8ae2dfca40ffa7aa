import Foundation
import SnapsortImaging
import SnapsortNative

/// Finds the receipt's paper on the analysis copy, warps it flat and upright from the
/// full-resolution image (a scan that is all paper passes through), deskews it, scales it so
/// printed lines are `line_pitch` pixels apart (rows at most `row_height` high), and binarises
/// it with Sauvola's threshold for faded thermal print, when that image is first read.
///
/// Needs `ImagePixels`; produces `ReceiptPage`.
public final class ReceiptWarpStage: Stage {
  public static let name = "receipt_warp"
  public static let summary =
    "Flatten the receipt: paper outline, perspective warp, deskew, scale to the text, Sauvola binarisation"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let produces: [any Artifact.Type] = [ReceiptPage.self]

  public struct Options: StageOptions, Equatable {
    /// Distance between printed lines after scaling (≈ 30 px high capitals at 70).
    public var linePitch: Int = 70
    /// The most a printed row (capitals' top to descenders' bottom, measured on the bands of rows
    /// with ink) may be high after scaling; 0 for no limit. 54 cut the German scans' CPU by a
    /// third but lost two of their 14 dates (issue #7), so it is off by default.
    public var rowHeight: Int = 0
    /// Sauvola's k: higher drops more faint marks (show-through of the back side), lower keeps
    /// more faint print.
    public var sauvolaK: Double = 0.3
    /// Divide the grey image by the paper's local brightness before it is read, so shadows and
    /// dark surroundings do not defeat tesseract's global threshold.
    public var evenLighting: Bool = true
    /// The flattened receipt is never made larger than this many pixels: tesseract's time grows
    /// with them. 10 MP reads a 300 dpi German scan (2.3× to 13 MP by the line pitch) about 2×
    /// up, a quarter faster and as well (issue #7).
    public var maxPixels: Int = 10_000_000
    /// Grow the paper's lit region over a shaded part of the paper (a crease or fold in a
    /// photographed receipt falls below the paper's brightness threshold) when the grown region
    /// is this many times the lit one or more and reaches no new edge of the image; 0 turns this
    /// off. 1.05: a grown border a few pixels wide does not move a page that was found whole.
    public var shadeGrowth: Double = 1.05
    /// The thresholds the paper is grown to, from the one splitting the darker pixels again up
    /// towards Otsu's (`ReceiptImaging.paper(in:growingIntoShade:shadeSteps:plausible:)`): a
    /// folded receipt on a surface nearly as bright keeps its shaded part only at a higher one.
    public var shadeSteps: Int = 4
    /// A dark region touching the flattened page's edge is painted in the paper's grey only when
    /// its median grey is below this share of the paper's (`ReceiptImaging.clearDarkBorders`): a
    /// scanner's lid or a desk, not the shaded part of a folded receipt with its print. Swept with
    /// `bench/receipts/warp_sweep.py` on training renders (bench/receipts/README.md).
    public var darkBorderShare: Double = 0.5
    /// The line pitch is measured on a probe of the print's own span when that probe is this
    /// many times finer than the whole page's (a receipt on a page much wider than itself); 0
    /// turns this off. Fitted by `bench/receipts/fit_print_probe.py` on training wide-margin
    /// scans (bench/receipts/README.md).
    public var printProbeGain: Double = 1.3
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard options.rowHeight == 0 || (12...160).contains(options.rowHeight) else {
      throw ConfigError(path: "row_height", "must be 0 (no limit) or between 12 and 160")
    }
    guard (20...200).contains(options.linePitch) else {
      throw ConfigError(path: "line_pitch", "must be between 20 and 200")
    }
    guard (0.05...0.8).contains(options.sauvolaK) else {
      throw ConfigError(path: "sauvola_k", "must be between 0.05 and 0.8")
    }
    guard options.maxPixels >= 100_000 else {
      throw ConfigError(path: "max_pixels", "must be at least 100000")
    }
    guard (0.05...1).contains(options.darkBorderShare) else {
      throw ConfigError(path: "dark_border_share", "must be between 0.05 and 1")
    }
    guard options.printProbeGain == 0 || (1...16).contains(options.printProbeGain) else {
      throw ConfigError(path: "print_probe_gain", "must be 0 (off) or between 1 and 16")
    }
    guard options.shadeGrowth == 0 || (1...4).contains(options.shadeGrowth) else {
      throw ConfigError(path: "shade_growth", "must be 0 (off) or between 1 and 4")
    }
    guard (1...16).contains(options.shadeSteps) else {
      throw ConfigError(path: "shade_steps", "must be between 1 and 16")
    }
  }

  private let options: Options

  public init(options: Options, context: StageContext) throws {
    self.options = options
  }

  public func process(_ item: PhotoItem) throws {
    let pixels = try item.pixels()
    let full = try pixels.full()
    var quad = Self.paperQuad(
      in: pixels.analysis, fullWidth: Double(full.width), fullHeight: Double(full.height),
      shadeGrowth: options.shadeGrowth > 0 ? options.shadeGrowth : nil, shadeSteps: options.shadeSteps)
    var naturalWidth = (Quad.distance(quad[0], quad[1]) + Quad.distance(quad[3], quad[2])) / 2
    var naturalHeight = (Quad.distance(quad[0], quad[3]) + Quad.distance(quad[1], quad[2])) / 2
    guard naturalWidth >= 16, naturalHeight >= 16 else {
      throw StageFailure("the receipt region is too small")
    }
    let gray = full.grayscale()
    var probe = try deskewedProbe(gray, quad: &quad, naturalWidth: naturalWidth, naturalHeight: naturalHeight)
    // A receipt photographed sideways is flattened a quarter turned, so that its print runs
    // across; whether it is then upside down is the receipt stage's to find (it reads both ways).
    var printBox = Self.printBox(probe.binary)
    var acrossMargin: Double? = Self.acrossMargin(probe.binary, printBox: printBox)
    if let margin = acrossMargin, margin <= -Self.turnMargin {
      quad = Array(quad[1...]) + [quad[0]]
      swap(&naturalWidth, &naturalHeight)
      probe = try deskewedProbe(gray, quad: &quad, naturalWidth: naturalWidth, naturalHeight: naturalHeight)
      printBox = Self.printBox(probe.binary)
      // The turned page's margin only restates this turn, which the receipt stage's reading
      // must stay free to undo (a sparse receipt on a large white scan was turned wrongly so).
      acrossMargin = nil
    }
    let print = Self.printProbe(
      gray, quad: quad, probe: (probe.binary, probe.scale), printBox: printBox, gain: options.printProbeGain,
      sauvolaK: options.sauvolaK)
    let scale = textScale(print.binary, probeScale: print.scale, naturalArea: naturalWidth * naturalHeight)
    let width = max(16, Int(naturalWidth * scale)), height = max(16, Int(naturalHeight * scale))
    guard var flat = Self.flatten(gray, quad: quad, width: width, height: height) else {
      throw StageFailure("the receipt outline is degenerate")
    }
    // A glyph against the edge is smaller than two lines' square; a scanner's lid is not.
    ReceiptImaging.clearDarkBorders(
      &flat, minimumArea: 2 * options.linePitch * options.linePitch, coreShare: options.darkBorderShare)
    let radius = max(8, Int(Double(options.linePitch) * 0.3))
    let k = options.sauvolaK
    let grey = ReceiptImaging.stretched(
      options.evenLighting ? ReceiptImaging.evenlyLit(flat, block: options.linePitch / 2) : flat)
    item.artifacts.write(
      ReceiptPage(grey: grey, quad: quad, skew: probe.angle, acrossMargin: acrossMargin) { [flat] in
        ReceiptImaging.sauvola(flat, radius: radius, k: k)
      })
  }

  /// The margin `acrossMargin` must pass, either way, to say which way the print runs. Swept
  /// from 0.05 to 0.25 on the 792 upright training pages of `acrossMargin` and 172 of them turned
  /// sideways: 0.15 turns 7 upright pages and leaves 16 sideways ones for the reading to find
  /// (0.10: 10 and 10; 0.20: 5 and 20), since a wrong turn costs more than a check by reading.
  static let turnMargin = 0.15

  /// Whether the lines of print run down the page rather than across (`acrossMargin` at
  /// `-turnMargin` or below).
  static func printRunsDown(_ binary: Bitmap) -> Bool {
    acrossMargin(binary) <= -turnMargin
  }

  /// The share of blank rows minus the share of blank columns within the print: blank space
  /// between lines of print leaves whole rows without ink, blank space between letters hardly
  /// any, so print that runs across gives a clearly positive margin and print that runs down a
  /// negative one.
  ///
  /// Only the print's own span counts: blank paper or scanner glass beside a narrow receipt
  /// would be counted as blank columns, and a scanner's edge line as ink in every row; either
  /// turned upright receipts a quarter (35 of 792 upright training pages against 7 so: SROIE
  /// folds 0-3 as scanned and on a wide page, rendered training receipts seed 41).
  static func acrossMargin(_ binary: Bitmap, printBox box: PrintBox? = nil) -> Double {
    func blankShare(_ ink: [Int], threshold: Int) -> Double {
      Double(ink.filter { $0 < threshold }.count) / Double(max(1, ink.count))
    }
    let box = box ?? printBox(binary)
    let span = binary.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
    let rows = ReceiptImaging.rowInk(span), columns = ReceiptImaging.columnInk(span)
    return blankShare(rows, threshold: max(1, span.width / 100))
      - blankShare(columns, threshold: max(1, span.height / 100))
  }

  /// A rectangle of a probe in its pixels.
  typealias PrintBox = (x: Int, y: Int, width: Int, height: Int)

  /// The rows and columns of `binary` from its first to its last with ink (1 % of the line),
  /// leaving out an edge band of `edgeShare` on each side, where scanners draw their lines; the
  /// inner part without the edge bands when no row or column has ink.
  static func printBox(_ binary: Bitmap, edgeShare: Double = 0.03) -> PrintBox {
    let dx = Int(Double(binary.width) * edgeShare), dy = Int(Double(binary.height) * edgeShare)
    let inner = binary.cropped(x: dx, y: dy, width: binary.width - 2 * dx, height: binary.height - 2 * dy)
    let rows = ReceiptImaging.rowInk(inner), columns = ReceiptImaging.columnInk(inner)
    let rowThreshold = max(1, inner.width / 100), columnThreshold = max(1, inner.height / 100)
    guard let top = rows.firstIndex(where: { $0 >= rowThreshold }),
      let bottom = rows.lastIndex(where: { $0 >= rowThreshold }),
      let left = columns.firstIndex(where: { $0 >= columnThreshold }),
      let right = columns.lastIndex(where: { $0 >= columnThreshold }), bottom > top, right > left
    else { return (dx, dy, inner.width, inner.height) }
    return (dx + left, dy + top, right - left + 1, bottom - top + 1)
  }

  /// The width of the probes the skew and the line pitch are measured on.
  static let probeWidth = 900.0

  /// A probe's ink, alike for the page's probe and the print's, so that the line pitch is
  /// measured on the same strokes either way.
  static func binarisedProbe(_ probe: Bitmap, k: Double) -> Bitmap {
    ReceiptImaging.sauvola(probe, radius: 12, k: k)
  }

  /// The probe flattened again over the print's own span only (`printBox`, measured on the probe
  /// when not given), at up to `probeWidth`
  /// pixels across it, when that makes it at least `gain` (`print_probe_gain`) times finer: a receipt on a
  /// page much wider than itself (a flatbed scan of the whole glass where no paper edge was found)
  /// is printed so small in the page's probe that its lines blur into one, and the blank page
  /// above and below it adds rows that move the pitch's peak; either gave a multiple of the true
  /// pitch, which scaled such pages down to a quarter.
  static func printProbe(
    _ gray: Bitmap, quad: [Point], probe: (binary: Bitmap, scale: Double), printBox box: PrintBox? = nil,
    gain: Double, sauvolaK: Double
  ) -> (binary: Bitmap, scale: Double) {
    let box = box ?? Self.printBox(probe.binary)
    let spanWidth = Double(box.width) / probe.scale, spanHeight = Double(box.height) / probe.scale
    let scale = min(1, Self.probeWidth / max(spanWidth, 1))
    let w = Double(probe.binary.width), h = Double(probe.binary.height)
    guard gain > 0, scale >= probe.scale * gain,
      let map = Homography(from: [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)], to: quad)
    else { return probe }
    let x0 = Double(box.x), y0 = Double(box.y)
    let x1 = Double(box.x + box.width), y1 = Double(box.y + box.height)
    // Whole pixels, so an upright page is cut by a plain resize (`flatten`).
    let span = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)].map {
      let p = map.apply($0)
      return Point(p.x.rounded(), p.y.rounded())
    }
    let width = max(16, Int(spanWidth * scale)), height = max(16, Int(spanHeight * scale))
    guard let flat = Self.flatten(gray, quad: span, width: width, height: height) else { return probe }
    return (binarisedProbe(flat, k: sauvolaK), scale)
  }

  /// The paper's outline in the full image's pixels, or the whole image when no plausible paper
  /// region is found (a scan that is all paper). With `shadeGrowth`, the paper's lit region is
  /// grown over its shaded part (`ReceiptImaging.paper(in:growingIntoShade:plausible:)`).
  static func paperQuad(
    in analysis: Bitmap, fullWidth: Double, fullHeight: Double, shadeGrowth: Double?, shadeSteps: Int = 4
  ) -> [Point] {
    let small = analysis.grayscale().fitting(maxSide: 600)
    let toFull = fullWidth / Double(small.width)
    let found =
      shadeGrowth.map {
        ReceiptImaging.paper(in: small, growingIntoShade: $0, shadeSteps: shadeSteps, plausible: isPlausible)
      }
      ?? ReceiptImaging.paper(in: small)
    if let paper = found, isPlausible(paper) {
      return paper.quad.map { Point($0.x * toFull, $0.y * toFull) }
    }
    return [Point(0, 0), Point(fullWidth, 0), Point(fullWidth, fullHeight), Point(0, fullHeight)]
  }

  /// Whether a bright region can be the receipt's paper on a darker surface: not a speck, not
  /// the whole image (a scan that is all paper), and four-sided.
  static func isPlausible(_ paper: ReceiptImaging.PaperRegion) -> Bool {
    paper.areaShare > 0.05 && paper.areaShare < 0.85 && paper.fill > 0.75
  }

  /// A reduced flat copy, binarised, to measure the skew and the line pitch on: straightened,
  /// with `quad` turned to match, when the print is skewed.
  ///
  /// - Returns: the copy, its scale to the natural size, and the skew found in degrees.
  private func deskewedProbe(
    _ gray: Bitmap, quad: inout [Point], naturalWidth: Double, naturalHeight: Double
  ) throws -> (binary: Bitmap, scale: Double, angle: Double) {
    let probeScale = min(1, Self.probeWidth / max(naturalWidth, 1))
    let probeWidth = max(16, Int(naturalWidth * probeScale)),
      probeHeight = max(16, Int(naturalHeight * probeScale))
    guard let probe = Self.flatten(gray, quad: quad, width: probeWidth, height: probeHeight) else {
      throw StageFailure("the receipt outline is degenerate")
    }
    var probeBinary = Self.binarisedProbe(probe, k: options.sauvolaK)
    let angle = ReceiptImaging.skew(probeBinary.fitting(maxSide: 600).thresholded())
    if abs(angle) >= 0.4 {
      quad = Self.rotate(quad: quad, width: probeWidth, height: probeHeight, degrees: angle)
      if let straight = Self.flatten(gray, quad: quad, width: probeWidth, height: probeHeight) {
        probeBinary = Self.binarisedProbe(straight, k: options.sauvolaK)
      }
    }
    return (probeBinary, probeScale, angle)
  }

  /// The scale from the natural size that brings printed lines `line_pitch` apart, within the
  /// row height and pixel limits.
  private func textScale(_ probeBinary: Bitmap, probeScale: Double, naturalArea: Double) -> Double {
    let rowInk = ReceiptImaging.rowInk(probeBinary)
    let rowHeight = ReceiptImaging.rowHeight(rowInk: rowInk, width: probeBinary.width).map {
      Double($0) / probeScale
    }
    let pitch = ReceiptImaging.linePitch(rowInk: rowInk).map { Double($0) / probeScale }
    // The pitch sets the scale; the row height caps it, because the pitch's autocorrelation
    // can peak at a fraction of the true spacing and blow the text up 2× (slower and read worse).
    // Rows measured small are not blown up: low-resolution scans read better as they are.
    var scale = pitch.map { Double(options.linePitch) / $0 } ?? 1
    if options.rowHeight > 0, let rowHeight { scale = min(scale, Double(options.rowHeight) / rowHeight) }
    scale = min(scale, (Double(options.maxPixels) / naturalArea).squareRoot())
    return max(0.25, min(3, scale))
  }

  /// The region under `quad` at the given size: a plain resize where the quad is an upright
  /// rectangle of whole pixels (a scan that is all paper, not deskewed: most receipts), which costs
  /// a fraction of the perspective warp on a large page.
  static func flatten(_ gray: Bitmap, quad: [Point], width: Int, height: Int) -> Bitmap? {
    let x0 = quad[0].x, y0 = quad[0].y, x1 = quad[2].x, y1 = quad[2].y
    let upright =
      quad[3].x == x0 && quad[1].y == y0 && quad[1].x == x1 && quad[3].y == y1
      && [x0, y0, x1, y1].allSatisfy { $0 == $0.rounded() }
    if upright, x0 >= 0, y0 >= 0, x1 <= Double(gray.width), y1 <= Double(gray.height), x1 - x0 >= 2,
      y1 - y0 >= 2
    {
      return gray.resized(
        x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0), to: width, height)
    }
    return gray.warped(quad: quad, width: width, height: height)
  }

  /// The quad of the region turned by `degrees` about its centre, found in the flat copy's
  /// coordinates and mapped back through its homography, so one warp both flattens and deskews.
  static func rotate(quad: [Point], width: Int, height: Int, degrees: Double) -> [Point] {
    let w = Double(width), h = Double(height)
    guard
      let map = Homography(from: [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)], to: quad)
    else { return quad }
    let t = degrees * .pi / 180
    let cx = w / 2, cy = h / 2
    return [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)].map { p in
      let dx = p.x - cx, dy = p.y - cy
      return map.apply(Point(cx + dx * cos(t) - dy * sin(t), cy + dx * sin(t) + dy * cos(t)))
    }
  }
}

extension Bitmap {
  /// Grey values at or above 128 become 255, the rest 0 (a resized binary image made binary again).
  func thresholded() -> Bitmap {
    var copy = self
    copy.pixels.withUnsafeMutableBufferPointer { p in
      for i in p.indices { p[i] = p[i] >= 128 ? 255 : 0 }
    }
    return copy
  }
}
