import Foundation
import SnapsortImaging

/// The words receipts label their lines with, in the Card Snap languages (en, pl, de, fr, es,
/// it, nl, sv, ru, uk), folded like OCR text is (lowercase, no diacritics, look-alike glyphs
/// unified) so that `SUMA CZĘŚCIOWA` and `SUMA CZESCIOWA` match alike.
public enum ReceiptKeywords {
  /// The amount due, with a weight: 3 for unmistakable phrases, 2 for the plain word.
  static let total: [(String, Int)] = [
    ("grand total", 3), ("total due", 3), ("amount due", 3), ("balance due", 3), ("total payable", 3),
    ("nett total", 3), ("net total", 3), ("rounded total", 3), ("total rounded", 3), ("total amount", 3),
    ("total inclusive", 3), ("inclusive of gst", 3), ("inclusive gst", 3), ("incl gst", 3),
    ("amt payable", 3), ("amount payable", 3), ("total incl", 3), ("zu zahlen", 3),
    ("do zaplaty", 3), ("a payer", 3), ("net a payer", 3), ("total ttc", 3), ("te betalen", 3),
    ("att betala", 3), ("к оплате", 3), ("до сплати", 3), ("total a pagar", 3), ("totale complessivo", 3),
    ("total", 2), ("totale", 2), ("totaal", 2), ("totalt", 2), ("summe", 2), ("suma", 2), ("razem", 2),
    ("summa", 2), ("итого", 2), ("разом", 2), ("всего", 2), ("сума", 2), ("gesamtbetrag", 2),
    ("endbetrag", 2), ("gesamt", 1), ("betrag", 1), ("importe", 1), ("importo", 1), ("montant", 1),
    ("amount", 1),
  ]

  /// Lines with these are not the total even when they say "total" (nor is a line whose amount
  /// is the tax: the extractor tells "TOTAL GST 1.42" from the total by its arithmetic).
  static let notTotal: [String] = [
    "subtotal", "sub total", "sub-total", "total qty", "total quantity", "total item", "total items",
    "excl", "excluding", "exclusive", "total discount",
    "total savings", "total saved", "zwischensumme", "suma czesciowa", "sous total", "subtotale",
    "subtotaal", "anzahl", "netto", "mwst", "rounding adj", "change", "cash", "bargeld", "zuruck",
    "ruckgeld", "qty", "tendered", "gst summary", "sales excl", "subtotaal", "delsumma", "totale parziale",
    "subtotal", "kembali", "reszta", "gotowka", "rendu", "cambio", "resto", "wisselgeld", "vaxel",
  ]

  static let subtotal: [String] = [
    "subtotal", "sub total", "sub-total", "zwischensumme", "suma czesciowa", "sous total", "subtotale",
    "subtotaal", "delsumma", "promezhutochnyi", "промежуточный итог", "проміжний підсумок", "totale parziale",
    "total sales excl", "total excl", "sprzedaz opodatk", "sprzedaz opodatkowana",
  ]

  static let savings: [String] = [
    "you saved", "savings", "you save", "discount", "rabat", "rabatt", "oszczedzasz", "oszczednosc",
    "remise", "reduction", "korting", "sconto", "descuento", "ahorro", "ahorras", "du sparst",
    "sie sparen", "ersparnis", "gespart", "rabatt", "skidka", "скидка", "знижка", "экономия", "economia",
    "rabatt", "besparing", "je bespaart", "du sparade", "promo",
  ]

  static let tax: [String] = [
    "tax", "vat", "gst", "mwst", "ust", "ptu", "tva", "iva", "btw", "moms", "ндс", "пдв", "sales tax",
  ]

  /// Words that say a line is about payment, not an item or a total.
  static let payment: [String] = [
    "cash", "change", "tendered", "bargeld", "zuruck", "ruckgeld", "gegeben", "karte", "ec cash", "visa",
    "mastercard", "card", "gotowka", "reszta", "karta", "rendu", "especes", "carte", "cambio", "efectivo",
    "tarjeta", "contanti", "resto", "wisselgeld", "contant", "pin", "kontant", "vaxel", "наличные",
    "сдача", "готівка", "решта", "kembali", "paid", "payment", "rounding", "auf", "bezahlt",
  ]

  /// Labels of a reference number.
  static let reference: [String] = [
    "trn", "trans", "transaction", "receipt", "rcpt", "invoice", "inv", "bill", "doc", "document",
    "ticket", "beleg", "bon", "nr", "no", "paragon", "scontrino", "rechnung", "quittung", "check", "chk",
    "order", "ref", "reference", "kvitto", "bonnr", "belegnr", "чек", "квитанция", "num", "numero",
    "número", "transakcja",
  ]

  static let dateLabels: [String] = ["date", "datum", "data", "fecha", "дата", "date/time", "tarih"]

  /// Labels of a date that is not the day of sale: a card's expiry, a voucher's validity.
  static let expiryLabels: [String] = [
    "exp", "expiry", "expires", "expiration", "valid", "validity", "gultig", "ablauf", "scadenza",
    "waznosc", "vence", "vencimiento", "срок",
  ]

  /// A line folded for keyword matching, padded with spaces so `contains(" word ")` is a whole-word test.
  public static func fold(_ text: String) -> String {
    " " + IssuerText.tokens(text).map(IssuerText.skeleton).joined(separator: " ") + " "
  }

  /// Whether the folded line holds the phrase as whole words.
  static func contains(_ folded: String, _ phrase: String) -> Bool {
    folded.contains(foldedPhrases[phrase] ?? fold(phrase))
  }

  /// The phrases folded once.
  private static let foldedPhrases: [String: String] = {
    var map: [String: String] = [:]
    for phrase in total.map(\.0) + notTotal + subtotal + savings + tax + payment + reference + dateLabels
      + expiryLabels
    {
      map[phrase] = fold(phrase)
    }
    return map
  }()

  static func containsAny(_ folded: String, _ phrases: [String]) -> Bool {
    phrases.contains { contains(folded, $0) }
  }

  /// The highest weight of a total phrase in the line, 0 when none.
  static func totalWeight(_ folded: String) -> Int {
    total.filter { contains(folded, $0.0) }.map(\.1).max() ?? 0
  }
}
