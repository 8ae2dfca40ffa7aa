/// Edit distances between words, for matching text OCR read against names it should be.
public enum EditDistance {
  /// Levenshtein distance: insertions, deletions and substitutions each cost 1.
  public static func levenshtein(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }

  /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
  /// neighbouring characters each cost 1 (a typed query's swapped letters).
  public static func optimalStringAlignment(_ p: [Character], _ q: [Character]) -> Int {
    if p.isEmpty { return q.count }
    if q.isEmpty { return p.count }
    var previous2 = [Int](repeating: 0, count: q.count + 1)
    var previous = Array(0...q.count)
    var current = [Int](repeating: 0, count: q.count + 1)
    for i in 1...p.count {
      current[0] = i
      for j in 1...q.count {
        let cost = p[i - 1] == q[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, p[i - 1] == q[j - 2], p[i - 2] == q[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[q.count]
  }
}
