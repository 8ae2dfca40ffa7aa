import Foundation

/// A regular expression in ICU syntax over Swift strings. Receipt patterns need lookbehind
/// (`(?<![\d.,])` keeps an amount from starting inside a date), which Swift's `Regex` lacks.
struct TextPattern: @unchecked Sendable {
  // NSRegularExpression is immutable once created and documented as safe to share between threads.
  let regex: NSRegularExpression

  init(_ pattern: String) {
    do {
      regex = try NSRegularExpression(pattern: pattern)
    } catch {
      preconditionFailure("invalid pattern \(pattern): \(error)")
    }
  }

  struct Match {
    var range: Range<String.Index>
    /// Capture groups from 1; nil for a group that did not take part.
    var groups: [Substring?]
    subscript(_ group: Int) -> Substring? { groups[group - 1] }
  }

  func matches(in text: String) -> [Match] {
    regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { result in
      guard let range = Range(result.range, in: text) else { return nil }
      let groups = (1..<max(1, result.numberOfRanges)).map { index -> Substring? in
        Range(result.range(at: index), in: text).map { text[$0] }
      }
      return Match(range: range, groups: groups)
    }
  }

  func firstMatch(in text: String) -> Match? { matches(in: text).first }
}
