import Foundation
import SnapsortNative

extension NameLineCandidates {
  /// The measurements of one run of lines (one line, or a name set on two or three), by the names
  /// in `featureNames`. Keep in step with bench/names/fit_names.py, which only reads them.
  static func features(
    _ run: [RunLine], size: (width: Double, height: Double, card: Double),
    tallest: Double, heights: [Double], above: Int
  ) -> [String: Double] {
    let boxes = run.map(\.line.box)
    let box = union(boxes)
    let lineHeight = boxes.map(\.height).reduce(0, +) / Double(boxes.count)
    let text = run.map(\.text).joined(separator: " ")
    let raw = run.map(\.line.text).joined(separator: " ")
    let letters = text.filter(\.isLetter)
    let visible = Double(max(1, text.filter { !$0.isWhitespace }.count))
    let kept = run.flatMap(\.words).filter { word in text.contains(word.text) }
    let coverage = CardNameLexicon.shared.coverage(of: text)
    let tokens = text.split(separator: " ")
    let rank = heights.firstIndex { $0 <= boxes[0].height } ?? heights.count
    return [
      "height": lineHeight / size.card,
      "height_to_tallest": lineHeight / max(1, tallest),
      "height_rank": Double(min(rank, 4)),
      "top": box.y / size.height,
      "lines_above": Double(min(above, 4)),
      "centre_offset": abs((box.x + box.width / 2) / size.width - 0.5) * 2,
      "width": box.width / size.width,
      "confidence": run.map(\.line.confidence).reduce(0, +) / Double(run.count) / 100,
      "weakest_word": (kept.map(\.confidence).min() ?? 0) / 100,
      "log_letters": log1p(Double(letters.count)),
      "letter_share": Double(letters.count) / visible,
      "kept_share": Double(text.count) / Double(max(1, raw.count)),
      "words": Double(min(tokens.count, 6)),
      "capitals": Double(letters.filter(\.isUppercase).count) / Double(max(1, letters.count)),
      "digits": Double(min(text.filter(\.isNumber).count, 4)),
      "boilerplate": coverage.boilerplate,
      "programme": coverage.programme,
      "given_name": coverage.givenName,
      "person_name": CardNamePicker.looksLikePersonName(text) ? 1 : 0,
      "lines": Double(run.count),
      "strokes_only": IssuerText.fold(text).filter(\.isLetter).allSatisfy(CardNamePicker.strokes.contains)
        ? 1 : 0,
      "word_like": tokens.contains { CardNamePicker.looksLikeWord(String($0)) } ? 1 : 0,
      "coarse_reading": 0,
      "image_line": 0,
      "line_gap": zip(boxes, boxes.dropFirst()).map { ($1.y - $0.y - $0.height) / max(1, lineHeight) }.max()
        ?? 0,
    ]
  }
}
