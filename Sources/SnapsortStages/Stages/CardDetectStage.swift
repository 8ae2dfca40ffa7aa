import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `ImagePixels` and `ImageFile`; produces `CardGeometry`.
///
/// Finds the card's quadrilateral on the analysis copy (in full-resolution, orientation-corrected
/// pixels) with a confidence, or says why there is none.
public final class CardDetectStage: Stage {
  public static let name = "detect_card"
  public static let summary =
    "Find the card's corners (ID-1 aspect prior, Hough lines, edge support, centrality, the card around its code panel, sub-pixel refit; exact pixel steps in screenshots, a quad that is only a piece of a carousel card grown out to the card)"
  public static let needs: [any Artifact.Type] = [ImagePixels.self, ImageFile.self]
  public static let produces: [any Artifact.Type] = [CardGeometry.self]

  public struct Options: StageOptions, Equatable {
    /// Longest side of the reduced copy that lines are searched on.
    public var searchSide: Int = 640
    /// Quads scoring below this are not reported.
    public var minimumConfidence: Double = 0.35
    /// An image whose own aspect is within this fraction of the card's is taken as the card
    /// (a scan or a tight crop) when no quad is found.
    public var wholeImageAspectTolerance: Double = 0.08
    /// Whether an upright quad (a card drawn on a screen) has its sides moved in to the card's
    /// own edge, out of a drop shadow or glow.
    public var screenRefinement: Bool = true
    /// Whether a screenshot showing a wallet pass instead of an ID-1 card has the whole pass for
    /// its quad, marked `shape: pass` in the record.
    public var passes: Bool = true
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (160...4000).contains(options.searchSide) else {
      throw ConfigError(path: "search_side", "must be between 160 and 4000")
    }
  }

  private let options: Options
  private let detector: CardDetector
  /// This worker's detection buffers, reused from photo to photo (a stage belongs to one worker).
  private let workspace = CardDetector.Workspace()

  public init(options: Options, context: StageContext) throws {
    self.options = options
    var detector = CardDetector()
    detector.searchSide = options.searchSide
    detector.minimumScore = options.minimumConfidence
    self.detector = detector
  }

  public func process(_ item: PhotoItem) throws {
    let pixels = try item.pixels()
    let whole = wholeImageQuad(item.artifacts[ImageFile.self]?.info)
    // Corners in full-resolution pixels. A screenshot is searched at full resolution with the
    // exact-step finder when its pixels are already decoded (PNG and WebP have no shrink-on-load).
    var detected: (quad: [Point], confidence: Double)?
    if let full = pixels.decodedFull, let flat = FlatCardFinder().find(in: full) {
      detected = (onScreen(flat.quad, in: full), flat.confidence)
    } else if let result = detector.detect(in: pixels.analysis, workspace: workspace) {
      let scale = pixels.analysisScale
      let quad = onScreen(result.quad, in: pixels.analysis)
      detected = (quad.map { Point($0.x * scale, $0.y * scale) }, result.confidence)
    }
    // A scan or a tight crop has the card's aspect itself: a small quad found inside it is a
    // part of the card (a chip, a barcode panel), not the card.
    if let result = detected, let whole, Quad.area(result.quad) < 0.5 * Quad.area(whole) {
      detected = nil
    }
    let geometry: CardGeometry
    if options.passes, let pass = pass(in: pixels, besides: detected?.quad) {
      geometry = CardGeometry(quad: pass.quad, confidence: pass.confidence, reason: nil, shape: .pass)
    } else if let result = detected {
      geometry = CardGeometry(quad: result.quad, confidence: result.confidence, reason: nil)
    } else if let whole {
      geometry = CardGeometry(
        quad: whole, confidence: 0.5,
        reason: "no card edges found; the whole image has the card's aspect and is taken as the card")
    } else {
      geometry = CardGeometry(quad: nil, confidence: nil, reason: "no card-shaped quadrilateral found")
    }
    item.artifacts.write(geometry)
  }

  /// An upright quad is a card drawn square to a screen: its sides moved in to the card's own
  /// edge, out of a drop shadow or glow; a card above it taken instead when the quad is a panel
  /// the app draws below its card, the card at its top when the quad runs on below it, and the
  /// card around it when the quad is only a piece of a card (a band or a logo in a carousel).
  private func onScreen(_ quad: [Point], in image: Bitmap) -> [Point] {
    guard options.screenRefinement else { return quad }
    let refiner = ScreenCardRefiner(image: image)
    let refined = refiner.refine(quad) ?? quad
    let card = refiner.cardAbove(refined) ?? refined
    let top = refiner.cardAtTop(card) ?? card
    return refiner.cardAround(top) ?? top
  }

  /// The whole wallet pass a screenshot shows, in full-resolution pixels, unless the screen
  /// shows a card after all: an ID-1 card at the pass's top that is not a part of the pass (a
  /// card with a panel or other cards below it whose sides run on in one line), or the card found
  /// outside it (cards stacked below the card a wallet shows).
  private func pass(in pixels: ImagePixels, besides card: [Point]?) -> (quad: [Point], confidence: Double)? {
    let image = pixels.analysis
    let finder = PassFinder(image: image)
    guard let found = finder.find() else { return nil }
    if let top = ScreenCardRefiner(image: image).cardAtTop(found.quad) {
      guard finder.isOwnPart(top, of: found.quad) else { return nil }
    }
    let scale = pixels.analysisScale
    let quad = found.quad.map { Point($0.x * scale, $0.y * scale) }
    if let card, Self.isCardShaped(card) {
      guard Quad.contains(quad, Quad.centre(card)) else { return nil }
    }
    return (quad, found.confidence)
  }

  /// An upright quad within a tenth of the card's aspect.
  private static func isCardShaped(_ quad: [Point]) -> Bool {
    guard Quad.isSquareToAxes(quad, withinDegrees: 2) else { return false }
    let xs = quad.map(\.x), ys = quad.map(\.y)
    let aspect = (xs.max()! - xs.min()!) / max(1, ys.max()! - ys.min()!)
    return abs(aspect / CardDetector.cardAspect - 1) <= 0.1
  }

  private func wholeImageQuad(_ info: ImageInfo?) -> [Point]? {
    guard let info else { return nil }
    let w = Double(info.width), h = Double(info.height)
    let aspect = max(w, h) / min(w, h)
    guard abs(aspect / CardDetector.cardAspect - 1) <= options.wholeImageAspectTolerance else { return nil }
    return [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)]
  }
}
