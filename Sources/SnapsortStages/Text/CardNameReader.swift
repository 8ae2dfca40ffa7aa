import Foundation
import SnapsortImaging
import SnapsortNative

/// The card's suggested name and alternatives from a page reading: candidates ranked by the
/// name model (or the hand-weighted picker without one), the best read again one line at a time
/// at the height the name engine reads best (the suggested one also with the Cyrillic packs,
/// which `eng` and `Latin` cannot read), and spelled as the catalog does when that is one accent
/// or glyph away (larger edits wait for the issuer stage's evidence).
struct CardNameReader {
  var model: NameModel?
  var nameEngine: SharedTesseractEngine?
  var spellings: CardNameCatalog?
  /// Packs that read the suggested name again for a Cyrillic name (`cyrillic_languages`).
  var cyrillicEngines: [SharedTesseractEngine] = []
  /// The most letters a Cyrillic reading can have per height of its lines' width
  /// (`cyrillic_letters_per_height`), from which the choice is asked whether any reading could be
  /// taken before the line is read; 0 reads it always.
  var cyrillicLettersPerHeight: Double = 0
  /// How many of the best candidates are read again.
  var rereads: Int
  /// Pixels a line's box is scaled to before it is read again; 0 keeps its size.
  var lineHeight: Int
  /// Whether a line read again loses the ink reaching in over its cut's top or bottom edge first
  /// (`NameLineInk`, `name_line_ink`).
  var inkLines: Bool = false
  /// Rebuilds a line's box from its ink before it is cut out to be read again (`name_line_box`);
  /// nil reads the page reading's box.
  var lineBox: NameLineBox?
  /// How many lines found in the crop's pixels, and read by neither page reading, are read on
  /// their own as candidates (`name_image_lines`).
  var imageLines: Int = 0
  /// Whether a line found in the pixels also makes runs with the page's lines (`name_image_runs`).
  var imageRuns: Bool = false
  /// Whether the suggested name is read again by the page reading's own boxes where `lineBox`
  /// rebuilt them, the more confident reading kept (`name_page_box_reading`).
  var pageBoxReading: Bool = false
  /// Where every candidate with its features and readings is appended (fitting only); nil for none.
  var candidatesLog: CandidatesLog?

  /// One reading of a name line on its own.
  struct LineReading: Codable {
    var text: String
    var confidence: Double
    /// The boxes the lines were cut by, when `lineBox` rebuilt them (logged for the bench).
    var boxes: [[Double]]? = nil
  }

  /// Suggested name first, deduplicated, and whether the first is the catalog's spelling (the
  /// reading then follows it).
  /// - Parameters:
  ///   - result: the page reading; `coarse`: the coarser second reading (`coarse_page_height`),
  ///     whose lines the name model ranks too.
  ///   - crop: the card crop as found and its grey `luma`, where lines neither reading has are
  ///     looked for; nil when the image is not a card crop.
  func names(
    _ result: TesseractEngine.Result, coarse: TesseractEngine.Result?, page gray: Bitmap,
    crop: (colour: Bitmap, luma: Bitmap)?, file: String, deadline: () -> Int
  ) -> (names: [String], catalogSpelling: Bool) {
    let found = rankedCandidates(result, coarse: coarse, page: gray, crop: crop, deadline: deadline)
    var names: [String] = []
    var catalogSpelling = false
    var logged: [CandidatesLog.Entry] = []
    // The flattened page blends two panels' backgrounds across their edge, and a name ending by
    // it lost its last letter (`PrivatBan|k`): its lines are read again from a page that keeps
    // each side's own. A page read plain is read again plain.
    let gray =
      crop.map { $0.luma != gray ? TextContrast.flattened($0.luma, keepingEdges: true) : gray } ?? gray
    for (rank, candidate) in found.enumerated() {
      var name = candidate.text
      if (rank < rereads || candidatesLog != nil) && !result.timedOut {
        // A line found in the pixels was read on its own already: its text is that reading.
        let reading =
          !candidate.readLines.isEmpty && candidate.lineBoxes.count == candidate.readLines.count
          ? LineReading(text: candidate.text, confidence: (candidate.features["confidence"] ?? 0) * 100)
          : nameEngine.flatMap { reread(candidate, of: gray, with: $0, keeping: true, deadline: deadline()) }
        let chosen = rank == 0 ? surerReading(reading, candidate, of: gray, deadline: deadline) : reading
        var reconciled = name
        if let reading = chosen {
          reconciled = CardNameReconciler.reconcile(page: name, diacritic: reading.text)
          name = reading.confidence >= model?.rereadConfidence ?? 101 ? reading.text : reconciled
        }
        // Logging reads every candidate with the Cyrillic packs, so the fit can choose for any.
        let cyrillic =
          (rank == 0 && mayTakeCyrillic(over: reading, page: candidate)) || candidatesLog != nil
          ? cyrillicReading(candidate, of: gray, deadline: deadline) : nil
        if rank == 0, let cyrillic, takesCyrillic(cyrillic, over: reading, page: candidate) {
          name = cyrillic.text
        }
        logged.append(
          .init(candidate: candidate, reading: reading, reconciled: reconciled, cyrillic: cyrillic))
      }
      let spelled = spellings?.glyphSpelling(of: name) ?? name
      if names.isEmpty && spelled != name {
        // The reading stays as the first alternative, so the record shows what was read.
        catalogSpelling = true
        names = [spelled, name]
      } else if !names.contains(spelled) {
        names.append(spelled)
      }
    }
    candidatesLog?.append(file: file, entries: logged)
    return (names, catalogSpelling)
  }

  /// The name candidates of the readings (and, on a card crop, of the lines found in its pixels),
  /// best first: ranked by the name model, or by the picker's rules without one.
  private func rankedCandidates(
    _ result: TesseractEngine.Result, coarse: TesseractEngine.Result?, page gray: Bitmap,
    crop: (colour: Bitmap, luma: Bitmap)?, deadline: () -> Int
  ) -> [CardNamePicker.Candidate] {
    guard let model else {
      return CardNamePicker.candidates(lines: result.lines, words: result.words, height: Double(gray.height))
    }
    // A card crop's type is measured against a card's height; a pass's crop keeps its own
    // proportions, and its type is sized to its width as a card's is.
    let cardHeight = crop.map { _ in
      NameLineCandidates.cardHeight(width: Double(gray.width), height: Double(gray.height))
    }
    var candidates = NameLineCandidates.candidates(
      page: result, coarse: coarse, width: Double(gray.width), height: Double(gray.height),
      cardHeight: cardHeight)
    if let crop, !result.timedOut {
      candidates += imageLineCandidates(
        crop: crop.colour, luma: crop.luma, page: result, coarse: coarse, deadline: deadline)
    }
    return model.rank(candidates)
  }

  /// `reading`, or the candidate read by the page reading's own boxes when `pageBoxReading` is on,
  /// `lineBox` rebuilt a box and that reading is more confident: the rebuilt box drops a first
  /// letter it takes for a mark on some cards (`Lindex` read `index`, `Wells Fargo` cut short).
  /// The Cyrillic choice still weighs `reading`, the reading it was fitted on.
  func surerReading(
    _ reading: LineReading?, _ candidate: CardNamePicker.Candidate, of gray: Bitmap, deadline: () -> Int
  ) -> LineReading? {
    guard pageBoxReading, lineBox != nil, candidate.readLines.isEmpty, let nameEngine else { return reading }
    let pageBoxes = (candidate.lineBoxes.isEmpty ? [candidate.box] : candidate.lineBoxes).map {
      [$0.x, $0.y, $0.width, $0.height]
    }
    guard reading?.boxes != pageBoxes,
      let second = reread(candidate, of: gray, with: nameEngine, rebuildsBox: false, deadline: deadline()),
      second.confidence > reading?.confidence ?? -1
    else { return reading }
    return second
  }

  /// The name model's probability of the best candidate of the page reading alone (no coarse
  /// reading, no lines found in the pixels) of a card crop; 0 without a model.
  func bestPageProbability(_ result: TesseractEngine.Result, of gray: Bitmap) -> Double {
    guard let model else { return 0 }
    let cardHeight = NameLineCandidates.cardHeight(width: Double(gray.width), height: Double(gray.height))
    let candidates = NameLineCandidates.candidates(
      page: result, coarse: nil, width: Double(gray.width), height: Double(gray.height),
      cardHeight: cardHeight)
    return candidates.map { model.probability($0.features) }.max() ?? 0
  }

  /// Whether the model's fitted choice takes the Cyrillic reading over the Latin one; never
  /// without a model.
  func takesCyrillic(
    _ cyrillic: LineReading, over latin: LineReading?, page candidate: CardNamePicker.Candidate
  )
    -> Bool
  {
    guard let choice = model?.cyrillic else { return false }
    return choice.takes(
      CyrillicChoice.measurements(
        cyrillic: cyrillic, latin: latin, pageConfidence: candidate.features["confidence"] ?? 0))
  }

  /// Whether the model's fitted choice could take some Cyrillic reading of the candidate over its
  /// Latin one (most names are not: their Latin reading is confident), so that it is worth reading;
  /// never without a model.
  func mayTakeCyrillic(over latin: LineReading?, page candidate: CardNamePicker.Candidate) -> Bool {
    guard let choice = model?.cyrillic else { return false }
    guard cyrillicLettersPerHeight > 0 else { return true }
    let lines = candidate.lineBoxes.isEmpty ? [candidate.box] : candidate.lineBoxes
    let heights = lines.reduce(0) { $0 + $1.width / max(1, $1.height) }
    return choice.couldTake(
      over: latin, pageConfidence: candidate.features["confidence"] ?? 0,
      letters: Int((cyrillicLettersPerHeight * heights).rounded(.up)))
  }

  /// The candidate read with the Cyrillic packs: the most confident of their readings that has
  /// Cyrillic letters; nil when the first pack's has none (it decides whether the line is
  /// Cyrillic at all, so a Latin line costs one reading).
  func cyrillicReading(_ candidate: CardNamePicker.Candidate, of image: Bitmap, deadline: () -> Int)
    -> LineReading?
  {
    var best: LineReading?
    for engine in cyrillicEngines {
      guard let reading = reread(candidate, of: image, with: engine, deadline: deadline()),
        reading.text.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) })
      else {
        if best == nil { return nil }
        continue
      }
      if reading.confidence > best?.confidence ?? -1 { best = reading }
    }
    return best
  }

  /// The candidate's lines, each cut out of the prepared crop with a margin of a third of its
  /// height, scaled to `lineHeight` and read as a single line, joined; nil when there is no time
  /// left or a line has nothing legible.
  /// With `keeping`, a line the candidate read on its own already (`readLines`) keeps that reading.
  func reread(
    _ candidate: CardNamePicker.Candidate, of image: Bitmap, with engine: SharedTesseractEngine,
    keeping: Bool = false, rebuildsBox: Bool = true, deadline: Int
  ) -> LineReading? {
    var texts: [String] = []
    var confidence = 100.0
    var boxes: [[Double]] = []
    for (index, pageBox) in (candidate.lineBoxes.isEmpty ? [candidate.box] : candidate.lineBoxes).enumerated()
    {
      if keeping, let read = candidate.readLines[index] {
        texts.append(read.text)
        confidence = min(confidence, read.confidence)
        boxes.append([pageBox.x, pageBox.y, pageBox.width, pageBox.height])
        continue
      }
      let box = (rebuildsBox ? lineBox?.fitted(pageBox, in: image) : nil) ?? pageBox
      boxes.append([box.x, box.y, box.width, box.height])
      guard let cut = Self.lineCut(box, of: image, height: lineHeight), deadline > 0 else { return nil }
      var line = cut.image
      if inkLines {
        let top = max(0, Int(((box.y - cut.origin.y) * cut.scale).rounded()))
        let bottom = max(
          top, min(line.height, Int(((box.y + box.height - cut.origin.y) * cut.scale).rounded())))
        line = NameLineInk.prepared(line, band: top..<bottom)
      }
      let result = engine.recognize(line, segmentation: .singleLine, deadline: deadline)
      guard !result.timedOut, let first = result.lines.first else { return nil }
      // The same cleaning as the page reading, so that the two compare like for like.
      let whole = TesseractEngine.Item(
        text: result.lines.map(\.text).joined(separator: " "),
        box: Box(x: 0, y: 0, width: Double(line.width), height: Double(line.height)),
        confidence: first.confidence)
      let text = CardNamePicker.clean(whole, words: result.words)
      guard !text.isEmpty else { return nil }
      texts.append(text)
      confidence = min(confidence, first.confidence)
    }
    return LineReading(
      text: texts.joined(separator: " "), confidence: confidence, boxes: lineBox == nil ? nil : boxes)
  }

  /// The box with a margin of a third of its height, scaled so the box is `height` pixels high
  /// (0: unscaled); nil when the cut is too small to read. (Wider room to the sides, for a line
  /// box that ends where the background changes under the name, read worse:
  /// bench/names/line_margin.py.)
  static func lineImage(_ box: Box, of image: Bitmap, height: Int) -> Bitmap? {
    lineCut(box, of: image, height: height)?.image
  }

  /// `lineImage` with the factor it was scaled by and the cut's top-left in `image`, to put a
  /// reading's boxes back.
  static func lineCut(_ box: Box, of image: Bitmap, height: Int) -> (
    image: Bitmap, scale: Double, origin: Point
  )? {
    let margin = box.height / 3
    let x0 = max(0, Int(box.x - margin)), y0 = max(0, Int(box.y - margin))
    let x1 = min(image.width, Int(box.x + box.width + margin))
    let y1 = min(image.height, Int(box.y + box.height + margin))
    guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
    let line = image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    let origin = Point(Double(x0), Double(y0))
    guard height > 0, box.height >= 4 else { return (line, 1, origin) }
    let scale = Double(height) / box.height
    return (line.scaled(by: scale, minimumSide: 8), scale, origin)
  }

}
