"""Word lists for invented card text in the ten Card Snap languages (ru, en, uk, pl, de, fr, es, it,
nl, sv). Generic vocabulary only: shop types, place and family names, programme words, boilerplate,
first and last names. Nothing here belongs to one brand; invented names are built by combining
these parts with patterns (shop-type word + proper name, proper name + shop-type word, ...).
"""

LANGUAGES = ["ru", "en", "uk", "pl", "de", "fr", "es", "it", "nl", "sv"]

# Shop-type words (nouns a shop's name is built from).
SHOP = {
    "en": ["Bakery", "Coffee", "Books", "Market", "Pharmacy", "Garden Centre", "Butcher", "Deli", "Outfitters", "Hardware", "Florist", "Grocers", "Tea House", "Wine Cellar", "Barbers", "Kitchen"],
    "de": ["Bäckerei", "Metzgerei", "Apotheke", "Buchhandlung", "Kaffeerösterei", "Getränkemarkt", "Blumenladen", "Feinkost", "Drogerie", "Gärtnerei", "Weinhandlung", "Schuhhaus", "Konditorei", "Reformhaus", "Möbelhaus", "Brauerei"],
    "fr": ["Boulangerie", "Pâtisserie", "Librairie", "Pharmacie", "Fromagerie", "Épicerie", "Café", "Boucherie", "Maison", "Brasserie", "Parfumerie", "Chocolaterie", "Crêperie", "Quincaillerie", "Droguerie", "Caviste"],
    "es": ["Panadería", "Farmacia", "Librería", "Ferretería", "Carnicería", "Frutería", "Pastelería", "Zapatería", "Cafetería", "Perfumería", "Droguería", "Bodega", "Heladería", "Floristería", "Óptica", "Mercado"],
    "it": ["Panificio", "Farmacia", "Libreria", "Caffè", "Pasticceria", "Gelateria", "Macelleria", "Enoteca", "Ferramenta", "Profumeria", "Salumeria", "Drogheria", "Ottica", "Fioreria", "Trattoria", "Mercato"],
    "nl": ["Bakkerij", "Apotheek", "Boekhandel", "Slagerij", "Koffiebranderij", "Bloemenwinkel", "Drogisterij", "Kaashandel", "Wijnhandel", "Fietsenwinkel", "IJssalon", "Groenteboer", "Brouwerij", "Tuincentrum", "Schoenwinkel", "Markt"],
    "sv": ["Bageri", "Apotek", "Bokhandel", "Kafé", "Konditori", "Slakteri", "Blomsterhandel", "Järnhandel", "Vinkällare", "Kaffe", "Skobutik", "Hälsokost", "Glassbar", "Trädgård", "Saluhall", "Möbler"],
    "pl": ["Apteka", "Piekarnia", "Księgarnia", "Kwiaciarnia", "Cukiernia", "Drogeria", "Kawiarnia", "Masarnia", "Sklep", "Herbaciarnia", "Winiarnia", "Optyk", "Delikatesy", "Pracownia", "Lodziarnia", "Hurtownia"],
    "ru": ["Аптека", "Пекарня", "Кофейня", "Книжный", "Цветы", "Кондитерская", "Гастроном", "Продукты", "Мясная лавка", "Чайная", "Оптика", "Хлебный", "Обувь", "Магазин", "Пивоварня", "Сад"],
    "uk": ["Аптека", "Пекарня", "Кав'ярня", "Книгарня", "Квіти", "Кондитерська", "Гастроном", "Продукти", "М'ясна лавка", "Чайна", "Оптика", "Хлібний", "Взуття", "Крамниця", "Пивоварня", "Їжа"],
}

# Proper names: places, family names, nice words that shops are named after.
PROPER = {
    "en": ["Harbour", "Oakwood", "Riverside", "Kingsley", "Marlow", "Whitby", "Ashford", "Brightwater", "Fenwick", "Hollow Lane", "Greenfield", "Sterling", "Crown & Anchor", "Bluebell", "Maple", "Northgate"],
    "de": ["Grün", "Müller", "Sonnenschein", "Lindenhof", "Kühn", "Brühl", "Weißenfels", "Schäfer", "Rosenthal", "Bergmann", "Löwen", "Hoffmann", "Süßholz", "Fröhlich", "Wälder", "Großmann"],
    "fr": ["Lumière", "Châtelet", "Dupré", "Bellevue", "Rivière", "Étoile", "Montréal", "Beauséjour", "Lefèvre", "Sœur Marthe", "Mérou", "Côte d'Azur", "Fénelon", "Belle Époque", "Gâteau", "Île Verte"],
    "es": ["Núñez", "Sol", "La Peña", "Ibáñez", "Castaño", "El Faro", "Muñoz", "Alegría", "Girasol", "Jiménez", "La Ría", "Martín", "Olivar", "Pérez", "Río Azul", "Begoña"],
    "it": ["Bellini", "Sole", "Ricci", "Colombo", "Perù", "Fontana", "Città Alta", "Giò", "Marinò", "Stella", "Galilei", "Ponte Vecchio", "Dolcè", "Nicolò", "Lucà", "Mirò"],
    "nl": ["Van Dijk", "De Molen", "Zonnebloem", "Jansen", "Bakker", "Oranje", "De Vries", "IJsselmeer", "Hofstede", "Smit", "De Gouden Leeuw", "Visser", "Brink", "Meijer", "De Eik", "Kroon"],
    "sv": ["Vesterbro", "Ängen", "Sjöberg", "Åkerlund", "Björk", "Lindqvist", "Söder", "Strand", "Öster", "Holmström", "Fjällgården", "Ekdahl", "Norrland", "Skärgård", "Ljung", "Tallbacken"],
    "pl": ["Słońce", "Żaneta", "Wiśniewski", "Kraków", "Pod Lipą", "Łąka", "Zielony Ogród", "Gołąbek", "Świt", "Jaśmin", "Różany", "Kowalczyk", "Źródło", "Mazurek", "Pszczółka", "Dębowy"],
    "ru": ["Солнце", "Берёзка", "Ромашка", "Волга", "Север", "Уют", "Звезда", "Пушкин", "Жемчужина", "Радуга", "Орлов", "Калинка", "Семейный", "Подсолнух", "Ёлка", "Щедрый"],
    "uk": ["Сонце", "Калина", "Їжачок", "Дніпро", "Світанок", "Затишок", "Зірка", "Шевченко", "Ґердан", "Барвінок", "Соняшник", "Родина", "Щедрий", "Лелека", "Вишня", "Євшан"],
}

# Name patterns per language: S = shop word, P = proper name.
PATTERNS = {
    "en": ["P S", "P S", "S & Co", "The P S", "P"],
    "de": ["S P", "P S", "S P", "P"],
    "fr": ["S P", "S P", "La S P", "P"],
    "es": ["S P", "S P", "S La P", "P"],
    "it": ["S P", "S P", "P S", "P"],
    "nl": ["S P", "P S", "S P", "P"],
    "sv": ["P S", "P S", "S P", "P"],
    "pl": ["S P", "S P", "P", "S P"],
    "ru": ["S «P»", "S P", "P", "S P"],
    "uk": ["S «P»", "S P", "P", "S P"],
}

# Programme words: what the card is.
PROGRAMME = {
    "en": ["Loyalty Card", "Rewards Card", "Club Card", "Membership Card", "Gift Card", "Points Card", "Member"],
    "de": ["Treuekarte", "Kundenkarte", "Bonuskarte", "Mitgliedskarte", "Vorteilskarte", "Stammkunde"],
    "fr": ["Carte fidélité", "Carte de membre", "Carte privilège", "Carte avantages", "Carte cadeau", "Carte client"],
    "es": ["Tarjeta de fidelidad", "Tarjeta cliente", "Tarjeta de socio", "Tarjeta regalo", "Club de ventajas", "Tarjeta de puntos"],
    "it": ["Carta fedeltà", "Carta socio", "Carta vantaggi", "Tessera punti", "Carta regalo", "Carta cliente"],
    "nl": ["Klantenkaart", "Spaarkaart", "Voordeelpas", "Ledenpas", "Cadeaukaart", "Bonuskaart"],
    "sv": ["Kundkort", "Medlemskort", "Stamkundskort", "Bonuskort", "Presentkort", "Förmånskort"],
    "pl": ["Karta stałego klienta", "Karta lojalnościowa", "Karta członkowska", "Karta podarunkowa", "Karta rabatowa", "Klub Przyjaciół"],
    "ru": ["Бонусная карта", "Дисконтная карта", "Карта лояльности", "Клубная карта", "Подарочная карта", "Карта покупателя"],
    "uk": ["Бонусна картка", "Дисконтна картка", "Картка лояльності", "Клубна картка", "Подарункова картка", "Картка покупця"],
}

# Boilerplate: small print. {year} is replaced with a year.
BOILERPLATE = {
    "en": ["Scan at checkout", "Member since {year}", "Present this card with every purchase", "Not transferable", "Valid until 12/{yy}", "Collect points, save more", "Terms apply"],
    "de": ["An der Kasse scannen", "Mitglied seit {year}", "Bitte bei jedem Einkauf vorzeigen", "Nicht übertragbar", "Gültig bis 12/{yy}", "Punkte sammeln und sparen", "Es gelten die AGB"],
    "fr": ["Scanner en caisse", "Membre depuis {year}", "À présenter à chaque achat", "Carte strictement personnelle", "Valable jusqu'au 12/{yy}", "Cumulez des points à chaque achat", "Voir conditions en magasin"],
    "es": ["Escanear en caja", "Socio desde {year}", "Preséntela en cada compra", "Tarjeta personal e intransferible", "Válida hasta 12/{yy}", "Acumula puntos en cada compra", "Consulta las condiciones"],
    "it": ["Scansiona alla cassa", "Socio dal {year}", "Presentala ad ogni acquisto", "Tessera personale non cedibile", "Valida fino al 12/{yy}", "Accumula punti ad ogni spesa", "Regolamento in negozio"],
    "nl": ["Scan bij de kassa", "Lid sinds {year}", "Toon deze kaart bij elke aankoop", "Niet overdraagbaar", "Geldig tot 12/{yy}", "Spaar punten bij elke aankoop", "Voorwaarden van toepassing"],
    "sv": ["Skanna i kassan", "Medlem sedan {year}", "Visa kortet vid varje köp", "Personligt kort", "Giltigt till 12/{yy}", "Samla poäng på dina köp", "Villkor gäller"],
    "pl": ["Zeskanuj przy kasie", "Członek od {year}", "Okaż kartę przy każdym zakupie", "Karta imienna, nieprzenośna", "Ważna do 12/{yy}", "Zbieraj punkty przy każdych zakupach", "Regulamin dostępny w sklepie"],
    "ru": ["Сканируйте на кассе", "Участник с {year} года", "Предъявите карту при покупке", "Карта не является платёжной", "Действительна до 12/{yy}", "Копите баллы с каждой покупки", "Подробности на сайте"],
    "uk": ["Скануйте на касі", "Учасник з {year} року", "Пред'явіть картку під час покупки", "Картка не є платіжною", "Дійсна до 12/{yy}", "Збирайте бали з кожної покупки", "Деталі на сайті"],
}

TAGLINES = {
    "en": ["Fresh every day", "Since 1987", "Good things, close to home", "Your neighbourhood store"],
    "de": ["Frisch jeden Tag", "Seit 1987", "Qualität aus der Region", "Ihr Fachgeschäft"],
    "fr": ["Fait maison depuis 1987", "Le goût du vrai", "Qualité et fraîcheur", "Votre commerce de proximité"],
    "es": ["Calidad de siempre", "Desde 1987", "Frescura cada día", "Tu tienda de barrio"],
    "it": ["Qualità dal 1987", "Freschezza ogni giorno", "Il gusto della tradizione", "Il tuo negozio di fiducia"],
    "nl": ["Elke dag vers", "Sinds 1987", "Kwaliteit uit de buurt", "Uw vakwinkel"],
    "sv": ["Färskt varje dag", "Sedan 1987", "Kvalitet från trakten", "Din närbutik"],
    "pl": ["Świeżość każdego dnia", "Od 1987 roku", "Jakość z tradycją", "Twój sklep za rogiem"],
    "ru": ["Свежее каждый день", "С 1987 года", "Качество и традиции", "Ваш магазин у дома"],
    "uk": ["Свіже щодня", "З 1987 року", "Якість і традиції", "Ваша крамниця поруч"],
}

FIRST = {
    "en": ["James", "Olivia", "Harry", "Emily", "George", "Amelia", "Thomas", "Grace"],
    "de": ["Jürgen", "Anna", "Jonas", "Lena", "Günther", "Sophie", "Matthias", "Käthe"],
    "fr": ["Hélène", "François", "Chloé", "Jérôme", "Zoé", "Loïc", "Amélie", "Benoît"],
    "es": ["María", "José", "Lucía", "Íñigo", "Sofía", "Andrés", "Begoña", "Raúl"],
    "it": ["Luca", "Giulia", "Niccolò", "Chiara", "Matteo", "Federica", "Simone", "Gioele"],
    "nl": ["Daan", "Emma", "Sem", "Fenna", "Lotte", "Bram", "Anouk", "Joëlle"],
    "sv": ["Elsa", "Björn", "Åsa", "Oskar", "Märta", "Linnéa", "Göran", "Maja"],
    "pl": ["Łukasz", "Zofia", "Małgorzata", "Paweł", "Agnieszka", "Grzegorz", "Anna", "Bożena"],
    "ru": ["Алексей", "Мария", "Дмитрий", "Ольга", "Сергей", "Наталья", "Артём", "Юлия"],
    "uk": ["Олександр", "Оксана", "Андрій", "Ірина", "Богдан", "Тетяна", "Юрій", "Ївга"],
}

LAST = {
    "en": ["Carter", "Hughes", "Whitaker", "Bennett", "O'Connor", "Fletcher", "Morgan", "Ellis"],
    "de": ["Müller", "Schröder", "Weiß", "Becker", "Krüger", "Hoffmann", "Köhler", "Schäfer"],
    "fr": ["Dubois", "Lefèvre", "Moreau", "Girard", "Bérénger", "Rousseau", "Faure", "Mercier"],
    "es": ["García", "Fernández", "Núñez", "López", "Martínez", "Sánchez", "Gómez", "Peña"],
    "it": ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco"],
    "nl": ["de Jong", "Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer"],
    "sv": ["Lindqvist", "Andersson", "Sjöström", "Åberg", "Nyström", "Ekström", "Björklund", "Holm"],
    "pl": ["Kowalska", "Nowak", "Wiśniewski", "Wójcik", "Kamińska", "Lewandowski", "Zieliński", "Szymańska"],
    "ru": ["Иванова", "Смирнов", "Кузнецова", "Попов", "Соколова", "Лебедев", "Козлова", "Новиков"],
    "uk": ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравчук", "Олійник", "Мельник", "Гнатюк"],
}

# Labels printed beside numbers.
NUMBER_LABEL = {
    "en": ["Card No.", "Member No.", "Card number"], "de": ["Karten-Nr.", "Kundennummer", "Mitgliedsnr."],
    "fr": ["N° de carte", "N° adhérent", "Numéro client"], "es": ["Nº de tarjeta", "Nº de socio", "Número de cliente"],
    "it": ["N. tessera", "Codice cliente", "N. carta"], "nl": ["Kaartnummer", "Lidnummer", "Klantnummer"],
    "sv": ["Kortnummer", "Medlemsnummer", "Kundnummer"], "pl": ["Nr karty", "Numer klienta", "Nr członkowski"],
    "ru": ["№ карты", "Номер карты", "Номер клиента"], "uk": ["№ картки", "Номер картки", "Номер клієнта"],
}

# Bank words for invented payment-card issuers.
BANK = {
    "en": ["{P} Bank", "Bank of {P}", "{P} Savings"], "de": ["{P} Bank", "Sparkasse {P}", "{P}bank"],
    "fr": ["Banque {P}", "Crédit {P}", "Caisse {P}"], "es": ["Banco {P}", "Caja {P}", "{P} Banca"],
    "it": ["Banca {P}", "Credito {P}", "Cassa {P}"], "nl": ["{P} Bank", "Spaarbank {P}", "{P} Bankiers"],
    "sv": ["{P} Bank", "Sparbanken {P}", "{P}banken"], "pl": ["Bank {P}", "Kasa {P}", "{P} Bank"],
    "ru": ["Банк «{P}»", "{P} Банк", "Банк {P}"], "uk": ["Банк «{P}»", "{P} Банк", "Банк {P}"],
}

# Country of a catalog issuer -> the language its card is printed in.
COUNTRY_LANGUAGE = {"PL": "pl", "DE": "de", "AT": "de", "CH": "de", "FR": "fr", "BE": "fr", "ES": "es",
                    "IT": "it", "NL": "nl", "SE": "sv", "DK": "sv", "NO": "sv", "FI": "sv", "UA": "uk",
                    "RU": "ru", "GB": "en", "US": "en", "IE": "en", "CA": "en", "AU": "en"}

# Words an app prints in its chrome (screenshots), per language.
APP_WORDS = {
    "en": ["Cards", "Wallet", "Done", "Details", "Show code", "Points", "Balance"],
    "de": ["Karten", "Wallet", "Fertig", "Details", "Code zeigen", "Punkte", "Guthaben"],
    "fr": ["Cartes", "Portefeuille", "OK", "Détails", "Afficher le code", "Points", "Solde"],
    "es": ["Tarjetas", "Cartera", "Listo", "Detalles", "Mostrar código", "Puntos", "Saldo"],
    "it": ["Carte", "Portafoglio", "Fine", "Dettagli", "Mostra codice", "Punti", "Saldo"],
    "nl": ["Kaarten", "Wallet", "Gereed", "Details", "Toon code", "Punten", "Saldo"],
    "sv": ["Kort", "Plånbok", "Klar", "Detaljer", "Visa kod", "Poäng", "Saldo"],
    "pl": ["Karty", "Portfel", "Gotowe", "Szczegóły", "Pokaż kod", "Punkty", "Saldo"],
    "ru": ["Карты", "Кошелёк", "Готово", "Подробнее", "Показать код", "Баллы", "Баланс"],
    "uk": ["Картки", "Гаманець", "Готово", "Докладніше", "Показати код", "Бали", "Баланс"],
}

# Lines a card sets beside its name, often as prominently (bench/gen/art.py `card_lines`): what the
# card is, what to do with it, since when, a slogan. None of these phrases is in the lists above, so
# the small print every card may carry never holds one. Within each kind and language a quarter
# of the phrases are held out (fonts.held_out, group `line-KIND-LANG`); {year}, {yy} and {mm} are
# filled in when drawn.
CARD_LINES = {
    "programme": {
        "en": ["Gold Member", "Premium Card", "Family Card", "Student Card", "VIP Club", "Stamp Card", "Privilege Card", "Plus Card"],
        "de": ["Goldkarte", "Premiumkarte", "Familienkarte", "Studentenkarte", "VIP-Club", "Stempelkarte", "Plus-Karte", "Clubkarte"],
        "fr": ["Carte Or", "Carte Premium", "Carte Famille", "Carte Étudiant", "Club VIP", "Carte à tampons", "Carte Plus", "Carte Club"],
        "es": ["Tarjeta Oro", "Tarjeta Premium", "Tarjeta Familia", "Tarjeta Joven", "Club VIP", "Tarjeta de sellos", "Tarjeta Plus", "Tarjeta Club"],
        "it": ["Carta Oro", "Carta Premium", "Carta Famiglia", "Carta Studenti", "Club VIP", "Carta timbri", "Carta Più", "Carta Club"],
        "nl": ["Goudkaart", "Premiumkaart", "Gezinskaart", "Studentenpas", "VIP-club", "Stempelkaart", "Pluskaart", "Clubkaart"],
        "sv": ["Guldkort", "Premiumkort", "Familjekort", "Studentkort", "VIP-klubben", "Stämpelkort", "Pluskort", "Klubbkort"],
        "pl": ["Karta Złota", "Karta Premium", "Karta Rodzinna", "Karta Studencka", "Klub VIP", "Karta z pieczątkami", "Karta Plus", "Karta Klubowa"],
        "ru": ["Золотая карта", "Премиум карта", "Семейная карта", "Студенческая карта", "VIP клуб", "Карта для штампов", "Карта Плюс", "Карта клуба"],
        "uk": ["Золота картка", "Преміум картка", "Сімейна картка", "Студентська картка", "VIP клуб", "Картка для штампів", "Картка Плюс", "Картка клубу"],
    },
    "instruction": {
        "en": ["Scan me", "Show at the till", "Scan this card at the till", "Present at checkout", "Scan to collect points", "Tap or scan to pay", "Show your card, save more", "Scan before you pay"],
        "de": ["Bitte scannen", "An der Kasse vorzeigen", "Vor dem Bezahlen scannen", "Karte an der Kasse zeigen", "Scannen und Punkte sammeln", "Beim Einkauf vorlegen", "Einfach scannen", "Vor dem Zahlen vorzeigen"],
        "fr": ["Scannez-moi", "À présenter en caisse", "Scannez avant de payer", "Présentez votre carte en caisse", "Scannez pour cumuler", "Montrez votre carte", "Scanner ici", "À scanner à chaque passage"],
        "es": ["Escanéame", "Muéstrala en caja", "Escanea antes de pagar", "Presenta tu tarjeta en caja", "Escanea y suma puntos", "Enseña tu tarjeta", "Escanear aquí", "Pásala por caja"],
        "it": ["Scansionami", "Mostrala alla cassa", "Scansiona prima di pagare", "Presenta la carta in cassa", "Scansiona e accumula", "Mostra la tua carta", "Scansiona qui", "Da esibire alla cassa"],
        "nl": ["Scan mij", "Toon bij de kassa", "Scan voor het afrekenen", "Laat je kaart zien", "Scan en spaar", "Scan hier", "Aanbieden bij de kassa", "Eerst scannen"],
        "sv": ["Skanna mig", "Visa i kassan", "Skanna innan du betalar", "Visa ditt kort", "Skanna och samla", "Skanna här", "Visas i kassan", "Blippa kortet"],
        "pl": ["Zeskanuj mnie", "Pokaż przy kasie", "Zeskanuj przed płatnością", "Okaż kartę w kasie", "Skanuj i zbieraj", "Skanuj tutaj", "Pokaż kartę kasjerowi", "Zeskanuj kartę"],
        "ru": ["Отсканируй меня", "Покажите на кассе", "Сканируйте перед оплатой", "Покажите карту кассиру", "Сканируй и копи", "Сканировать здесь", "Предъявите на кассе", "Отсканируйте карту"],
        "uk": ["Відскануй мене", "Покажіть на касі", "Скануйте перед оплатою", "Покажіть картку касиру", "Скануй і збирай", "Сканувати тут", "Пред'явіть на касі", "Відскануйте картку"],
    },
    "since": {
        "en": ["Customer since {year}", "Joined in {year}", "Valid from {mm}/{yy}", "Est. {year}", "Cardholder since {year}", "Club member since {year}", "Expires {mm}/{yy}", "With us since {year}"],
        "de": ["Kunde seit {year}", "Dabei seit {year}", "Gültig ab {mm}/{yy}", "Gegr. {year}", "Karteninhaber seit {year}", "Clubmitglied seit {year}", "Läuft ab {mm}/{yy}", "Seit {year} dabei"],
        "fr": ["Client depuis {year}", "Inscrit en {year}", "Valable dès {mm}/{yy}", "Fondé en {year}", "Adhérent depuis {year}", "Membre du club depuis {year}", "Expire fin {mm}/{yy}", "Avec nous depuis {year}"],
        "es": ["Cliente desde {year}", "Alta en {year}", "Válida desde {mm}/{yy}", "Fundado en {year}", "Titular desde {year}", "Miembro del club desde {year}", "Caduca {mm}/{yy}", "Con nosotros desde {year}"],
        "it": ["Cliente dal {year}", "Iscritto nel {year}", "Valida dal {mm}/{yy}", "Fondato nel {year}", "Titolare dal {year}", "Membro del club dal {year}", "Scade {mm}/{yy}", "Con noi dal {year}"],
        "nl": ["Klant sinds {year}", "Aangemeld in {year}", "Geldig vanaf {mm}/{yy}", "Opgericht {year}", "Kaarthouder sinds {year}", "Clublid sinds {year}", "Verloopt {mm}/{yy}", "Al sinds {year}"],
        "sv": ["Kund sedan {year}", "Gick med {year}", "Giltigt från {mm}/{yy}", "Grundat {year}", "Kortinnehavare sedan {year}", "Klubbmedlem sedan {year}", "Utgår {mm}/{yy}", "Med oss sedan {year}"],
        "pl": ["Klient od {year}", "Dołączył w {year}", "Ważna od {mm}/{yy}", "Założono {year}", "Posiadacz karty od {year}", "W klubie od {year}", "Wygasa {mm}/{yy}", "Z nami od {year}"],
        "ru": ["Клиент с {year}", "В клубе с {year} г.", "Действует с {mm}/{yy}", "Основан в {year}", "Владелец карты с {year}", "Член клуба с {year}", "Срок до {mm}/{yy}", "С нами с {year} года"],
        "uk": ["Клієнт з {year}", "У клубі з {year} р.", "Діє з {mm}/{yy}", "Засновано {year}", "Власник картки з {year}", "Член клубу з {year}", "Термін до {mm}/{yy}", "З нами з {year} року"],
    },
    "slogan": {
        "en": ["Quality you can taste", "Always fresh, always local", "Where neighbours shop", "Great value every day", "Made with love", "Thank you for shopping with us", "More for you", "Simply better"],
        "de": ["Qualität, die man schmeckt", "Immer frisch, immer nah", "Gut und günstig", "Mit Liebe gemacht", "Danke für Ihren Einkauf", "Mehr für Sie", "Einfach besser", "Aus Tradition gut"],
        "fr": ["La qualité qui se goûte", "Toujours frais, toujours près", "Bien et pas cher", "Fait avec amour", "Merci de votre fidélité", "Plus pour vous", "Tout simplement meilleur", "L'art du bon goût"],
        "es": ["Calidad que se saborea", "Siempre fresco, siempre cerca", "Buen precio cada día", "Hecho con cariño", "Gracias por su compra", "Más para ti", "Sencillamente mejor", "El sabor de casa"],
        "it": ["Qualità che si gusta", "Sempre fresco, sempre vicino", "Convenienza ogni giorno", "Fatto con amore", "Grazie per la fiducia", "Di più per te", "Semplicemente meglio", "Il sapore di casa"],
        "nl": ["Kwaliteit die je proeft", "Altijd vers, altijd dichtbij", "Elke dag voordelig", "Met liefde gemaakt", "Bedankt voor uw aankoop", "Meer voor jou", "Gewoon beter", "Smaak van thuis"],
        "sv": ["Kvalitet du smakar", "Alltid färskt, alltid nära", "Bra pris varje dag", "Gjort med kärlek", "Tack för ditt köp", "Mer för dig", "Helt enkelt bättre", "Smaken av hemma"],
        "pl": ["Jakość, którą czuć", "Zawsze świeżo, zawsze blisko", "Dobre ceny codziennie", "Zrobione z sercem", "Dziękujemy za zakupy", "Więcej dla Ciebie", "Po prostu lepiej", "Smak domu"],
        "ru": ["Качество со вкусом", "Всегда свежее, всегда рядом", "Выгодно каждый день", "Сделано с любовью", "Спасибо за покупку", "Больше для вас", "Просто лучше", "Вкус дома"],
        "uk": ["Якість зі смаком", "Завжди свіже, завжди поруч", "Вигідно щодня", "Зроблено з любов'ю", "Дякуємо за покупку", "Більше для вас", "Просто краще", "Смак дому"],
    },
}
