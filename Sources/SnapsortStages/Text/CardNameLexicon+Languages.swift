extension CardNameLexicon {
  /// ru, en, uk, pl, de, fr, es, it, nl, sv.
  public static let languages: [Language] = [
    Language(
      code: "en",
      boilerplate: [
        "member", "members", "since", "valid", "thru", "through", "until", "expires", "exp", "scan", "at",
        "checkout", "till", "show", "present", "this", "card", "your", "every", "visit", "points", "earn",
        "save", "number", "no", "customer", "thank", "you", "for", "shopping", "terms", "conditions", "apply",
        "non", "transferable", "property", "of", "signature", "the", "and", "join", "today", "discount",
        "online", "www", "com", "debit", "credit", "visa", "mastercard", "maestro", "american", "express",
      ],
      programme: [
        "loyalty", "rewards", "reward", "bonus", "club", "membership", "member", "card", "points", "perks",
        "gold", "silver", "premium", "vip", "plus",
      ],
      compoundHeads: ["card"],
      givenNames: [
        "john", "james", "mary", "emma", "olivia", "michael", "david", "sarah", "anna", "thomas", "william",
        "elizabeth", "robert", "linda", "peter", "paul", "laura", "daniel", "jessica", "emily", "oliver",
        "george", "jack", "sophie", "alex",
      ]),
    Language(
      code: "de",
      boilerplate: [
        "mitglied", "seit", "gültig", "bis", "karte", "kunde", "kunden", "nummer", "nr", "bitte", "an", "der",
        "die", "das", "kasse", "vorzeigen", "scannen", "punkte", "sammeln", "sparen", "vielen", "dank", "ihr",
        "ihre", "einkauf", "bei", "jedem", "nicht", "übertragbar", "eigentum", "unterschrift", "rabatt",
        "und",
        "mit", "für", "zum", "zur",
      ],
      programme: [
        "treuekarte", "kundenkarte", "bonuskarte", "mitgliedskarte", "vorteilskarte", "stempelkarte", "bonus",
        "club", "plus", "vorteil", "vorteile", "treue", "punkte", "mitglied",
      ],
      compoundHeads: ["karte"],
      givenNames: [
        "anna", "maria", "thomas", "michael", "andreas", "stefan", "julia", "katharina", "lukas", "leon",
        "sophie", "hans", "klaus", "petra", "sabine", "jürgen", "monika", "wolfgang", "ursula", "felix",
      ]),
    Language(
      code: "fr",
      boilerplate: [
        "membre", "depuis", "valable", "jusqu", "au", "carte", "client", "cliente", "numéro", "présentez",
        "cette", "en", "caisse", "à", "la", "le", "les", "de", "des", "du", "scannez", "points", "cumulez",
        "merci", "pour", "votre", "vos", "achat", "achats", "chaque", "non", "cessible", "signature",
        "remise",
        "et",
      ],
      programme: [
        "fidélité", "club", "avantages", "avantage", "privilège", "privilèges", "membre", "plus", "bonus",
        "points", "carte",
      ],
      compoundHeads: [],
      givenNames: [
        "marie", "jean", "pierre", "sophie", "camille", "louis", "julien", "claire", "nicolas", "isabelle",
        "françois", "amélie", "léa", "hugo", "chloé", "thomas", "manon", "antoine", "céline", "philippe",
      ]),
    Language(
      code: "es",
      boilerplate: [
        "miembro", "socio", "desde", "válido", "válida", "hasta", "tarjeta", "cliente", "número", "presente",
        "esta", "en", "caja", "escanear", "escanee", "puntos", "acumule", "acumula", "gracias", "por", "su",
        "compra", "cada", "la", "el", "de", "del", "y", "no", "transferible", "firma", "descuento",
      ],
      programme: ["tarjeta", "fidelidad", "club", "puntos", "socio", "ventajas", "cliente", "plus", "oro"],
      compoundHeads: [],
      givenNames: [
        "maría", "josé", "juan", "carmen", "antonio", "ana", "lucía", "javier", "manuel", "laura", "pablo",
        "sofía", "elena", "carlos", "isabel", "miguel", "marta", "diego", "pilar", "alejandro",
      ]),
    Language(
      code: "it",
      boilerplate: [
        "socio", "membro", "dal", "valida", "valido", "fino", "al", "tessera", "carta", "cliente", "numero",
        "presenta", "alla", "cassa", "scansiona", "punti", "accumula", "grazie", "per", "il", "la", "di",
        "del",
        "e", "ogni", "spesa", "acquisto", "non", "cedibile", "firma", "sconto",
      ],
      programme: [
        "tessera", "carta", "fedeltà", "club", "punti", "socio", "vantaggi", "premium", "oro", "plus",
      ],
      compoundHeads: [],
      givenNames: [
        "giulia", "marco", "francesca", "luca", "alessandro", "chiara", "giuseppe", "maria", "andrea",
        "sofia",
        "lorenzo", "paolo", "elena", "matteo", "giovanni", "valentina", "roberto", "sara", "federico", "anna",
      ]),
    Language(
      code: "nl",
      boilerplate: [
        "lid", "sinds", "geldig", "tot", "kaart", "klant", "klantnummer", "nummer", "nr", "toon", "deze",
        "bij",
        "de", "het", "kassa", "scan", "scannen", "punten", "sparen", "spaar", "bedankt", "voor", "uw", "je",
        "jouw", "aankoop", "elke", "niet", "overdraagbaar", "handtekening", "korting", "en", "van",
      ],
      programme: [
        "klantenkaart", "spaarkaart", "voordeelkaart", "bonuskaart", "kaart", "club", "punten", "voordeel",
        "lidmaatschap", "plus", "bonus",
      ],
      compoundHeads: ["kaart"],
      givenNames: [
        "jan", "pieter", "anna", "emma", "daan", "sanne", "lieke", "bram", "sophie", "thijs", "eva", "lotte",
        "sem", "fleur", "henk", "willem", "johanna", "ruben", "noor", "femke",
      ]),
    Language(
      code: "sv",
      boilerplate: [
        "medlem", "sedan", "giltig", "till", "kort", "kund", "kundnummer", "nummer", "nr", "visa", "upp",
        "vid",
        "kassan", "skanna", "poäng", "samla", "tack", "för", "ditt", "din", "köp", "varje", "och", "på", "ej",
        "överlåtbart", "underskrift", "rabatt",
      ],
      programme: [
        "kundkort", "medlemskort", "stamkundskort", "bonuskort", "kort", "klubb", "club", "poäng", "förmån",
        "förmåner", "medlem", "plus", "bonus",
      ],
      compoundHeads: ["kort"],
      givenNames: [
        "erik", "lars", "anna", "karin", "maria", "johan", "emma", "elsa", "oskar", "lena", "nils", "astrid",
        "ingrid", "sven", "per", "kerstin", "olof", "linnea", "gustav", "maja",
      ]),
    Language(
      code: "pl",
      boilerplate: [
        "członek", "od", "ważna", "ważny", "do", "karta", "klient", "klienta", "numer", "nr", "okaż", "przy",
        "kasie", "zeskanuj", "punkty", "zbieraj", "dziękujemy", "za", "zakupy", "twoja", "twój", "każdy",
        "nie",
        "podlega", "przeniesieniu", "podpis", "rabat", "zniżka", "i", "w", "na",
      ],
      programme: [
        "karta", "stałego", "klienta", "lojalnościowa", "klub", "punkty", "program", "bonus", "plus",
      ],
      compoundHeads: [],
      givenNames: [
        "anna", "maria", "katarzyna", "piotr", "krzysztof", "tomasz", "agnieszka", "marek", "magdalena",
        "paweł", "jan", "michał", "ewa", "joanna", "andrzej", "małgorzata", "barbara", "zofia", "adam",
        "łukasz",
      ]),
    Language(
      code: "ru",
      boilerplate: [
        "участник", "с", "действительна", "до", "карта", "клиент", "клиента", "номер", "предъявите", "на",
        "кассе", "сканируйте", "баллы", "бонусы", "копите", "спасибо", "за", "покупку", "покупки", "ваша",
        "каждой", "не", "подпись", "скидка", "и", "в",
      ],
      programme: [
        "бонусная", "карта", "клуб", "скидочная", "дисконтная", "программа", "лояльности", "постоянного",
        "покупателя", "клиента", "баллы", "бонус",
      ],
      compoundHeads: [],
      givenNames: [
        "анна", "мария", "иван", "сергей", "алексей", "елена", "ольга", "дмитрий", "наталья", "андрей",
        "татьяна", "михаил", "екатерина", "ирина", "владимир", "светлана", "николай", "юлия", "павел",
        "александр",
      ]),
    Language(
      code: "uk",
      boilerplate: [
        "учасник", "з", "дійсна", "до", "картка", "клієнт", "клієнта", "номер", "пред'явіть", "на", "касі",
        "скануйте", "бали", "бонуси", "накопичуйте", "дякуємо", "за", "покупку", "покупки", "ваша", "кожної",
        "не", "підпис", "знижка", "і", "в", "та",
      ],
      programme: [
        "бонусна", "картка", "клуб", "дисконтна", "знижкова", "програма", "лояльності", "постійного",
        "покупця", "клієнта", "бали", "бонус",
      ],
      compoundHeads: [],
      givenNames: [
        "олена", "оксана", "іван", "андрій", "наталія", "тетяна", "петро", "богдан", "марія", "ольга", "юлія",
        "дмитро", "сергій", "володимир", "олександр", "ірина", "микола", "галина", "тарас", "софія",
      ]),
  ]
}
