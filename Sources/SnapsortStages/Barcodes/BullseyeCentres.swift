import Foundation
import SnapsortNative

/// Candidate centres of square bullseyes (Aztec's finder): a dark run with at least three runs of
/// about its width alternating on either side along its row, confirmed along its column. The
/// image is split into dark and light by each pixel's local mean, so uneven light does not
/// merge rings.
struct BullseyeCentres {
  struct Centre {
    var point: Point
    /// Mean run width along the row and the column: one module, in pixels.
    var module: Double
    /// Rows that found this centre; the strongest bullseye has the most.
    var votes: Int
  }

  /// Runs needed on each side of the centre module: a compact symbol has four equal rings around
  /// it, but its fourth, dark, often runs on into the dark modules of the mode message beside it.
  static let minimumRings = 3

  private let width: Int
  private let height: Int
  private let dark: [Bool]

  init(_ gray: Bitmap) {
    width = gray.width
    height = gray.height
    dark = Self.darkerThanLocalMean(gray, radius: max(8, min(gray.width, gray.height) / 16))
  }

  /// Centres seen on at least two rows, the most-voted first.
  func find() -> [Centre] {
    var groups: [String: [(Point, Double)]] = [:]
    for y in 0..<height {
      let runs = Self.runs((0..<width).map { dark[y * width + $0] })
      for i in runs.indices where runs[i].dark {
        guard let across = Self.rings(runs, around: i), across.module >= 1.5,
          let down = column(at: Int(across.centre), through: y)
        else { continue }
        let point = Point(across.centre, down.centre)
        let cell = 2 * across.module
        let key = "\(Int((point.x / cell).rounded())),\(Int((point.y / cell).rounded()))"
        groups[key, default: []].append((point, (across.module + down.module) / 2))
      }
    }
    return groups.values.filter { $0.count >= 2 }.map { members in
      Centre(
        point: Point(Self.median(members.map(\.0.x)), Self.median(members.map(\.0.y))),
        module: Self.median(members.map(\.1)), votes: members.count)
    }.sorted { a, b in
      if a.votes != b.votes { return a.votes > b.votes }
      return (a.point.y, a.point.x) < (b.point.y, b.point.x)
    }
  }

  /// The column check: the dark run through (x, y) has the rings too.
  private func column(at x: Int, through y: Int) -> (centre: Double, module: Double)? {
    guard x >= 0, x < width else { return nil }
    let runs = Self.runs((0..<height).map { dark[$0 * width + x] })
    guard let i = runs.firstIndex(where: { $0.start <= y && y < $0.start + $0.length }), runs[i].dark
    else { return nil }
    return Self.rings(runs, around: i)
  }

  struct Run {
    var start: Int
    var length: Int
    var dark: Bool
  }

  static func runs(_ line: [Bool]) -> [Run] {
    var out: [Run] = []
    var start = 0
    for i in 1...line.count where i == line.count || line[i] != line[start] {
      out.append(Run(start: start, length: i - start, dark: line[start]))
      start = i
    }
    return out
  }

  /// The runs on both sides of run `i` that match its width (and each other) in pairs, outward
  /// until one does not; nil when fewer than `minimumRings` pairs match.
  static func rings(_ runs: [Run], around i: Int) -> (centre: Double, module: Double)? {
    var total = Double(runs[i].length), count = 1.0, k = 0
    while i - k - 1 >= 0, i + k + 1 < runs.count {
      let a = Double(runs[i - k - 1].length), b = Double(runs[i + k + 1].length)
      let mean = total / count
      let fits = { (w: Double) in w >= 0.5 * mean && w <= 1.6 * mean }
      guard fits(a), fits(b), a / b >= 0.6, a / b <= 1.6 else { break }
      total += a + b
      count += 2
      k += 1
    }
    guard k >= minimumRings else { return nil }
    let first = runs[i - k], last = runs[i + k]
    return (Double(first.start + last.start + last.length) / 2, total / count)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  /// Each pixel darker than the mean of the (2 radius + 1)² box around it, by an integral image.
  static func darkerThanLocalMean(_ gray: Bitmap, radius: Int) -> [Bool] {
    let w = gray.width, h = gray.height
    var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
    for y in 0..<h {
      var row = 0
      for x in 0..<w {
        row += Int(gray.pixels[y * w + x])
        integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row
      }
    }
    var dark = [Bool](repeating: false, count: w * h)
    for y in 0..<h {
      let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
      for x in 0..<w {
        let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
        let sum =
          integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1] - integral[y1 * (w + 1) + x0]
          + integral[y0 * (w + 1) + x0]
        dark[y * w + x] = Int(gray.pixels[y * w + x]) * (y1 - y0) * (x1 - x0) < sum
      }
    }
    return dark
  }
}
