import Foundation
import SnapsortImaging

/// Reads a receipt's fields from its rebuilt lines: merchant, date and time, currency, line
/// items, subtotal, savings, tax, total and reference number, each with a confidence and the
/// index of the line it came from, then checks that the amounts add up.
public struct ReceiptExtractor: Sendable {
  /// Issuer names and aliases, folded, that a header may print (`ALDI`, `Lidl`, `REWE`).
  let brands: [(folded: String, name: String)]
  /// The header's name candidates and the model that may prefer one to the rules' answer.
  let merchantCandidates: MerchantCandidates
  let merchantModel: MerchantModel?
  /// The model that may prefer another of the page's amounts to the rules' total.
  let totalModel: TotalModel?

  /// The bundled merchant model; nil only in a broken build (a test loads it).
  public static let bundledMerchantModel = try? MerchantModel.bundled()
  /// The bundled total model; nil only in a broken build (a test loads it).
  public static let bundledTotalModel = try? TotalModel.bundled()

  /// - Parameters:
  ///   - merchantModel: the model that may override the rules' merchant; nil keeps the rules'
  ///     answer.
  ///   - totalModel: the model that may override the rules' total; nil keeps the rules' answer.
  public init(
    catalog: IssuerCatalog? = nil, merchantModel: MerchantModel? = ReceiptExtractor.bundledMerchantModel,
    totalModel: TotalModel? = ReceiptExtractor.bundledTotalModel
  ) {
    merchantCandidates = MerchantCandidates(catalog: catalog)
    self.merchantModel = merchantModel
    self.totalModel = totalModel
    var brands: [(String, String)] = []
    for issuer in catalog?.issuers ?? [] {
      for name in [issuer.name] + issuer.aliases {
        let folded = ReceiptKeywords.fold(name)
        // Two-letter names (dm, BP) match too much OCR noise, and a brand spelt like a receipt's
        // own label ("Total" the fuel brand) names every receipt.
        if folded.filter(\.isLetter).count >= 3, ReceiptKeywords.totalWeight(folded) == 0 {
          brands.append((folded, issuer.name))
        }
      }
    }
    self.brands = brands
  }

  /// One line prepared once: its folded form and the amounts in it.
  struct Line {
    var index: Int
    var text: String
    var folded: String
    var amounts: [Money.Found]
    var confidence: Double
    /// The rightmost amount when nothing but tax codes or a currency follows it.
    var price: Money?
    /// The row's left edge in the page's line heights (the median row's height), which tells a
    /// description's indented further rows from the next item's first. Nil where it is not known:
    /// rows without boxes (plain text), and rows that start at the page's edge, where OCR took the
    /// paper's edge or a shadow into the row.
    var left: Double?
  }

  /// The fields of a receipt read as `rows`. `latestDate` (ISO) is the last day the receipt can
  /// be dated: the day the photo was taken, when known. A date after it is a misread (2072 for
  /// 2017; `ReceiptDate` reads years 1990–2099 only): the next date read wins, or the record
  /// names the refused one in `date_rejected`.
  public func extract(_ rows: [ReceiptLine], latestDate: String? = nil) -> ReceiptRecord {
    let lines = Self.lines(rows)
    var receipt = ReceiptRecord()
    var fields: [String: ReceiptField] = [:]
    readHeader(lines, rows: rows, latestDate: latestDate, into: &receipt, fields: &fields)

    let page = Self.totalsPage(lines, rows: rows)
    var totals = page.totals
    totals.total = total(page)
    Self.record(totals, into: &receipt, fields: &fields)
    let items = page.items
    receipt.items = items.map(\.item)

    if let reference = Self.reference(lines) {
      receipt.referenceNumber = reference.value
      Self.set(&fields, "reference_number", reference.value, reference.confidence, reference.line)
    }

    let checks = ReceiptConsistency.check(
      items: items.map(\.amount), subtotal: totals.subtotal?.value, savings: totals.savings?.value.magnitude,
      tax: totals.tax?.value, total: totals.total?.value)
    receipt.checks = checks
    if !checks.problems.isEmpty {
      for name in ["total", "subtotal"] where fields[name] != nil {
        fields[name]!.confidence = Rounding.hundredths(fields[name]!.confidence * 0.7)
      }
    }
    receipt.fields = fields
    receipt.confidence = Self.overallConfidence(fields: fields, checks: checks)
    receipt.text = rows.map { row in
      TextLine(
        text: row.text, box: row.box.map { $0.rounded() }, confidence: Rounding.tenths(row.confidence))
    }
    return receipt
  }

  /// Records a field found, its confidence clamped to 0…1 and rounded to hundredths; nothing
  /// when no value was found.
  static func set(
    _ fields: inout [String: ReceiptField], _ name: String, _ value: String?, _ confidence: Double,
    _ line: Int?
  ) {
    guard let value else { return }
    fields[name] = ReceiptField(
      value: value, confidence: Rounding.hundredths(min(1, max(0, confidence))), line: line)
  }

  /// Currency, merchant, and date and time: what the header names.
  func readHeader(
    _ lines: [Line], rows: [ReceiptLine], latestDate: String?, into receipt: inout ReceiptRecord,
    fields: inout [String: ReceiptField]
  ) {
    let evidence = CurrencyEvidence(lines)
    let currency = evidence.choice
    let language = evidence.leadingLanguage?.detected
    receipt.currency = currency?.currency
    receipt.currencyEvidence = currency?.source
    receipt.language = language?.rawValue
    Self.set(&fields, "currency", currency?.currency, currency?.confidence ?? 0, currency?.line)

    if let merchant = merchant(lines, rows: rows) {
      receipt.merchant = merchant.value
      Self.set(&fields, "merchant", merchant.value, merchant.confidence, merchant.line)
    }
    let order = Self.dateOrder(lines, currency: currency?.currency, language: language)
    let date = Self.date(lines, order: order, latest: latestDate)
    if date == nil, latestDate != nil, let refused = Self.date(lines, order: order) {
      receipt.dateRejected = "\(refused.value.iso) (line \(refused.line)): after the photo was taken"
    }
    if let date {
      receipt.date = date.value.iso
      Self.set(&fields, "date", date.value.iso, date.confidence, date.line)
      if let time = ReceiptDate.time(in: lines[date.line].text)
        ?? lines.lazy.compactMap({ ReceiptDate.time(in: $0.text) }).first
      {
        receipt.time = time
      }
    }
  }

  /// Total, subtotal, savings and tax into the record, each with its field.
  static func record(
    _ totals: Totals, into receipt: inout ReceiptRecord, fields: inout [String: ReceiptField]
  ) {
    receipt.total = totals.total?.value
    set(&fields, "total", receipt.total?.description, totals.total?.confidence ?? 0, totals.total?.line)
    receipt.subtotal = totals.subtotal?.value
    set(
      &fields, "subtotal", receipt.subtotal?.description, totals.subtotal?.confidence ?? 0,
      totals.subtotal?.line)
    receipt.savings = totals.savings?.value.magnitude
    set(
      &fields, "savings", receipt.savings?.description, totals.savings?.confidence ?? 0, totals.savings?.line)
    receipt.tax = totals.tax?.value
    set(&fields, "tax", receipt.tax?.description, totals.tax?.confidence ?? 0, totals.tax?.line)
  }

  /// The record's confidence: the mean of merchant's, date's and total's, raised when the
  /// amounts add up and lowered for each check that fails.
  static func overallConfidence(fields: [String: ReceiptField], checks: ReceiptChecks?) -> Double {
    let core = ["merchant", "date", "total"].map { fields[$0]?.confidence ?? 0 }
    var confidence = core.reduce(0, +) / 3
    if checks?.totalsConsistent == true || checks?.itemsMatchSubtotal == true {
      confidence = min(1, confidence + 0.1)
    }
    confidence -= 0.15 * Double(checks?.problems.count ?? 0)
    return Rounding.hundredths(max(0, confidence))
  }

  /// What OCR reads a vertical or horizontal rule, or the paper's edge, as.
  static let ruleStrokes = CharacterSet(charactersIn: "|¦!_:;.,'`\"-—–~")

  /// The rows as the extractor reads them: each with its amounts, price and folded text.
  static func lines(_ rows: [ReceiptLine]) -> [Line] {
    let heights = rows.map(\.box.height).filter { $0 > 0 }.sorted()
    let height = heights.isEmpty ? 1 : heights[heights.count / 2]
    return rows.enumerated().map { index, row in
      var line = prepare(index: index, text: row.text, confidence: row.confidence)
      line.left = row.box.x > 0 ? row.box.x / height : nil
      return line
    }
  }

  static func prepare(index: Int, text: String, confidence: Double) -> Line {
    let amounts = Money.amounts(in: text)
    var price: Money?
    if let last = amounts.last {
      let tail = String(text.dropFirst(last.range.upperBound))
      // After the price a receipt prints a tax class (A, B, 1, SR, ZR), a star or a currency;
      // OCR adds the paper's edge or a column rule as strokes (`7,64 |`, `8.70SR_`).
      let rest = tail.split(separator: " ").filter { token in
        let marks = token.trimmingCharacters(in: Self.ruleStrokes)
        return
          !(marks.count <= 3
          && marks.allSatisfy { character in
            character.isLetter || character.isNumber || character == "*" || character == "#"
              || currencySymbols.contains { $0.0 == character }
          })
      }
      if rest.isEmpty { price = last.money }
    }
    return Line(
      index: index, text: text, folded: ReceiptKeywords.fold(text), amounts: amounts, confidence: confidence,
      price: price)
  }

  // MARK: - Merchant

  struct Found<Value> {
    var value: Value
    var confidence: Double
    var line: Int
  }

  /// The rules' merchant (`ruleMerchant`), unless the merchant model prefers another of the
  /// header's candidates by its margin; a catalog brand the rules read always stands.
  func merchant(_ lines: [Line], rows: [ReceiptLine]) -> Found<String>? {
    let rules = ruleMerchant(lines)
    guard let merchantModel else { return rules.map(Self.withoutEdgeNumber) }
    let candidates = merchantCandidates.candidates(Self.candidateRows(rows))
    let rulesNameBrand = rules.map { merchantCandidates.namesBrand($0.value) } ?? false
    var pick =
      merchantModel.override(candidates, rules: rules?.value, rulesNameBrand: rulesNameBrand).map {
        Found(
          value: $0.candidate.value,
          confidence: $0.probability * min(1, lines[$0.candidate.line].confidence / 80),
          line: $0.candidate.line)
      } ?? rules
    // A logo's one word of the name gives way to the row near it that prints the name whole.
    if let found = pick, !rulesNameBrand,
      let full = MerchantCandidates.fullName(
        of: found.value, line: found.line, among: candidates, rows: Self.fullNameRows)
    {
      pick = Found(value: full.value, confidence: found.confidence, line: full.line)
    }
    // A pick that reads as body text (an address, a cashier's name, boilerplate) is no name: a
    // null leaves the store without a bogus merchant row.
    if let pick, !rulesNameBrand, let words = merchantCandidates.words,
      merchantModel.readsAsBody(pick.value, among: candidates, words: words)
    {
      return nil
    }
    // Only the name given is trimmed: the lines are judged and the candidates' features computed
    // on the text as the model was fitted on it.
    return pick.map(Self.withoutEdgeNumber)
  }

  /// How far from a one-word merchant the row printing the name whole may be, fitted by
  /// `bench/receipts/logo_word_rows.py` on the training receipts and renders (folds 0-3, train
  /// seeds 2901-2903 and 2828).
  static let fullNameRows = 5

  static func withoutEdgeNumber(_ name: Found<String>) -> Found<String> {
    Found(value: withoutEdgeNumber(name.value), confidence: name.confidence, line: name.line)
  }

  /// The name without a number of six digits or more at its start or end, its brackets half read
  /// or lost: a till or registration number printed on the name's row ("000002 BATFU (M) SDN
  /// BHD", "99 SPEED MART S/B 1519537-X)"). Longer than the five-digit postcodes of the German and
  /// Malaysian sets, so "33102 Paderborn" keeps its number; a six-digit postcode (Russia,
  /// Singapore, India) is dropped too, which matters only when an address line was taken for the
  /// name, and that name is wrong either way.
  static func withoutEdgeNumber(_ name: String) -> String {
    let trimmed = name.replacingOccurrences(
      of: #"^\(?[0-9]{6,}\)?\s+|\s+\(?[0-9]{6,}(-?[A-Za-z])?\)?$"#, with: "", options: .regularExpression)
    return trimmed.isEmpty ? name : trimmed
  }

  /// The rules' merchant and the header's candidates with their features, for the fitting
  /// script (`bench/receipts/fit_merchant.py`).
  public func merchantEvidence(_ rows: [ReceiptLine]) -> MerchantCandidates.Evidence {
    let rules = ruleMerchant(Self.lines(rows))?.value
    return MerchantCandidates.Evidence(
      rules: rules, rulesBrand: rules.map(merchantCandidates.namesBrand) ?? false,
      candidates: merchantCandidates.candidates(Self.candidateRows(rows)))
  }

  /// Rows as the merchant model reads them: as a record writes them.
  static func candidateRows(_ rows: [ReceiptLine]) -> [MerchantCandidates.Row] {
    rows.map { MerchantCandidates.Row(text: $0.text, box: $0.box, confidence: $0.confidence) }
  }

  /// A brand from the catalog printed near the top, else the first header line that reads like
  /// a name (mostly letters, not an address, a phone number or a document title), preferring
  /// one with a company form (SDN BHD, LTD, GmbH…).
  func ruleMerchant(_ lines: [Line]) -> Found<String>? {
    // The header ends where the first priced item begins: a VAT table's heading below is no
    // name. A price in the first two rows is OCR noise, not an item.
    let firstPrice = lines.first(where: { $0.price != nil })?.index ?? lines.count
    let header = Array(lines.prefix(firstPrice >= 2 ? min(10, firstPrice) : 10))
    if let brand = headerBrand(header) { return brand }
    let address = Self.addressLine(lines, firstPrice: firstPrice)
    let candidates = Self.nameCandidates(header, address: address)
    // The nearest name above the address, read less confidently than the header's first lines
    // may be (a name under a large logo or an advert), when no company form settles it.
    let aboveAddress = address.flatMap { Self.nameAbove($0, in: lines) }
    if candidates.isEmpty || !candidates.prefix(5).contains(where: \.company), let brand = footerBrand(lines)
    {
      return brand
    }
    guard
      let first = candidates.first
        ?? aboveAddress.map({ (line: $0, company: Self.namesCompany($0.folded)) })
    else { return nil }
    return Self.chosenName(first: first, candidates: candidates, aboveAddress: aboveAddress)
  }

  /// A catalog brand in the header, spelt out or a letter or two off.
  func headerBrand(_ header: [Line]) -> Found<String>? {
    // A legal name printed above a brand is the merchant of record ("MR D.I.Y. SDN BHD" above
    // "(MR DIY TESCO TERBAU)", a shop inside a Tesco): a brand below it names a host or a
    // branch, so brands are looked for down to the first legal name only.
    var brandZone = Array(header.prefix(8))
    if let legal = brandZone.firstIndex(where: { ReceiptKeywords.containsAny($0.folded, Self.legalForms) }) {
      brandZone = Array(brandZone.prefix(legal + 1))
    }
    // A brand in a row OCR barely read is noise more often than a name (`i ica` over a blank
    // scanned page read as ICA): below `brandMinimumConfidence` a row names no brand.
    brandZone = brandZone.filter { $0.confidence >= Self.brandMinimumConfidence }
    for line in brandZone {
      if let brand = spelledBrand(in: line.text) {
        let cleaned = Self.cleanName(Self.collapseSpacedLetters(Self.logoLetters(line.text)))
        let value = cleaned.count <= 40 ? cleaned : brand
        return Found(value: value, confidence: 0.9, line: line.index)
      }
    }
    // A brand name one or two letters off, as OCR misreads a logo's type (TKEA, @SSMANN).
    // Only on a short line or one naming a company form: in a longer line a near miss is
    // usually an ordinary word ("AREA" is not Aral).
    for line in brandZone
    where ReceiptKeywords.fold(Self.logoLetters(line.text)).split(separator: " ").count <= 3
      || ReceiptKeywords.containsAny(line.folded, ["gmbh", "kg", "ag", "ltd", "sdn", "bhd", "inc"])
    {
      if let brand = nearBrand(in: line.text, edits: Self.headerEdits) {
        return Found(value: brand, confidence: 0.6, line: line.index)
      }
    }
    return nil
  }

  /// The OCR confidence (0-100) a header row needs for the catalog brand it spells to be the
  /// merchant: fitted by `bench/receipts/fit_brand_confidence.py` on training receipts (SROIE
  /// folds 0-3 as scanned and on a wide page, train renders seed 11): the rules' 15 brand picks
  /// there, right ones read at 68 % or more, junk ones at 15 and 34 %.
  static let brandMinimumConfidence = 51.0

  /// The index of the line that begins the shop's address block, if the header has one.
  ///
  /// A name printed just above the address is the shop's, and a company named below it is an
  /// operator or a host, not the shop (a slogan or an advert above the name, "MYNEWS RETAIL SB"
  /// under a service area's address).
  static func addressLine(_ lines: [Line], firstPrice: Int) -> Int? {
    // OCR of a logo or an advert can look like an address too ("rd 7"): the block is the first
    // address line under a name, else the first address line.
    // Only in the header: a row of numbers further down ("3182 14:38") is no address.
    let addresses = lines.prefix(min(16, firstPrice)).filter { looksLikeAddress($0.folded) }.map(\.index)
    return addresses.first(where: { nameAbove($0, in: lines) != nil }) ?? addresses.first
  }

  /// The last of the two lines above `address` that reads like a name.
  static func nameAbove(_ address: Int, in lines: [Line]) -> Line? {
    lines[max(0, address - 2)..<address].last(where: {
      readsLikeName($0, minimumConfidence: 35) && !isRegistration($0.text)
    })
  }

  typealias NameCandidate = (line: Line, company: Bool)

  /// The header's lines that read like a name; `company` where one names a company form at or
  /// above the address.
  static func nameCandidates(_ header: [Line], address: Int?) -> [NameCandidate] {
    var candidates: [NameCandidate] = []
    // A line naming a company form is taken read less confidently: the form itself is evidence.
    for line in header
    where readsLikeName(line, minimumConfidence: namesCompany(line.folded) ? 35 : 45) {
      let company =
        namesCompany(line.folded) && (address == nil || line.index < address! || address! == 0)
      candidates.append((line, company))
    }
    return candidates
  }

  /// A brand further down (a footer "Aldi GmbH & Co. KG", a web address) still names the shop.
  func footerBrand(_ lines: [Line]) -> Found<String>? {
    // Only where the line names a company or a web address: "Netto" in a VAT table is a word.
    for line in lines.reversed()
    where ReceiptKeywords.containsAny(
      line.folded, ["gmbh", "kg", "ag", "ltd", "sdn", "bhd", "www", "inc", "sa"])
      || line.text.lowercased().contains("www")
    {
      let collapsed = ReceiptKeywords.fold(Self.collapseSpacedLetters(line.text))
      if let brand = brands.first(where: { collapsed.contains($0.folded) }) {
        return Found(value: brand.name, confidence: 0.7, line: line.index)
      }
    }
    return nil
  }

  /// The name among the candidates: one of the first five naming a company, else the first,
  /// else the one above the address.
  static func chosenName(first: NameCandidate, candidates: [NameCandidate], aboveAddress: Line?) -> Found<
    String
  > {
    var chosen = candidates.prefix(5).first(where: \.company) ?? first
    // Three or more rows between the first name-like line and the one above the address make
    // the first a slogan or an advert; closer, it is the name and the other a branch.
    if !chosen.company, let aboveAddress, aboveAddress.index - chosen.line.index >= 3 {
      chosen = (aboveAddress, false)
    }
    let confidence = (chosen.company ? 0.8 : 0.55) * min(1, chosen.line.confidence / 80)
    var value = cleanName(collapseSpacedLetters(chosen.line.text))
    // A name broken over two rows ("POPULAR BOOK" / "CO. (M) SDN BHD"): the company-form row
    // alone says little, so the name row above it is joined on.
    let ownWords = ReceiptKeywords.fold(value).split(separator: " ").filter {
      !companyForms.contains(String($0)) && $0.count > 1
    }
    if chosen.company, ownWords.count <= 1,
      let above = candidates.last(where: { $0.line.index == chosen.line.index - 1 })
    {
      value = cleanName(above.line.text) + " " + value
    }
    return Found(value: value, confidence: confidence, line: chosen.line.index)
  }

  /// The letters a header word may be off a brand: one in seven, so none in words of six letters
  /// or fewer (but for a look-alike glyph, `isLookalike`). Any header line is tried, and a short
  /// word a letter off a brand is mostly another word: on the true lines of folds 0-3
  /// (bench/receipts/train_errors.py) every near match of four or five letters was wrong ("CITY"
  /// for Citi ×3, "ASIA" for Asda, "KIKU" for KIKO), and on the training readings of
  /// bench/receipts/brand_lookalike.py (SROIE folds 0-3 OCR rows and true lines, train renders)
  /// all 16 of six letters were too, mostly a legal line's surname ("KRUGER GMBH" for Kroger,
  /// "Miller Inc." for Müller, "Aktion" for Action); one in seven is the loosest with none wrong.
  static func headerEdits(_ length: Int) -> Int { length / 7 }

  /// The letters a logo's reading may be off a brand: one, two in words of seven letters or
  /// more. A logo is read only where a brand is expected, and OCR of display type errs more.
  static func logoEdits(_ length: Int) -> Int { length >= 7 ? 2 : 1 }

  /// Glyphs that OCR takes for one another in display type, folded as lines are (the fold
  /// already makes one of 0 and o, of 1, i and l, of 5 and s, of 8 and b).
  static let lookalikeGlyphs: [Set<Character>] = [
    ["l", "t", "f"], ["o", "c", "e"], ["h", "n"], ["u", "v"],
  ]

  /// Whether `word` is `brand` with one glyph read as a look-alike ("TKEA" for IKEA): an OCR
  /// misreading, unlike another word that happens to be a letter off ("CITY", "ASIA").
  static func isLookalike(_ word: Substring, of brand: String) -> Bool {
    guard word.count == brand.count else { return false }
    let differing = zip(word, brand).filter { $0 != $1 }
    guard differing.count == 1, let (read, printed) = differing.first else { return false }
    return lookalikeGlyphs.contains { $0.contains(read) && $0.contains(printed) }
  }

  /// A one-word catalog brand that a word of `text` spells at most `edits(word length)` letters
  /// off, or with one glyph read as a look-alike.
  func nearBrand(in text: String, edits: (Int) -> Int) -> String? {
    for token in ReceiptKeywords.fold(Self.logoLetters(text)).split(separator: " ") where token.count >= 4 {
      if let brand = brands.first(where: { brand in
        let word = brand.folded.trimmingCharacters(in: .whitespaces)
        return !word.contains(" ") && word.count >= 4
          && (EditDistance.levenshtein(String(token), word) <= edits(token.count)
            || Self.isLookalike(token, of: word))
      }) {
        return brand.name
      }
    }
    return nil
  }

  /// A catalog brand `text` spells out, also letter-spaced ("A L D I") or with an "@" for an "O".
  func spelledBrand(in text: String) -> String? {
    let collapsed = ReceiptKeywords.fold(Self.collapseSpacedLetters(Self.logoLetters(text)))
    return brands.first(where: { collapsed.contains($0.folded) })?.name
  }

  /// The catalog brand a logo's reading names: spelt out, or one word a letter off.
  public func brand(readFromLogo text: String) -> String? {
    spelledBrand(in: text) ?? nearBrand(in: text, edits: Self.logoEdits)
  }

  /// Whether a header line could be a name: mostly letters, read confidently enough, not a
  /// document title, a greeting, a phone number or an address.
  static func readsLikeName(_ line: Line, minimumConfidence: Double) -> Bool {
    // Judged without a registration number in brackets: "99 SPEED MART S/B (519537-X)".
    let text = cleanName(collapseSpacedLetters(line.text))
    let letters = text.filter(\.isLetter).count
    let visible = text.filter { !$0.isWhitespace }.count
    guard letters >= 3, Double(letters) >= 0.6 * Double(max(1, visible)), line.confidence >= minimumConfidence
    else { return false }
    // A currency heading its column ("EUR") or a line with a price is not a name either.
    return !ReceiptKeywords.containsAny(line.folded, notNames) && !looksLikeAddress(line.folded)
      && !currencyCodes.contains(text.uppercased()) && line.amounts.isEmpty
  }

  /// A company registration number on its own line: "(162761-M)", "CO-REG: 750441-W".
  static func isRegistration(_ text: String) -> Bool {
    text.filter(\.isNumber).count >= 5
  }

  /// Whether a folded line names a company form, also one OCR misread by a letter in a long
  /// word ("ENIERPRISE", "SUPERMARKEI").
  static func namesCompany(_ folded: String) -> Bool {
    if ReceiptKeywords.containsAny(folded, companyForms) { return true }
    return folded.split(separator: " ").contains { token in
      token.count >= 7 && longCompanyForms.contains { EditDistance.levenshtein(String(token), $0) == 1 }
    }
  }

  /// One-word company forms long enough to be recognised one letter off, folded like lines are.
  static let longCompanyForms = companyForms.filter { !$0.contains(" ") && $0.count >= 7 }.map {
    ReceiptKeywords.fold($0).trimmingCharacters(in: .whitespaces)
  }

  static let companyForms = [
    "sdn bhd", "sdn", "bhd", "enterprise", "enterprises", "trading", "restoran", "restaurant", "ltd",
    "limited",
    "llc", "inc", "gmbh", "ag", "kg", "sa", "sp z o o", "srl", "sas", "sarl", "bv", "ab", "oy", "ооо", "тов",
    "market", "supermarket", "supermarkt", "store", "stores", "shop", "mart", "cafe", "bakery", "backerei",
    "apotheke", "pharmacy", "hardware", "marketing", "industries", "company", "co", "plc", "sklep",
    "epicerie",
    "supermercato", "boulangerie", "tienda", "winkel", "butik", "магазин", "s b", "syarikat", "perniagaan",
  ]
  /// Company forms that only a registered legal name carries, unlike "market" or "cafe".
  static let legalForms = [
    "sdn bhd", "bhd", "s b", "gmbh", "ltd", "limited", "llc", "inc", "plc", "sp z o o",
  ]

  /// Header lines that are no name: labels and boilerplate, and every language's greetings and
  /// document titles (`ReceiptVocabulary`).
  static let notNames =
    [
      "shopping", "tel", "fax", "phone", "gst", "www", "http", "cashier", "date", "datum", "open",
      "offnungszeiten", "hours", "reg no", "company no", "co no", "simplified", "fiskalny", "thank", "danke",
      "vielen", "member", "table", "server", "order",
    ] + ReceiptKeywords.greetings + ReceiptKeywords.titles
  static let streetWords = [
    "jalan", "jln", "street", "st", "road", "rd", "avenue", "ave", "strasse", "str", "weg", "platz",
    "allee", "ul", "ulica", "via", "rue", "calle", "straat", "gatan", "taman", "lorong", "lot", "no",
    "blvd", "lane", "damm", "ring", "gasse", "plac", "aleja", "viale", "piazza", "avenida", "plein",
  ]

  static let streetSuffixes = [
    "strasse", "straße", "str", "weg", "platz", "allee", "gasse", "damm",
  ]

  static func looksLikeAddress(_ folded: String) -> Bool {
    let hasDigit = folded.contains(where: \.isNumber)
    if hasDigit && ReceiptKeywords.containsAny(folded, streetWords) { return true }
    // German streets are compounds ("Hauptstr.", "Bahnhofstraße").
    if hasDigit,
      folded.split(separator: " ").contains(where: { token in streetSuffixes.contains { token.hasSuffix($0) }
      })
    {
      return true
    }
    // A postcode and a town: "33100 Paderborn", "53200 KUALA LUMPUR".
    let tokens = folded.split(separator: " ")
    // A street and its house number, however OCR spelt the street ("Cetmolder Stir. 4").
    if (2...4).contains(tokens.count), let last = tokens.last, (1...3).contains(last.count),
      last.allSatisfy(\.isNumber), tokens.dropLast().allSatisfy({ $0.allSatisfy(\.isLetter) })
    {
      return true
    }
    if let first = tokens.first, first.count >= 4, first.allSatisfy(\.isNumber), tokens.count <= 4 {
      return true
    }
    return tokens.filter { $0.allSatisfy(\.isNumber) }.count * 2 > tokens.count
  }

  /// "A L D I" → "ALDI": letters printed with spaces between them for emphasis.
  static func collapseSpacedLetters(_ text: String) -> String {
    let tokens = text.split(separator: " ")
    guard tokens.count >= 3, tokens.filter({ $0.count == 1 }).count * 4 >= tokens.count * 3 else {
      return text
    }
    return tokens.joined()
  }

  /// A logo's round "O" that OCR reads as "@" ("R@SSMANN"), given back as a letter so the
  /// word stays whole for brand matching.
  static func logoLetters(_ text: String) -> String {
    text.replacingOccurrences(of: "@", with: "O")
  }

  /// Drops a registration number in brackets, stray symbols at the ends and doubled spaces.
  static func cleanName(_ text: String) -> String {
    // Any bracket holding digits is a number, also when OCR misread its letters ("(to 886 X)")
    // or lost its closing bracket.
    var result = text.replacingOccurrences(
      of: #"\([^()]*[0-9][^()]*(\)|$)"#, with: "", options: .regularExpression)
    result = result.trimmingCharacters(
      in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "()&.")).inverted)
    return result.split(separator: " ").joined(separator: " ")
  }

  // MARK: - Date and currency

  /// The receipt's date: the best-placed date read on or before `latest` (ISO), if given.
  static func date(_ lines: [Line], order: ReceiptDate.Order, latest: String? = nil) -> Found<
    ReceiptDate.Found
  >? {
    var best: (whole: Int, score: Double, found: Found<ReceiptDate.Found>)?
    // A date printed more than once (issued, then paid: "27/06/18 09:49 - 27/06/18 10:08") is
    // surer than one OCR read once with a digit wrong ("27/06/16").
    let dates = lines.map { ReceiptDate.dates(in: $0.text, order: order) }
    var printed: [String: Int] = [:]
    for date in dates.joined() { printed[date.iso, default: 0] += 1 }
    for (line, found) in zip(lines, dates) {
      // A card's expiry ("CARD EXPIRY: 30/09/18") or a voucher's last day is not the day of sale.
      guard let date = found.first(where: { latest == nil || $0.iso <= latest! }),
        !ReceiptKeywords.containsAny(line.folded, ReceiptKeywords.expiryLabels)
      else { continue }
      let labelled = ReceiptKeywords.containsAny(line.folded, ReceiptKeywords.dateLabels)
      var score = labelled ? 0.9 : 0.7
      if date.ambiguous { score -= 0.15 }
      // A date read only by mending the text loses to one printed whole, and eight bare digits
      // without a label to one printed with separators.
      if date.repaired || (date.compact && !labelled) { score -= 0.2 }
      if ReceiptDate.time(in: line.text) != nil { score += 0.05 }
      score += 0.1 * Double(min(2, printed[date.iso, default: 1] - 1))
      // Earlier lines win ties: the receipt's own date comes before dates of offers and returns.
      score -= Double(line.index) * 0.002
      // A date read only by mending the text ("19/62/2018") is a guess: any date printed whole
      // wins over it, however placed.
      let whole = date.repaired ? 0 : 1
      if best == nil || (whole, score) > (best!.whole, best!.score) {
        best = (whole, score, Found(value: date, confidence: min(0.95, score), line: line.index))
      }
    }
    return best?.found
  }

  /// How the receipt prints dates whose parts read either way round: year first where it is
  /// written in Swedish (`language`, as `ReceiptLanguage.detect` reads it), month first in the
  /// United States (dollar amounts, or an address ending `City, ST 12345`), day first elsewhere.
  static func dateOrder(_ lines: [Line], currency: String?, language: ReceiptLanguage?) -> ReceiptDate.Order {
    if language == .sv { return .yearFirst }
    if currency == "USD" || lines.contains(where: { usAddress.firstMatch(in: $0.text) != nil }) {
      return .monthFirst
    }
    return .dayFirst
  }

  /// A state's code and a ZIP code after a comma, as US addresses end.
  static let usAddress = TextPattern(
    #",\s*(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s+\d{5}(?:-\d{4})?(?!\d)"#
  )

  /// Every code, word and symbol that names a currency, lowercased: text beside a price that is
  /// never an item's name.
  public static let currencyNames: Set<String> = Set(
    currencyCodes.map { $0.lowercased() } + currencyWords.map(\.0) + currencySymbols.map { String($0.0) })

  static let currencyCodes = [
    "USD", "EUR", "GBP", "PLN", "CHF", "SEK", "NOK", "DKK", "CZK", "HUF", "RUB", "UAH", "MYR", "SGD", "AUD",
    "CAD", "JPY",
  ]
  static let currencyWords: [(String, String)] = [
    ("rm", "MYR"), ("zl", "PLN"), ("euro", "EUR"), ("eur", "EUR"), ("грн", "UAH"), ("руб", "RUB"),
    ("kr", "SEK"),
  ]
  static let currencySymbols: [(Character, String)] = [
    ("€", "EUR"), ("£", "GBP"), ("$", "USD"), ("₽", "RUB"), ("₴", "UAH"),
  ]

  /// An amount with its decimals right after or before a symbol (`$ 12.50`, `12,50€`), spaces
  /// between allowed.
  static func symbolAmount(_ symbol: Character) -> TextPattern {
    let escaped = NSRegularExpression.escapedPattern(for: String(symbol))
    return TextPattern(#"\#(escaped)\s?\d{1,7}[.,]\d{2}(?!\d)|(?<!\d)\d{1,7}[.,]\d{2}\s?\#(escaped)"#)
  }
  /// A currency word written against an amount (`RM1.92`, `12,50zł`), in any case.
  static let wordAmounts = Dictionary(
    uniqueKeysWithValues: currencyWords.map { word, _ in
      (
        word,
        TextPattern(
          #"(?i)(?<!\p{L})\#(word)\d{1,7}[.,]\d{2}(?!\d)|(?<![\d.,])\d{1,7}[.,]\d{2}\#(word)(?!\p{L})"#)
      )
    })
  static let symbolAmounts = Dictionary(
    uniqueKeysWithValues: currencySymbols.map { ($0.0, symbolAmount($0.0)) })

  /// The currencies one line names, each once, with how surely: a code in capitals (`EUR`,
  /// not the `Sek` of an address), a word, a symbol beside an amount, or a symbol other than `$`
  /// between spaces or slashes (`€/Stk`; 0.5), never one inside a word, a number or
  /// punctuation (`E.&.O.€.` is OCR's `E.&.O.E.`).
  static func marks(on line: Line) -> [Found<String>] {
    var found: [String: Double] = [:]
    let tokens = line.text.split(whereSeparator: { !$0.isLetter }).map(String.init)
    for code in tokens where currencyCodes.contains(code) { found[code] = max(found[code] ?? 0, 0.9) }
    for (word, code) in currencyWords
    where line.folded.contains(" \(word) ") || wordAmounts[word]!.firstMatch(in: line.text) != nil {
      found[code] = max(found[code] ?? 0, 0.8)
    }
    let characters = Array(line.text)
    for (symbol, code) in currencySymbols where line.text.contains(symbol) {
      if symbolAmounts[symbol]!.firstMatch(in: line.text) != nil {
        // `$` stays a sign: `CurrencyEvidence` decides whose dollar (or peso, or ringgit) it is.
        let key = symbol == "$" ? "$" : code
        found[key] = max(found[key] ?? 0, symbol == "$" ? 0.6 : 0.8)
      } else if symbol != "$",
        characters.indices.contains(where: { index in
          characters[index] == symbol && (index == 0 || " /".contains(characters[index - 1]))
            && (index + 1 == characters.count || " /".contains(characters[index + 1]))
        })
      {
        found[code] = max(found[code] ?? 0, 0.5)
      }
    }
    return found.sorted { $0.key < $1.key }.map {
      Found(value: $0.key, confidence: $0.value, line: line.index)
    }
  }

  // MARK: - Totals

  struct Totals {
    var total: Found<Money>?
    var subtotal: Found<Money>?
    var savings: Found<Money>?
    var tax: Found<Money>?
  }

  /// The amount a labelled line carries: its price, else the one amount of the next line when
  /// that line has no label of its own (a label and its amount printed on two rows).
  static func labelledAmount(_ lines: [Line], _ index: Int) -> Money? {
    if let price = lines[index].price ?? lines[index].amounts.last?.money { return price }
    if let money = spacedMoney(lines[index].text) { return money }
    if index + 1 < lines.count, lines[index + 1].amounts.count == 1,
      lines[index + 1].folded.filter(\.isLetter).count <= 3
    {
      return lines[index + 1].amounts[0].money
    }
    return nil
  }

  /// "99 80": the separator lost by OCR, on a line whose label says an amount follows.
  static func spacedMoney(_ text: String) -> Money? {
    guard let match = spacedAmount.firstMatch(in: text), let units = match[1].flatMap({ Int($0) }),
      let cents = match[2].flatMap({ Int($0) })
    else { return nil }
    return Money(cents: units * 100 + cents)
  }

  static let spacedAmount = TextPattern(#"(?<![\d.,])(\d{1,5}) (\d{2})\s*[A-Z*]?\s*$"#)

  typealias TotalCandidate = (weight: Int, money: Money, line: Int)

  /// What a receipt says was paid.
  struct Payments {
    var cash: Money?
    var change: Money?
    /// By card: the amount due.
    var card: [(money: Money, line: Int)] = []
    /// By card or in cash (the amount due or more).
    var all: [(money: Money, line: Int)] = []

    /// Cash given less change returned, where more was given than returned.
    var cashLessChange: Money? {
      guard let cash, let change, cash > change else { return nil }
      return cash - change
    }
  }

  /// The page's totals as the rules read them, with what the total model weighs besides.
  static func totalsPage(_ lines: [Line], rows: [ReceiptLine]) -> TotalCandidates.Page {
    var totals = Totals()
    var labelled: [TotalCandidate] = []
    var payments = Payments()
    for line in lines {
      if let candidate = totalCandidate(lines, line) { labelled.append(candidate) }
      readSubtotalSavingsAndTax(lines, line, into: &totals)
      readPayment(lines, line, into: &payments)
    }
    let gross = taxTableGross(lines)
    totals.total = total(
      lines, candidates: labelled, payments: payments, subtotal: totals.subtotal, gross: gross)
    // A saving read above the subtotal or total may be a discount printed under an item, with
    // more items below it: the items end at the subtotal or total when either was read, else at
    // the first saving that is no item's discount.
    let firstTotalsLine =
      [totals.subtotal?.line, totals.total?.line].compactMap { $0 }.min()
      ?? totals.savings.map { ReceiptItems.savingsEnd(lines, from: $0.line) }
    let ceiling = [totals.subtotal?.value, totals.total?.value].compactMap { $0 }.max()
    let items = ReceiptItems.items(lines, end: firstTotalsLine ?? lines.count, ceiling: ceiling) { sum in
      ReceiptConsistency.itemsAgree(
        sum, subtotal: totals.subtotal?.value, savings: totals.savings?.value.magnitude,
        tax: totals.tax?.value,
        total: totals.total?.value)
    }
    return TotalCandidates.Page(
      lines: lines, heights: TotalCandidates.heights(rows), totals: totals, labelled: labelled,
      payments: payments, gross: gross, items: items)
  }

  /// The rules' total, unless the total model prefers another of the page's amounts by its
  /// margin.
  func total(_ page: TotalCandidates.Page) -> Found<Money>? {
    let rules = page.totals.total
    guard let totalModel,
      let chosen = totalModel.override(TotalCandidates.candidates(page), rules: rules?.value)
    else { return rules }
    let line = page.lines[chosen.candidate.line]
    let confidence = 0.85 * chosen.probability * min(1, line.confidence / 80 + 0.2)
    return Found(value: chosen.candidate.money, confidence: confidence, line: chosen.candidate.line)
  }

  /// What the rows say of the receipt's currency, for the fitting script
  /// (`bench/receipts/fit_currency.py`).
  public func currencyEvidence(_ rows: [ReceiptLine]) -> CurrencyEvidence {
    CurrencyEvidence(Self.lines(rows))
  }

  /// The rules' total and the page's amounts with their features, for the fitting script
  /// (`bench/receipts/fit_total.py`).
  public func totalEvidence(_ rows: [ReceiptLine]) -> TotalCandidates.Evidence {
    let page = Self.totalsPage(Self.lines(rows), rows: rows)
    return TotalCandidates.Evidence(
      rules: page.totals.total?.value.description, candidates: TotalCandidates.candidates(page))
  }

  /// The amount of a line labelled as a total, weighed by its label: its own or the next row's,
  /// else the row's above (`amountBefore`).
  static func totalCandidate(_ lines: [Line], _ line: Line) -> TotalCandidate? {
    let folded = line.folded
    let weight = ReceiptKeywords.totalWeight(folded)
    guard weight > 0, !ReceiptKeywords.containsAny(folded, ReceiptKeywords.notTotal),
      let money = labelledAmount(lines, line.index) ?? amountBefore(lines, line.index), money.cents > 0,
      !printsTax(money, on: line, lines: lines)
    else { return nil }
    return (weight, money, line.index)
  }

  /// Whether a line naming a tax prints the tax itself: its amount is the tax, at a rate the
  /// receipt prints, included in or added to a larger amount of the receipt ("TOTAL GST 1.42",
  /// "(TOTAL INCLUDED GST @ 6% : 1.42)" under a total of 25.08), whatever the label says of
  /// totals; "TOTAL INCL. GST 6% 25.08" is the total.
  static func printsTax(_ money: Money, on line: Line, lines: [Line]) -> Bool {
    guard ReceiptKeywords.containsAny(line.folded, ReceiptKeywords.tax) else { return false }
    let rates = lines.flatMap { line in
      percentage.matches(in: line.text).compactMap { match in
        Double(
          line.text[match.range].filter { $0.isNumber || $0 == "." || $0 == "," }.replacing(",", with: "."))
      }
    }.filter { $0 > 0 && $0 <= 30 }
    let larger = Set(lines.flatMap { $0.amounts.map(\.money.cents) }).filter { $0 > money.cents }
    let tax = Double(money.cents)
    return rates.contains { rate in
      larger.contains { gross in
        abs(Double(gross) * rate / (100 + rate) - tax) <= 1 || abs(Double(gross) * rate / 100 - tax) <= 1
      }
    }
  }

  /// Fills whichever of subtotal, savings and tax `line` is the first to name.
  static func readSubtotalSavingsAndTax(_ lines: [Line], _ line: Line, into result: inout Totals) {
    let folded = line.folded
    if result.subtotal == nil, ReceiptKeywords.containsAny(folded, ReceiptKeywords.subtotal),
      let money = labelledAmount(lines, line.index)
    {
      result.subtotal = Found(
        value: money, confidence: 0.8 * min(1, line.confidence / 80), line: line.index)
    }
    if result.savings == nil, ReceiptKeywords.containsAny(folded, ReceiptKeywords.savings),
      let money = labelledAmount(lines, line.index), money.cents != 0
    {
      result.savings = Found(
        value: money, confidence: 0.75 * min(1, line.confidence / 80), line: line.index)
    }
    if result.tax == nil, ReceiptKeywords.containsAny(folded, ReceiptKeywords.tax),
      !ReceiptKeywords.containsAny(
        folded, ["id", "reg", "no", "nr", "summary", "code", "incl", "inclusive"]),
      let money = line.price ?? line.amounts.last?.money, money.cents >= 0
    {
      result.tax = Found(value: money, confidence: 0.7 * min(1, line.confidence / 80), line: line.index)
    }
  }

  /// Adds the cash given, the card payment or the change returned that `line` prints.
  static func readPayment(_ lines: [Line], _ line: Line, into payments: inout Payments) {
    let folded = line.folded
    let returned = ReceiptKeywords.containsAny(folded, ReceiptKeywords.change)
    // "EC-Cash", "elec.-cash": a German card payment.
    let electronic = ReceiptKeywords.containsAny(folded, ["ec cash", "elec cash", "electronic cash"])
    if ReceiptKeywords.containsAny(folded, ReceiptKeywords.cash), !returned, !electronic,
      let money = line.price ?? spacedMoney(line.text) ?? amountBefore(lines, line.index)
    {
      payments.cash = payments.cash ?? money
      payments.all.append((money, line.index))
    }
    // A card payment is for the amount due; a loyalty card's line ("DeutschlandCard …
    // Umsatz", "Points") is not a payment.
    if electronic || folded.contains("karte") || folded.contains("card")
      || ReceiptKeywords.containsAny(
        folded, ["visa", "ec", "girocard", "maestro", "karta", "carte", "tarjeta"]),
      !returned, !ReceiptKeywords.containsAny(folded, ["punkte", "points", "umsatz", "loyalty", "member"]),
      let money = labelledAmount(lines, line.index) ?? amountBefore(lines, line.index), money.cents > 0
    {
      payments.card.append((money, line.index))
      payments.all.append((money, line.index))
    }
    if returned, let money = line.price {
      payments.change = payments.change ?? money
    }
  }

  /// The total: what cash minus change paid when a label prints it, else the best-supported
  /// labelled amount or card payment, else cash minus change, else the subtotal.
  static func total(
    _ lines: [Line], candidates: [TotalCandidate], payments: Payments, subtotal: Found<Money>?, gross: Money?
  ) -> Found<Money>? {
    // Cash given minus change returned is what was due.
    if let cash = payments.cash, let change = payments.change, change.cents >= 0, cash > change {
      let paid = cash - change
      if let match = candidates.first(where: { $0.money == paid }) {
        return Found(value: paid, confidence: 0.95, line: match.line)
      }
    }
    if let best = bestSupportedTotal(lines, candidates: candidates, payments: payments, gross: gross) {
      return best
    } else if let paid = payments.cashLessChange {
      return Found(value: paid, confidence: 0.5, line: lines.firstIndex { $0.price == payments.cash } ?? 0)
    } else if let subtotal {
      return Found(value: subtotal.value, confidence: 0.4, line: subtotal.line)
    }
    return nil
  }

  /// The labelled amount or card payment that the most evidence supports.
  static func bestSupportedTotal(
    _ lines: [Line], candidates: [TotalCandidate], payments: Payments, gross: Money?
  ) -> Found<Money>? {
    // A labelled amount is weighed by its label, and by independent readings of the same sum:
    // a payment of it and the gross column of the VAT table. Two agreeing readings outvote one
    // misread label ("Total Gross 88.54" against "Total 85.54" and "Visa 85.54"); a card
    // payment with the table behind it is the total even where no label was read right.
    func score(_ money: Money, weight: Int) -> Double {
      Double(weight) + (payments.all.contains { $0.money == money } ? 1.5 : 0) + (gross == money ? 1.5 : 0)
    }
    let scored =
      candidates.map {
        (score: score($0.money, weight: $0.weight), money: $0.money, line: $0.line, weight: $0.weight)
      }
      + payments.card.map { (score: score($0.money, weight: 0), money: $0.money, line: $0.line, weight: 0) }
    guard var best = scored.max(by: { ($0.score, $0.money) < ($1.score, $1.money) }) else { return nil }
    // Cash due is rounded to 5 cents in some countries: a rounded total a few cents off
    // the total is what was paid.
    if let rounded = lines.first(where: { line in
      ReceiptKeywords.containsAny(line.folded, ["rounding", "rounded"])
        && line.price.map { $0.cents >= 100 && $0 != best.money && abs($0.cents - best.money.cents) <= 10 }
          == true
    }) {
      best = (best.score, rounded.price!, rounded.index, max(best.weight, 2))
    } else if let adjusted = roundedByAdjustment(best.money, lines, below: best.line) {
      best.money = adjusted
    }
    let confidence = (best.weight >= 3 ? 0.85 : 0.75) * min(1, lines[best.line].confidence / 80 + 0.2)
    return Found(value: best.money, confidence: confidence * (best.weight == 0 ? 0.7 : 1), line: best.line)
  }

  /// The total with the rounding adjustment printed on the row right below its own (an amount
  /// under one unit on a rounding row) added or taken away, where that makes it rounder: a total
  /// printed before rounding ("Total (Inclusive of GST): 23.26", "Rounding Adj: ~0.01") whose
  /// rounded amount below was lost or misread. The adjustment's sign is often lost; an adjustment
  /// rounds. One printed further down, among the payments, rounds the cash paid, not the total
  /// (on the SROIE training folds such receipts are labelled with the total as printed).
  static func roundedByAdjustment(_ total: Money, _ lines: [Line], below line: Int) -> Money? {
    guard line + 1 < lines.count,
      ReceiptKeywords.containsAny(lines[line + 1].folded, ReceiptKeywords.rounding),
      let adjustment = lines[line + 1].amounts.last?.money.magnitude,
      adjustment.cents > 0, adjustment.cents < 100, adjustment < total
    else { return nil }
    return [total + adjustment, total - adjustment].filter { roundness($0) > roundness(total) }
      .max { roundness($0) < roundness($1) }
  }

  /// How round an amount is: 3 for whole units, 2 for tens of cents, 1 for fives, else 0.
  static func roundness(_ money: Money) -> Int {
    [100, 10, 5].firstIndex { money.cents % $0 == 0 }.map { 3 - $0 } ?? 0
  }

  /// The one amount of the previous row when it has no label of its own: a payment's amount
  /// printed above its word (": 38.00" over "CASH"), or a total's on a photo taken askew, where a
  /// row's right end reads a row higher than its label ("260,54" over "Totalt SEK").
  static func amountBefore(_ lines: [Line], _ index: Int) -> Money? {
    guard lines[index].amounts.isEmpty, index > 0, lines[index - 1].amounts.count == 1,
      lines[index - 1].folded.filter(\.isLetter).count <= 3
    else { return nil }
    return lines[index - 1].amounts[0].money
  }

  static let percentage = TextPattern(#"(?<![\d.,])\d{1,2}(?:[.,]\d{1,2})?\s?%"#)

  /// The sum of the VAT table's gross column: on each row with a rate ("B 7% 7,45 0,52 7,97",
  /// "ZRL (@ 0%) 4.80 0.00"), the largest of two or more amounts after the rate. Nil without
  /// such rows.
  static func taxTableGross(_ lines: [Line]) -> Money? {
    var sum = 0, rows = 0
    for line in lines {
      guard let rate = percentage.firstMatch(in: line.text) else { continue }
      let after = line.text.distance(from: line.text.startIndex, to: rate.range.upperBound)
      let amounts = line.amounts.filter { $0.range.lowerBound >= after }.map(\.money)
      guard amounts.count >= 2, let largest = amounts.max() else { continue }
      sum += largest.cents
      rows += 1
    }
    return rows > 0 ? Money(cents: sum) : nil
  }

  // MARK: - Reference

  static let referencePattern = TextPattern(
    #"(?i)(?<![A-Za-z])([A-Za-zА-я#]{2,12})\.?\s*(?:no\.?|nr\.?|number|#|№)?\s*[:#.]?\s*([A-Z0-9][A-Z0-9/-]{2,20})(?![A-Za-z0-9])"#
  )

  static func reference(_ lines: [Line]) -> Found<String>? {
    for line in lines {
      if ReceiptKeywords.containsAny(
        line.folded,
        [
          "tel", "fax", "gst", "phone", "reg", "vat", "ust", "nip", "company", "id", "date", "card", "karte",
          "table",
        ])
      {
        continue
      }
      for match in referencePattern.matches(in: line.text) {
        guard let label = match[1], let value = match[2] else { continue }
        let folded = ReceiptKeywords.fold(String(label)).trimmingCharacters(in: .whitespaces)
        guard
          ReceiptKeywords.reference.contains(folded)
            || ReceiptKeywords.reference.contains(String(label).lowercased())
        else { continue }
        let digits = value.filter(\.isNumber).count
        guard digits >= 3, digits * 2 >= value.count, ReceiptDate.dates(in: String(value)).isEmpty,
          Money.amounts(in: String(value)).isEmpty
        else { continue }
        return Found(value: String(value), confidence: 0.7 * min(1, line.confidence / 80), line: line.index)
      }
    }
    return nil
  }
}
