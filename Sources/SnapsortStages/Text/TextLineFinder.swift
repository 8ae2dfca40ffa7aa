import Foundation
import SnapsortImaging
import SnapsortNative

/// Text lines found in a card crop's pixels instead of tesseract's layout: connected components of
/// ink darker or lighter than their surroundings, in luma and in colourfulness, grouped into lines
/// by height and by how they sit side by side.
///
/// Tesseract's page layout leaves out lines it cannot segment: white type on a colour panel, a
/// display face, a line that runs into a panel's edge (on the training cards, a third of the names
/// missed had no reading on their line at all). A line box found here can be cut out and read on
/// its own. Colourfulness (the spread of a pixel's channels) separates white type from a yellow
/// or pale panel whose luma is nearly the same.
public struct TextLineFinder: Sendable {
  /// The map a line was found in: which channel, and whether its ink is lighter than its ground.
  public struct Ink: Sendable, Equatable, Hashable {
    public var colourfulness: Bool
    public var light: Bool
  }

  public struct Line: Sendable, Equatable {
    /// The union of the line's components in the crop's pixels.
    public var box: Box
    public var ink: Ink
    /// Letters or pieces of letters the line is made of.
    public var components: Int
  }

  /// Rows the crop is reduced to before it is searched: name type is then 15–80 px tall.
  public var workingHeight = 320
  /// How much a pixel must stand out from its window's mean, in standard deviations of the window,
  /// and at least in levels (luma, colourfulness), to be ink.
  public var deviations = 0.5
  public var minimumContrast = (luma: 24, colourfulness: 32)

  public init() {}

  /// Lines of two components or more in an RGB or grey crop, each found once (the map with most
  /// components wins when several maps find it), most prominent first: by height times components
  /// up to four, so that two tiles of a pattern behind the type come after a word of type.
  public func lines(in image: Bitmap) -> [Line] {
    lines(luma: image.grayscale(), colourfulness: image.format == .rgb ? Self.colourfulness(image) : nil)
  }

  /// `lines(in:)` on an image's grey and, for a colour image, its `colourfulness` map, when the
  /// caller has them already. `cardHeight` (default: the image's height) is the height the
  /// working height, the window and the letters' sizes are taken of: a pass's is that of a card as
  /// wide as it (`NameLineCandidates.cardHeight`).
  public func lines(luma: Bitmap, colourfulness: Bitmap?, cardHeight: Double? = nil) -> [Line] {
    let reference = cardHeight ?? Double(luma.height)
    let scale = reference > Double(workingHeight) ? Double(workingHeight) / reference : 1
    let width = max(1, Int((Double(luma.width) * scale).rounded()))
    let height = max(1, Int((Double(luma.height) * scale).rounded()))
    guard width >= 32, height >= 32 else { return [] }
    let scaledReference = reference < Double(luma.height) ? reference * scale : Double(height)
    var maps: [(Bitmap, Bool, Int)] = [(luma, false, minimumContrast.luma)]
    if let colourfulness { maps.append((colourfulness, true, minimumContrast.colourfulness)) }
    var found: [Line] = []
    for (channel, isColourfulness, contrast) in maps {
      let small = scale < 1 ? channel.resized(width: width, height: height) : channel
      let (dark, light) = inkMasks(small, contrast: contrast, radius: max(4, Int(scaledReference) / 16))
      for (mask, isLight) in [(dark, false), (light, true)] {
        let components = Self.components(mask, width: width, height: height)
        for line in Self.group(components, cropHeight: scaledReference) {
          found.append(
            Line(
              box: Box(
                x: line.box.x / scale, y: line.box.y / scale, width: line.box.width / scale,
                height: line.box.height / scale),
              ink: Ink(colourfulness: isColourfulness, light: isLight), components: line.count))
        }
      }
    }
    let prominence = { (line: Line) in line.box.height * Double(min(line.components, 4)) }
    return Self.distinct(found).sorted { prominence($0) > prominence($1) }
  }

  /// Each pixel's spread between its brightest and darkest channel: 0 for greys and white.
  static func colourfulness(_ image: Bitmap) -> Bitmap {
    Bitmap(width: image.width, height: image.height, format: .gray) { out in
      image.pixels.withUnsafeBufferPointer { rgb in
        for i in 0..<image.pixelCount {
          let r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2]
          out[i] = max(r, g, b) - min(r, g, b)
        }
      }
    }
  }

  /// Pixels darker, and pixels lighter, than their window's mean by `deviations` standard
  /// deviations and at least `contrast` levels; the window is about a name's height.
  func inkMasks(_ gray: Bitmap, contrast: Int, radius: Int) -> (dark: [Bool], light: [Bool]) {
    let w = gray.width, h = gray.height
    var sums = [Int](repeating: 0, count: (w + 1) * (h + 1))
    var squares = sums
    gray.pixels.withUnsafeBufferPointer { p in
      for y in 0..<h {
        var rowSum = 0, rowSquares = 0
        for x in 0..<w {
          let v = Int(p[y * w + x])
          rowSum += v
          rowSquares += v * v
          sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + rowSum
          squares[(y + 1) * (w + 1) + x + 1] = squares[y * (w + 1) + x + 1] + rowSquares
        }
      }
    }
    var dark = [Bool](repeating: false, count: w * h), light = dark
    for y in 0..<h {
      let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
      for x in 0..<w {
        let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
        let area = (y1 - y0) * (x1 - x0)
        let a = y0 * (w + 1), b = y1 * (w + 1)
        let sum = sums[b + x1] - sums[b + x0] - sums[a + x1] + sums[a + x0]
        let square = squares[b + x1] - squares[b + x0] - squares[a + x1] + squares[a + x0]
        let mean = Double(sum) / Double(area)
        let deviation = max(0, Double(square) / Double(area) - mean * mean).squareRoot()
        let margin = max(deviations * deviation, Double(contrast))
        let value = Double(gray.pixels[y * w + x])
        dark[y * w + x] = value < mean - margin
        light[y * w + x] = value > mean + margin
      }
    }
    return (dark, light)
  }

  /// A connected piece of ink: its box and how many pixels it has.
  struct Component {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var pixels: Int
    var width: Int { x1 - x0 + 1 }
    var height: Int { y1 - y0 + 1 }
  }

  /// The 8-connected components of a mask, joined with union–find over pixel indices.
  static func components(_ mask: [Bool], width: Int, height: Int) -> [Component] {
    var sets = DisjointSets(count: mask.count)
    for y in 0..<height {
      for x in 0..<width where mask[y * width + x] {
        let index = y * width + x
        // The neighbours already visited: left, and the three above.
        if x > 0 && mask[index - 1] { sets.join(index - 1, index) }
        guard y > 0 else { continue }
        for above in max(0, x - 1)...min(width - 1, x + 1) where mask[index - width - x + above] {
          sets.join(index - width - x + above, index)
        }
      }
    }
    // Each set's component found through a slot at its root's index, not a dictionary lookup per
    // ink pixel.
    var slot = [Int32](repeating: -1, count: mask.count)
    var found: [Component] = []
    for index in mask.indices where mask[index] {
      let root = sets.root(of: index), x = index % width, y = index / width
      if slot[root] < 0 {
        slot[root] = Int32(found.count)
        found.append(Component(x0: x, y0: y, x1: x, y1: y, pixels: 1))
      } else {
        let at = Int(slot[root])
        found[at].x0 = min(found[at].x0, x)
        found[at].x1 = max(found[at].x1, x)
        found[at].y0 = min(found[at].y0, y)
        found[at].y1 = max(found[at].y1, y)
        found[at].pixels += 1
      }
    }
    return found
  }
}
