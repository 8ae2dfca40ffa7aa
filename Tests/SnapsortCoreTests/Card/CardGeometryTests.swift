import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// Card detection and warping on photos built in code: a card-like rectangle mapped by a known
/// homography onto a textured background, next to a distractor rectangle.
final class CardGeometryTests: XCTestCase {
  /// Renders a scene and returns it with the card's true corners.
  private func scene(rotation: Double, tilt: Double, centre: Point = Point(620, 470)) -> (Bitmap, [Point]) {
    let width = 1200, height = 900
    let cx = centre.x, cy = centre.y, w = 520.0, h = w / CardDetector.cardAspect
    let a = rotation * .pi / 180
    var corners = [Point(-w / 2, -h / 2), Point(w / 2, -h / 2), Point(w / 2, h / 2), Point(-w / 2, h / 2)]
    corners = corners.map { p in
      let squeeze = 1 - tilt * (0.5 + p.y / h)
      return Point(p.x * squeeze, p.y)
    }
    corners = corners.map { Point(cx + $0.x * cos(a) - $0.y * sin(a), cy + $0.x * sin(a) + $0.y * cos(a)) }
    let toCard = Homography(from: corners, to: [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)])!
    let image = Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          let p = toCard.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
          var colour: (UInt8, UInt8, UInt8)
          if p.x >= 0, p.x <= 1, p.y >= 0, p.y <= 1 {
            colour = p.y > 0.7 && p.x > 0.2 && p.x < 0.8 ? (250, 250, 250) : (0, 90, 170)
          } else if x > 60 && x < 260 && y > 60 && y < 180 {
            colour = (240, 240, 240)  // a distractor: a small paper rectangle
          } else {
            // A mottled desk. (Strong parallel texture such as wood grain still defeats the
            // detector: see the per-variation numbers in bench/cards.)
            let v = UInt8(150 + 12 * sin(Double(x) / 37) * cos(Double(y) / 23) + Double((x * 7 + y * 13) % 9))
            colour = (v, UInt8(Double(v) * 0.8), UInt8(Double(v) * 0.6))
          }
          let i = (y * width + x) * 3
          out[i] = colour.0
          out[i + 1] = colour.1
          out[i + 2] = colour.2
        }
      }
    }
    return (image, corners)
  }

  func testFindsTheCardAtSeveralAnglesWithIoUAbove95() throws {
    for (rotation, tilt) in [(0.0, 0.0), (12.0, 0.1), (-25.0, 0.12), (80.0, 0.05), (170.0, 0.15)] {
      let (image, truth) = scene(rotation: rotation, tilt: tilt)
      let result = try XCTUnwrap(CardDetector().detect(in: image), "rotation \(rotation)")
      let iou = Quad.iou(result.quad, truth)
      XCTAssertGreaterThan(iou, 0.95, "rotation \(rotation), tilt \(tilt): IoU \(iou)")
    }
  }

  /// A card held close runs off the photo: its corner lies 7 % of the frame outside it, while
  /// over half of each side is seen. The quad is the whole card, corner outside included.
  func testFindsACardWhoseCornerRunsOffTheFrame() throws {
    let (image, truth) = scene(rotation: 35, tilt: 0, centre: Point(977, 470))
    XCTAssertGreaterThan(truth.map(\.x).max()!, 1200 + 0.05 * 1200, "the scene must put a corner outside")
    let result = try XCTUnwrap(CardDetector().detect(in: image))
    let iou = Quad.iou(result.quad, truth)
    XCTAssertGreaterThan(iou, 0.9, "IoU \(iou)")
  }

  /// The ranking's priors: a quad near the middle beats the same quad at the edge by at most
  /// 15 %, and a card holds its code panel but not a rectangle beside it or one nearly its size.
  func testCentralityAndHoldingPriors() {
    func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [Point] {
      [Point(x, y), Point(x + w, y), Point(x + w, y + h), Point(x, y + h)]
    }
    XCTAssertEqual(
      CardDetector.centrality(box(270, 190, 100, 100), width: 640, height: 480), 1, accuracy: 1e-9)
    XCTAssertEqual(
      CardDetector.centrality(box(-50, -50, 100, 100), width: 640, height: 480), 0.85, accuracy: 1e-9)
    let edge = CardDetector.centrality(box(500, 350, 100, 60), width: 640, height: 480)
    XCTAssertTrue(edge > 0.85 && edge < 0.95, "\(edge)")

    let card = box(100, 100, 400, 252)
    XCTAssertTrue(CardDetector.holds(card, box(250, 220, 200, 100)))
    XCTAssertFalse(CardDetector.holds(box(250, 220, 200, 100), card))
    XCTAssertFalse(CardDetector.holds(card, box(450, 220, 200, 100)), "partly outside")
    XCTAssertFalse(CardDetector.holds(card, box(110, 110, 380, 230)), "less than twice the area")
  }

  /// A worker's workspace keeps its buffers from photo to photo; nothing of one photo may leak
  /// into the next, whatever their sizes and channels.
  func testAReusedWorkspaceFindsWhatAFreshDetectionFinds() throws {
    let detector = CardDetector()
    let workspace = CardDetector.Workspace()
    let (first, _) = scene(rotation: 12, tilt: 0.1)
    let (second, _) = scene(rotation: -25, tilt: 0.12)
    // Sizes that take the box reduction (1400 px: factor 2) and that skip it, grey and colour,
    // and the first photo again after the others.
    let photos = [
      first.resized(width: 1400, height: 1050), second, second.grayscale(), first.fitting(maxSide: 700),
      first.resized(width: 1400, height: 1050),
    ]
    for (index, photo) in photos.enumerated() {
      let fresh = try XCTUnwrap(detector.detect(in: photo), "photo \(index)")
      let reused = try XCTUnwrap(detector.detect(in: photo, workspace: workspace), "photo \(index)")
      XCTAssertEqual(reused.quad, fresh.quad, "photo \(index)")
      XCTAssertEqual(reused.confidence, fresh.confidence, "photo \(index)")
      XCTAssertEqual(reused.candidates, fresh.candidates, "photo \(index)")
    }
  }

  func testWarpRoundTripsAKnownQuad() throws {
    let (image, truth) = scene(rotation: 0, tilt: 0)
    let crop = try XCTUnwrap(image.warped(quad: truth, width: 506, height: 319))
    // The white panel sits in the lower middle of the card, blue elsewhere.
    XCTAssertEqual(TestImages.meanColour(crop, x: 250, y: 280), [250, 250, 250])
    let blue = TestImages.meanColour(crop, x: 20, y: 20)
    XCTAssertGreaterThan(blue[2], 150)
    XCTAssertLessThan(blue[0], 30)
    XCTAssertEqual(crop.rotated180().rotated180(), crop)
  }

  func testHomographyMapsCornersAndInverts() throws {
    let from = [Point(0, 0), Point(10, 0), Point(10, 5), Point(0, 5)]
    let to = [Point(3, 4), Point(40, 8), Point(38, 30), Point(1, 25)]
    let h = try XCTUnwrap(Homography(from: from, to: to))
    for (a, b) in zip(from, to) {
      XCTAssertEqual(h.apply(a).x, b.x, accuracy: 1e-6)
      XCTAssertEqual(h.apply(a).y, b.y, accuracy: 1e-6)
    }
    let back = try XCTUnwrap(h.inverse)
    XCTAssertEqual(back.apply(Point(40, 8)).x, 10, accuracy: 1e-6)
  }
}
