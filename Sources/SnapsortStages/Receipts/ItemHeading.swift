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

  /// Letters from which a word one edit from a heading word is read as that word (`DESIGNATION`,
  /// `DOCUMENT`): fitted by bench/receipts/fit_heading_fold.py on train rows as the tolerance that
  /// turns no item row of `sroie_dev` folds 0-3 (true lines and OCR rows) or of train renders into
  /// a heading (at 7, OCR's `Kontant` would be read as `montant`).
  static let misreadLetters = 8

  /// A row with a heading word (OCR misreads the others of a heading: `Iter Gty RSP Amount`; on
  /// the printed lines of train renders seeds 91 and 92, one of 4582 item descriptions holds one),
  /// or a label and its value (`Table: 5`).
  static func isHeading(_ text: String) -> Bool {
    text.contains(":")
      || text.lowercased().split(separator: " ").contains { token in
        let word = String(token.filter { $0.isLetter })
        return words.contains(word)
          || word.count >= misreadLetters
            && longWords.contains {
              EditDistance.levenshtein(word, $0) <= 1
            }
      }
  }
  private static let longWords = words.filter { $0.count >= misreadLetters }

  /// Words with letters from which a heading row without digits is a row of column headings
  /// (`ITEM QTY PRICE AMOUNT`, OCR's `Iter Gty RSP Amount!`) rather than a description with a
  /// heading word (`DOLE PINEAPPLE PCS`, OCR's `Tel (B)` for `Teh`): fitted by
  /// bench/receipts/fit_heading_fold.py on the rows right over the first priced row of
  /// `sroie_dev` folds 0-3 and train renders (with 3 words, items are still among them).
  static let columnWords = 4

  /// A heading row of `columnWords` words or more and no digit: where the first item's amount row
  /// has no words, the rows of words over it are taken as its description, so only a heading that
  /// is no item's own row may be left out.
  static func isColumnHeading(_ text: String) -> Bool {
    isHeading(text) && !text.contains(where: \.isNumber)
      && text.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count >= columnWords
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
