import Foundation
import SnapsortImaging

/// The amounts a receipt offers for its total, each with the features `TotalModel` weighs:
/// every distinct amount printed on the page, and the sums the page implies (cash minus change,
/// the VAT table's gross column, subtotal less savings plus tax). `bench/receipts/fit_total.py`
/// fits the model on these features as `snapsort receipt-text --total-candidates` dumps them, so
/// fit and product compute them once, here.
public struct TotalCandidates: Sendable {
  public struct Candidate: Codable, Sendable, Equatable {
    /// The amount as a record writes it (`"17.44"`).
    public var value: String
    /// The row that prints it best: its most total-like label, else its lowest row.
    public var line: Int
    public var features: [String: Double]

    var money: Money { Money(recordString: value) ?? Money(cents: 0) }
  }

  /// What the model weighs for one receipt, as `snapsort receipt-text --total-candidates`
  /// writes it for the fitting script.
  public struct Evidence: Codable, Sendable, Equatable {
    /// The rules' total (`ReceiptExtractor.total`).
    public var rules: String?
    public var candidates: [Candidate]
  }

  /// Every feature this build computes, by the name the model file uses.
  public static let featureNames = [
    "arithmetic", "card", "cash", "cash_change", "change", "confidence", "count", "currency", "derived",
    "equals_subtotal", "height", "items_sum", "label_above", "label_below", "labelled", "largest",
    "magnitude",
    "near_rules", "not_total", "payment", "percent_row", "prints_tax", "round5", "rounding", "rounding_above",
    "row", "rows_below", "rules", "rules_candidate", "savings", "size_rank", "strong_label", "subtotal",
    "tax",
    "total_label", "vat_gross",
  ]

  /// What the page says besides its amounts: the rules' reading of its totals.
  struct Page {
    var lines: [ReceiptExtractor.Line]
    /// Each row's print height over the median row's.
    var heights: [Double]
    var totals: ReceiptExtractor.Totals
    var labelled: [ReceiptExtractor.TotalCandidate]
    var payments: ReceiptExtractor.Payments
    /// The VAT table's gross column (`ReceiptExtractor.taxTableGross`).
    var gross: Money?
    /// The items the rules read above the totals.
    var items: [ReceiptItems.Item]

    var itemsSum: Money? {
      items.isEmpty ? nil : items.map(\.amount).reduce(Money(cents: 0), +)
    }
  }

  /// One amount where it is printed (or implied: `line` nil).
  struct Occurrence {
    var money: Money
    var line: Int?
    var labelled: Bool
  }

  /// The candidates of a page, largest amount first.
  static func candidates(_ page: Page) -> [Candidate] {
    var byValue: [Money: [Occurrence]] = [:]
    let arithmetic = arithmeticSums(page)
    let implied = [page.payments.cashLessChange, page.gross].compactMap { $0 } + arithmetic
    for occurrence in occurrences(page, implied: implied) where occurrence.money.cents > 0 {
      byValue[occurrence.money, default: []].append(occurrence)
    }
    // A total the rules rounded by the adjustment below it is printed nowhere: it stands on the
    // row it was read from, so the model weighs it with that row's label against the others.
    if let rules = page.totals.total, byValue[rules.value] == nil, rules.value.cents > 0 {
      byValue[rules.value] = [Occurrence(money: rules.value, line: rules.line, labelled: true)]
    }
    let values = byValue.keys.sorted(by: >)
    let context = Context(page: page, values: values, arithmetic: arithmetic)
    return values.enumerated().map { rank, money in
      candidate(money, rank: rank, occurrences: byValue[money]!, context: context)
    }
  }

  /// Every amount printed, each labelled line's amount (also one printed on the next row or with
  /// its point lost), and the sums the page implies (`implied`: cash minus change, the VAT
  /// table's gross, the subtotal with savings and tax applied).
  static func occurrences(_ page: Page, implied: [Money]) -> [Occurrence] {
    let lines = page.lines
    var found: [Occurrence] = []
    for line in lines {
      let labelled = ReceiptExtractor.labelledAmount(lines, line.index)
      for amount in line.amounts {
        found.append(Occurrence(money: amount.money, line: line.index, labelled: amount.money == labelled))
      }
      if let labelled, !line.amounts.contains(where: { $0.money == labelled }) {
        found.append(Occurrence(money: labelled, line: line.index, labelled: true))
      }
    }
    for sum in implied {
      found.append(Occurrence(money: sum, line: nil, labelled: false))
    }
    return found
  }

  /// The subtotal less savings, plus tax, and each alone, where the page reads them.
  static func arithmeticSums(_ page: Page) -> [Money] {
    guard let subtotal = page.totals.subtotal?.value else { return [] }
    let savings = page.totals.savings?.value.magnitude ?? Money(cents: 0)
    let tax = page.totals.tax?.value ?? Money(cents: 0)
    let sums = [subtotal + tax, subtotal - savings, subtotal - savings + tax]
    return sums.filter { $0 != subtotal }
  }

  /// What every candidate of a page is measured against, computed once.
  struct Context {
    var page: Page
    var count: Int
    var largest: Money?
    var rules: Money?
    var cashChange: Money?
    var gross: Money?
    var arithmetic: Set<Money>
    var itemsSum: Money?

    init(page: Page, values: [Money], arithmetic: [Money]) {
      self.page = page
      count = max(1, page.lines.count)
      largest = values.first
      rules = page.totals.total?.value
      cashChange = page.payments.cashLessChange
      gross = page.gross
      self.arithmetic = Set(arithmetic)
      itemsSum = page.itemsSum
    }
  }

  /// One amount's features from where it is printed and what the page's sums say of it.
  static func candidate(_ money: Money, rank: Int, occurrences: [Occurrence], context: Context) -> Candidate {
    let page = context.page
    let printed = occurrences.filter { $0.line != nil }
    let rows = printed.compactMap(\.line)
    var features = printedFeatures(printed, page: page)
    let best = bestRow(printed, page: page)
    features["derived"] = printed.isEmpty ? 1 : 0
    features["count"] = Double(min(Set(rows).count, 4))
    features["row"] = Double(best ?? context.count) / Double(context.count)
    features["rows_below"] = Double(min(context.count - 1 - (rows.max() ?? context.count - 1), 20)) / 20
    features["largest"] = money == context.largest ? 1 : 0
    features["size_rank"] = 1 / Double(1 + rank)
    features["magnitude"] = log10(Double(max(money.cents, 1)))
    features["round5"] = money.cents % 5 == 0 ? 1 : 0
    features["rules"] = money == context.rules ? 1 : 0
    // A total rounded to 5 cents, or a digit misread, lies a few cents from the rules' total.
    let distance = context.rules.map { abs($0.cents - money.cents) } ?? 0
    features["near_rules"] = distance > 0 && distance <= 10 ? 1 : 0
    features["rules_candidate"] = page.labelled.contains { $0.money == money } ? 1 : 0
    features["payment"] = page.payments.all.contains { $0.money == money } ? 1 : 0
    features["cash_change"] = money == context.cashChange ? 1 : 0
    features["vat_gross"] = money == context.gross ? 1 : 0
    features["arithmetic"] = context.arithmetic.contains(money) ? 1 : 0
    features["equals_subtotal"] = money == page.totals.subtotal?.value ? 1 : 0
    features["items_sum"] = money == context.itemsSum ? 1 : 0
    return Candidate(value: money.description, line: best ?? 0, features: features)
  }

  /// The row that speaks for an amount: its highest total label, ties to the lowest row.
  static func bestRow(_ printed: [Occurrence], page: Page) -> Int? {
    printed.max { a, b in
      let weights = [a, b].map { $0.labelled ? ReceiptKeywords.totalWeight(page.lines[$0.line!].folded) : 0 }
      return (weights[0], a.line!) < (weights[1], b.line!)
    }?.line
  }

  /// The labels and print of the rows an amount stands on, each the most any row gives.
  static func printedFeatures(_ printed: [Occurrence], page: Page) -> [String: Double] {
    var features = Dictionary(uniqueKeysWithValues: featureNames.map { ($0, 0.0) })
    func raise(_ name: String, _ value: Double) { features[name] = max(features[name]!, value) }
    for occurrence in printed {
      let line = page.lines[occurrence.line!]
      let folded = line.folded
      let has = { (words: [String]) in ReceiptKeywords.containsAny(folded, words) ? 1.0 : 0 }
      if occurrence.labelled {
        raise("labelled", 1)
        raise("total_label", Double(ReceiptKeywords.totalWeight(folded)) / 3)
        raise("strong_label", ReceiptKeywords.totalWeight(folded) >= 3 ? 1 : 0)
        raise("not_total", has(ReceiptKeywords.notTotal))
      }
      if line.index > 0, page.lines[line.index - 1].amounts.isEmpty {
        raise("label_above", Double(ReceiptKeywords.totalWeight(page.lines[line.index - 1].folded)) / 3)
      }
      raise("label_below", labelBelow(line, page: page))
      raise("rounding_above", roundingAbove(line, page: page))
      raise("subtotal", has(ReceiptKeywords.subtotal))
      raise("savings", has(ReceiptKeywords.savings))
      raise("tax", has(ReceiptKeywords.tax))
      raise("cash", has(ReceiptKeywords.cash))
      raise("change", has(ReceiptKeywords.change))
      raise("card", has(ReceiptKeywords.card))
      raise("rounding", has(ReceiptKeywords.rounding))
      raise("prints_tax", ReceiptExtractor.printsTax(occurrence.money, on: line, lines: page.lines) ? 1 : 0)
      raise("percent_row", ReceiptExtractor.percentage.firstMatch(in: line.text) != nil ? 1 : 0)
      raise("currency", ReceiptExtractor.marks(on: line).isEmpty ? 0 : 1)
      raise("confidence", line.confidence / 100)
      raise("height", min(page.heights[line.index], 3))
    }
    return features
  }

  /// The total label of the row below a row that prints little but its amount (`19.00` over
  /// `Net Total Rounded:`), over 3.
  static func labelBelow(_ line: ReceiptExtractor.Line, page: Page) -> Double {
    guard line.index + 1 < page.lines.count, line.folded.filter(\.isLetter).count <= 3 else { return 0 }
    return Double(ReceiptKeywords.totalWeight(page.lines[line.index + 1].folded)) / 3
  }

  /// Whether one of the two rows above names a rounding: the amount below it is the rounded one.
  static func roundingAbove(_ line: ReceiptExtractor.Line, page: Page) -> Double {
    let above = page.lines[max(0, line.index - 2)..<line.index]
    return above.contains { ReceiptKeywords.containsAny($0.folded, ReceiptKeywords.rounding) } ? 1 : 0
  }

  /// Each row's height over the median row's (1 where boxes are missing).
  static func heights(_ rows: [ReceiptLine]) -> [Double] {
    let sorted = rows.map(\.box.height).filter { $0 > 0 }.sorted()
    guard !sorted.isEmpty else { return rows.map { _ in 1 } }
    let median = sorted[sorted.count / 2]
    return rows.map { $0.box.height > 0 ? $0.box.height / median : 1 }
  }
}
