import SnapsortImaging

/// Payment card numbers in OCR text: Luhn check, network from the IIN, and masking so the full
/// number never leaves the process.
public enum PaymentCardNumber {
  public static func luhnValid(_ digits: [Int]) -> Bool {
    guard digits.count >= 12 else { return false }
    var sum = 0
    for (i, d) in digits.reversed().enumerated() {
      if i % 2 == 1 {
        let doubled = d * 2
        sum += doubled > 9 ? doubled - 9 : doubled
      } else {
        sum += d
      }
    }
    return sum % 10 == 0
  }

  /// The network for a card number by its IIN ranges, or nil when none matches.
  public static func network(of digits: [Int]) -> String? {
    func prefix(_ n: Int) -> Int { digits.prefix(n).reduce(0) { $0 * 10 + $1 } }
    let length = digits.count
    let p2 = prefix(2), p3 = prefix(3), p4 = prefix(4), p6 = prefix(6)
    if (p2 == 34 || p2 == 37) && length == 15 { return "amex" }
    if p4 >= 2221 && p4 <= 2720 && length == 16 { return "mastercard" }
    if p2 >= 51 && p2 <= 55 && length == 16 { return "mastercard" }
    if p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925) {
      return "discover"
    }
    if p4 >= 3528 && p4 <= 3589 { return "jcb" }
    if p2 == 36 || (p3 >= 300 && p3 <= 305) || p2 == 38 || p2 == 39 { return "diners" }
    if p2 == 62 || p2 == 81 { return "unionpay" }
    if [50, 56, 57, 58].contains(p2) || p2 == 67 || p2 == 63 || p2 == 60 { return "maestro" }
    if digits.first == 4 && [13, 16, 19].contains(length) { return "visa" }
    return nil
  }

  public struct Match: Sendable, Equatable {
    public var network: String
    public var last4: String
  }

  /// Finds a 13–19 digit number that passes Luhn in the lines (digits may be grouped by spaces).
  public static func find(in lines: [String]) -> Match? {
    for line in lines {
      for candidate in digitRuns(line) where (13...19).contains(candidate.count) && luhnValid(candidate) {
        if let network = network(of: candidate) {
          return Match(network: network, last4: candidate.suffix(4).map(String.init).joined())
        }
      }
    }
    return nil
  }

  /// The line with every run of 12 or more digits (spaces allowed between groups) masked but
  /// its last four: `4111 1111 1111 1111` → `•••• •••• •••• 1111`.
  public static func mask(_ line: String) -> String {
    var characters = Array(line)
    var index = 0
    while index < characters.count {
      guard characters[index].isNumber else {
        index += 1
        continue
      }
      var end = index
      var digitPositions: [Int] = []
      while end < characters.count
        && (characters[end].isNumber || characters[end] == " " || characters[end] == "-")
      {
        if characters[end].isNumber { digitPositions.append(end) }
        end += 1
      }
      if digitPositions.count >= 12 {
        for position in digitPositions.dropLast(4) { characters[position] = "•" }
      }
      index = max(end, index + 1)
    }
    return String(characters)
  }

  /// Masks every run of four or more digits in all lines, keeping only the card's last four
  /// digits where they are printed last. Used once a card number was found: tesseract often
  /// splits the number into groups on separate lines, which per-line masking would miss.
  public static func maskAllGroups(_ lines: [String], last4: String?) -> [String] {
    var masked = lines.map { line -> String in
      var characters = Array(line)
      var index = 0
      while index < characters.count {
        guard characters[index].isNumber else {
          index += 1
          continue
        }
        var end = index
        while end < characters.count && characters[end].isNumber { end += 1 }
        if end - index >= 4 { for i in index..<end { characters[i] = "•" } }
        index = end
      }
      return String(characters)
    }
    // Show the last four again at their last occurrence in reading order.
    if let last4, !last4.isEmpty, let lineIndex = lines.lastIndex(where: { $0.contains(last4) }),
      let range = lines[lineIndex].range(of: last4, options: .backwards)
    {
      var characters = Array(masked[lineIndex])
      let start = lines[lineIndex].distance(from: lines[lineIndex].startIndex, to: range.lowerBound)
      for (offset, digit) in last4.enumerated() { characters[start + offset] = digit }
      masked[lineIndex] = String(characters)
    }
    return masked
  }

  /// Runs of digits allowing single spaces or dashes between groups.
  static func digitRuns(_ line: String) -> [[Int]] {
    var runs: [[Int]] = []
    var current: [Int] = []
    var gap = 0
    for character in line {
      if let d = character.wholeNumberValue, character.isASCII {
        current.append(d)
        gap = 0
      } else if (character == " " || character == "-") && gap == 0 && !current.isEmpty {
        gap = 1
      } else {
        if !current.isEmpty { runs.append(current) }
        current = []
        gap = 0
      }
    }
    if !current.isEmpty { runs.append(current) }
    return runs
  }
}
