import Foundation
import SnapsortImaging
import SnapsortNative

extension CardNameReader {
  /// Candidates from lines found in the crop's pixels (`TextLineFinder`) where neither the page
  /// reading nor the coarse one has a legible line: the `imageLines` tallest, each cut from the map
  /// it was found in, made dark on light, read on its own with the name engine and measured among
  /// the page's lines (`image_line` 1; the reading is its text).
  /// - Parameters:
  ///   - crop: the card crop as found (RGB for the colourfulness map); `luma`: its grey.
  func imageLineCandidates(
    crop: Bitmap, luma: Bitmap, page: TesseractEngine.Result, coarse: TesseractEngine.Result?,
    deadline: () -> Int
  ) -> [CardNamePicker.Candidate] {
    guard imageLines > 0, let nameEngine else { return [] }
    // A line tesseract read with confidence is read; one it read as junk (display type read
    // `KpamMHynisaA` at 5) is where a reading of the line on its own can help.
    let read = (page.lines + (coarse?.lines ?? [])).filter { line in
      line.confidence >= Self.confidentlyRead
        && !NameLineCandidates.isNoise(CardNamePicker.clean(line, words: page.words + (coarse?.words ?? [])))
    }
    // The maps the lines are found in are the ones they are cut from.
    let colourfulness = crop.format == .rgb ? TextLineFinder.colourfulness(crop) : nil
    // Small print is read well by the page reading and is never the name.
    let cardHeight = NameLineCandidates.cardHeight(width: Double(crop.width), height: Double(crop.height))
    let lines = TextLineFinder().lines(luma: luma, colourfulness: colourfulness, cardHeight: cardHeight)
      .filter { line in
        line.box.height >= 0.04 * cardHeight && !read.contains { Self.covers($0.box, line.box) }
      }.prefix(imageLines)
    var found: [CardNamePicker.Candidate] = []
    for line in lines where deadline() > 0 {
      guard let channel = line.ink.colourfulness ? colourfulness : luma else { continue }
      guard let (image, scale, origin) = Self.inkImage(line, of: channel, height: lineHeight) else {
        continue
      }
      let reading = nameEngine.recognize(image, segmentation: .singleLine, deadline: deadline())
      guard !reading.timedOut, let first = reading.lines.first else { continue }
      let toCrop = { (item: TesseractEngine.Item) -> TesseractEngine.Item in
        var item = item
        item.box = Box(
          x: origin.x + item.box.x / scale, y: origin.y + item.box.y / scale, width: item.box.width / scale,
          height: item.box.height / scale)
        return item
      }
      let words = reading.words.map(toCrop)
      // The words' boxes may reach a pixel or two past the components' once scaled back: the line
      // holds them all, as a page reading's line holds its words.
      let box = NameLineCandidates.union([line.box] + words.map(\.box))
      let item = TesseractEngine.Item(
        text: reading.lines.map(\.text).joined(separator: " "), box: box, confidence: first.confidence)
      found += Self.foundLineCandidates(
        item, words: words, page: page, size: (Double(crop.width), Double(crop.height)),
        cardHeight: cardHeight,
        runs: imageRuns)
    }
    return found
  }

  /// The candidates of a line found in the pixels and read on its own (`item`, its reading's
  /// `words` in the crop's pixels), measured as one more line of the page so that height rank and
  /// position compare like for like. The found line's text is its own reading's alone: the page's
  /// words over the same print would join a second reading of the line (`ESSO ESSO`).
  static func foundLineCandidates(
    _ item: TesseractEngine.Item, words: [TesseractEngine.Item], page: TesseractEngine.Result,
    size: (width: Double, height: Double), cardHeight: Double? = nil, runs: Bool
  ) -> [CardNamePicker.Candidate] {
    let measured = NameLineCandidates.candidates(
      read: page.lines.map { ($0, page.words) } + [(item, words)], width: size.width, height: size.height,
      cardHeight: cardHeight)
    let own = (text: CardNamePicker.clean(item, words: words), confidence: item.confidence)
    return imageLineCandidates(measured, line: item.box, reading: own, runs: runs)
  }

  /// The candidates of `measured` (the page's lines measured with one found in the pixels) that
  /// hold the found line: the line alone, and with `runs` the runs it makes with the page's lines
  /// above or below it (a name set on two lines, one of them white on colour), each keeping the
  /// line's own reading for that line.
  static func imageLineCandidates(
    _ measured: [CardNamePicker.Candidate], line box: Box, reading: (text: String, confidence: Double),
    runs: Bool
  ) -> [CardNamePicker.Candidate] {
    measured.compactMap { candidate in
      guard runs || candidate.lineBoxes == [box], let index = candidate.lineBoxes.firstIndex(of: box) else {
        return nil
      }
      var candidate = candidate
      candidate.features["image_line"] = 1
      candidate.readLines[index] = reading
      return candidate
    }
  }

  /// Tesseract's line confidence from which a page reading's line is taken as read: junk readings
  /// of large type fall well under it, and a line read again costs 15–30 ms.
  static let confidentlyRead = 75.0

  /// Whether a read line's box covers a found line: level with it by half the smaller height, and
  /// over four fifths of its width.
  static func covers(_ read: Box, _ found: Box) -> Bool {
    let vertical = min(read.y + read.height, found.y + found.height) - max(read.y, found.y)
    let horizontal = min(read.x + read.width, found.x + found.width) - max(read.x, found.x)
    return vertical > 0.5 * min(read.height, found.height) && horizontal >= 0.8 * found.width
  }

  /// The line cut from `channel` with a margin of a third of its height, scaled so the line is
  /// `height` pixels high, and thresholded (Otsu within the cut) to its ink black on white; with
  /// the scale and the cut's origin in the crop, to put the reading's boxes back.
  static func inkImage(_ line: TextLineFinder.Line, of channel: Bitmap, height: Int)
    -> (Bitmap, Double, Point)?
  {
    guard let (image, scale, origin) = lineCut(line.box, of: channel, height: height) else { return nil }
    var cut = image
    let threshold = UInt8(ReceiptImaging.otsu(cut))
    let light = line.ink.light
    cut.pixels.withUnsafeMutableBufferPointer { pixels in
      for index in pixels.indices {
        pixels[index] = (pixels[index] > threshold) == light ? 0 : 255
      }
    }
    return (cut, scale, origin)
  }
}
