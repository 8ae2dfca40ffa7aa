import Foundation

/// The languages receipts are read in: the Card Snap ten, and Malay, which Malaysian receipts mix
/// with English.
public enum ReceiptLanguage: String, CaseIterable, Sendable {
  case en, pl, de, fr, es, it, nl, sv, ru, uk, ms
}

/// One language's words for the lines of a receipt, spelled as printed (diacritics and all) and
/// matched after folding (`ReceiptKeywords.fold`). A word two languages share is listed under both.
struct ReceiptVocabulary {
  /// The amount due, with a weight: 3 for unmistakable phrases, 2 for the plain word.
  var total: [(String, Int)] = []
  /// Lines with these are not the total even when they say "total".
  var notTotal: [String] = []
  var subtotal: [String] = []
  var savings: [String] = []
  var tax: [String] = []
  /// Words that say a line is about payment, not an item or a total.
  var payment: [String] = []
  /// What the customer handed over, and what came back.
  var cash: [String] = []
  var change: [String] = []
  /// A payment by card: the scheme or the word.
  var card: [String] = []
  /// A total rounded to what coins can pay.
  var rounding: [String] = []
  /// Labels of a reference number.
  var reference: [String] = []
  var dateLabels: [String] = []
  /// Labels of a date that is not the day of sale: a card's expiry, a voucher's validity.
  var expiryLabels: [String] = []
  /// Header lines that are not the shop's name: a greeting on arrival and the document's title.
  /// Not in `phrases`: they say nothing of the language a body is printed in.
  var greetings: [String] = []
  var titles: [String] = []

  /// Every phrase of the vocabulary.
  var phrases: [String] {
    total.map(\.0) + notTotal + subtotal + savings + tax + payment + cash + change + card + rounding
      + reference
      + dateLabels + expiryLabels
  }
}

extension ReceiptVocabulary {
  /// Words printed on receipts in every language: card schemes, and labels borrowed everywhere.
  static let international = ReceiptVocabulary(
    payment: ["visa", "mastercard", "ec cash", "pin"], card: ["visa", "master", "ec cash", "girocard"],
    dateLabels: ["date/time", "tarih"])

  static func of(_ language: ReceiptLanguage) -> ReceiptVocabulary {
    switch language {
    case .en: english
    case .pl: polish
    case .de: german
    case .fr: french
    case .es: spanish
    case .it: italian
    case .nl: dutch
    case .sv: swedish
    case .ru: russian
    case .uk: ukrainian
    case .ms: malay
    }
  }

  static let english = ReceiptVocabulary(
    total: [
      ("grand total", 3), ("total due", 3), ("amount due", 3), ("balance due", 3), ("total payable", 3),
      ("nett total", 3), ("net total", 3), ("rounded total", 3), ("total rounded", 3), ("total amount", 3),
      ("total inclusive", 3), ("inclusive of gst", 3), ("inclusive gst", 3), ("incl gst", 3),
      ("amt payable", 3), ("amount payable", 3), ("total incl", 3), ("total", 2), ("amount", 1),
    ],
    notTotal: [
      "subtotal", "sub total", "sub-total", "total qty", "total quantity", "total item", "total items",
      "excl",
      "excluding", "exclusive", "total discount", "total savings", "total saved", "rounding adj", "change",
      "cash", "qty", "tendered", "gst summary", "sales excl",
    ],
    subtotal: ["subtotal", "sub total", "sub-total", "total sales excl", "total excl"],
    savings: ["you saved", "savings", "you save", "discount", "promo"],
    tax: ["tax", "vat", "gst", "sales tax"],
    payment: ["cash", "change", "tendered", "card", "paid", "payment", "rounding"],
    cash: ["cash", "tendered"], change: ["change"], card: ["card"],
    rounding: ["rounding", "rounded", "round"],
    reference: [
      "trn", "trans", "transaction", "receipt", "rcpt", "invoice", "inv", "bill", "doc", "document", "ticket",
      "nr", "no", "check", "chk", "order", "ref", "reference", "num",
    ],
    dateLabels: ["date"], expiryLabels: ["exp", "expiry", "expires", "expiration", "valid", "validity"],
    greetings: ["welcome", "welcome to"],
    titles: [
      "receipt", "sales receipt", "cash receipt", "invoice", "tax invoice", "simplified tax invoice",
      "cash bill",
      "customer copy", "merchant copy",
    ])

  static let polish = ReceiptVocabulary(
    total: [("do zapłaty", 3), ("suma", 2), ("razem", 2)],
    notTotal: ["suma częściowa", "reszta", "gotówka"],
    subtotal: ["suma częściowa", "sprzedaż opodatk", "sprzedaż opodatkowana"],
    savings: ["rabat", "oszczędzasz", "oszczędność"], tax: ["ptu", "vat"],
    payment: ["gotówka", "reszta", "karta"], cash: ["gotówka"], change: ["reszta"], card: ["karta"],
    reference: ["nr", "paragon", "transakcja"], dateLabels: ["data"], expiryLabels: ["ważność"],
    greetings: ["witamy", "zapraszamy", "dzień dobry"],
    titles: ["paragon", "paragon fiskalny", "faktura", "rachunek"])

  static let german = ReceiptVocabulary(
    total: [
      ("zu zahlen", 3), ("summe", 2), ("gesamtbetrag", 2), ("endbetrag", 2), ("gesamt", 1), ("betrag", 1),
    ],
    notTotal: ["zwischensumme", "anzahl", "netto", "mwst", "bargeld", "zurück", "rückgeld"],
    subtotal: ["zwischensumme"],
    savings: ["rabatt", "du sparst", "sie sparen", "ersparnis", "gespart"], tax: ["mwst", "ust"],
    payment: ["bargeld", "zurück", "rückgeld", "gegeben", "karte", "auf", "bezahlt"],
    cash: ["bargeld", "bar", "gegeben"], change: ["zurück", "rückgeld"], card: ["karte"],
    reference: ["beleg", "bon", "nr", "rechnung", "quittung", "belegnr", "bonnr"], dateLabels: ["datum"],
    expiryLabels: ["gültig", "ablauf"],
    greetings: ["willkommen", "herzlich willkommen", "guten tag", "grüß gott"],
    titles: [
      "kassenbon", "kassenbeleg", "kassenzettel", "beleg", "rechnung", "quittung", "kundenbeleg", "bon",
    ])

  static let french = ReceiptVocabulary(
    total: [("à payer", 3), ("net à payer", 3), ("total ttc", 3), ("total", 2), ("montant", 1)],
    notTotal: ["sous total", "rendu"], subtotal: ["sous total"], savings: ["remise", "réduction"],
    tax: ["tva"], payment: ["rendu", "espèces", "carte"], cash: ["espèces"], change: ["rendu"],
    card: ["carte"],
    reference: ["ticket", "numéro"], dateLabels: ["date"], greetings: ["bienvenue", "bonjour"],
    titles: ["ticket", "ticket de caisse", "ticket client", "facture", "reçu"])

  static let spanish = ReceiptVocabulary(
    total: [("total a pagar", 3), ("total", 2), ("importe", 1)], notTotal: ["cambio", "resto"],
    subtotal: ["subtotal"], savings: ["descuento", "ahorro", "ahorras"], tax: ["iva"],
    payment: ["cambio", "efectivo", "tarjeta"], cash: ["efectivo"], change: ["cambio"], card: ["tarjeta"],
    reference: ["ticket", "número", "numero"], dateLabels: ["fecha"], expiryLabels: ["vence", "vencimiento"],
    greetings: ["bienvenido", "bienvenidos", "bienvenida", "buenos días"],
    titles: ["ticket", "factura", "factura simplificada", "recibo", "tique"])

  static let italian = ReceiptVocabulary(
    total: [("totale complessivo", 3), ("totale", 2), ("importo", 1)],
    notTotal: ["subtotale", "totale parziale", "resto"], subtotal: ["subtotale", "totale parziale"],
    savings: ["sconto", "economia"], tax: ["iva"], payment: ["contanti", "resto"], cash: ["contanti"],
    change: ["resto"], reference: ["scontrino", "numero"], dateLabels: ["data"], expiryLabels: ["scadenza"],
    greetings: ["benvenuti", "benvenuto", "benvenuta", "buongiorno"],
    titles: ["scontrino", "scontrino fiscale", "documento commerciale", "ricevuta", "fattura"])

  static let dutch = ReceiptVocabulary(
    total: [("te betalen", 3), ("totaal", 2)], notTotal: ["subtotaal", "wisselgeld"], subtotal: ["subtotaal"],
    savings: ["korting", "je bespaart"], tax: ["btw"], payment: ["wisselgeld", "contant"],
    change: ["wisselgeld"], reference: ["bon", "bonnr"], dateLabels: ["datum"],
    greetings: ["welkom", "goedendag"], titles: ["kassabon", "kassaticket", "bon", "factuur"])

  static let swedish = ReceiptVocabulary(
    total: [("att betala", 3), ("totalt", 2), ("summa", 2)], notTotal: ["delsumma", "växel"],
    subtotal: ["delsumma"], savings: ["rabatt", "besparing", "du sparade"], tax: ["moms"],
    payment: ["kontant", "växel"], reference: ["kvitto"], dateLabels: ["datum"],
    greetings: ["välkommen", "välkommen till"], titles: ["kvitto", "kassakvitto", "faktura"])

  static let russian = ReceiptVocabulary(
    total: [("к оплате", 3), ("итого", 2), ("всего", 2)],
    subtotal: ["промежуточный итог", "promezhutochnyi"],
    savings: ["скидка", "skidka", "экономия"], tax: ["ндс"], payment: ["наличные", "сдача"],
    reference: ["чек", "квитанция"], dateLabels: ["дата"], expiryLabels: ["срок"],
    greetings: ["добро пожаловать", "здравствуйте"],
    titles: ["чек", "кассовый чек", "товарный чек", "квитанция"])

  static let ukrainian = ReceiptVocabulary(
    total: [("до сплати", 3), ("разом", 2), ("сума", 2)], subtotal: ["проміжний підсумок"],
    savings: ["знижка"], tax: ["пдв"], payment: ["готівка", "решта"], reference: ["чек"],
    dateLabels: ["дата"],
    greetings: ["ласкаво просимо", "вітаємо"], titles: ["чек", "фіскальний чек", "квитанція"])

  static let malay = ReceiptVocabulary(
    notTotal: ["kembali"], payment: ["kembali"], change: ["kembali"], greetings: ["selamat datang"],
    titles: ["resit", "resit rasmi", "invois", "invois cukai", "bil tunai"])
}

extension ReceiptLanguage {
  /// Each language's own phrases, folded: those no other language's vocabulary holds.
  static let ownPhrases: [ReceiptLanguage: [String]] = {
    let folded = Dictionary(
      uniqueKeysWithValues: allCases.map {
        ($0, Set(ReceiptVocabulary.of($0).phrases.map(ReceiptKeywords.fold)))
      })
    return folded.mapValues { own in
      own.filter { phrase in folded.values.filter { $0.contains(phrase) }.count == 1 }.sorted()
    }
  }()

  /// The language whose own phrases label the most of `foldedLines` (`ReceiptKeywords.fold`),
  /// when they label at least two and more than any other language's do.
  static func detect(inFolded foldedLines: [String]) -> ReceiptLanguage? {
    leading(inFolded: foldedLines)?.detected
  }

  /// The language whose own phrases label the most lines, and how many they label.
  struct Leading: Sendable {
    var language: ReceiptLanguage
    var lines: Int
    /// The language when two lines or more say it (`detect`).
    var detected: ReceiptLanguage? { lines >= 2 ? language : nil }
  }

  /// The language whose own phrases label the most of `foldedLines`, and how many they label,
  /// when they label one or more and more than any other language's do.
  static func leading(inFolded foldedLines: [String]) -> Leading? {
    let counts = allCases.map { language in
      (language, foldedLines.filter { line in ownPhrases[language]!.contains { line.contains($0) } }.count)
    }.sorted { $0.1 > $1.1 }
    guard let first = counts.first, first.1 >= 1, counts.count < 2 || counts[1].1 < first.1 else {
      return nil
    }
    return Leading(language: first.0, lines: first.1)
  }
}
