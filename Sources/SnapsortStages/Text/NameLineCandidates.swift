import Foundation
import SnapsortNative

/// Every line of a card's page reading that could be its name, and every run of two or three
/// lines set one above the other in type of the same size (a name printed on two lines), each with
/// the measurements `NameModel` ranks them by.
public enum NameLineCandidates {
  /// Feature names this build computes, in a model file's terms.
  public static let featureNames = [
    "height", "height_to_tallest", "height_rank", "top", "lines_above", "centre_offset", "width",
    "confidence", "weakest_word", "log_letters", "letter_share", "kept_share", "words", "capitals",
    "digits", "boilerplate", "programme", "given_name", "person_name", "lines", "strokes_only",
    "word_like", "coarse_reading", "line_gap", "image_line",
  ]

  /// The candidates of the page reading, then those of the coarser second reading whose text the
  /// page reading has no candidate for (`coarse_reading` 1): first the runs of the page's lines
  /// with the coarse lines where the page has none (a name's second line read only at the coarser
  /// scale, `ACE` / `HARDWARE`), then the coarse reading's own, each measured within its lines.
  public static func candidates(
    page: TesseractEngine.Result, coarse: TesseractEngine.Result?, width: Double, height: Double,
    cardHeight: Double? = nil
  ) -> [CardNamePicker.Candidate] {
    var found = candidates(
      read: page.lines.map { ($0, page.words) }, width: width, height: height, cardHeight: cardHeight)
    guard let coarse else { return found }
    var known = Set(found.map { IssuerText.fold($0.text) })
    let added = coarse.lines.filter { line in !page.lines.contains { sameLine($0.box, line.box) } }
    let merged = candidates(
      read: page.lines.map { ($0, page.words) } + added.map { ($0, coarse.words) }, width: width,
      height: height, cardHeight: cardHeight)
    let own = candidates(
      read: coarse.lines.map { ($0, coarse.words) }, width: width, height: height, cardHeight: cardHeight)
    for var candidate in merged + own where !known.contains(IssuerText.fold(candidate.text)) {
      candidate.features["coarse_reading"] = 1
      known.insert(IssuerText.fold(candidate.text))
      found.append(candidate)
    }
    return found
  }

  /// Whether two boxes are one line of text: they overlap sideways, and by half the shorter
  /// height.
  static func sameLine(_ a: Box, _ b: Box) -> Bool {
    let vertical = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    let horizontal = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    return horizontal > 0 && vertical > 0.5 * min(a.height, b.height)
  }

  /// - Parameters:
  ///   - lines: OCR lines with boxes in the crop's pixels.
  ///   - words: OCR words of the same reading.
  ///   - width: the crop's width; `height` its height.
  public static func candidates(
    lines: [TesseractEngine.Item], words: [TesseractEngine.Item], width: Double, height: Double
  ) -> [CardNamePicker.Candidate] {
    candidates(read: lines.map { ($0, words) }, width: width, height: height)
  }

  /// A line as a run holds it: the reading's line, its cleaned text and the words it was cleaned
  /// from.
  typealias RunLine = (line: TesseractEngine.Item, text: String, words: [TesseractEngine.Item])

  /// The candidates of lines that may come from different readings, each line with the words of
  /// the reading it came from. A line takes only its own reading's words: a line found in the
  /// pixels lies over the page's words of the same print, and took them as well (`ESSO ESSO`,
  /// `Gartnerei Schafer Gärtnerei Schäfer`: two readings of one line in one text). `cardHeight`
  /// is the height type sizes are measured against (`cardHeight(width:height:)` for a card or
  /// pass crop; default `height`).
  static func candidates(
    read lines: [(line: TesseractEngine.Item, words: [TesseractEngine.Item])], width: Double, height: Double,
    cardHeight: Double? = nil
  ) -> [CardNamePicker.Candidate] {
    let cardHeight = cardHeight ?? height
    let kept = lines.compactMap { line, words -> RunLine? in
      // A third of the card tall is a barcode or a logo read as letters, not type.
      guard line.box.height <= cardHeight * 0.3 else { return nil }
      let own = CardNamePicker.wordsInLine(line, words: words)
      let cleaned = CardNamePicker.clean(line, words: own)
      if cleaned.filter(\.isLetter).count >= 2 { return (line, cleaned, own) }
      // A line that is only `&` (`KITCHEN` / `&` / `CO`) joins the lines around it in a run.
      let bare = line.text.trimmingCharacters(in: .whitespacesAndNewlines)
      return CardNamePicker.conjunctions.contains(bare) ? (line, bare, own) : nil
    }.sorted { $0.line.box.y < $1.line.box.y }
    let lettered = kept.filter { !isConjunction($0) }
    let tallest = lettered.map(\.line.box.height).max() ?? 1
    let heights = lettered.map(\.line.box.height).sorted(by: >)
    var result: [CardNamePicker.Candidate] = []
    for start in kept.indices {
      var run = [kept[start]]
      var next = start + 1
      while true {
        let lineFeatures = features(
          run, size: (width, height, cardHeight), tallest: tallest, heights: heights,
          above: lettered.filter { $0.line.box.y + $0.line.box.height <= run[0].line.box.y }.count)
        // Noise, and small print through and through (`Scan at checkout`, `Carte fidélité`), is
        // never the name, not even an alternative; it still counts for the others' measurements.
        let text = run.map(\.text).joined(separator: " ")
        if !isNoise(text) && lineFeatures["boilerplate"]! < 1 && !isConjunction(run[0])
          && !isConjunction(run[run.count - 1])
        {
          result.append(
            CardNamePicker.Candidate(
              text: text, score: 0, box: union(run.map(\.line.box)), lineBoxes: run.map(\.line.box),
              readLines: conjunctionLines(run), features: lineFeatures))
        }
        guard run.count < 3,
          let following = (next..<kept.count).first(where: {
            continues(run.last!.line.box, kept[$0].line.box)
          })
        else { break }
        run.append(kept[following])
        next = following + 1
      }
    }
    return result
  }

  static func isConjunction(_ line: RunLine) -> Bool {
    CardNamePicker.conjunctions.contains(line.text)
  }

  /// A run's `&` lines, kept as the page read them: read again alone, a lone `&` cleans to nothing.
  static func conjunctionLines(_ run: [RunLine]) -> [Int: (text: String, confidence: Double)] {
    var lines: [Int: (text: String, confidence: Double)] = [:]
    for (index, line) in run.enumerated() where isConjunction(line) {
      lines[index] = (line.text, line.line.confidence)
    }
    return lines
  }

  /// Fewer than three letters, or at most four that are all vertical strokes (`wil`, `IMM`):
  /// specks, a logo's edge or barcode bars read as letters. Keep in step with `is_noise` in
  /// bench/names/fit_names.py.
  static func isNoise(_ text: String) -> Bool {
    let letters = IssuerText.fold(text).filter(\.isLetter)
    return letters.count < 3 || (letters.count <= 4 && letters.allSatisfy(CardNamePicker.strokes.contains))
  }

  /// Whether `lower` continues the name on `upper`: type of nearly the same height, at most
  /// `maximumGap` line heights below it, and overlapping it sideways.
  static func continues(_ upper: Box, _ lower: Box) -> Bool {
    let ratio = lower.height / max(1, upper.height)
    let gap = lower.y - (upper.y + upper.height)
    let overlap = min(upper.x + upper.width, lower.x + lower.width) - max(upper.x, lower.x)
    return heightRatio.contains(ratio) && gap > -0.3 * upper.height && gap < maximumGap * upper.height
      && overlap > 0.3 * min(upper.width, lower.width)
  }

  /// How much taller or shorter a name's next line may be: an accent or a descender on one line
  /// only stretches its box (`BANQUE` / `CHÂTELET` 1.35, `ace` / `hardware` 1.57). The extremes
  /// over the training split's names set on several lines, 0.71 and 1.57, rounded outwards
  /// (bench/names/run_heights.py).
  static let heightRatio = 0.7...1.6

  /// The widest gap between the lines of one name on the training split's cards was 1.32 ink
  /// heights (bench/gen, `--split train`); how wide a run's gap is, is the model's `line_gap`.
  static let maximumGap = 1.35

  /// The height of an ID-1 card as wide as the crop when the crop is taller than that (a wallet
  /// pass keeps its own proportions, and its type is sized to its width as a card's is), else the
  /// crop's height: what the sizes, scales and shares made for a card crop's height are taken of.
  public static func cardHeight(width: Double, height: Double) -> Double {
    min(height, width / CardDetector.cardAspect)
  }

  static func union(_ boxes: [Box]) -> Box {
    let x0 = boxes.map(\.x).min() ?? 0, y0 = boxes.map(\.y).min() ?? 0
    let x1 = boxes.map { $0.x + $0.width }.max() ?? 0, y1 = boxes.map { $0.y + $0.height }.max() ?? 0
    return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
