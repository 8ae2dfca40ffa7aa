/// A payment card that prints only the last four digits of its number (`•••• 4242`), as wallet apps
/// and minimal card designs do: no whole number passes the Luhn check, so the network comes from
/// its name printed on the card and the last four from the masked number's line.
extension PaymentCardNumber {
  /// Whether the lines say "payment card" besides a number: a network's name or a payment card's
  /// expiry label (`PaymentCardRedaction.namesPaymentCard`), or an expiry date on its own
  /// (`12/29`). A Luhn-valid number in a network's range alone does not: loyalty programmes
  /// number their cards the same way (ISO/IEC 7812), and on training renders such a member number
  /// was 4 of the 61 numbers found, each on a card that printed none of these, against 4 of the 57
  /// payment cards' (their network shown only by its logo).
  public static func saysPaymentCard(_ lines: [String]) -> Bool {
    PaymentCardRedaction.namesPaymentCard(lines) || lines.contains { expiryDate.firstMatch(in: $0) != nil }
  }
  private static let expiryDate = TextPattern(#"(?<![\d/])(0[1-9]|1[0-2])\s?/\s?\d{2}(?![\d/])"#)

  /// The network and last four of a card whose number is masked but for its last four digits:
  /// exactly one network named on the card (`VISA`, `AMERICAN EXPRESS`) and exactly one line
  /// that reads as a masked number, and no other group of four digits or more. A member number
  /// or a year after a word is not taken: the mask must be glyphs, not a capitalised or upper-case
  /// word (`Member since 2010`).
  public static func findMasked(in lines: [String]) -> Match? {
    guard let network = namedNetwork(in: lines) else { return nil }
    let endings = Set(lines.compactMap(maskedLast4))
    guard endings.count == 1, let last4 = endings.first, longGroups(in: lines).isSubset(of: [last4]) else {
      return nil
    }
    return Match(network: network, last4: last4)
  }

  /// The runs of four digits or more the lines print outside mask tokens: a card that prints
  /// another (the number's other groups, read apart from its last) does not mask its number.
  static func longGroups(in lines: [String]) -> Set<String> {
    let tokens = lines.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    return Set(
      tokens.filter { !isMaskToken($0) }.flatMap { token in
        token.split(whereSeparator: { !($0.isASCII && $0.isNumber) }).map(String.init).filter {
          $0.count >= 4
        }
      })
  }

  /// The one network whose name the lines print, each of its words anywhere on the card (a
  /// logo's `AMERICAN` and `EXPRESS` are read as lines of their own, apart); nil when none or more
  /// than one is named.
  static func namedNetwork(in lines: [String]) -> String? {
    let words = Set(lines.flatMap { ReceiptKeywords.fold($0).split(separator: " ").map(String.init) })
    let named = Set(networkNames.filter { $0.words.allSatisfy(words.contains) }.map(\.network))
    return named.count == 1 ? named.first : nil
  }

  /// The last four digits of a line that reads as a masked card number: one to four mask
  /// tokens, then four digits ending the line; or the four digits alone, where OCR lost the mask
  /// or read it as a line of its own, unless they read as a year (`2019`, a "member since").
  static func maskedLast4(_ line: String) -> String? {
    let tokens = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let last = tokens.last, last.count == 4, last.allSatisfy({ $0.isASCII && $0.isNumber }),
      tokens.count <= 5, tokens.dropLast().allSatisfy(isMaskToken)
    else { return nil }
    if tokens.count == 1, ["19", "20"].contains(last.prefix(2)) { return nil }
    return last
  }

  /// Whether a token is read from a group of dots, stars or crosses: one character repeated
  /// (`XXXX`, `••••`, `0000`), or symbols and lower-case letters with no digit but the round
  /// ones OCR makes of a dot (`eeee`, `seve`, `o0ee`, `0°`). Not a word with a capital (`Member`,
  /// `SINCE`) and not a number.
  static func isMaskToken(_ token: String) -> Bool {
    guard (2...6).contains(token.count) else { return false }
    if Set(token).count == 1 { return true }
    let digits = token.filter(\.isNumber)
    guard digits.count < token.count, digits.allSatisfy({ $0 == "0" || $0 == "8" }) else { return false }
    return token.allSatisfy { !$0.isLetter || $0.isLowercase }
  }

  /// `PaymentCardRedaction.networks`, each name as its folded words.
  private static let networkNames = PaymentCardRedaction.networks.map {
    (words: ReceiptKeywords.fold($0.name).split(separator: " ").map(String.init), network: $0.network)
  }
}
