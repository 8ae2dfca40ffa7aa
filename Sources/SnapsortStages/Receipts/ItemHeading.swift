import Foundation

/// Rows over a receipt's first item that are no part of its description: column headings
/// (`ITEM QTY RSP AMOUNT`, `Menge Artikel Preis Betrag`) and the receipt's own labelled rows
/// (`CASHIER : …`, `Bonnr. 2415  Kassa 6`), told from an item's words by the heading words they
/// carry, a label's colon, or numbers that are no pack size.
enum ItemHeading {
  /// Words that stand over the first item of a receipt more often than in its item rows, each in
  /// three or more merchant groups or renders: fitted by bench/receipts/fit_headings.py on the
  /// true lines of `sroie_dev` folds 0-3 and the printed lines of train renders
  /// (`family_lines.py --seed 91 --count 400`, every train family).
  static let words: Set<String> = [
    "aant", "amount", "amtrm", "artikel", "atendió", "bediener", "bedrag", "beleg", "betrag", "bhd", "bill",
    "bon", "bonnr", "btw", "by", "caisse", "caissière", "caja", "cant", "cashier", "cassa", "cena", "cif",
    "code", "counter", "data", "date", "datum", "descripción", "description", "descrizione", "doc",
    "documento", "désignation", "entry", "factura", "fecha", "hôtesse", "id", "il", "importe", "importo",
    "invoice", "item", "kasa", "kasjer", "kassa", "kasse", "kassenbon", "kassör", "kvitto", "kvittonr", "le",
    "menge", "montant", "name", "nazwa", "nip", "no", "nr", "nº", "omschrijving", "operator", "operatore",
    "orgnr", "pax", "pcs", "piva", "pm", "precio", "preis", "prezzo", "price", "prijs", "qty", "qtà", "qté",
    "receipt", "ref", "reg", "salesperson", "scontrino", "sdn", "simpl", "simplified", "siret", "sprice",
    "table", "tax", "tel", "ticket", "time", "trans", "transactie", "transaction", "trn", "unit", "up",
    "uprice", "user", "wartość", "wydr",
  ]

  /// A row with a heading word (OCR misreads the others of a heading: `Iter Gty RSP Amount`; on
  /// the printed lines of train renders seeds 91 and 92, one of 4582 item descriptions holds one),
  /// or a label and its value (`Table: 5`).
  static func isHeading(_ text: String) -> Bool {
    text.contains(":")
      || text.lowercased().split(separator: " ").contains {
        words.contains(String($0.filter { $0.isLetter }))
      }
  }

  /// A row that closes the header over the first item's own rows: a rule, a date or a heading.
  static func isBoundary(_ line: ReceiptExtractor.Line) -> Bool {
    !line.text.contains(where: { $0.isLetter || $0.isNumber }) || !ReceiptDate.dates(in: line.text).isEmpty
      || isHeading(line.text)
  }

  /// A row of words over the first priced row that may be the first item's description: no
  /// heading or rule read as letters (`ewe ———`), and a number only as a count before the name
  /// (`2 * Spaghetti`) or a pack size glued to its unit (`1,5l`, `3,5%`, `12-p`), not a receipt,
  /// till or street number (`Bonnr. 2415`, `TBL35`, `Marktplein 189`).
  static func mayDescribeFirstItem(_ line: ReceiptExtractor.Line) -> Bool {
    guard ItemAssembly.isDescriptionRow(line), !isHeading(line.text), rule.firstMatch(in: line.text) == nil
    else { return false }
    let text =
      leadingCount.firstMatch(in: line.text).map { String(line.text[$0.range.upperBound...]) } ?? line.text
    return text.split(separator: " ").allSatisfy { token in
      !token.contains(where: \.isNumber)
        || token.first?.isNumber == true && token.contains(where: { $0.isLetter || $0 == "%" })
    }
  }
  private static let rule = TextPattern(#"[-=*_—–~.]{3}"#)
  private static let leadingCount = TextPattern(#"^\s*\d{1,2}\s?[xX×*]\s"#)
}
