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
  /// A region written as a pattern rather than a name (a US state's code before a ZIP code).
  var regionPattern: TextPattern? = nil

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
    .init(
      code: "US", currency: "USD", names: ["united states", "usa"], domain: "us", callingCode: "1",
      regionPattern: ReceiptExtractor.usAddress),
  ]

  /// The currency each language's receipts are in where one currency covers nearly all of them;
  /// English is printed in too many countries to say.
  static let languageCurrency: [ReceiptLanguage: String] = [
    .pl: "PLN", .de: "EUR", .fr: "EUR", .es: "EUR", .it: "EUR", .nl: "EUR", .sv: "SEK", .ru: "RUB",
    .uk: "UAH", .ms: "MYR",
  ]

  /// What a receipt says of its country: for each currency, how many kinds of evidence (a legal
  /// form, the domain, the calling code, a region, the name) name a country that pays in it, and
  /// the first line that does.
  static func evidence(_ lines: [ReceiptExtractor.Line]) -> [String: (kinds: Int, line: Int)] {
    var kinds: [String: Set<String>] = [:]
    var firstLine: [String: Int] = [:]
    for line in lines {
      let lowered = line.text.lowercased()
      for matcher in matchers {
        let currency = matcher.country.currency
        for kind in matcher.kinds(in: line, lowered: lowered) {
          kinds[currency, default: []].insert(matcher.country.code + kind)
          firstLine[currency] = firstLine[currency] ?? line.index
        }
      }
    }
    return kinds.reduce(into: [:]) { result, entry in
      result[entry.key] = (entry.value.count, firstLine[entry.key]!)
    }
  }

  private static let matchers = all.map(Matcher.init)

  /// One country's words folded and its patterns compiled, once.
  private struct Matcher: Sendable {
    let country: ReceiptCountry
    let names: [String]
    let regions: [String]
    let legalForms: [String]
    /// A web or mail address in the country's domain (`www.x.de`, `a@b.pl`, `shop.com.my`); a
    /// bare `word.de` is not one, since OCR joins words with dots.
    let domain: TextPattern
    /// A telephone number after `+` and the calling code: `+60 3-7803 0974`, `+48 (22) 123 45 67`.
    /// At least seven digits follow, so a signed amount (`+49.90`) is not one.
    let calling: TextPattern

    init(_ country: ReceiptCountry) {
      self.country = country
      names = country.names.map(ReceiptKeywords.fold)
      regions = country.regions.map(ReceiptKeywords.fold)
      legalForms = country.legalForms.map(ReceiptKeywords.fold)
      domain = TextPattern(
        #"(?:(?:www\.|@|://)[a-z0-9.-]*[a-z0-9]|[a-z0-9-]{2,}\.(?:com?|org|net))\.\#(country.domain)(?![a-z0-9])"#
      )
      calling = TextPattern(
        #"(?<![\w+])\+\s?\(?\#(country.callingCode)\)?[\s\-/.]*\(?\d(?:[\s\-/().]*\d){6}"#)
    }

    /// The kinds of evidence for the country on one line.
    func kinds(in line: ReceiptExtractor.Line, lowered: String) -> [String] {
      var found: [String] = []
      if names.contains(where: line.folded.contains) { found.append("name") }
      if regions.contains(where: line.folded.contains)
        || country.regionPattern?.firstMatch(in: line.text) != nil
      {
        found.append("region")
      }
      if legalForms.contains(where: line.folded.contains) { found.append("legal") }
      if lowered.contains("."), domain.firstMatch(in: lowered) != nil { found.append("domain") }
      if line.text.contains("+"), calling.firstMatch(in: line.text) != nil { found.append("calling") }
      return found
    }
  }
}
