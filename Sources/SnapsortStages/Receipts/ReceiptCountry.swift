import Foundation

/// Where a receipt was printed, read from what it prints besides its amounts: a company's legal
/// form (`Sdn Bhd`, `Sp. z o.o.`), a web or mail address in the country's domain (`.my`, `.de`), a
/// telephone number with the country's calling code (`+48`), one of its regions (`Selangor`,
/// `Bayern`, a US state's code before a ZIP code), the country's own name. Most receipts
/// print no currency beside their amounts; their currency is the one of the country they come
/// from (issue #27 item 3).
struct ReceiptCountry: Sendable {
  /// ISO 3166 alpha-2.
  var code: String
  /// ISO 4217.
  var currency: String
  /// The country's names as its receipts print them, and in English.
  var names: [String]
  /// Its first-level regions (states, Länder, voivodeships, counties), as addresses print them;
  /// a name two countries share is left out.
  var regions: [String] = []
  /// Legal forms of companies registered there and nowhere else (so not `GmbH`, which Austria
  /// and Switzerland share with Germany, nor `Ltd` or `S.A.`).
  var legalForms: [String] = []
  var domain: String
  var callingCode: String

  static let all: [ReceiptCountry] = [
    .init(
      code: "MY", currency: "MYR", names: ["malaysia"],
      regions: [
        "johor", "kedah", "kelantan", "melaka", "malacca", "negeri sembilan", "pahang", "perak", "perlis",
        "pulau pinang", "penang", "sabah", "sarawak", "selangor", "terengganu", "kuala lumpur", "putrajaya",
        "labuan",
      ], legalForms: ["sdn bhd", "sdn", "berhad", "bhd"],
      domain: "my", callingCode: "60"),
    .init(
      code: "SG", currency: "SGD", names: ["singapore"], legalForms: ["pte ltd", "pte"], domain: "sg",
      callingCode: "65"),
    .init(
      code: "DE", currency: "EUR", names: ["deutschland", "germany"],
      regions: [
        "baden-württemberg", "bayern", "bavaria", "berlin", "brandenburg", "bremen", "hamburg", "hessen",
        "mecklenburg-vorpommern", "niedersachsen", "nordrhein-westfalen", "rheinland-pfalz", "saarland",
        "sachsen", "sachsen-anhalt", "schleswig-holstein", "thüringen",
      ], domain: "de", callingCode: "49"),
    .init(
      code: "AT", currency: "EUR", names: ["österreich", "austria"],
      regions: [
        "burgenland", "kärnten", "niederösterreich", "oberösterreich", "salzburg", "steiermark", "tirol",
        "vorarlberg", "wien",
      ], domain: "at", callingCode: "43"),
    .init(
      code: "CH", currency: "CHF", names: ["schweiz", "suisse", "svizzera", "switzerland"], domain: "ch",
      callingCode: "41"),
    .init(
      code: "FR", currency: "EUR", names: ["france"],
      regions: [
        "auvergne-rhône-alpes", "bourgogne-franche-comté", "bretagne", "centre-val de loire", "corse",
        "grand est", "hauts-de-france", "île-de-france", "normandie", "nouvelle-aquitaine", "occitanie",
        "pays de la loire", "provence-alpes-côte d'azur",
      ], legalForms: ["sasu", "eurl"], domain: "fr",
      callingCode: "33"),
    .init(
      code: "BE", currency: "EUR", names: ["belgique", "belgië", "belgium"], domain: "be", callingCode: "32"),
    .init(
      code: "ES", currency: "EUR", names: ["españa", "spain"],
      regions: [
        "andalucía", "aragón", "asturias", "cantabria", "castilla y león", "castilla-la mancha", "cataluña",
        "catalunya", "extremadura", "galicia", "islas baleares", "illes balears", "canarias",
        "comunidad de madrid", "región de murcia", "navarra", "país vasco", "euskadi", "comunitat valenciana",
      ], legalForms: ["s.l.u."], domain: "es",
      callingCode: "34"),
    .init(
      code: "IT", currency: "EUR", names: ["italia", "italy"],
      regions: [
        "abruzzo", "basilicata", "calabria", "campania", "emilia-romagna", "friuli-venezia giulia", "lazio",
        "liguria", "lombardia", "molise", "piemonte", "puglia", "sardegna", "sicilia", "toscana",
        "trentino-alto adige", "umbria", "valle d'aosta", "veneto",
      ], domain: "it", callingCode: "39"),
    .init(
      code: "NL", currency: "EUR", names: ["nederland", "netherlands"],
      regions: [
        "drenthe", "flevoland", "friesland", "fryslân", "gelderland", "groningen", "noord-brabant",
        "noord-holland", "overijssel", "utrecht", "zeeland", "zuid-holland",
      ], domain: "nl", callingCode: "31"),
    .init(
      code: "PL", currency: "PLN", names: ["polska", "poland"],
      regions: [
        "dolnośląskie", "kujawsko-pomorskie", "lubelskie", "lubuskie", "łódzkie", "małopolskie",
        "mazowieckie", "opolskie", "podkarpackie", "podlaskie", "pomorskie", "śląskie", "świętokrzyskie",
        "warmińsko-mazurskie", "wielkopolskie", "zachodniopomorskie",
      ], legalForms: ["sp. z o.o.", "sp.j.", "sp.k."],
      domain: "pl", callingCode: "48"),
    .init(
      code: "SE", currency: "SEK", names: ["sverige", "sweden"],
      regions: [
        "blekinge", "dalarna", "gotland", "gävleborg", "halland", "jämtland", "jönköping", "kalmar",
        "kronoberg", "norrbotten", "skåne", "stockholm", "södermanland", "uppsala", "värmland",
        "västerbotten", "västernorrland", "västmanland", "västra götaland", "örebro", "östergötland",
      ], legalForms: ["aktiebolag"], domain: "se",
      callingCode: "46"),
    .init(
      code: "RU", currency: "RUB", names: ["россия", "russia"], legalForms: ["ооо", "оао", "зао", "пао"],
      domain: "ru", callingCode: "7"),
    .init(
      code: "UA", currency: "UAH", names: ["україна", "ukraine"], legalForms: ["тов", "фоп"], domain: "ua",
      callingCode: "380"),
    .init(
      code: "GB", currency: "GBP", names: ["united kingdom", "england", "scotland"], domain: "uk",
      callingCode: "44"),
    .init(code: "US", currency: "USD", names: ["united states", "usa"], domain: "us", callingCode: "1"),
  ]

  /// The currency each language's receipts are in where one currency covers nearly all of them;
  /// English is printed in too many countries to say.
  static let languageCurrency: [ReceiptLanguage: String] = [
    .pl: "PLN", .de: "EUR", .fr: "EUR", .es: "EUR", .it: "EUR", .nl: "EUR", .sv: "SEK", .ru: "RUB",
    .uk: "UAH", .ms: "MYR",
  ]

  /// What a receipt says of its country: for each currency, how many kinds of evidence (a legal
  /// form, the domain, the calling code, a region, the name) name a country that pays in it, and the first
  /// line that does.
  static func evidence(_ lines: [ReceiptExtractor.Line]) -> [String: (kinds: Int, line: Int)] {
    var kinds: [String: Set<String>] = [:]
    var firstLine: [String: Int] = [:]
    for line in lines {
      let lowered = line.text.lowercased()
      for country in all {
        for kind in country.kinds(in: line, lowered: lowered) {
          kinds[country.currency, default: []].insert(country.code + kind)
          firstLine[country.currency] = firstLine[country.currency] ?? line.index
        }
      }
    }
    return kinds.mapValues { $0.count }.reduce(into: [:]) { result, entry in
      result[entry.key] = (entry.value, firstLine[entry.key]!)
    }
  }

  /// The kinds of evidence for this country on one line.
  func kinds(in line: ReceiptExtractor.Line, lowered: String) -> [String] {
    var found: [String] = []
    let words = Self.foldedWords[code]!
    if words.names.contains(where: line.folded.contains) { found.append("name") }
    if words.regions.contains(where: line.folded.contains) { found.append("region") }
    if words.legalForms.contains(where: line.folded.contains) { found.append("legal") }
    if code == "US", ReceiptExtractor.usAddress.firstMatch(in: line.text) != nil { found.append("region") }
    if lowered.contains("."), Self.domainPatterns[code]!.firstMatch(in: lowered) != nil {
      found.append("domain")
    }
    if line.text.contains("+"), Self.callingPatterns[code]!.firstMatch(in: line.text) != nil {
      found.append("calling")
    }
    return found
  }

  private static let foldedWords = Dictionary(
    uniqueKeysWithValues: all.map {
      (
        $0.code,
        (
          names: $0.names.map(ReceiptKeywords.fold), regions: $0.regions.map(ReceiptKeywords.fold),
          legalForms: $0.legalForms.map(ReceiptKeywords.fold)
        )
      )
    })
  /// A web or mail address in the country's domain (`www.x.de`, `a@b.pl`, `shop.com.my`); a bare
  /// `word.de` is not one, since OCR joins words with dots.
  private static let domainPatterns = Dictionary(
    uniqueKeysWithValues: all.map {
      let domain = $0.domain
      return (
        $0.code,
        TextPattern(
          #"(?:(?:www\.|@|://)[a-z0-9.-]*[a-z0-9]|[a-z0-9-]{2,}\.(?:com?|org|net))\.\#(domain)(?![a-z0-9])"#)
      )
    })
  /// A telephone number after `+` and the calling code: `+60 3-7803 0974`, `+48 (22) 123 45 67`.
  /// At least seven digits follow, so a signed amount (`+49.90`) is not one.
  private static let callingPatterns = Dictionary(
    uniqueKeysWithValues: all.map {
      ($0.code, TextPattern(#"(?<![\w+])\+\s?\(?\#($0.callingCode)\)?[\s\-/.]*\(?\d(?:[\s\-/().]*\d){6}"#))
    })
}
