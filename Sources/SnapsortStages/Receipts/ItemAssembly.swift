import Foundation
import SnapsortImaging

/// Items put together from item rows read top to bottom: a description may take rows of its own
/// above its amount (or below it, where the receipt prints the amount on a description's first
/// row), a quantity row may stand above or below its item's amount, and a discount on its own row
/// belongs to the item above it rather than being an item.
struct ItemAssembly {
  /// Where a description's further rows stand: above the row with its amount (`Organic Bananas` /
  /// `Family Pack  3.98`), or below it (`Organic Bananas  3.98` / `Family Pack`).
  enum Continuation { case above, below }
  /// Rows of words a description may take above its amount row.
  static let descriptionRows = 2
  /// A "word" this long is a rule or a barcode read as letters (`SSSESSEES…`): the longest
  /// compound nouns of item names stay well under it.
  static let longestWord = 25
  /// Distinct letters per letter below which a row of words is a rule read as letters
  /// (`SSS eeeeS SSeS`, `Se eS en le ee a`): fitted on rendered training receipts' OCR rows by
  /// bench/receipts/fit_letter_variety.py (train seed 21: 1678 of 1683 printed rows kept, 118 of
  /// 255 junk rows dropped).
  static let letterVariety = 0.45
  /// How far right of its item's first row, in line heights, a row of words right under that item
  /// starts when it continues the item's description (`Jogurt natur  2,99` / `  owocowy`), and how
  /// far right of a row of words above it the first item's amount row starts when that row is the
  /// item's first (`Jogurt natur` / `  owocowy  2,99`): fitted on rendered training receipts' OCR
  /// rows by bench/receipts/fit_indent.py.
  static let continuationIndent = 0.28...2.18

  let continuation: Continuation
  private(set) var items: [ReceiptItems.Item] = []
  /// Rows of words read since the last item: still unclaimed when the list ends, they can only
  /// continue a description above them.
  private(set) var unclaimedRows = 0
  /// Rows of words added below the last item's amount row.
  private var rowsBelowLast = 0
  /// Rows of words that became part of the description of the item below them.
  private(set) var joinedRows = 0
  /// Those of them joined to an item after the first.
  private(set) var laterJoinedRows = 0
  /// The first item takes the rows of words above its amount even when its own row has words:
  /// the range it is read on starts at the first item's own rows (`ReceiptItems.firstItemStart`).
  var firstTakesRowsAbove = false
  /// Rows with letters or digits since the last item (rules and blank rows left out).
  private var rowsAfterLastItem = 0
  /// Rows of words without an amount since the last item, nearest last, with their left edges
  /// (`ReceiptExtractor.Line.left`).
  private var waitingRows: [(text: String, left: Double?)] = []
  private var waiting: [String] { waitingRows.map(\.text) }
  /// The left edge of the last item's first row, and of the row being read.
  private var lastItemLeft: Double?
  private var rowLeft: Double?
  /// The row being read starts with a count and a times sign (`3 x Tissue`): an item's first row.
  private var rowCounts = false
  /// A `quantity x unit price` row without an amount that no item above comes to.
  private var quantityAbove: (quantity: String, unitPrice: Money)?
  /// Another reading of an item, by its position: the amount its quantity and unit price come to
  /// where the row prints another (`Tomaten 4,90` / `1,592 kg x 2,51`). The receipt's arithmetic
  /// chooses between the two (`ReceiptItems.reconciled`).
  private(set) var alternatives: [Int: ReceiptItems.Item] = [:]

  init(continuation: Continuation = .above) {
    self.continuation = continuation
  }

  /// Rows of words, and nothing else, right under the last item when the list ends.
  var trailingDescriptionRows: Int { unclaimedRows == rowsAfterLastItem ? unclaimedRows : 0 }

  /// Items whose description has no word: a quantity row whose description went elsewhere.
  var itemsWithoutWords: Int { items.filter { $0.item.description.filter(\.isLetter).count < 2 }.count }

  /// `nextPrice` is the price of the next priced row below `line` when that row is no quantity
  /// row: a quantity row without an amount that comes to it is that item's, printed above it.
  mutating func read(_ line: ReceiptExtractor.Line, nextPrice: Money? = nil) {
    if line.text.contains(where: { $0.isLetter || $0.isNumber }) { rowsAfterLastItem += 1 }
    rowLeft = line.left
    rowCounts = Self.leadingCount.firstMatch(in: line.text) != nil
    let row = ItemRow(line)
    if let amount = row.amount, amount.cents < 0 {
      // A discount: it reduces the item above and is summed in the savings, no item itself, and
      // closes that item: rows below it are no longer its description.
      waitingRows = []
      quantityAbove = nil
      closeLast()
      return
    }
    if row.isQuantityRow {
      readQuantityRow(row, nextPrice: nextPrice)
    } else if let amount = row.amount {
      readPricedRow(row, amount: amount)
    } else if Self.isDescriptionRow(line) {
      readDescriptionRow(
        row, ofWords: !Self.isPackSize(line) || Self.gluedPackSize.firstMatch(in: line.text) != nil)
    } else if !waitingRows.isEmpty, Self.isWordEnd(line) {
      readDescriptionRow(row, ofWords: false)
    } else {
      waitingRows = []
      quantityAbove = nil
    }
  }

  /// The last item takes no more rows below it.
  mutating func closeLast() {
    rowsBelowLast = Self.descriptionRows
  }

  /// Whether a row's letters read as words rather than a rule or a barcode read as letters: no
  /// overlong "word", and enough different letters.
  static func readsAsWords(_ text: String) -> Bool {
    guard !text.split(separator: " ").contains(where: { $0.count >= longestWord }) else { return false }
    let letters = text.lowercased().filter(\.isLetter)
    return Double(Set(letters).count) >= letterVariety * Double(letters.count)
  }

  /// A row of words, or only a pack size, with no amount: part of a description.
  static func isDescriptionRow(_ line: ReceiptExtractor.Line) -> Bool {
    ReceiptItems.isDescription(line) && readsAsWords(line.text) || isPackSize(line)
  }

  /// A row that is only a pack size or weight (`1l`, `250g`, `12ct 6oz`, `6x1,5L`): the end of a
  /// description wrapped onto a row of its own, too few letters for a row of words.
  static func isPackSize(_ line: ReceiptExtractor.Line) -> Bool {
    line.amounts.isEmpty && packSize.firstMatch(in: line.text.trimmingCharacters(in: .whitespaces)) != nil
  }
  /// The end of a word cut at the print width (`Halfvolle me` / `lk`, `Orangensa` / `ft 2x1l`):
  /// two or three lower-case letters, perhaps a pack size, too few for a row of words; it
  /// continues the description rows above it instead of breaking them off (one letter alone is as
  /// often a speck read as `a`).
  static func isWordEnd(_ line: ReceiptExtractor.Line) -> Bool {
    line.amounts.isEmpty && wordEnd.firstMatch(in: line.text.trimmingCharacters(in: .whitespaces)) != nil
  }
  private static let wordEnd = TextPattern(
    #"^\p{Ll}{2,3}(?:\s+(?:\d{1,2}\s?[xX]\s?)?\d{1,4}(?:[.,]\d{1,3})?\s?\p{L}{1,3}\.?)*$"#)
  private static let gluedPackSize = TextPattern(#"\d\p{L}"#)
  private static let packSize = TextPattern(
    #"^(?:(?:\d{1,2}\s?[xX]\s?)?\d{1,4}(?:[.,]\d{1,3})?\s?\p{L}{1,3}\.?(?:\s+|$))+$"#)

  /// A pack size alone joins a description, but only one glued to its unit (`250g`, `0,5l`,
  /// `6pk`) is a sign of one (`ofWords`): a count and a word (`1 NO`, an item count) have the
  /// other shape.
  private mutating func readDescriptionRow(_ row: ItemRow, ofWords: Bool) {
    if ofWords { unclaimedRows += 1 }
    quantityAbove = nil
    if continuation == .below || continuesLastItem, let last = items.last,
      rowsBelowLast < Self.descriptionRows
    {
      let description = [last.item.description, row.description].filter { !$0.isEmpty }.joined(separator: " ")
      items[items.count - 1].item.description = description
      rowsBelowLast += 1
      unclaimedRows = 0
      return
    }
    waitingRows = Array((waitingRows + [(row.description, rowLeft)]).suffix(Self.descriptionRows))
  }

  /// Where descriptions run on above their amounts, a row of words right under an item, indented
  /// from that item's first row as a description's further rows are, is still that item's.
  private var continuesLastItem: Bool {
    continuation == .above && waitingRows.isEmpty && rowsAfterLastItem == rowsBelowLast + 1
      && !rowCounts && Self.isIndented(rowLeft, from: lastItemLeft)
  }
  private static let leadingCount = TextPattern(#"^\s*\d{1,2}\s?[xX×*]\s"#)

  /// Whether a row starting at `left` is indented from one starting at `first` as a description's
  /// further rows are (`continuationIndent`); false where either edge is unknown.
  static func isIndented(_ left: Double?, from first: Double?) -> Bool {
    guard let left, let first else { return false }
    return continuationIndent.contains(left - first)
  }

  /// Over the first item a column heading (`ItemHeading.isColumnHeading`) is none of its rows, nor
  /// is any row above it: a first amount row without words of its own (`238 1 10.00 10.00`) would
  /// take `ITEM QTY U/P AMOUNT` as its description.
  private mutating func dropHeadingRows() {
    guard items.isEmpty, let heading = waitingRows.lastIndex(where: { ItemHeading.isColumnHeading($0.text) })
    else { return }
    waitingRows.removeFirst(heading + 1)
  }

  private mutating func readQuantityRow(_ row: ItemRow, nextPrice: Money?) {
    guard let quantity = row.quantity, let unitPrice = row.unitPrice else { return }
    dropHeadingRows()
    let product = ReceiptItems.multiply(quantity, unitPrice)
    if row.amount == nil, !row.hasWords, nextPrice == product {
      quantityAbove = (quantity, unitPrice)
      return
    }
    if row.description.filter(\.isLetter).count >= 2 && items.isEmpty && !firstTakesRowsAbove {
      waitingRows = []
    }
    if row.amount == nil, !row.hasWords, !waitingRows.isEmpty, let last = items.last, last.amount == product,
      rowsBelowLast + waitingRows.count <= Self.descriptionRows
    {
      // The item above came to what this row does: the rows of words between its amount row and
      // its quantity row continue its description (`Yaourt nature  2,94` / `fermier` / `2 x 1,47`).
      let description = ([last.item.description] + waiting).joined(separator: " ")
      items[items.count - 1] = ReceiptItems.make(description, quantity, unitPrice, product)
      rowsBelowLast += waitingRows.count
      waitingRows = []
      unclaimedRows = 0
      quantityAbove = nil
      return
    }
    let description = joined(row.description)
    if let amount = row.amount {
      if !description.isEmpty {
        append(description, quantity, unitPrice, amount)
      } else if let last = items.last, last.amount == amount, waitingRows.isEmpty {
        // The quantity row under an item that already shows its amount.
        items[items.count - 1] = ReceiptItems.make(last.item.description, quantity, unitPrice, amount)
      } else {
        append(description, quantity, unitPrice, amount)
      }
      if (product.cents - amount.cents).magnitude > 1 { noteAlternative(quantity, unitPrice, product) }
    } else if !description.isEmpty {
      append(description, quantity, unitPrice, product)
    } else if let last = items.last, last.amount == product {
      items[items.count - 1] = ReceiptItems.make(last.item.description, quantity, unitPrice, product)
    } else {
      // The item above it printed another amount: one of the two was misread, or the row is the
      // next item's, printed above it.
      if waitingRows.isEmpty { noteAlternative(quantity, unitPrice, product) }
      quantityAbove = (quantity, unitPrice)
      return
    }
    quantityAbove = nil
  }

  private mutating func readPricedRow(_ row: ItemRow, amount: Money) {
    let ownWords = row.hasWords
    // Rows of words over it, even a heading alone, make the row an item: its amount is kept.
    let described = ownWords || !waitingRows.isEmpty
    dropHeadingRows()
    // Above the first item a row of words is as likely a header (a column heading, a cashier)
    // as a description: the first item takes it only when its own row has no words. Where
    // descriptions stand below their amounts, a row of words above is never this item's, and a
    // row without words takes its description from the rows below (`1X 000004089728 5.90SR` /
    // `SAKUMASHIKIDROP`).
    if continuation == .below {
      waitingRows = []
    } else if ownWords && items.isEmpty && !firstTakesRowsAbove {
      // Unless the row is indented from the row of words right above it as a description's
      // further rows are, and that row is no column heading: it is the item's first.
      let indented =
        waitingRows.last.map { Self.isIndented(rowLeft, from: $0.left) && !ItemHeading.isHeading($0.text) }
        ?? false
      waitingRows = indented ? Array(waitingRows.suffix(1)) : []
    }
    guard described || continuation == .below else {
      quantityAbove = nil
      return
    }
    var quantity = row.quantity ?? "1"
    // A weight printed without its price per unit (`Äpfel x0,532  1,86`) leaves that price unknown.
    var unitPrice = row.unitPrice ?? (row.quantity?.contains(".") == true ? nil : amount)
    if let above = quantityAbove, ReceiptItems.multiply(above.quantity, above.unitPrice) == amount {
      (quantity, unitPrice) = (above.quantity, above.unitPrice)
      alternatives[items.count - 1] = nil
    }
    append(joined(row.description), quantity, unitPrice, amount)
    if let product = row.product, let count = row.printedQuantity, let unit = row.printedUnitPrice {
      noteAlternative(count, unit, product)
    }
  }

  /// The last item read another way, `quantity` × `unitPrice` = `amount`, under its description.
  private mutating func noteAlternative(_ quantity: String, _ unitPrice: Money, _ amount: Money) {
    guard let last = items.last else { return }
    alternatives[items.count - 1] = ReceiptItems.make(last.item.description, quantity, unitPrice, amount)
  }

  /// The waiting description rows, then the row's own words.
  private func joined(_ own: String) -> String {
    (waiting + [own]).filter { !$0.isEmpty }.joined(separator: " ")
  }

  private mutating func append(
    _ description: String, _ quantity: String, _ unitPrice: Money?, _ amount: Money
  ) {
    items.append(ReceiptItems.make(description, quantity, unitPrice, amount))
    lastItemLeft = waitingRows.first?.left ?? rowLeft
    joinedRows += waitingRows.count
    if items.count > 1 { laterJoinedRows += waitingRows.count }
    waitingRows = []
    quantityAbove = nil
    unclaimedRows = 0
    rowsBelowLast = 0
    rowsAfterLastItem = 0
  }
}
