import Foundation
import SnapsortImaging
import SnapsortNative

/// Finds the card's quadrilateral on the analysis copy and writes `card.quad` (full-resolution,
/// orientation-corrected pixels) and `card.confidence`, or `card.quad: null` with a `reason`.
public final class CardDetectStage: Stage {
  public static let name = "detect_card"
  public static let summary =
    "Find the card's corners (ID-1 aspect prior, Hough lines, edge support, centrality, the card around its code panel, sub-pixel refit; exact pixel steps in screenshots)"

  public struct Options: StageOptions, Equatable {
    /// Longest side of the reduced copy that lines are searched on.
    public var searchSide: Int = 640
    /// Quads scoring below this are not reported.
    public var minimumConfidence: Double = 0.35
    /// An image whose own aspect is within this fraction of the card's is taken as the card
    /// (a scan or a tight crop) when no quad is found.
    public var wholeImageAspectTolerance: Double = 0.08
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
    guard let analysis = item.analysis else { throw StageFailure("no image was loaded") }
    var card = item.card
    // Corners in full-resolution pixels. A screenshot is searched at full resolution with the
    // exact-step finder when its pixels are already decoded (PNG and WebP have no shrink-on-load).
    var detected: (quad: [Point], confidence: Double)?
    if let full = item.full, let flat = FlatCardFinder().find(in: full) {
      detected = (flat.quad, flat.confidence)
    } else if let result = detector.detect(in: analysis, workspace: workspace) {
      detected = (
        result.quad.map { Point($0.x * item.analysisScale, $0.y * item.analysisScale) }, result.confidence
      )
    }
    // A scan or a tight crop has the card's aspect itself: a small quad found inside it is a
    // part of the card (a chip, a barcode panel), not the card.
    if let result = detected, let whole = wholeImageQuad(item),
      Quad.area(result.quad) < 0.5 * Quad.area(whole)
    {
      detected = nil
    }
    if let result = detected {
      item.cardQuad = result.quad
      card.quad = result.quad.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] }
      card.confidence = (result.confidence * 1000).rounded() / 1000
    } else if let whole = wholeImageQuad(item) {
      item.cardQuad = whole
      card.quad = whole.map { [$0.x, $0.y] }
      card.confidence = 0.5
      card.reason = "no card edges found; the whole image has the card's aspect and is taken as the card"
    } else {
      card.quad = nil
      card.reason = "no card-shaped quadrilateral found"
    }
    item.card = card
  }

  private func wholeImageQuad(_ item: PhotoItem) -> [Point]? {
    guard let info = item.record.image else { return nil }
    let w = Double(info.width), h = Double(info.height)
    let aspect = max(w, h) / min(w, h)
    guard abs(aspect / CardDetector.cardAspect - 1) <= options.wholeImageAspectTolerance else { return nil }
    return [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)]
  }
}
