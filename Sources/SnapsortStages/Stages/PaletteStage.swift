import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`, uses `CardCrop`; produces `CardPalette`.
///
/// The card's dominant colours: k-means in CIELAB on a reduced crop (the whole image when no card
/// was cut out; border and specular highlights left out; the light's colour cast taken off by the
/// card's own white), near-identical clusters merged: the colours by share, the backgrounds (the
/// largest area of one colour; the most vibrant colour) and the header colour.
public final class PaletteStage: Stage {
  public static let name = "palette"
  public static let summary =
    "Dominant colours by k-means++ in CIELAB (fixed seed), shares, backgrounds, header colour"
  public static let needs: [any Artifact.Type] = [ImagePixels.self]
  public static let uses: [any Artifact.Type] = [CardCrop.self]
  public static let produces: [any Artifact.Type] = [CardPalette.self]

  public struct Options: StageOptions, Equatable {
    public var colors: Int = 4
    /// Clusters closer than this (CIELAB ΔE) are one colour.
    public var mergeDistance: Double = 10
    /// Smaller clusters are blends along edges and anti-aliasing, not colours of the card: they
    /// join their nearest colour. Not higher: a brand's stripe broken by a code panel covers
    /// 2–3 % of the sampled area (0.03 lost it on 7 of 100 rendered photos).
    public var minimumShare: Double = 0.02
    /// Size of the grid of points the colours are counted on.
    public var sampleWidth: Int = 128
    public var sampleHeight: Int = 80
    /// Near-white samples are glare (light, not the card's colour) only while they are fewer than
    /// this share of the card; more are a white area of the card itself, such as the white half
    /// of a card in a screenshot, where nothing is blown out. Fitted on generated train renders
    /// (200 screenshots, seed 7101; 100 photos, seed 7404): ΔE00 < 10 on 168 → 173 screenshots
    /// and 80 → 81 photos, 0.05–0.2 giving 172 and 81.
    public var glareShareLimit: Double = 0.35
    /// Neighbouring samples closer than this (CIELAB ΔE) belong to one area, and the first
    /// background is the median colour of the largest area. A gradient or an unevenly lit
    /// background is then one area, where k-means cuts it into two or three colours, none of them
    /// the card's. Fitted by `bench/cards/fit_palette_area.py` on train renders (150 photos seed
    /// 31, 250 screenshots seed 32): ΔE00 < 10 on 341 → 355 of 397 (9: 348, 18: 354, 24: 350).
    /// 0: the largest k-means colour, as before.
    public var areaStep: Double = 15
    /// Take the light's colour cast off a photographed card's colours, as measured on the card's
    /// own white (`CardWhiteBalance`). A card square to the image (a screenshot's, a scan's) and
    /// the whole image when no card was cut out are left as they are.
    public var whiteBalance: Bool = true
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (1...12).contains(options.colors) else { throw ConfigError(path: "colors", "must be 1…12") }
    guard (0...100).contains(options.areaStep) else { throw ConfigError(path: "area_step", "must be 0…100") }
  }

  private let options: Options

  public init(options: Options, context: StageContext) throws {
    self.options = options
  }

  public func process(_ item: PhotoItem) throws {
    let crop = item.artifacts[CardCrop.self]
    let source = try crop?.image ?? item.pixels().analysis
    // A card square to the image's axes is a screen's drawing (or a scan): no lamp tinted it, and
    // a pale pastel of its own would be taken for a tinted white.
    let lit = crop.map { !Self.isSquareToFrame($0.quad) } ?? false
    let grid = Self.labGrid(of: source.rgb(), options: options, balance: options.whiteBalance && lit)
    let palette = Self.palette(of: grid, options: options)
    var result = CardPalette(
      colors: palette.map { ColorShare(hex: CIELAB.hex($0.lab), share: Rounding.thousandths($0.share)) },
      backgrounds: nil, headerColor: nil)
    if let largest = palette.first {
      let vibrant = palette.filter { $0.share >= 0.1 }.max { $0.lab.chroma < $1.lab.chroma } ?? largest
      let area = options.areaStep > 0 ? grid.largestAreaColour(step: options.areaStep) : nil
      result.backgrounds = [CIELAB.hex(area ?? largest.lab), CIELAB.hex(vibrant.lab)]
      // Catima's header colour: the brand colour, i.e. the most vibrant one of real size.
      let header = palette.filter { $0.share >= 0.15 && $0.lab.chroma > 15 }.first ?? largest
      result.headerColor = CIELAB.hex(header.lab)
    }
    item.artifacts.write(result)
  }

  static func palette(of image: Bitmap, options: Options) -> [(lab: CIELAB.Lab, share: Double)] {
    palette(of: labGrid(of: image, options: options, balance: false), options: options)
  }

  /// Every side within this many degrees of the image's axes: 488 of the 496 quads of train
  /// screenshots (seeds 8311, 8522; 483 of them within 0.05°), 4 of the 589 of train photos
  /// (seeds 8102, 8312, 8521).
  static let squareTolerance = 0.2

  static func isSquareToFrame(_ quad: [Point]) -> Bool {
    Quad.isSquareToAxes(quad, withinDegrees: squareTolerance)
  }

  static func palette(of grid: SampleGrid, options: Options) -> [(lab: CIELAB.Lab, share: Double)] {
    let points = grid.points(glareShareLimit: options.glareShareLimit)
    let total = Double(points.count / 3)
    guard total > 0 else { return [] }
    let clusters = KMeans(k: options.colors).fit(points, dimensions: 3).map {
      (lab: CIELAB.Lab(l: $0.center[0], a: $0.center[1], b: $0.center[2]), count: Double($0.count))
    }
    let merged = merge(clusters, within: options.mergeDistance)
    let kept = merged.filter { $0.count / total >= options.minimumShare }
    guard !kept.isEmpty else { return [(merged[0].lab, 1)] }
    var counts = kept.map(\.count)
    for small in merged where small.count / total < options.minimumShare {
      let nearest = kept.indices.min {
        CIELAB.distance(kept[$0].lab, small.lab) < CIELAB.distance(kept[$1].lab, small.lab)
      }!
      counts[nearest] += small.count
    }
    return zip(kept, counts).map { ($0.lab, $1 / total) }.sorted { $0.1 > $1.1 }
  }

  /// Lab colours of a grid of point samples inside a border, white-balanced by the card's own
  /// white when `balance` says so, and which of them are glare.
  static func labGrid(of image: Bitmap, options: Options, balance: Bool) -> SampleGrid {
    // One pixel from the middle of each cell, not the cell's mean: a mean turns barcode bars
    // into grey and a thin band into a blend with its neighbours, colours the card does not
    // have, while point samples keep every colour at its share of the area.
    let sw = min(options.sampleWidth, image.width), sh = min(options.sampleHeight, image.height)
    let border = max(2, sw / 24)
    var grid = SampleGrid(width: max(0, sw - 2 * border), height: max(0, sh - 2 * border))
    grid.colours.reserveCapacity(grid.width * grid.height)
    var linear: [SIMD3<Double>] = []
    linear.reserveCapacity(grid.width * grid.height)
    for y in border..<max(border, sh - border) {
      let sy = (2 * y + 1) * image.height / (2 * sh)
      for x in border..<max(border, sw - border) {
        let sx = (2 * x + 1) * image.width / (2 * sw)
        let i = (sy * image.width + sx) * 3
        let r = Double(image.pixels[i]) / 255, g = Double(image.pixels[i + 1]) / 255,
          b = Double(image.pixels[i + 2]) / 255
        let light = SIMD3(CIELAB.linear(r), CIELAB.linear(g), CIELAB.linear(b))
        let lab = CIELAB.lab(linearR: light.x, linearG: light.y, linearB: light.z)
        linear.append(light)
        grid.colours.append(lab)
        // Specular highlights (glare) are near-white and are light, not the card's colour.
        grid.glare.append(lab.l > 97 && lab.chroma < 4 && min(r, g, b) > 0.985)
      }
    }
    if balance, let balance = CardWhiteBalance.estimate(linear: linear, lab: grid.colours) {
      grid.colours = linear.map {
        let balanced = balance.apply($0)
        return CIELAB.lab(linearR: balanced.x, linearG: balanced.y, linearB: balanced.z)
      }
    }
    return grid
  }

  /// Near-identical clusters merged, largest first, weighting centres by their counts; the
  /// result is sorted largest first.
  static func merge(
    _ clusters: [(lab: CIELAB.Lab, count: Double)], within distance: Double
  ) -> [(lab: CIELAB.Lab, count: Double)] {
    var merged: [(lab: CIELAB.Lab, count: Double)] = []
    for cluster in clusters.sorted(by: { $0.count > $1.count }) {
      if let index = merged.firstIndex(where: { CIELAB.distance($0.lab, cluster.lab) < distance }) {
        let a = merged[index], n = a.count + cluster.count
        merged[index] = (
          CIELAB.Lab(
            l: (a.lab.l * a.count + cluster.lab.l * cluster.count) / n,
            a: (a.lab.a * a.count + cluster.lab.a * cluster.count) / n,
            b: (a.lab.b * a.count + cluster.lab.b * cluster.count) / n), n
        )
      } else {
        merged.append(cluster)
      }
    }
    merged.sort { $0.count > $1.count }
    return merged
  }
}

/// The palette's samples: CIELAB colours on a grid, row by row, and which are glare.
struct SampleGrid {
  var width: Int
  var height: Int
  var colours: [CIELAB.Lab] = []
  var glare: [Bool] = []

  /// The colours k-means clusters, packed three to a sample: glare left out while it is less than
  /// `glareShareLimit` of the samples (more is a white area of the card, not light).
  func points(glareShareLimit: Double) -> [Double] {
    let glareCount = glare.filter { $0 }.count
    let keepsGlare = Double(glareCount) / Double(max(1, colours.count)) >= glareShareLimit
    var points: [Double] = []
    points.reserveCapacity(colours.count * 3)
    // Glare after the rest, as the samples were always ordered for k-means' seeding.
    for (lab, isGlare) in zip(colours, glare) where !isGlare { points += [lab.l, lab.a, lab.b] }
    if keepsGlare {
      for (lab, isGlare) in zip(colours, glare) where isGlare { points += [lab.l, lab.a, lab.b] }
    }
    return points
  }

  /// The median colour (per sRGB channel) of the largest area of samples joined by neighbours
  /// (left, right, above, below) closer than `step`; nil for an empty grid.
  func largestAreaColour(step: Double) -> CIELAB.Lab? {
    guard !colours.isEmpty else { return nil }
    var areas = DisjointSets(count: colours.count)
    for y in 0..<height {
      for x in 0..<width {
        let i = y * width + x
        if x + 1 < width && CIELAB.distance(colours[i], colours[i + 1]) < step { areas.join(i, i + 1) }
        if y + 1 < height && CIELAB.distance(colours[i], colours[i + width]) < step {
          areas.join(i, i + width)
        }
      }
    }
    var members: [Int: [Int]] = [:]
    for i in colours.indices { members[areas.root(of: i), default: []].append(i) }
    // Ties go to the area that starts first on the grid, so the result never depends on
    // dictionary order.
    let largest = members.values.max { ($0.count, -$0[0]) < ($1.count, -$1[0]) }!
    // The median of each sRGB channel, not of L, a and b: on an area of one paint both are the
    // paint, but on an area of many colours (a photo-like scene, a texture) the two medians are
    // different colours, and the record's colours are sRGB (`#rrggbb`), whose middle is the middle
    // of each channel. Train (`bench/cards/fit_palette_median.py`): screenshots seed 8631 270 →
    // 273 of 300, photos seed 8651 85 → 87 of 100, none lost.
    let rgb = largest.map { CIELAB.srgb(colours[$0]) }
    return CIELAB.lab(r: rgb.map(\.x).median, g: rgb.map(\.y).median, b: rgb.map(\.z).median)
  }
}
