import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels`, uses `CardCrop`; produces `CardPalette`.
///
/// The card's dominant colours: k-means in CIELAB on a reduced crop (the whole image when no card
/// was cut out; border and specular highlights left out), near-identical clusters merged: the
/// colours by share, the backgrounds (largest; most vibrant) and the header colour.
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
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (1...12).contains(options.colors) else { throw ConfigError(path: "colors", "must be 1…12") }
  }

  private let options: Options

  public init(options: Options, context: StageContext) throws {
    self.options = options
  }

  public func process(_ item: PhotoItem) throws {
    let source = try item.artifacts[CardCrop.self]?.image ?? item.pixels().analysis
    let palette = Self.palette(of: source.rgb(), options: options)
    var result = CardPalette(
      colors: palette.map { ColorShare(hex: CIELAB.hex($0.lab), share: Rounding.thousandths($0.share)) },
      backgrounds: nil, headerColor: nil)
    if let largest = palette.first {
      let vibrant = palette.filter { $0.share >= 0.1 }.max { $0.lab.chroma < $1.lab.chroma } ?? largest
      result.backgrounds = [CIELAB.hex(largest.lab), CIELAB.hex(vibrant.lab)]
      // Catima's header colour: the brand colour, i.e. the most vibrant one of real size.
      let header = palette.filter { $0.share >= 0.15 && $0.lab.chroma > 15 }.first ?? largest
      result.headerColor = CIELAB.hex(header.lab)
    }
    item.artifacts.write(result)
  }

  static func palette(of image: Bitmap, options: Options) -> [(lab: CIELAB.Lab, share: Double)] {
    let points = labSamples(of: image, options: options)
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

  /// Lab colours of a grid of point samples inside a border, packed three to a sample, glare
  /// left out.
  static func labSamples(of image: Bitmap, options: Options) -> [Double] {
    // One pixel from the middle of each cell, not the cell's mean: a mean turns barcode bars
    // into grey and a thin band into a blend with its neighbours, colours the card does not
    // have, while point samples keep every colour at its share of the area.
    let sw = min(options.sampleWidth, image.width), sh = min(options.sampleHeight, image.height)
    let small = Bitmap(width: sw, height: sh, format: .rgb) { out in
      for y in 0..<sh {
        let sy = (2 * y + 1) * image.height / (2 * sh)
        for x in 0..<sw {
          let sx = (2 * x + 1) * image.width / (2 * sw)
          for k in 0..<3 { out[(y * sw + x) * 3 + k] = image.pixels[(sy * image.width + sx) * 3 + k] }
        }
      }
    }
    let border = max(2, sw / 24)
    var points: [Double] = [], glare: [Double] = []
    points.reserveCapacity(small.pixelCount * 3)
    for y in border..<(small.height - border) {
      for x in border..<(small.width - border) {
        let i = (y * small.width + x) * 3
        let r = Double(small.pixels[i]) / 255, g = Double(small.pixels[i + 1]) / 255,
          b = Double(small.pixels[i + 2]) / 255
        let lab = CIELAB.lab(r: r, g: g, b: b)
        // Specular highlights (glare) are near-white and are light, not the card's colour.
        if lab.l > 97 && lab.chroma < 4 && min(r, g, b) > 0.985 {
          glare += [lab.l, lab.a, lab.b]
        } else {
          points += [lab.l, lab.a, lab.b]
        }
      }
    }
    let glareShare = Double(glare.count) / Double(max(1, points.count + glare.count))
    return glareShare >= options.glareShareLimit ? points + glare : points
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
