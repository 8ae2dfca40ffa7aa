import Foundation
import SnapsortNative

/// Where a payment card's number, expiry date and holder's name are on its upright crop, and the
/// crop with them painted over: what every crop of a payment card goes through before its file is
/// written (`CardCropFile`), so that no image snapsort writes shows them.
///
/// The places come from the OCR stage's lines, whose boxes are in the crop's pixels, because what
/// the lines say generalises across designs where a fixed layout would not:
/// - a line with a run of four or more digits (masked or not) is a group of the number; tesseract
///   often reads another group of the same row as letters or not at all, so the whole row is
///   painted, edge to edge;
/// - any other line with two digits or more (the expiry date, a CVV) and a line naming an expiry
///   (`VALID THRU`, `GÜLTIG BIS`, …) is painted;
/// - a line of letters below the number that is neither the card's name nor a network's is the
///   holder's name.
///
/// A card is taken for a payment card when OCR found a Luhn-valid number in a network's range, or
/// read a network's name or `VALID THRU` (a misread digit fails the Luhn check, yet the photo still
/// shows the number). When no line places its number, or the photo failed before its text was read,
/// the card below its top third, where ID-1 cards print number, expiry and name, is pixelated in
/// blocks a tenth of the card high instead.
public struct PaymentCardRedaction: Sendable, Equatable {
  /// Rectangles painted in the colour around them, in crop pixels, padded and clipped.
  public var regions: [Box]
  /// Pixelate the card below its top third: nothing placed the number.
  public var lowerTwoThirds: Bool

  public init(regions: [Box], lowerTwoThirds: Bool) {
    self.regions = regions
    self.lowerTwoThirds = lowerTwoThirds
  }

  /// What to paint over on a crop of `width` × `height`, or nil when it shows no payment card.
  ///
  /// - Parameters:
  ///   - text: what the OCR stage read on the crop.
  ///   - textWasDue: an OCR stage applies to the photo, so a missing `text` means the photo failed
  ///     before it was read (and may show a card number), not that the config reads no text.
  public static func plan(text: CardText?, textWasDue: Bool, width: Int, height: Int)
    -> PaymentCardRedaction?
  {
    guard let text else { return textWasDue ? Self(regions: [], lowerTwoThirds: true) : nil }
    guard isPaymentCard(text) else { return nil }
    let regions = Self.regions(of: text, width: width, height: height)
    return regions.isEmpty
      ? Self(regions: [], lowerTwoThirds: true) : Self(regions: regions, lowerTwoThirds: false)
  }

  /// Whether the text says the card is a payment card.
  static func isPaymentCard(_ text: CardText) -> Bool {
    text.payment != nil || text.hidesNumber || namesPaymentCard(text.lines.map(\.text))
  }

  /// Whether a line names a card network or an expiry label ("VALID THRU"): a payment card even
  /// when its number was not read whole.
  public static func namesPaymentCard(_ lines: [String]) -> Bool {
    lines.contains { line in
      let words = ReceiptKeywords.fold(line)
      return folded.networkNames.contains { words.contains($0) }
        || folded.paymentExpiryLabels.contains { words.contains($0) }
    }
  }

  /// The padded boxes of the number's rows, the expiry and the holder's name; empty when no line
  /// holds a group of the number.
  static func regions(of text: CardText, width: Int, height: Int) -> [Box] {
    let numberRows = text.lines.filter { longestDigitRun($0.text) >= 4 }
    guard let numberTop = numberRows.map(\.box.midY).min() else { return [] }
    var regions = numberRows.map { row in
      let box = padded(row.box)
      return Box(x: 0, y: box.y, width: Double(width), height: box.height)
    }
    let cardName = text.name.suggested.map(ReceiptKeywords.fold)
    for line in text.lines where longestDigitRun(line.text) < 4 {
      let isHolder = line.box.midY > numberTop && isHolderName(line.text, cardName: cardName)
      if digitCount(line.text) >= 2 || namesExpiry(line.text) || isHolder {
        regions.append(padded(line.box))
      }
    }
    return regions.compactMap { clipped($0, width: width, height: height) }
  }

  // MARK: - Reading the lines

  /// Digits, counting the OCR stage's mask (`•`) as the digit it hides.
  static func isDigit(_ character: Character) -> Bool {
    character == "•" || (character.isASCII && character.isNumber)
  }

  static func digitCount(_ text: String) -> Int { text.filter(isDigit).count }

  /// The longest run of digits without a space: a group of the number is four or more.
  static func longestDigitRun(_ text: String) -> Int {
    var longest = 0
    var run = 0
    for character in text {
      run = isDigit(character) ? run + 1 : 0
      longest = max(longest, run)
    }
    return longest
  }

  static func namesExpiry(_ text: String) -> Bool {
    let words = ReceiptKeywords.fold(text)
    return folded.expiryLabels.contains { words.contains($0) }
  }

  /// Mostly letters, three or more, and not only the card's own name or a network's.
  static func isHolderName(_ text: String, cardName: String?) -> Bool {
    let letters = text.filter(\.isLetter).count
    let printed = text.filter { !$0.isWhitespace }.count
    guard letters >= 3, Double(letters) >= 0.6 * Double(printed) else { return false }
    let words = ReceiptKeywords.fold(text)
    if words == cardName { return false }
    // A network's name cut off at the card's edge (`MASTERCA`) is still the network's.
    return !words.split(separator: " ").allSatisfy { word in
      furniture.contains(String(word)) || (word.count >= 6 && furniture.contains { $0.hasPrefix(word) })
    }
  }

  /// The folded words of `networkNames` and `cardWords`.
  static let furniture = Set(
    (networkNames + cardWords).flatMap { ReceiptKeywords.fold($0).split(separator: " ").map(String.init) })

  /// The phrases folded as OCR lines are (`ReceiptKeywords.fold`), once.
  static let folded = (
    networkNames: networkNames.map(ReceiptKeywords.fold),
    paymentExpiryLabels: paymentExpiryLabels.map(ReceiptKeywords.fold),
    expiryLabels: expiryLabels.map(ReceiptKeywords.fold)
  )

  /// Card networks' names, as printed on their cards, and the network each names (the ids of
  /// `PaymentCardNumber.network(of:)`).
  static let networks: [(name: String, network: String)] = [
    ("visa", "visa"), ("mastercard", "mastercard"), ("maestro", "maestro"), ("amex", "amex"),
    ("american express", "amex"), ("unionpay", "unionpay"), ("diners club", "diners"), ("jcb", "jcb"),
  ]
  static let networkNames = networks.map(\.name)

  /// Expiry labels only payment cards print.
  static let paymentExpiryLabels = ["valid thru", "good thru", "valid through", "month year"]

  /// Expiry labels, in the languages of the receipt keywords (en, pl, de, fr, es, it, nl, sv, ru,
  /// uk).
  static let expiryLabels =
    paymentExpiryLabels + [
      "valid until", "valid to", "expires", "expiry", "exp", "wazna do", "data waznosci", "gultig bis",
      "valable jusqu", "expire fin", "fin de validite", "valida hasta", "vence", "caduca",
      "valida fino", "scadenza", "scade", "geldig tot", "geldig t m", "vervaldatum", "giltig till",
      "giltig t o m",
      "действительна до", "срок действия", "дійсна до", "термін дії",
    ]

  /// Words on a payment card that are not a person's name.
  static let cardWords = [
    "debit", "credit", "electron", "platinum", "gold", "business", "contactless", "card",
  ]

  // MARK: - Geometry

  /// A line's box grown by a third of its height on every side (at least 6 px): tesseract's boxes
  /// hug the glyphs, and a sliver of a digit's stroke left at the edge is still a clue.
  static func padded(_ box: Box) -> Box {
    let pad = max(6, (box.height / 3).rounded(.up))
    return Box(x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad)
  }

  static func clipped(_ box: Box, width: Int, height: Int) -> Box? {
    let x0 = max(0, box.x.rounded(.down)), y0 = max(0, box.y.rounded(.down))
    let x1 = min(Double(width), box.maxX.rounded(.up)), y1 = min(Double(height), box.maxY.rounded(.up))
    guard x1 > x0, y1 > y0 else { return nil }
    return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
