import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The warp's fast paths (the homography walked along a row, the resize that reads a region in
/// place) against the direct computations they replace.
final class WarpSamplingTests: XCTestCase {
  /// A quad with strong perspective: the near side is three times the far side.
  private let steepQuad = [Point(420, 80), Point(610, 95), Point(980, 700), Point(40, 650)]

  private func texture(width: Int, height: Int, format: Bitmap.Format) -> Bitmap {
    Bitmap(width: width, height: height, format: format) { out in
      let c = format.rawValue
      for y in 0..<height {
        for x in 0..<width {
          for k in 0..<c {
            let wave = 100 * sin(Double(x * (k + 2)) / 9) * cos(Double(y * (k + 3)) / 13)
            out[(y * width + x) * c + k] = UInt8(clamping: Int(128 + wave) + (x * 7 + y * 13 + k * 5) % 23)
          }
        }
      }
    }
  }

  func testTheRowFormMatchesTheDirectHomographyWithinAThousandthOfAPixel() throws {
    let corners = [Point(0, 0), Point(1012, 0), Point(1012, 638), Point(0, 638)]
    let map = try XCTUnwrap(Homography(from: corners, to: steepQuad))
    var worst = 0.0
    for v in stride(from: 0.25, through: 638, by: 17.5) {
      let row = HomographyRow(map, v: v)
      for u in stride(from: 0.25, through: 1012, by: 3.25) {
        let direct = map.apply(Point(u, v)), walked = row.apply(u)
        worst = max(worst, abs(direct.x - walked.x), abs(direct.y - walked.y))
      }
    }
    XCTAssertLessThan(worst, 1e-3)
  }

  func testAResizedRegionEqualsTheResizedCropExactly() {
    for format in [Bitmap.Format.rgb, .gray] {
      let image = texture(width: 301, height: 203, format: format)
      let expected = image.cropped(x: 37, y: 21, width: 211, height: 149).resized(width: 97, height: 61)
      let inPlace = image.resized(x: 37, y: 21, width: 211, height: 149, to: 97, 61)
      XCTAssertEqual(inPlace, expected, "\(format)")
    }
  }

  /// Bilinear sampling written directly per sub-sample, as the warp did before its row form.
  private func directlySampled(_ image: Bitmap, _ map: Homography, width: Int, height: Int, grid: Int)
    -> Bitmap
  {
    let c = image.channels, sw = image.width, sh = image.height
    return Bitmap(width: width, height: height, format: image.format) { out in
      for y in 0..<height {
        for x in 0..<width {
          var acc = [Double](repeating: 0, count: c)
          for gy in 0..<grid {
            for gx in 0..<grid {
              let p = map.apply(
                Point(
                  Double(x) + (Double(gx) + 0.5) / Double(grid), Double(y) + (Double(gy) + 0.5) / Double(grid)
                ))
              let sx = min(Double(sw - 1), max(0, p.x - 0.5)), sy = min(Double(sh - 1), max(0, p.y - 0.5))
              let x0 = Int(sx), y0 = Int(sy), x1 = min(sw - 1, x0 + 1), y1 = min(sh - 1, y0 + 1)
              let fx = sx - Double(x0), fy = sy - Double(y0)
              for k in 0..<c {
                func at(_ x: Int, _ y: Int) -> Double { Double(image.pixels[(y * sw + x) * c + k]) }
                acc[k] +=
                  at(x0, y0) * (1 - fx) * (1 - fy) + at(x1, y0) * fx * (1 - fy) + at(x0, y1) * (1 - fx) * fy
                  + at(x1, y1) * fx * fy
              }
            }
          }
          for k in 0..<c { out[(y * width + x) * c + k] = UInt8(acc[k] / Double(grid * grid) + 0.5) }
        }
      }
    }
  }

  func testWarpingMatchesDirectSamplingWithinOneLevel() throws {
    // Neither quad is reduced first (each has a side no longer than the output's): the first is
    // mild (one sample per pixel), the second steep enough for 2 × 2 sub-samples.
    let mild = [Point(30.5, 20.25), Point(370, 31), Point(365.5, 250), Point(25, 239)]
    let steep = [Point(150, 10), Point(250, 12), Point(395, 290), Point(5, 285)]
    for (quad, size, grid) in [(mild, (405, 255), 1), (steep, (200, 150), 2)] {
      for format in [Bitmap.Format.rgb, .gray] {
        let image = texture(width: 400, height: 300, format: format)
        let warped = try XCTUnwrap(image.warped(quad: quad, width: size.0, height: size.1))
        let (w, h) = (Double(size.0), Double(size.1))
        let corners = [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)]
        let map = try XCTUnwrap(Homography(from: corners, to: quad))
        let expected = directlySampled(image, map, width: size.0, height: size.1, grid: grid)
        let worst = zip(warped.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1, "grid \(grid), \(format)")
      }
    }
  }
}
