import Foundation

extension HTMLReport {
  /// The store's spending as bar charts, one pair per currency: spend by month and the top
  /// merchants (as `stats` groups them), the part resting on contradicted totals hatched. Plain
  /// HTML and inline styles, so the page stays self-contained; the numbers are `stats --json`'s.
  static func spendingHTML(_ stats: StoreStats?, topMerchants: Int = 10) -> String {
    guard let stats, !stats.spendByMonth.isEmpty else { return "" }
    let currencies = Set(stats.spendByMonth.map { $0.currency ?? "no currency" }).sorted()
    let charts = currencies.map { currency in
      let months = stats.spendByMonth.filter { ($0.currency ?? "no currency") == currency }
      let merchants = stats.spendByMerchant.filter { ($0.currency ?? "no currency") == currency }.prefix(
        topMerchants)
      return """
        <div class="chart"><h3>\(HTMLText.escape(currency)) by month</h3>\(barsHTML(Array(months)))</div>
        <div class="chart"><h3>\(HTMLText.escape(currency)): top merchants</h3>\(barsHTML(Array(merchants)))</div>
        """
    }
    return """
      <section id="spending"><h2>Spending</h2>
      <p class="meta">Per currency, never summed across currencies; hatched: totals their own receipt's checks contradict.</p>
      <div class="charts">\(charts.joined())</div></section>
      """
  }

  private static func barsHTML(_ rows: [StoreStats.Spend]) -> String {
    let amounts = rows.map { (Decimal(string: $0.total) ?? 0, Decimal(string: $0.unconfirmedTotal) ?? 0) }
    let largest = amounts.map(\.0).max() ?? 0
    func percent(_ part: Decimal, of whole: Decimal) -> String {
      guard whole > 0 else { return "0" }
      return String(format: "%.1f", NSDecimalNumber(decimal: part / whole * 100).doubleValue)
    }
    return rows.enumerated().map { index, row in
      let (total, unconfirmed) = amounts[index]
      let receipts = "\(row.receipts) receipt\(row.receipts == 1 ? "" : "s")"
      return """
        <div class="bar-row"><span class="bar-label">\(HTMLText.escape(row.key))</span>\
        <span class="bar"><span class="fill" style="width:\(percent(total, of: largest))%">\
        <span class="unconfirmed" style="width:\(percent(unconfirmed, of: total))%"></span></span></span>\
        <span class="bar-value">\(HTMLText.escape(row.total)) · \(receipts)</span></div>
        """
    }.joined()
  }

  static let spendingCSS = """
    #spending{padding:8px 16px}#spending h2{font-size:16px;margin:4px 0}.charts{display:flex;flex-wrap:wrap;gap:16px}
    .chart{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;min-width:320px;flex:1}
    .chart h3{font-size:13px;margin:0 0 6px}.bar-row{display:flex;align-items:center;gap:6px;font-size:12px;margin:2px 0}
    .bar-label{width:34%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.bar{flex:1;background:#eee;height:12px}
    .fill{display:block;height:100%;background:#3b7dd8;position:relative}
    .unconfirmed{position:absolute;right:0;top:0;bottom:0;background:repeating-linear-gradient(45deg,#d33 0 3px,#f99 3px 6px)}
    .bar-value{width:30%;text-align:right;color:#555;white-space:nowrap}
    """
}
