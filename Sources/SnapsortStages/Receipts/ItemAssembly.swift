import Foundation
import SnapsortImaging

/// Items put together from item rows read top to bottom: a description may take rows of its own
/// above its amount, a quantity row may stand above or below its item's amount, and a discount
/// on its own row belongs to the item above it rather than being an item.
struct ItemAssembly {
  /// Rows of words a description may take above its amount row.
  static let descriptionRows = 2
  /// A "word" this long is a rule or a barcode read as letters (`SSSESSEES…`): the longest
  /// compound nouns of item names stay well under it.
  static let longestWord = 25

  private(set) var items: [ReceiptItems.Item] = []
  /// Rows of words without an amount since the last item, nearest last.
  private var waiting: [String] = []
  /// A `quantity x unit price` row without an amount that no item above comes to.
  private var quantityAbove: (quantity: String, unitPrice: Money)?

  mutating func read(_ line: ReceiptExtractor.Line) {
    let row = ItemRow(line)
    if let amount = row.amount, amount.cents < 0 {
      // A discount: it reduces the item above and is summed in the savings, no item itself.
      waiting = []
      quantityAbove = nil
      return
    }
    if row.isQuantityRow {
      readQuantityRow(row)
    } else if let amount = row.amount {
      readPricedRow(row, amount: amount)
    } else if ReceiptItems.isDescription(line),
      !line.text.split(separator: " ").contains(where: { $0.count >= Self.longestWord })
    {
      waiting = Array((waiting + [row.description]).suffix(Self.descriptionRows))
      quantityAbove = nil
    } else {
      waiting = []
      quantityAbove = nil
    }
  }

  private mutating func readQuantityRow(_ row: ItemRow) {
    guard let quantity = row.quantity, let unitPrice = row.unitPrice else { return }
    let product = ReceiptItems.multiply(quantity, unitPrice)
    if row.description.filter(\.isLetter).count >= 2 && items.isEmpty { waiting = [] }
    let description = joined(row.description)
    if let amount = row.amount {
      if !description.isEmpty {
        append(description, quantity, unitPrice, amount)
      } else if let last = items.last, last.amount == amount, waiting.isEmpty {
        // The quantity row under an item that already shows its amount.
        items[items.count - 1] = ReceiptItems.make(last.item.description, quantity, unitPrice, amount)
      } else {
        append(description, quantity, unitPrice, amount)
      }
    } else if !description.isEmpty {
      append(description, quantity, unitPrice, product)
    } else if let last = items.last, last.amount == product {
      items[items.count - 1] = ReceiptItems.make(last.item.description, quantity, unitPrice, product)
    } else {
      quantityAbove = (quantity, unitPrice)
      return
    }
    quantityAbove = nil
  }

  private mutating func readPricedRow(_ row: ItemRow, amount: Money) {
    let ownWords = row.description.filter(\.isLetter).count >= 2
    // Above the first item a row of words is as likely a header (a column heading, a cashier)
    // as a description: the first item takes it only when its own row has no words.
    if ownWords && items.isEmpty { waiting = [] }
    guard ownWords || !waiting.isEmpty else {
      quantityAbove = nil
      return
    }
    var quantity = row.quantity ?? "1"
    var unitPrice = row.unitPrice ?? amount
    if let above = quantityAbove, ReceiptItems.multiply(above.quantity, above.unitPrice) == amount {
      (quantity, unitPrice) = (above.quantity, above.unitPrice)
    }
    append(joined(row.description), quantity, unitPrice, amount)
  }

  /// The waiting description rows, then the row's own words.
  private func joined(_ own: String) -> String {
    (waiting + [own]).filter { !$0.isEmpty }.joined(separator: " ")
  }

  private mutating func append(_ description: String, _ quantity: String, _ unitPrice: Money, _ amount: Money)
  {
    items.append(ReceiptItems.make(description, quantity, unitPrice, amount))
    waiting = []
    quantityAbove = nil
  }
}
