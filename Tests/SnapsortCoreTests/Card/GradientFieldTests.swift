import XCTest

@testable import SnapsortCore
@testable import SnapsortImaging
@testable import SnapsortNative
@testable import SnapsortOutputs
@testable import SnapsortStages
@testable import SnapsortTools

/// The gradient field's integer planes against the Float arithmetic they stand for.
final class GradientFieldTests: XCTestCase {
  /// A colour image with steps, ramps and noise in every channel.
  private func image(width: Int, height: Int) -> Bitmap {
    Bitmap(width: width, height: height, format: .rgb) { out in
      for y in 0..<height {
        for x in 0..<width {
          let i = (y * width + x) * 3
          out[i] = x > width / 3 ? 230 : UInt8((x * 7 + y * 3) % 256)
          out[i + 1] = UInt8((x * x + y * 17) % 256)
          out[i + 2] = y > height / 2 ? UInt8((x * 13 + y * y) % 97) : 255
        }
      }
    }
  }

  /// `[1 2 1] / 4` across then down, twice, in Float, the edges repeated: the blur as the field
  /// was first written.
  private func floatBlur(_ image: Bitmap, channel: Int) -> [Float] {
    let w = image.width, h = image.height
    var plane = (0..<(w * h)).map { Float(image.pixels[$0 * 3 + channel]) }
    var temp = plane
    for _ in 0..<2 {
      for y in 0..<h {
        for x in 0..<w {
          let left = plane[y * w + max(0, x - 1)], right = plane[y * w + min(w - 1, x + 1)]
          temp[y * w + x] = (left + 2 * plane[y * w + x] + right) / 4
        }
      }
      for y in 0..<h {
        for x in 0..<w {
          let above = temp[max(0, y - 1) * w + x], below = temp[min(h - 1, y + 1) * w + x]
          plane[y * w + x] = (above + 2 * temp[y * w + x] + below) / 4
        }
      }
    }
    return plane
  }

  func testIntegerPlanesHoldTheFloatBlurAndGradientExactly() {
    // A width that leaves a remainder after the sixteen- and eight-pixel vector loops.
    let image = image(width: 203, height: 61)
    let field = GradientField(smoothing: image)
    let w = image.width, h = image.height, count = w * h
    let planes = (0..<3).map { floatBlur(image, channel: $0) }
    var blurMismatches = 0
    for channel in 0..<3 {
      for i in 0..<count where Float(field.smoothed[channel * count + i]) / 256 != planes[channel][i] {
        blurMismatches += 1
      }
    }
    XCTAssertEqual(blurMismatches, 0)
    var gradientMismatches = 0
    for y in 1..<(h - 1) {
      for x in 1..<(w - 1) {
        let i = y * w + x
        var best: (dx: Float, dy: Float, m: Float, channel: UInt8) = (0, 0, 0, 0)
        for (channel, b) in planes.enumerated() {
          let dx = (b[i - w + 1] + 2 * b[i + 1] + b[i + w + 1]) - (b[i - w - 1] + 2 * b[i - 1] + b[i + w - 1])
          let dy = (b[i + w - 1] + 2 * b[i + w] + b[i + w + 1]) - (b[i - w - 1] + 2 * b[i - w] + b[i - w + 1])
          let m = (dx * dx + dy * dy).squareRoot()
          if m > best.m { best = (dx, dy, m, UInt8(channel)) }
        }
        if (field.gx[i], field.gy[i], field.magnitude[i], field.channelOf[i]) != best {
          gradientMismatches += 1
        }
      }
    }
    XCTAssertEqual(gradientMismatches, 0)
    XCTAssertGreaterThan(field.magnitude.max() ?? 0, 10, "the image has edges to compare")
  }
}
