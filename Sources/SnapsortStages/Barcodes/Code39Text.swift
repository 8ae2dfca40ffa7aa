/// What the characters of a Code 39 symbol stand for beyond themselves: Full ASCII shift pairs and
/// the Italian pharmacode (Code 32). Both decoders return the raw characters (zxing-cpp 1.4's own
/// extended mode drops a symbol with an invalid pair instead of returning it raw).
public enum Code39Text {
  /// The interpretation of `raw` that becomes the value: Full ASCII (every shift pair valid); nil
  /// leaves the raw text as the value. A Code 32 reading goes beside it (`code32(_:)`, the
  /// record's `pharmacode`): its check digit holds for one random six-character Code 39 in ten (a
  /// loyalty card's `TZS4SK` reads as `A872157969`).
  public static func interpreted(_ raw: String) -> String? {
    fullASCII(raw)
  }

  /// Full ASCII: `$`, `%`, `/` or `+` followed by a letter is one character (bench/barcodes/
  /// FINDINGS.md §7). Nil when the text holds no pair, or any shift character that does not begin
  /// a valid pair (the text is then plain Code 39, as `PRICE $5` or `50%`).
  public static func fullASCII(_ raw: String) -> String? {
    let shifts: Set<Character> = ["$", "%", "/", "+"]
    guard raw.contains(where: { shifts.contains($0) }) else { return nil }
    var out = String.UnicodeScalarView()
    var iterator = raw.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      guard shifts.contains(Character(scalar)) else {
        out.append(scalar)
        continue
      }
      guard let letter = iterator.next(), ("A"..."Z").contains(letter),
        let decoded = pair(Character(scalar), Int(letter.value) - 65)
      else { return nil }
      out.append(Unicode.Scalar(decoded)!)
    }
    return String(out)
  }

  /// The character of a shift pair, `index` 0 for A … 25 for Z; nil for the pairs the table leaves
  /// undefined (`/P` … `/Y`).
  private static func pair(_ shift: Character, _ index: Int) -> UInt32? {
    switch shift {
    case "$": return UInt32(1 + index)
    case "+": return UInt32(0x61 + index)
    case "/":
      if index <= 14 { return UInt32(0x21 + index) }
      return index == 25 ? 0x3A : nil
    default:  // "%"
      let table: [UInt32] = [
        0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F,
        0x7B, 0x7C, 0x7D, 0x7E, 0x7F, 0x00, 0x40, 0x60, 0x7F, 0x7F, 0x7F,
      ]
      return table[index]
    }
  }

  /// Code 32: six characters of `0-9 B-Z` without vowels read as a base-32 number, written as 9
  /// digits with leading zeros behind an `A`; the 9th digit is a check digit (odd positions as
  /// they are, even ones doubled with their digits summed, mod 10). `3PRM8N` is `A123456788`.
  public static func code32(_ raw: String) -> String? {
    let alphabet = Array("0123456789BCDFGHJKLMNPQRSTUVWXYZ")
    guard raw.count == 6 else { return nil }
    var number = 0
    for character in raw {
      guard let digit = alphabet.firstIndex(of: character) else { return nil }
      number = number * 32 + digit
    }
    guard number <= 999_999_999 else { return nil }
    let text = String(number)
    let digits = Array(String(repeating: "0", count: 9 - text.count) + text).map { Int(String($0))! }
    var sum = 0
    for (index, digit) in digits.prefix(8).enumerated() {
      if index % 2 == 0 {
        sum += digit
      } else {
        let doubled = digit * 2
        sum += doubled / 10 + doubled % 10
      }
    }
    guard sum % 10 == digits[8] else { return nil }
    return "A" + digits.map(String.init).joined()
  }
}
