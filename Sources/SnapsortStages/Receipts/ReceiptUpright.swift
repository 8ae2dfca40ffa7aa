import SnapsortNative

/// Which way up the middle of a receipt page reads best, from tesseract's readings of it turned.
///
/// Print read sideways or upside down comes back as short words, some of them read confidently
/// ("FON" at 82), so a mean confidence over few words can favour a turned junk reading over a
/// blurred upright one. Counting the letters and digits read confidently weighs how much text
/// each turn read well: upright print, even blurred, reads many more. The confidence and the
/// lead are fitted by bench/receipts/fit_upright.py on training pages.
struct ReceiptUpright: Equatable {
  /// A word counts when tesseract read it at this confidence or more.
  var confidentAt: Double
  /// A turn is taken when it reads `(1 + lead)` times the page's confident characters as it is,
  /// and one more.
  var lead: Double

  /// Letters and digits in words of two or more of them read at `confidentAt` or more.
  func score(_ words: [TesseractEngine.Item]) -> Int {
    words.filter { $0.confidence >= confidentAt }
      .map { $0.text.filter { $0.isLetter || $0.isNumber }.count }
      .filter { $0 >= 2 }
      .reduce(0, +)
  }

  /// The index of the turn to read the page at, given each turn's score with the page as it is
  /// first; nil to keep it as it is.
  func chosen(_ scores: [Int]) -> Int? {
    guard let asIs = scores.first,
      let best = scores.indices.max(by: { scores[$0] < scores[$1] }), best > 0
    else { return nil }
    return Double(scores[best]) >= (1 + lead) * Double(asIs) + 1 ? best : nil
  }
}
