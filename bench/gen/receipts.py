#!/usr/bin/env python3
"""Renders synthetic shop receipts with exact ground truth (a bench tool, never the product).

    python3 bench/gen/receipts.py --out DIR --count N --split train|heldout --seed S [--jobs J]
    python3 bench/gen/receipts.py ... --split train --families cut_names,long_names  # only these
    python3 bench/gen/receipts.py ... --lang de --headers varied --wide 0.5     # German, header families, half on A4
    python3 bench/gen/receipts.py --list            # families, fonts, languages, captures
    python3 bench/gen/receipts.py --selfcheck 500   # truth against the printed text

Every receipt is drawn from independent random choices, all from one seed per image
(`random.Random(f"{seed}:{split}:{index}")`, so a re-render writes identical files and image k
does not depend on --count):

  layout family  how an item is printed (FAMILIES below: quantity before or after the name, a
                 quantity line below or above, a unit-price column, SKU + wrapped description,
                 discounts on their own lines, tax-code letters after amounts, two price
                 columns, line numbers, dot leaders, descriptions over 2-3 rows with the
                 amount on any of them, columns in several orders, ...);
  overlays       any family may also print the currency on every item amount, tax-code
                 letters after amounts, or discounts on their own lines under some items;
  totals block   subtotal / tax / total / cash / change / rounding in several arrangements, the
                 tax added (US, Malaysia) or included (Europe), with or without a VAT table;
  money          currency symbol before or after the amount or not printed, decimal comma or
                 point, thousands separators;
  font           monospace and proportional receipt fonts from Debian packages (FONTS below);
  language       en (US), en-MY (Malaysian English, SROIE-like), de, fr, es, it, nl, pl, sv;
  paper          thermal (off-white, grey-blue ink), white office paper, textured recycled,
                 aged yellowish, a carbonless copy (pink or yellow, blue-violet ink);
  capture        flatbed scan, photo at an angle on a background, a steep photo (strong
                 keystone, up to 9 degrees of rotation), crumpled/folded (shading and a mesh
                 warp), thermal fade, blur, noise and JPEG compression.

Three options add what the plain renders lack; each draws from its own generator
(`f"{seed}:{split}:{index}:headers"`, `...:wide`), so without them every render is byte-identical
to before, and with them the body of receipt k is the plain render's:

  --headers varied  a header family (HEADER_FAMILIES) arranges the lines around the trading name:
                 a logo row (a drawn mark with the initials, or the brand's word in a display
                 face, sometimes cut and jittered), the legal entity (GmbH & Co. KG, Sdn Bhd,
                 S.A.) apart from the trading name, a branch line, the address, phone and tax id
                 before the name, a document title, a greeting, a cashier line; any family may
                 also get a logo on top (LOGO_SHARE). The truth's merchant stays the trading
                 name; `header` lists the header's lines with their roles.
  --lang L       only this language;
  --wide P       a share P of the receipts scanned flat on the whole A4 glass: the receipt
                 (57-80 mm on a 210 mm page) against a corner or anywhere, the rest bare bed
                 (`wide_page` in the truth: the page size and the receipt's box).

The families and fonts of splits.json ("heldout") are never rendered with --split train, and
--split heldout renders only them, so a figure on the held-out split is on layouts and fonts
no tuning has seen. The same holds for header families (`header_families`).

Each NAME.jpg gets NAME.json: merchant, date (ISO), time, currency (ISO code), items
[{description, quantity, unit_price, amount}] (amount = quantity x unit price as printed on the
item's line; a discount printed on its own line is not an item, it adds to `savings`), subtotal
(sum of item amounts), savings, tax, tax_included, total (the amount to pay), layout_family,
font, language, paper, capture, split, seed, and `lines`, the printed text line by line.
Amounts are decimal strings with a point. Needs Pillow and numpy (bench/requirements.txt) and
the fonts of FONT_PACKAGES (apt-get install them).
"""
import argparse
import json
import math
import os
import random
import sys
import textwrap
from datetime import date, timedelta

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPLITS = os.path.join(ROOT, "bench", "receipts", "splits.json")

FONT_PACKAGES = "fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-croscore fonts-noto-mono fonts-inconsolata fonts-courier-prime fonts-roboto-unhinted fonts-jetbrains-mono fonts-go fonts-noto-core fonts-urw-base35 fonts-hack"
FONTS = {
    # name: (file, monospace, bold file or None)
    "DejaVuSansMono": ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", True, "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"),
    "LiberationMono": ("/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf", True, "/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf"),
    "FreeMonoBold": ("/usr/share/fonts/truetype/freefont/FreeMonoBold.ttf", True, None),
    "Cousine": ("/usr/share/fonts/truetype/croscore/Cousine-Regular.ttf", True, "/usr/share/fonts/truetype/croscore/Cousine-Bold.ttf"),
    "NotoSansMono": ("/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf", True, "/usr/share/fonts/truetype/noto/NotoSansMono-Bold.ttf"),
    "Inconsolata": ("/usr/share/fonts/truetype/inconsolata/Inconsolata.otf", True, None),
    "CourierPrime": ("/usr/share/fonts/opentype/courier-prime/Courier Prime.otf", True, "/usr/share/fonts/opentype/courier-prime/Courier Prime Bold.otf"),
    "DejaVuSansCondensed": ("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf", False, "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"),
    "LiberationSans": ("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", False, "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"),
    "FreeSans": ("/usr/share/fonts/truetype/freefont/FreeSans.ttf", False, "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
    "RobotoCondensed": ("/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf", False, "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf"),
    "Roboto": ("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", False, "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf"),
    "Tinos": ("/usr/share/fonts/truetype/croscore/Tinos-Regular.ttf", False, "/usr/share/fonts/truetype/croscore/Tinos-Bold.ttf"),
    "JetBrainsMono": ("/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf", True, "/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Bold.ttf"),
    "GoMono": ("/usr/share/fonts/fonts-go/Go-Mono.ttf", True, "/usr/share/fonts/fonts-go/Go-Mono-Bold.ttf"),
    "NotoSans": ("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", False, "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"),
    "NimbusSansNarrow": ("/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf", False, "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf"),
    "NimbusMonoPS": ("/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Regular.otf", True, "/usr/share/fonts/opentype/urw-base35/NimbusMonoPS-Bold.otf"),
    "Hack": ("/usr/share/fonts/truetype/hack/Hack-Regular.ttf", True, "/usr/share/fonts/truetype/hack/Hack-Bold.ttf"),
    "NotoSerif": ("/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", False, "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"),
}

FAMILIES = {
    "plain": "one item a line, description left, amount right; a repeated item is printed again",
    "qty_below": "description line, then '  2 x 1.99        3.98' below when the quantity is not 1",
    "qty_before": "'2 x Milk      3.98' / '2 Milk 3.98': quantity before the name, no unit price",
    "qty_inline": "'Milk   2 x 1.99   3.98': quantity and unit price on the item's own line",
    "columns": "a header row (QTY DESCRIPTION PRICE AMOUNT) and one row per item in four columns",
    "sku_multiline": "SKU/barcode line, description (wrapped when long), then qty x unit price and amount (SROIE-like)",
    "wrapped": "long descriptions wrapped over two lines, the amount on the last line",
    "discount_lines": "qty-below items, some followed by a discount on its own line",
    "tax_codes": "German-discounter style: amounts followed by a tax letter (A/B), quantity line below, VAT table",
    "two_column": "description line, then quantity, unit price and amount in three right-aligned columns, no 'x'",
    "qty_above": "'2 x 1.99' (or '2 Stk x 1,99') on the line above the description, the amount on the description's line",
    "qty_after": "'Milk x2   3.98' / 'Milk 2x  3.98' / 'Milk (2)  3.98': quantity after the name, no unit price",
    "indexed": "a line number before each item ('003 Milk  3.98'), quantity and unit price below when not 1",
    "dot_leaders": "'Milk ........ 3.98': dots from the description to the amount, '@ 1.99' before the amount when the quantity is not 1",
    "long_names": "a description of 2-3 lines (continuations indented or not), the amount on its first, middle or last line or on a "
                  "quantity line printed above or below it; the quantity as a prefix, a suffix, its own line or a column",
    "qty_columns": "one row per item, its columns in one of several orders: description, quantity, amount / description, unit "
                   "price, quantity, amount / description, unit price x quantity = amount / quantity, description, unit price, amount",
    "cut_names": "a narrow description column: names longer than it run onto a second line (cut at a word or mid-word, the "
                 "continuation indented or not), shorter ones keep one line; the amount on the first or the second line; the "
                 "quantity as a prefix or a line below (with or without the amount)",
}

LANGS = {
    "en": dict(currency="USD", symbol="$", comma=False, date=["%m/%d/%Y", "%m/%d/%y", "%m-%d-%Y"], tax="added", rates=[0.06, 0.0725, 0.08, 0.0875],
               labels=dict(subtotal=["SUBTOTAL", "Sub Total", "SUB-TOTAL"], total=["TOTAL", "Total", "BALANCE DUE", "AMOUNT DUE"], tax=["TAX", "Sales Tax", "TAX {rate}%"],
                           savings=["YOU SAVED", "TOTAL SAVINGS", "DISCOUNTS"], discount=["Coupon", "Member Savings", "Instant Savings"], cash=["CASH", "Cash Tend"],
                           change=["CHANGE", "Change Due"], card=["VISA", "MASTERCARD", "DEBIT"], thanks=["THANK YOU FOR SHOPPING", "Thank you! Please come again", "*** THANK YOU ***"],
                           qty="QTY", desc="DESCRIPTION", price="PRICE", amount="AMOUNT", receipt=["Receipt #", "Trans #", "TRN"], cashier=["Cashier", "Operator"], vat="TAX", net="NET", gross="GROSS")),
    "my": dict(currency="MYR", symbol="RM", comma=False, date=["%d/%m/%Y", "%d-%m-%y", "%d/%m/%y", "%d %b %Y"], tax="added", rates=[0.06],
               labels=dict(subtotal=["Total Sales (Excluding GST)", "SUB TOTAL", "Sub-Total"], total=["TOTAL", "Total (Inclusive of GST)", "TOTAL AMOUNT", "NETT TOTAL"], tax=["GST 6%", "Total GST", "GST @6%"],
                           savings=["DISCOUNT", "Total Discount"], discount=["DISC", "Promo Disc"], cash=["CASH", "Cash"], change=["CHANGE", "Change"], card=["VISA", "MASTER", "DEBIT CARD"],
                           thanks=["THANK YOU. PLEASE COME AGAIN.", "GOODS SOLD ARE NOT RETURNABLE", "THANK YOU"], qty="QTY", desc="DESCRIPTION", price="U.PRICE", amount="AMOUNT",
                           receipt=["Invoice No:", "Receipt #:", "Bill No:", "Doc No:"], cashier=["Cashier:", "Counter:"], vat="GST Summary", net="Amount(RM)", gross="Tax(RM)")),
    "de": dict(currency="EUR", symbol="€", comma=True, date=["%d.%m.%Y", "%d.%m.%y"], tax="included", rates=[0.07, 0.19],
               labels=dict(subtotal=["Zwischensumme", "ZWISCHENSUMME"], total=["SUMME", "Summe", "ZU ZAHLEN", "Gesamt", "BETRAG"], tax=["MwSt", "enth. MwSt", "USt"],
                           savings=["Rabatt gesamt", "Sie sparen", "Ersparnis"], discount=["Rabatt", "Preisvorteil", "Aktion"], cash=["BAR", "Gegeben"], change=["Rückgeld", "ZURÜCK"],
                           card=["EC-Karte", "Girocard", "Kartenzahlung"], thanks=["Vielen Dank für Ihren Einkauf", "Danke für Ihren Besuch", "Auf Wiedersehen"], qty="Menge", desc="Artikel",
                           price="Preis", amount="Betrag", receipt=["Bon-Nr.", "Beleg", "Kassenbon"], cashier=["Kasse", "Bediener"], vat="MwSt", net="Netto", gross="Brutto")),
    "fr": dict(currency="EUR", symbol="€", comma=True, date=["%d/%m/%Y", "%d/%m/%y", "%d.%m.%Y"], tax="included", rates=[0.055, 0.20],
               labels=dict(subtotal=["SOUS-TOTAL", "Sous-total"], total=["TOTAL", "TOTAL TTC", "A PAYER", "Net à payer"], tax=["TVA", "dont TVA"], savings=["REMISES", "Vos économies"],
                           discount=["Remise", "Réduction", "Promo"], cash=["ESPECES", "Espèces"], change=["RENDU", "Rendu monnaie"], card=["CB", "Carte bancaire"],
                           thanks=["MERCI DE VOTRE VISITE", "A bientôt", "Merci et à bientôt"], qty="Qté", desc="Désignation", price="P.U.", amount="Montant",
                           receipt=["Ticket", "N° ticket", "Transaction"], cashier=["Caisse", "Hôtesse"], vat="TVA", net="HT", gross="TTC")),
    "es": dict(currency="EUR", symbol="€", comma=True, date=["%d/%m/%Y", "%d-%m-%Y", "%d/%m/%y"], tax="included", rates=[0.10, 0.21],
               labels=dict(subtotal=["SUBTOTAL", "Subtotal"], total=["TOTAL", "TOTAL A PAGAR", "Total compra", "IMPORTE"], tax=["IVA", "Cuota IVA"], savings=["AHORRO", "Descuentos"],
                           discount=["Descuento", "Dto.", "Oferta"], cash=["EFECTIVO", "Entregado"], change=["CAMBIO", "Devolución"], card=["TARJETA", "Tarjeta crédito"],
                           thanks=["GRACIAS POR SU VISITA", "Gracias por su compra"], qty="Cant", desc="Descripción", price="Precio", amount="Importe",
                           receipt=["Factura simpl.", "Ticket", "Nº"], cashier=["Caja", "Le atendió"], vat="IVA", net="Base", gross="Total")),
    "it": dict(currency="EUR", symbol="€", comma=True, date=["%d/%m/%Y", "%d-%m-%Y", "%d/%m/%y"], tax="included", rates=[0.10, 0.22],
               labels=dict(subtotal=["SUBTOTALE", "Subtotale"], total=["TOTALE", "TOTALE COMPLESSIVO", "Totale EUR", "IMPORTO PAGATO"], tax=["di cui IVA", "IVA"], savings=["SCONTI", "Risparmio"],
                           discount=["Sconto", "Promozione", "Sc."], cash=["CONTANTI", "Contante"], change=["RESTO", "Resto"], card=["BANCOMAT", "Carta"],
                           thanks=["GRAZIE E ARRIVEDERCI", "Grazie per la visita"], qty="Qtà", desc="Descrizione", price="Prezzo", amount="Importo",
                           receipt=["Documento n.", "Scontrino", "DOC."], cashier=["Cassa", "Operatore"], vat="IVA", net="Imponibile", gross="Totale")),
    "nl": dict(currency="EUR", symbol="€", comma=True, date=["%d-%m-%Y", "%d-%m-%y", "%d/%m/%Y"], tax="included", rates=[0.09, 0.21],
               labels=dict(subtotal=["SUBTOTAAL", "Subtotaal"], total=["TOTAAL", "Totaal", "TE BETALEN"], tax=["BTW", "Totaal BTW"], savings=["UW VOORDEEL", "Korting totaal"],
                           discount=["Korting", "Bonus", "Actie"], cash=["CONTANT", "Contant"], change=["WISSELGELD", "Terug"], card=["PIN", "Pinnen", "Maestro"],
                           thanks=["BEDANKT EN TOT ZIENS", "Dank u wel"], qty="Aant", desc="Omschrijving", price="Prijs", amount="Bedrag",
                           receipt=["Bonnr.", "Transactie", "Bon"], cashier=["Kassa", "Caissière"], vat="BTW", net="Excl", gross="Incl")),
    "pl": dict(currency="PLN", symbol="zł", comma=True, date=["%Y-%m-%d", "%d.%m.%Y", "%d-%m-%Y"], tax="included", rates=[0.08, 0.23],
               labels=dict(subtotal=["SPRZEDAŻ OPODATK.", "Suma częściowa"], total=["SUMA PLN", "SUMA", "DO ZAPŁATY", "RAZEM"], tax=["SUMA PTU", "PTU"], savings=["RABATY", "Oszczędzasz"],
                           discount=["Rabat", "Upust", "Promocja"], cash=["GOTÓWKA", "Gotówka"], change=["RESZTA", "Reszta"], card=["KARTA", "Karta płatnicza"],
                           thanks=["DZIĘKUJEMY ZA ZAKUPY", "Zapraszamy ponownie"], qty="Il.", desc="Nazwa", price="Cena", amount="Wartość",
                           receipt=["Nr wydr.", "Paragon nr", "NIP"], cashier=["Kasjer", "Kasa"], vat="PTU", net="Netto", gross="Brutto")),
    "sv": dict(currency="SEK", symbol="kr", comma=True, date=["%Y-%m-%d", "%y-%m-%d", "%d.%m.%Y"], tax="included", rates=[0.12, 0.25],
               labels=dict(subtotal=["Delsumma", "DELSUMMA"], total=["TOTALT", "Att betala", "SUMMA", "Totalt SEK"], tax=["Moms", "Varav moms"], savings=["Du sparade", "RABATTER"],
                           discount=["Rabatt", "Erbjudande", "Kampanj"], cash=["KONTANT", "Kontant"], change=["Växel", "ÅTER"], card=["Kort", "Bankkort", "VISA"],
                           thanks=["TACK FÖR BESÖKET", "Välkommen åter!", "Tack och välkommen åter"], qty="Ant", desc="Artikel", price="Pris", amount="Belopp",
                           receipt=["Kvitto nr", "Kvittonr", "Trans"], cashier=["Kassa", "Kassör"], vat="Moms", net="Netto", gross="Brutto")),
}

ITEMS = {
    "en": ["Organic Bananas", "Whole Milk 1gal", "Sourdough Bread", "Eggs Large 12ct", "Cheddar Cheese 8oz", "Ground Coffee", "Paper Towels 6pk", "Greek Yogurt", "Chicken Breast",
           "Baby Spinach", "Orange Juice 52oz", "Peanut Butter", "Tortilla Chips", "Dish Soap", "AA Batteries 8pk", "Blueberries 6oz", "Pasta Sauce", "Frozen Pizza", "Avocado", "Iced Tea"],
    "my": ["NASI LEMAK BUNGKUS", "TEH TARIK", "KOPI O PANAS", "ROTI CANAI", "MILO AIS", "MEE GORENG MAMAK", "AIR MINERAL 1.5L", "GARDENIA BREAD", "MAGGI KARI 5S", "SUSU PEKAT",
           "BERAS WANGI 5KG", "MINYAK MASAK 2KG", "PAPER A4 80GSM", "BATTERY AA 4PCS", "NESCAFE 3IN1", "TISSUE BOX", "CHICKEN RICE", "TEH O AIS LIMAU", "SABUN BASUH", "KUIH LAPIS"],
    "de": ["Bananen", "Vollmilch 3,5%", "Bergkäse", "Roggenbrötchen", "Apfelsaft 1,5l", "Tomaten", "Spaghetti 500g", "Joghurt Natur", "Kaffee Crema", "Butter 250g", "Laugenbrezel",
           "Mineralwasser 6x1,5l", "Gouda jung", "Kartoffeln 2kg", "Zwiebeln", "Schokolade Vollmilch", "Toilettenpapier", "Hähnchenbrust", "Müsli Beere", "Orangensaft"],
    "fr": ["Baguette tradition", "Camembert", "Pommes Golden", "Lait demi-écrémé", "Yaourt nature x4", "Jambon blanc", "Beurre doux", "Café moulu", "Croissant", "Eau minérale 6x1,5L",
           "Emmental râpé", "Pâtes coquillettes", "Tomates grappe", "Poulet fermier", "Confiture fraise", "Jus d'orange", "Chocolat noir", "Lessive liquide", "Salade iceberg", "Crème fraîche"],
    "es": ["Pan de barra", "Leche entera", "Huevos docena", "Aceite de oliva 1L", "Jamón serrano", "Queso manchego", "Tomate pera", "Naranjas malla", "Agua mineral 1,5L", "Arroz bomba",
           "Café molido", "Yogur natural", "Galletas María", "Pollo entero", "Detergente", "Patatas 3kg", "Cerveza lata", "Atún en aceite", "Chorizo", "Zumo de naranja"],
    "it": ["Pasta di semola", "Pomodori pelati", "Parmigiano", "Latte intero", "Mozzarella", "Prosciutto crudo", "Caffè macinato", "Pane casereccio", "Olio extra vergine", "Acqua naturale",
           "Biscotti", "Mele Fuji", "Yogurt bianco", "Uova fresche x6", "Riso Carnaroli", "Basilico", "Insalata mista", "Tonno", "Vino rosso", "Detersivo piatti"],
    "nl": ["Halfvolle melk", "Goudse kaas", "Volkorenbrood", "Appels Elstar", "Pindakaas", "Hagelslag", "Koffie snelfilter", "Eieren 10st", "Yoghurt", "Kipfilet", "Stroopwafels",
           "Aardappelen 2kg", "Bananen", "Spa blauw 1,5L", "Boter", "Rookworst", "Tomaten", "Drop", "Wasmiddel", "Sinaasappelsap"],
    "pl": ["Chleb żytni", "Masło 200g", "Jabłka", "Woda 1,5l", "Mleko 3,2%", "Ser żółty", "Kiełbasa", "Jajka L 10szt", "Pomidory", "Ziemniaki", "Kawa mielona", "Jogurt naturalny",
           "Twaróg", "Makaron", "Cukier 1kg", "Pierogi ruskie", "Szynka", "Sok jabłkowy", "Płyn do naczyń", "Czekolada"],
    "sv": ["Mjölk 3%", "Smör 500g", "Knäckebröd", "Ost Präst", "Kaffe bryggmalet", "Ägg 12-p", "Bananer", "Falukorv", "Potatis", "Lingonsylt", "Fil", "Kanelbulle", "Gurka",
           "Äpplen", "Pasta", "Kycklingfilé", "Havregryn", "Apelsinjuice", "Diskmedel", "Choklad"],
}

MERCHANTS = {
    "en": (["GREEN BASKET", "SUNNY SIDE", "OAK & PINE", "HARBOR", "MAPLE STREET", "RIVERSIDE", "BLUE DOOR", "CORNER"], ["MARKET", "GROCERY", "FOODS", "DELI", "GENERAL STORE", "PHARMACY"]),
    "my": (["KEDAI RUNCIT", "RESTORAN", "PERNIAGAAN", "SYARIKAT", "KEDAI MAKAN", "MINI MARKET"], ["AH HOCK", "SRI MURNI", "TAN BROTHERS", "JAYA MAJU", "LIM & SONS", "SEMPURNA"]),
    "de": (["Bäckerei", "Markt", "Getränke", "Drogerie", "Frischemarkt", "Hofladen"], ["Sonnenschein", "Brandt", "am Ring", "Keller", "Müller & Söhne", "Lindenhof"]),
    "fr": (["Boulangerie", "Épicerie", "Supérette", "Fromagerie", "Primeur", "Marché"], ["du Centre", "Lefèvre", "Saint-Michel", "des Halles", "Petit Pont", "Moreau"]),
    "es": (["Supermercado", "Panadería", "Frutería", "Ultramarinos", "Farmacia", "Mercado"], ["El Sol", "La Plaza", "García", "San Roque", "Los Olivos", "Martínez"]),
    "it": (["Supermercato", "Panificio", "Alimentari", "Salumeria", "Bottega", "Mercato"], ["Bella", "Rossi", "San Marco", "Da Gino", "Il Girasole", "Ferrari"]),
    "nl": (["Bakkerij", "Supermarkt", "Kaashandel", "Groenteboer", "Drogisterij", "Slagerij"], ["De Molen", "Jansen", "Het Hoekje", "Van Dijk", "De Linde", "Bakker"]),
    "pl": (["Sklep", "Piekarnia", "Delikatesy", "Market", "Apteka", "Spożywczy"], ["Pod Lipami", "Kowalski", "Na Rogu", "Stokrotka", "Zielony", "Nowak"]),
    "sv": (["Livs", "Bageri", "Handlarn", "Kvartersbutik", "Saluhall", "Apotek"], ["Björken", "Lundgren", "Söder", "Ekhagen", "Nilssons", "Fjällbacka"]),
}
STREETS = {
    "en": ["{n} Main Street", "{n} Oak Avenue", "{n} Harbor Rd"], "my": ["NO. {n}, JALAN SAGU 18", "LOT {n}, JALAN KPB 6", "NO {n}, JLN PERMAS 10/2"],
    "de": ["Hauptstraße {n}", "Lindenweg {n}", "Am Markt {n}"], "fr": ["{n} rue de la Paix", "{n} avenue Jean Jaurès", "{n} place du Marché"],
    "es": ["Calle Mayor {n}", "Avda. de la Constitución {n}", "Plaza España {n}"], "it": ["Via Roma {n}", "Corso Italia {n}", "Piazza Garibaldi {n}"],
    "nl": ["Dorpsstraat {n}", "Kerkstraat {n}", "Marktplein {n}"], "pl": ["ul. Przykładowa {n}", "ul. Lipowa {n}", "al. Jana Pawła II {n}"],
    "sv": ["Storgatan {n}", "Drottninggatan {n}", "Kungsvägen {n}"],
}
CITIES = {"en": ["Springfield, IL 62701", "Portland, OR 97205"], "my": ["81100 JOHOR BAHRU, JOHOR", "43300 SERI KEMBANGAN, SELANGOR", "50450 KUALA LUMPUR"],
          "de": ["33100 Paderborn", "80331 München", "50667 Köln"], "fr": ["75011 Paris", "69002 Lyon"], "es": ["28013 Madrid", "41001 Sevilla"], "it": ["20121 Milano", "00184 Roma"],
          "nl": ["1012 AB Amsterdam", "3511 LX Utrecht"], "pl": ["00-001 Warszawa", "30-002 Kraków"], "sv": ["111 22 Stockholm", "411 03 Göteborg"]}
MONTHS_EN = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

OVERFLOWS = []  # cells drawn past the paper's right margin (a self-check; stays empty)
PAPERS = ["thermal", "white", "textured", "aged", "carbonless"]
CAPTURES = ["scan", "photo", "photo_crumpled", "scan_faded", "photo_faded", "photo_steep"]

HEADER_FAMILIES = {
    "logo_top": "a logo row right above the trading name, then the address",
    "legal_below": "the trading name, then the legal entity that runs the shop (GmbH & Co. KG, Sdn Bhd, S.A.) on its own line",
    "legal_above": "the legal entity line first, the trading name under it (or under the address)",
    "title_top": "a document title (Kassenbon, Rechnung, TAX INVOICE, Beleg) above the trading name",
    "greeting_top": "a greeting (Willkommen, Welcome) above the trading name, sometimes a second one under the address",
    "address_first": "address, phone and tax-id lines first, the trading name under them or between them",
    "branch_cashier": "a branch line (Filiale 1234, Markt 0815) above or below the name, a cashier line after the address",
    "stacked": "logo, title, trading name, legal entity, branch, address, phone, tax id and cashier in one of a few orders",
}
# Any family may also print a logo row on top (LOGO_SHARE of receipts), so train families see logos too.
LOGO_SHARE = 0.35
LOGO_FONTS = ["/usr/share/fonts/opentype/urw-base35/Z003-MediumItalic.otf", "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
              "/usr/share/fonts/opentype/urw-base35/URWBookman-Demi.otf", "/usr/share/fonts/opentype/urw-base35/P052-BoldItalic.otf",
              "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf", "/usr/share/fonts/opentype/urw-base35/C059-Bold.otf"]
HEADER_WORDS = {
    "en": dict(forms=["Inc.", "LLC", "Corp.", "Co."], owners=["Miller", "Harper", "Jensen", "Walsh"], trade=["Retail", "Holdings", "Foods", ""],
               titles=["RECEIPT", "SALES RECEIPT", "INVOICE", "CUSTOMER COPY"], greet=["Welcome", "WELCOME TO", "Thanks for visiting"],
               branch=["Store #{n}", "Store {n}", "Location {n}"], cashier=["Cashier: {p}", "Your cashier today was {p}", "Served by {p}"]),
    "my": dict(forms=["SDN BHD", "SDN. BHD.", "ENTERPRISE", "TRADING"], owners=["TAN", "LIM", "WONG", "MUTIARA", "HOCK SENG"], trade=["HOLDINGS", "RETAIL", ""],
               titles=["TAX INVOICE", "SIMPLIFIED TAX INVOICE", "RECEIPT", "CASH BILL", "INVOICE"], greet=["WELCOME", "SELAMAT DATANG", "Welcome to"],
               branch=["BRANCH: {n}", "OUTLET {n}", "CAWANGAN {n}"], cashier=["Cashier: {p}", "Served by: {p}"]),
    "de": dict(forms=["GmbH", "GmbH & Co. KG", "e.K.", "OHG", "AG & Co. KG"], owners=["Brandt", "Lindner", "Schulte", "Hoffmann", "Vogel", "Krüger"],
               trade=["Handels", "Lebensmittel", "Einzelhandels", "Vertriebs", ""], titles=["Kassenbon", "Rechnung", "Beleg", "KASSENBELEG", "Quittung"],
               greet=["Willkommen", "Herzlich willkommen", "Willkommen bei", "Guten Tag!"], branch=["Filiale {n}", "Markt {n}", "Fil.-Nr. {n}", "Filiale {city}"],
               cashier=["Es bediente Sie {p}", "Kassierer: {p}", "Bediener {p}"]),
    "fr": dict(forms=["SARL", "SAS", "S.A.", "EURL"], owners=["Lefèvre", "Moreau", "Dubois", "Girard"], trade=["Distribution", "Commerce", ""],
               titles=["TICKET DE CAISSE", "FACTURE", "Ticket client"], greet=["Bienvenue", "BIENVENUE CHEZ"], branch=["Magasin {n}", "Mag. {n}"],
               cashier=["Caissier: {p}", "Vous avez été servi par {p}"]),
    "es": dict(forms=["S.L.", "S.A.", "S.L.U."], owners=["García", "Ruiz", "Navarro", "Ortega"], trade=["Distribuciones", "Comercial", ""],
               titles=["FACTURA SIMPLIFICADA", "TICKET", "FACTURA"], greet=["Bienvenido", "BIENVENIDOS"], branch=["Tienda {n}", "Centro {n}"],
               cashier=["Le atendió: {p}", "Cajero: {p}"]),
    "it": dict(forms=["S.r.l.", "S.p.A.", "S.n.c."], owners=["Rossi", "Bianchi", "Conti", "Gallo"], trade=["Distribuzione", "Commerciale", ""],
               titles=["DOCUMENTO COMMERCIALE", "SCONTRINO", "RICEVUTA"], greet=["Benvenuti", "BENVENUTO"], branch=["Punto vendita {n}", "PdV {n}"],
               cashier=["Cassiere: {p}", "Operatore {p}"]),
    "nl": dict(forms=["B.V.", "V.O.F.", "N.V."], owners=["Jansen", "De Vries", "Bakker", "Visser"], trade=["Retail", "Handel", ""],
               titles=["KASSABON", "Bon", "FACTUUR"], greet=["Welkom", "WELKOM BIJ"], branch=["Filiaal {n}", "Winkel {n}"],
               cashier=["U werd geholpen door {p}", "Kassa: {p}"]),
    "pl": dict(forms=["Sp. z o.o.", "S.A.", "Sp.j."], owners=["Kowalski", "Nowak", "Wiśniewski", "Zając"], trade=["Handel", "Dystrybucja", ""],
               titles=["PARAGON FISKALNY", "FAKTURA", "PARAGON"], greet=["Witamy", "ZAPRASZAMY"], branch=["Sklep nr {n}", "Oddział {n}"],
               cashier=["Kasjer: {p}", "Obsługiwał: {p}"]),
    "sv": dict(forms=["AB", "HB", "Handelsbolag"], owners=["Lundgren", "Nilsson", "Berg", "Holm"], trade=["Handel", "Livs", ""],
               titles=["KVITTO", "Kvitto", "FAKTURA"], greet=["Välkommen", "VÄLKOMMEN TILL"], branch=["Butik {n}", "Butiksnr {n}"],
               cashier=["Du betjänades av {p}", "Kassör: {p}"]),
}
PEOPLE = ["Anna", "Jens", "Maria", "Tom", "Sara", "Ali", "Eva", "Mike", "Nurul", "Chen"]


def header_lines(parts, hrng, family, lang, merchant, first, second, case):
    """Reorders and extends the plain header's lines (`parts`: (role, text, style) in print order)
    for a header family; returns (role, text, style) lines, the logo's as ("logo", text, dict)."""
    words = HEADER_WORDS[lang]
    by_role = {}
    for role, text, style in parts:
        by_role.setdefault(role, []).append((role, text, style))
    name = by_role["name"]
    address = by_role.get("street", []) + by_role.get("city", [])
    phone, taxid, reg = by_role.get("phone", []), by_role.get("taxid", []), by_role.get("reg", [])
    title = by_role.get("title", [])
    upper = case == "upper" or hrng.random() < 0.3

    def line(role, text, style=""):
        return [(role, text.upper() if upper and role != "cashier" else text, style)]

    def legal():
        owner = hrng.choice(words["owners"] + ([second] if second[0].isupper() else []))
        trade = hrng.choice(words["trade"])
        return line("legal", " ".join(w for w in (owner, trade, hrng.choice(words["forms"])) if w))

    def doc_title():
        return title or line("title", hrng.choice(words["titles"]), "bold" if hrng.random() < 0.5 else "")

    def greeting():
        return line("greeting", hrng.choice(words["greet"]))

    def branch():
        city = address[-1][1].split()[-1] if address else "Nord"
        return line("branch", hrng.choice(words["branch"]).format(n=hrng.randint(1, 9999) if hrng.random() < 0.5 else f"{hrng.randint(1, 999):04d}", city=city))

    def cashier():
        person = hrng.choice(PEOPLE) if hrng.random() < 0.7 else str(hrng.randint(1, 99))
        return [("cashier", hrng.choice(words["cashier"]).format(p=person), "")]

    def logo():
        initials = "".join(w[0] for w in merchant.replace("&", " ").split() if w[0].isalpha())[:3].upper()
        kind = hrng.choice(["mark", "word", "word", "garbled"])
        text = initials if kind == "mark" else hrng.choice([first, second]).split()[-1]
        spec = {"kind": kind, "font": hrng.choice(LOGO_FONTS), "shape": hrng.choice(["disc", "box", "roof", "none"]),
                "scale": hrng.uniform(2.2, 3.4), "seed": hrng.randint(0, 2**31), "upper": hrng.random() < 0.5}
        return [("logo", text.upper() if spec["upper"] else text, spec)]

    rest = reg + taxid if family != "address_first" else reg
    if family == "logo_top":
        out = logo() + name + address + phone + rest
    elif family == "legal_below":
        out = name + legal() + reg + address + phone + taxid
    elif family == "legal_above":
        out = legal() + name + address + phone + rest if hrng.random() < 0.6 else legal() + address + name + phone + rest
    elif family == "title_top":
        out = doc_title() + name + address + phone + rest
    elif family == "greeting_top":
        out = greeting() + name + address + phone + rest + (greeting() if hrng.random() < 0.3 else [])
    elif family == "address_first":
        out = address + phone + taxid + name + rest if hrng.random() < 0.6 else address + name + phone + taxid + rest
    elif family == "branch_cashier":
        out = (branch() + name if hrng.random() < 0.5 else name + branch()) + address + phone + rest + cashier()
    else:  # stacked
        order = hrng.choice([["logo", "title", "name", "legal", "branch", "address", "phone", "rest", "cashier"],
                             ["title", "logo", "legal", "name", "address", "phone", "rest", "branch", "cashier"],
                             ["greeting", "logo", "name", "branch", "legal", "address", "rest", "phone", "cashier"],
                             ["legal", "address", "phone", "rest", "logo", "name", "title", "cashier"]])
        make = {"logo": logo, "title": doc_title, "legal": legal, "branch": branch, "cashier": cashier, "greeting": greeting,
                "name": lambda: name, "address": lambda: address, "phone": lambda: phone, "rest": lambda: rest}
        out = [x for part in order for x in make[part]()]
    if family not in ("logo_top", "stacked") and hrng.random() < LOGO_SHARE:
        out = logo() + out
    return out + (title if family not in ("title_top", "stacked") else [])


def load_splits():
    return json.load(open(SPLITS, encoding="utf-8"))


# --- money ---------------------------------------------------------------------------------

class Money:
    def __init__(self, comma, symbol, position, thousands):
        self.comma, self.symbol, self.position, self.thousands = comma, symbol, position, thousands

    def __call__(self, cents, sign=False, symbol=False):
        negative = cents < 0
        cents = abs(cents)
        whole = f"{cents // 100:,}" if self.thousands else str(cents // 100)
        if self.thousands:
            whole = whole.replace(",", "." if self.comma else ",")
        text = whole + ("," if self.comma else ".") + f"{cents % 100:02d}"
        if symbol and self.position == "before":
            text = self.symbol + ("" if self.symbol in "$£€" else " ") + text
        elif symbol and self.position == "after":
            text = text + " " + self.symbol
        if negative:
            text = "-" + text if sign != "suffix" else text + "-"
        return text


def plain(cents):
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


# --- the receipt model ----------------------------------------------------------------------

def make_items(rng, lang, family, count):
    names = rng.sample(ITEMS[lang], count)
    items = []
    scale = {"sv": 1000, "pl": 400, "my": 300}.get(lang, 100)  # cents of this currency for one euro's worth
    for name in names:
        base = rng.choice([rng.uniform(0.3, 4.0)] * 3 + [rng.uniform(1.0, 9.0)] * 2 + [rng.uniform(5, 25)])
        unit = int(base * scale)
        unit = max(unit - unit % (5 if lang == "my" else 1), 5) if rng.random() < 0.8 else unit
        if lang in ("my", "en") and rng.random() < 0.5:
            unit = unit - unit % 10
        weighed = family in ("qty_below", "qty_inline", "discount_lines", "tax_codes", "two_column", "qty_above", "indexed") and rng.random() < 0.12
        if weighed:
            kg = rng.randint(150, 2400)
            qty_text = f"{kg / 1000:.3f}"
            amount = int(round(kg * unit / 1000))
            items.append({"name": name, "qty": qty_text, "qty_num": kg / 1000, "unit": unit, "amount": amount, "kg": True})
        else:
            q = rng.choice([1, 1, 1, 1, 2, 2, 3, 4, 6]) if family != "plain" else 1
            items.append({"name": name, "qty": str(q), "qty_num": q, "unit": unit, "amount": unit * q, "kg": False})
    return items


def print_long_name(b, rng, item, name, lang, style, cells):
    """A long_names item: the name and a second item's last word (and a pack size) wrapped over
    2-3 lines; returns the description (its words in print order)."""
    cols, amt, unit_t, qty_t = cells
    indent, where, qty_style = style
    other = rng.choice([n for n in ITEMS[lang] if n != name]).split()[-1]
    size = rng.choice(["", "", f"{rng.choice([125, 250, 400, 500, 750])}g", f"{rng.choice(['0,5', '1', '1,5', '2'])}l"])
    words = f"{name} {other} {size}".split()
    width = rng.randint(10, max(10, min(20, cols - 14)))
    lines = textwrap.wrap(" ".join(words), width, break_long_words=False)
    while len(lines) > 3:
        width += 3
        lines = textwrap.wrap(" ".join(words), width, break_long_words=False)
    if len(lines) == 1:
        half = max(1, len(words) // 2)
        lines = [" ".join(words[:half]), " ".join(words[half:])]
    desc = " ".join(lines)
    q = item["qty"]
    printed = [(0 if k == 0 else indent, part) for k, part in enumerate(lines)]
    mid = ""
    if q != "1" and qty_style == "prefix":
        printed[0] = (0, f"{q} {rng.choice(['x ', '* ', ''])}{printed[0][1]}")
    elif q != "1" and qty_style == "suffix":
        printed[-1] = (printed[-1][0], printed[-1][1] + rng.choice([f" x{q}", f" {q} St", f" {q}pcs"]))
    elif q != "1" and qty_style == "column":
        mid = f"{qty_t} x {unit_t}"
    qty_line = (2, f"{qty_t} x {unit_t}") if q != "1" and qty_style in ("above", "below") else None
    at = {"first": 0, "last": len(printed) - 1, "middle": len(printed) // 2}[where]
    if qty_line and qty_style == "above":
        b.add((qty_line[0], "l", qty_line[1]))
    for k, (col, part) in enumerate(printed):
        if k == at and not (qty_line and qty_style == "below"):
            b.add((col, "l", part), *([(cols - 11, "r", mid)] if mid else []), (cols, "r", amt))
        else:
            b.add((col, "l", part))
    if qty_line and qty_style == "below":
        b.add((qty_line[0], "l", qty_line[1]), (cols, "r", amt))
    return desc


def print_cut_name(b, rng, item, name, lang, style, cells):
    """A cut_names item: one line, or two where the name (some with a second item's last word and a
    pack size) is longer than the receipt's description column; returns the description (its
    printed parts joined by a space)."""
    cols, amt, unit_t, qty_t = cells
    width, cut, indent, where, qty_style = style
    words = name
    if rng.random() < 0.5:
        other = rng.choice([n for n in ITEMS[lang] if n != name]).split()[-1]
        words = f"{name} {other} {rng.choice(['', f'{rng.choice([200, 330, 500])}g', f'{rng.choice([1, 2, 6])}x1l'])}".strip()
    q = item["qty"]
    if q != "1" and qty_style == "prefix":
        words = f"{q} x {words}"
    if cut == "word":
        parts = textwrap.wrap(words, width, break_long_words=True)
    else:
        parts = [words[k:k + width].strip() for k in range(0, len(words), width)]
    parts = [" ".join(parts[:1]), " ".join(parts[1:])] if len(parts) > 2 else parts
    parts = [part for part in parts if part]
    qty_line = q != "1" and qty_style in ("below", "below_plain")
    at = None if qty_line and qty_style == "below" else (0 if where == "first" else len(parts) - 1)
    for k, part in enumerate(parts):
        if k == at:
            b.add((0 if k == 0 else indent, "l", part), (cols, "r", amt))
        else:
            b.add((0 if k == 0 else indent, "l", part))
    if qty_line:
        cells_below = [(rng.choice([2, 4]), "l", f"{qty_t} x {unit_t}")]
        b.add(*cells_below, *([(cols, "r", amt)] if at is None else []))
    desc = " ".join(parts)
    return desc[len(f"{q} x "):] if q != "1" and qty_style == "prefix" else desc


def print_column_row(b, order, item, name, cells):
    """A qty_columns item on one row, its columns in the receipt's order; returns the description."""
    cols, amt, unit_t, qty_t = cells
    if order == "desc_qty_amt":
        desc = name[:cols - 20]
        b.add((0, "l", desc), (cols - 13, "r", qty_t), (cols, "r", amt))
    elif order == "desc_unit_qty_amt":
        desc = name[:cols - 30]
        b.add((0, "l", desc), (cols - 19, "r", unit_t), (cols - 12, "r", qty_t), (cols, "r", amt))
    elif order == "unit_times_qty":
        mid = f"{unit_t} x {qty_t} ="
        desc = name[:cols - len(mid) - 13]
        b.add((0, "l", desc), (cols - 11, "r", mid), (cols, "r", amt))
    else:
        desc = name[:cols - 24]
        b.add((0, "l", qty_t), (4, "l", desc), (cols - 11, "r", unit_t), (cols, "r", amt))
    return desc


class Builder:
    """Printed lines as cells on a character grid of `cols` columns."""

    def __init__(self, cols):
        self.cols = cols
        self.lines = []  # each: {"cells": [(col, align, text)], "style": str}

    def add(self, *cells, style=""):
        self.lines.append({"cells": list(cells), "style": style})

    def lr(self, left, right, style=""):
        self.add((0, "l", left), (self.cols, "r", right), style=style)

    def center(self, text, style=""):
        self.add((0, "c", text), style=style)

    def rule(self, char="-"):
        self.add((0, "l", char * self.cols), style="rule")

    def blank(self):
        self.add(style="blank")

    @staticmethod
    def text_of(line, cols):
        row = [" "] * (cols + 40)
        for col, align, text in line["cells"]:
            if align == "l":
                start = col
            elif align == "r":
                start = col - len(text)
            else:
                start = max(0, (cols - len(text)) // 2)
            start = max(0, start)
            while start > 0 and any(c != " " for c in row[max(0, start - 1): start + len(text)]):
                start += 1  # never overwrite: shift right past what is printed
            for i, ch in enumerate(text):
                if start + i >= len(row):
                    row.append(ch)
                else:
                    row[start + i] = ch
        return "".join(row).rstrip()


def fmt_date(rng, d, spec):
    pattern = rng.choice(spec["date"])
    if "%b" in pattern:
        return f"{d.day:02d} {MONTHS_EN[d.month - 1]} {d.year}"
    return d.strftime(pattern)


def build(rng, family, lang, header=None):
    spec = LANGS[lang]
    lab = spec["labels"]
    cols = rng.choice([32, 36, 40, 42, 44, 48])
    if family in ("columns", "two_column", "sku_multiline", "qty_columns", "long_names"):
        cols = max(cols, 40)
    comma = spec["comma"] if rng.random() < 0.9 else not spec["comma"]
    position = rng.choice(["none", "none", "before", "after", "code"])
    if lang == "my" and position == "after":
        position = "before"
    money = Money(comma, spec["symbol"], position if position in ("before", "after") else "none", rng.random() < 0.3)
    b = Builder(cols)
    # header: the plain order (merchant first) unless a header family is given
    parts = []
    prefix, suffix = MERCHANTS[lang]
    first, second = rng.choice(prefix), rng.choice(suffix)
    merchant = f"{first} {second}" if lang != "en" else f"{first} {second}"
    if lang == "my":
        merchant = f"{merchant} SDN BHD" if rng.random() < 0.7 else f"{merchant} ENTERPRISE"
    case = rng.choice(["upper", "as is"])
    merchant = merchant.upper() if case == "upper" else merchant
    big = rng.random() < 0.6
    parts.append(("name", merchant, "big" if big else "bold"))
    if lang == "my":
        parts.append(("reg", f"(CO. REG : {rng.randint(100000, 999999)}-{rng.choice('ADKPTUVW')})", ""))
    n = rng.randint(1, 240)
    parts.append(("street", rng.choice(STREETS[lang]).format(n=n), ""))
    parts.append(("city", rng.choice(CITIES[lang]), ""))
    if rng.random() < 0.6:
        parts.append(("phone", f"Tel: {rng.randint(100, 999)}-{rng.randint(1000000, 9999999)}" if lang in ("en", "my") else f"Tel. {rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}", ""))
    if lang == "my":
        parts.append(("taxid", f"GST ID No : {rng.randint(10**11, 10**12 - 1):012d}", ""))
        parts.append(("title", rng.choice(["TAX INVOICE", "SIMPLIFIED TAX INVOICE", "RECEIPT"]), "bold"))
    elif lang in ("de", "fr", "es", "it", "nl", "pl", "sv") and rng.random() < 0.6:
        tag = {"de": "USt-IdNr. DE", "fr": "SIRET ", "es": "CIF B", "it": "P.IVA ", "nl": "BTW NL", "pl": "NIP ", "sv": "Org.nr 55"}[lang]
        parts.append(("taxid", f"{tag}{rng.randint(10**7, 10**9)}", ""))
    if header:
        parts = header_lines(parts, header[1], header[0], lang, merchant, first, second, case)
    for role, text, style in parts:
        if role == "logo":
            b.add((0, "c", text), style="logo")
            b.lines[-1]["logo"] = style
        else:
            b.center(text, style=style)
    day = date(2017, 1, 1) + timedelta(days=rng.randint(0, 9 * 365))
    time_text = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    date_text = fmt_date(rng, day, spec)
    receipt_no = f"{rng.randint(1, 9999):04d}" if rng.random() < 0.5 else str(rng.randint(10000, 999999))
    date_style = rng.choice(["lr", "one", "labelled"])
    b.blank() if rng.random() < 0.5 else b.rule(rng.choice("-=*"))
    if date_style == "lr":
        b.lr(date_text, time_text)
        b.lr(f"{rng.choice(lab['receipt'])} {receipt_no}", f"{rng.choice(lab['cashier'])} {rng.randint(1, 12)}")
    elif date_style == "one":
        b.add((0, "l", f"{date_text} {time_text}"), (cols, "r", f"#{receipt_no}"))
    else:
        word = {"en": "Date:", "my": "Date:", "de": "Datum:", "fr": "Date :", "es": "Fecha:", "it": "Data:", "nl": "Datum:", "pl": "Data:", "sv": "Datum:"}[lang]
        b.add((0, "l", f"{rng.choice(lab['receipt'])} {receipt_no}"))
        b.add((0, "l", f"{word} {date_text}"), (cols, "r", time_text))
    b.rule(rng.choice("-=")) if rng.random() < 0.7 else b.blank()

    # items
    count = rng.randint(3, 9 if family not in ("sku_multiline", "wrapped", "columns", "long_names", "cut_names") else 7)
    items = make_items(rng, lang, family, count)
    amount_w = 10
    savings = 0
    rates = spec["rates"]
    code_of_rate = {r: "ABCD"[i] for i, r in enumerate(rates)}
    tax_letters = family == "tax_codes" or (lang == "my" and rng.random() < 0.5) or rng.random() < 0.15
    # Overlays any family may carry: the currency printed on every item amount, and discounts on
    # their own lines under some items (columns keeps its grid).
    item_symbol = position in ("before", "after") and rng.random() < 0.3
    discount_chance = 0.4 if family == "discount_lines" else (0.3 if family != "columns" and rng.random() < 0.2 else 0)
    if family == "columns":
        b.add((0, "l", lab["qty"]), (5, "l", lab["desc"]), (cols - 11, "r", lab["price"]), (cols, "r", lab["amount"]), style="bold")
        b.rule("-")
    # Receipt-wide choices of the two newer train families (drawn only for them, so the other
    # families' renders are unchanged).
    column_order = rng.choice(["desc_qty_amt", "desc_unit_qty_amt", "unit_times_qty", "qty_desc_unit_amt"]) if family == "qty_columns" else ""
    long_style = (rng.choice([0, 0, 1, 2, 3, 4]), rng.choice(["first", "last", "last", "middle"]),
                  rng.choice(["prefix", "suffix", "above", "below", "column"])) if family == "long_names" else None
    cut_style = (rng.randint(12, min(22, cols - 14)), rng.choice(["word", "word", "char"]), rng.choice([0, 0, 1, 2, 3]),
                 rng.choice(["first", "last"]), rng.choice(["prefix", "below", "below_plain"])) if family == "cut_names" else None
    truth_items = []
    for number, item in enumerate(items, start=1):
        item["rate"] = rng.choice(rates)
        letter = (" " + ("SR" if lang == "my" else code_of_rate[item["rate"]])) if tax_letters else ""
        amt = money(item["amount"], symbol=item_symbol) + letter
        unit_t = money(item["unit"])
        qty_t = item["qty"].replace(".", ",") if comma and item["kg"] else item["qty"]
        if item["kg"]:
            qty_t += " kg"
        name = item["name"]
        room = cols - amount_w - 2
        desc = name
        if family == "plain":
            desc = name[:room]
            b.add((0, "l", desc), (cols, "r", amt))
        elif family in ("qty_below", "discount_lines", "tax_codes"):
            desc = name[:room]
            if item["qty"] == "1":
                b.add((0, "l", desc), (cols, "r", amt))
            else:
                b.add((0, "l", desc))
                sep = rng.choice([" x ", " X ", " * "]) if family != "tax_codes" else " x "
                b.add((2, "l", f"{qty_t}{sep}{unit_t}"), (cols, "r", amt))
        elif family == "qty_before":
            sep = rng.choice([" x ", "x ", " "])
            room2 = room - len(item["qty"]) - len(sep)
            desc = name[:room2]
            b.add((0, "l", f"{item['qty']}{sep}{desc}"), (cols, "r", amt))
        elif family == "qty_inline":
            mid = f"{qty_t} x {unit_t}" if rng.random() < 0.7 else f"{qty_t} @ {unit_t}"
            room2 = cols - amount_w - len(mid) - 3
            desc = name[:room2]
            b.add((0, "l", desc), (cols - amount_w - 1, "r", mid), (cols, "r", amt))
        elif family == "columns":
            room2 = cols - 5 - 24
            desc = name[:room2]
            b.add((0, "l", item["qty"]), (5, "l", desc), (cols - 11, "r", unit_t), (cols, "r", amt))
        elif family == "sku_multiline":
            b.add((0, "l", str(rng.randint(10**11, 10**13 - 1))))
            words = name.split()
            if len(name) > 18 and len(words) > 1 and rng.random() < 0.6:
                cut = max(1, len(words) // 2)
                b.add((0, "l", " ".join(words[:cut])))
                b.add((0, "l", " ".join(words[cut:])))
            else:
                b.add((0, "l", name))
            b.add((cols // 2 - 8, "r", f"{item['qty']} x"), (cols - amount_w - 1, "r", unit_t), (cols, "r", amt))
        elif family == "wrapped":
            extra = rng.choice({"en": ["Family Pack", "Special Edition", "Reduced Fat"], "my": ["PROMO PACK", "TWIN PACK", "BUNDLE"],
                                "de": ["Großpackung", "Bio Qualität", "Aktionsware"], "fr": ["format familial", "bio", "lot de 2"],
                                "es": ["pack ahorro", "ecológico", "formato grande"], "it": ["confezione famiglia", "biologico", "offerta"],
                                "nl": ["voordeelverpakking", "biologisch", "2e halve prijs"], "pl": ["opakowanie rodzinne", "ekologiczny", "promocja"],
                                "sv": ["storpack", "ekologisk", "familjeförp"]}[lang])
            full = f"{name} {extra}"
            width = rng.randint(12, min(22, room))
            wrapped = textwrap.wrap(full, width, break_long_words=False)
            while len(wrapped) > 3:
                width += 2
                wrapped = textwrap.wrap(full, width, break_long_words=False)
            desc = " ".join(wrapped)
            printed = list(wrapped)
            if item["qty"] != "1":
                if rng.random() < 0.5:
                    printed[0] = f"{item['qty']}x {printed[0]}"
                else:
                    printed.append(f"{qty_t} x {unit_t}")
            amount_first = rng.random() < 0.3
            for k, part in enumerate(printed):
                col = 0 if k == 0 else rng.choice([0, 2]) if k == 1 else 2
                if (amount_first and k == 0) or (not amount_first and k == len(printed) - 1):
                    b.add((col, "l", part), (cols, "r", amt))
                else:
                    b.add((col, "l", part))
        elif family == "two_column":
            desc = name[:cols]
            b.add((0, "l", desc))
            b.add((cols - 2 * amount_w - 4, "r", qty_t), (cols - amount_w - 1, "r", unit_t), (cols, "r", amt))
        elif family == "qty_above":
            desc = name[:room]
            if item["qty"] != "1":
                sep = rng.choice([" x ", " X ", " * "])
                b.add((rng.choice([0, 2, 4]), "l", f"{qty_t}{sep}{unit_t}"))
            b.add((0, "l", desc), (cols, "r", amt))
        elif family == "qty_after":
            q = item["qty"]
            suffix = "" if q == "1" else rng.choice([f" x{q}", f" {q}x", f" ({q})", f" x {q}"])
            desc = name[:room - len(suffix)]
            b.add((0, "l", desc + suffix), (cols, "r", amt))
        elif family == "indexed":
            index = f"{number:03d}" if rng.random() < 0.5 else f"{number:02d}"
            desc = name[:room - len(index) - 1]
            b.add((0, "l", f"{index} {desc}"), (cols, "r", amt))
            if item["qty"] != "1":
                b.add((len(index) + 1, "l", f"{qty_t} x {unit_t}"))
        elif family == "dot_leaders":
            q = item["qty"]
            extra = "" if q == "1" else f" ({q} @ {unit_t})"
            desc = name[:room - len(extra) - 3]
            left = desc + extra + " "
            b.add((0, "l", left + "." * max(2, cols - len(left) - len(amt) - 1)), (cols, "r", amt))
        elif family == "long_names":
            desc = print_long_name(b, rng, item, name, lang, long_style, (cols, amt, unit_t, qty_t))
        elif family == "cut_names":
            desc = print_cut_name(b, rng, item, name, lang, cut_style, (cols, amt, unit_t, qty_t))
        elif family == "qty_columns":
            desc = print_column_row(b, column_order, item, name, (cols, amt, unit_t, qty_t))
        if discount_chance and rng.random() < discount_chance:
            off = max(10, int(item["amount"] * rng.choice([0.1, 0.2, 0.25, 0.3])) // 10 * 10)
            savings += off
            b.add((2, "l", rng.choice(lab["discount"])), (cols, "r", money(-off) if rng.random() < 0.7 else money(off) + "-"))
        truth_items.append({"description": desc, "quantity": item["qty"], "unit_price": plain(item["unit"]), "amount": plain(item["amount"])})

    subtotal = sum(i["amount"] for i in items)
    taxable = subtotal - savings
    b.rule(rng.choice("-=")) if rng.random() < 0.8 else b.blank()
    show_code = position == "code"
    total_label = rng.choice(lab["total"])
    if show_code and spec["currency"] not in total_label:
        total_label = f"{total_label} {spec['currency']}"
    rounding = 0
    if spec["tax"] == "added":
        rate = rates[0] if lang == "my" else rng.choice(rates)
        tax = int(round(taxable * rate))
        total = taxable + tax
        if lang == "my" and rng.random() < 0.6:
            rounded = int(round(total / 5.0)) * 5
            rounding = rounded - total
            total = rounded
        b.lr(rng.choice(lab["subtotal"]), money(subtotal, symbol=True))
        if savings:
            b.lr(rng.choice(lab["savings"]), money(-savings))
        b.lr(rng.choice(lab["tax"]).format(rate=f"{rate * 100:g}"), money(tax, symbol=True))
        if rounding:
            b.lr("Rounding Adj" if rng.random() < 0.5 else "ROUNDING", money(rounding))
        b.lr(total_label, money(total, symbol=True), style="bold" if rng.random() < 0.7 else "big")
        tax_included = False
    else:
        total = taxable
        tax_parts = {}
        for item in items:
            tax_parts[item["rate"]] = tax_parts.get(item["rate"], 0) + item["amount"]
        if savings:  # discounts reduce the first rate's base (good enough for a tax line)
            first_rate = items[0]["rate"]
            tax_parts[first_rate] -= savings
        tax = sum(int(round(gross * r / (1 + r))) for r, gross in tax_parts.items())
        variant = rng.choice(["sub_total", "total_only", "total_only"])
        if variant == "sub_total" or savings:
            b.lr(rng.choice(lab["subtotal"]), money(subtotal))
            if savings:
                b.lr(rng.choice(lab["savings"]), money(-savings))
        b.lr(total_label, money(total, symbol=True), style=rng.choice(["bold", "big", ""]))
        tax_included = True
    # payment
    pay = rng.choice(["cash", "card", "none"])
    if pay == "cash":
        given = ((total // 500) + 1) * 500 if rng.random() < 0.5 else ((total // 1000) + 1) * 1000
        b.lr(rng.choice(lab["cash"]), money(given))
        b.lr(rng.choice(lab["change"]), money(given - total))
    elif pay == "card":
        b.lr(rng.choice(lab["card"]), money(total))
        b.add((0, "l", f"**** **** **** {rng.randint(1000, 9999)}"))
    # VAT table
    vat_table = family == "tax_codes" or (rng.random() < 0.5 and spec["tax"] == "included") or (lang == "my" and rng.random() < 0.5)
    if vat_table:
        b.blank()
        if spec["tax"] == "included":
            b.add((0, "l", lab["vat"]), (cols - 2 * amount_w - 2, "r", lab["net"]), (cols - amount_w - 1, "r", lab["vat"]), (cols, "r", lab["gross"]))
            for r, gross in sorted(tax_parts.items()):
                t = int(round(gross * r / (1 + r)))
                code = code_of_rate[r] + " " if tax_letters else ""
                b.add((0, "l", f"{code}{r * 100:g}%"), (cols - 2 * amount_w - 2, "r", money(gross - t)), (cols - amount_w - 1, "r", money(t)), (cols, "r", money(gross)))
        else:
            b.add((0, "l", lab["vat"]), (cols - amount_w - 1, "r", lab["net"]), (cols, "r", lab["gross"]))
            b.add((0, "l", "SR @ 6%"), (cols - amount_w - 1, "r", money(taxable)), (cols, "r", money(tax)))
    b.blank()
    b.center(rng.choice(lab["thanks"]))
    if rng.random() < 0.4:
        b.add(style="barcode")
    truth = {
        "merchant": merchant, "date": day.isoformat(), "time": time_text, "currency": spec["currency"],
        "items": truth_items, "subtotal": plain(subtotal), "savings": plain(savings) if savings else None,
        "tax": plain(tax), "tax_included": tax_included, "rounding": plain(rounding) if rounding else None,
        "total": plain(total), "reference_number": receipt_no,
        "money": {"decimal": "comma" if comma else "point", "currency_position": position, "thousands": money.thousands},
        "vat_table": vat_table, "payment": pay,
    }
    if header:
        truth["header_family"] = header[0]
        truth["header"] = [dict(role=role, text=text, **({"logo": style["kind"]} if role == "logo" else {})) for role, text, style in parts]
    return b, truth


# --- rendering ------------------------------------------------------------------------------

def load_font(name, size, bold=False):
    path, mono, bold_path = FONTS[name]
    chosen = bold_path if bold and bold_path else path
    if not os.path.exists(chosen):
        sys.exit(f"font {chosen} is missing: apt-get install {FONT_PACKAGES}")
    return ImageFont.truetype(chosen, size)


def draw_logo(draw, line, width, margin, y, h, size):
    """A logo row: the brand's word in a display face or its initials in a drawn mark; `garbled`
    cuts the word with gaps and jitters its letters, as a worn print head or a low-dpi bitmap
    logo comes out. All its choices were made at build time (the line's `logo`)."""
    spec, text = line["logo"], line["cells"][0][2]
    lrng = random.Random(spec["seed"])
    f = ImageFont.truetype(spec["font"], max(12, int(size * spec["scale"])))
    while f.getlength(text) > width - 2 * margin and f.size > size:
        f = ImageFont.truetype(spec["font"], f.size - 4)
    tw = f.getlength(text)
    x0, top = (width - tw) / 2, y + (h - f.size * 1.15) / 2
    if spec["kind"] == "mark" and spec["shape"] != "none":
        pad = f.size * 0.35
        box = (x0 - pad, y + 2, x0 + tw + pad, y + h - 2)
        if spec["shape"] == "disc":
            draw.ellipse(box, outline=255, width=max(2, size // 8))
        elif spec["shape"] == "box":
            draw.rectangle(box, outline=255, width=max(2, size // 8))
        else:  # a roof over the initials
            draw.line((box[0], box[1] + h * 0.35, (box[0] + box[2]) / 2, box[1], box[2], box[1] + h * 0.35), fill=255, width=max(2, size // 6))
    if spec["kind"] == "garbled":
        x = x0
        for ch in text:
            draw.text((x + lrng.uniform(-2, 2), top + lrng.uniform(-f.size * 0.08, f.size * 0.08)), ch, font=f, fill=255)
            x += f.getlength(ch) * lrng.uniform(0.85, 1.05)
        for _ in range(lrng.randint(2, 5)):  # white gaps across the letters
            gy = top + lrng.uniform(0.1, 1.0) * f.size
            draw.rectangle((x0 - 4, gy, x0 + tw + 4, gy + lrng.uniform(1, 0.12 * f.size)), fill=0)
    else:
        draw.text((x0, top), text, font=f, fill=255)


def render_paper(builder, font_name, rng, paper):
    cols = builder.cols
    size = rng.randint(22, 30)
    regular = load_font(font_name, size)
    bold = load_font(font_name, size, bold=True)
    mono = FONTS[font_name][1]
    char_w = regular.getlength("0") if mono else regular.getlength("abcdefghij0123456789 ") / 21 * 1.02
    margin = int(rng.uniform(1.5, 3.5) * char_w)
    if not mono:  # widen the grid until every line's cells fit side by side with a gap
        for line in builder.lines:
            if line["style"] in ("big", "rule", "blank", "barcode", "logo"):
                continue
            f = bold if line["style"] == "bold" else regular
            need = sum(f.getlength(t) for _, _, t in line["cells"]) + char_w * (len(line["cells"]) - 1)
            char_w = max(char_w, need / cols)
    width = int(cols * char_w + 2 * margin)
    line_h = int(size * rng.uniform(1.22, 1.45))
    heights = [line_h * (2 if l["style"] == "big" else (3 if l["style"] == "barcode" else 1)) if l["style"] != "logo" else int(size * l["logo"]["scale"] * 1.3)
               for l in builder.lines]
    top = int(rng.uniform(1.5, 4) * line_h)
    height = top + sum(heights) + int(rng.uniform(2, 5) * line_h)
    ink = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(ink)
    y = top
    for line, h in zip(builder.lines, heights):
        style = line["style"]
        if style == "barcode":
            x = width * 0.2
            while x < width * 0.8:
                w = rng.choice([2, 2, 4, 6])
                draw.rectangle((x, y + 4, x + w - 1, y + h - 8), fill=255)
                x += w + rng.choice([2, 4, 6])
        elif style == "logo":
            draw_logo(draw, line, width, margin, y, h, size)
        elif style == "big":
            f = load_font(font_name, int(size * 1.7), bold=True)
            texts = [c[2] for c in line["cells"]]
            while f.getlength("  ".join(texts)) > width - 2 * margin and f.size > size:
                f = load_font(font_name, f.size - 2, bold=True)
            for _col, _align, text in line["cells"]:
                if _align == "c":
                    x = (width - f.getlength(text)) / 2
                elif _align == "r":
                    x = margin + _col * char_w - f.getlength(text)
                else:
                    x = margin + _col * char_w
                draw.text((x, y + h - f.size * 1.25), text, font=f, fill=255)
        else:
            f = bold if style == "bold" else regular
            placed_right = 0
            for col, align, text in line["cells"]:
                if style == "rule" and not mono:
                    text = text[0] * int((width - 2 * margin) / max(1, f.getlength(text[0])))
                if align == "c":
                    x = (width - f.getlength(text)) / 2
                elif align == "r":
                    x = margin + col * char_w - f.getlength(text)
                else:
                    x = margin + col * char_w
                x = max(x, placed_right + (char_w if placed_right else 0))
                draw.text((x, y + (h - size) / 2), text, font=f, fill=255)
                placed_right = x + f.getlength(text)
                if style != "rule" and placed_right > width - margin / 2:
                    OVERFLOWS.append((font_name, text))
        y += h
    # paper and ink
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    if paper == "thermal":
        base, ink_rgb = np.array([246, 245, 240]), np.array([rng.randint(30, 70), rng.randint(30, 70), rng.randint(45, 85)])
    elif paper == "white":
        base, ink_rgb = np.array([252, 252, 252]), np.array([15, 15, 18])
    elif paper == "textured":
        base, ink_rgb = np.array([236, 232, 222]), np.array([35, 35, 40])
    elif paper == "carbonless":  # the pink or yellow copy of a carbonless pad, blue-violet ink
        base = np.array(rng.choice([[246, 222, 226], [248, 240, 196]]))
        ink_rgb = np.array([rng.randint(40, 80), rng.randint(40, 70), rng.randint(110, 150)])
    else:
        base, ink_rgb = np.array([240, 230, 200]), np.array([60, 55, 60])
    canvas = np.ones((height, width, 3), np.float32) * base
    if paper == "textured":
        low = np.asarray(Image.fromarray(nrng.normal(128, 40, (height // 8 + 1, width // 8 + 1)).clip(0, 255).astype(np.uint8)).resize((width, height), Image.BICUBIC), np.float32)
        canvas += ((low - 128) / 128 * 7)[..., None] + nrng.normal(0, 4, (height, width, 1))
    else:
        canvas += nrng.normal(0, 1.5, (height, width, 1))
    alpha = np.asarray(ink, np.float32) / 255.0
    return canvas, alpha, ink_rgb, line_h


def fade(alpha, rng, strong):
    h, w = alpha.shape
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    low = np.asarray(Image.fromarray(nrng.uniform(0, 255, (h // 60 + 2, w // 60 + 2)).astype(np.uint8)).resize((w, h), Image.BICUBIC), np.float32) / 255
    floor = rng.uniform(0.35, 0.6) if strong else rng.uniform(0.7, 0.9)
    strength = floor + (1 - floor) * low
    if strong:  # a faded band across the receipt, as where a thermal roll was rubbed
        y0 = rng.uniform(0.2, 0.8) * h
        yy = np.arange(h, dtype=np.float32)[:, None]
        strength = strength * (1 - 0.35 * np.exp(-((yy - y0) / (0.12 * h)) ** 2))
    speckle = nrng.uniform(0, 1, alpha.shape) > (0.08 if strong else 0.02)
    return alpha * strength * speckle


def compose(canvas, alpha, ink_rgb):
    a = alpha[..., None]
    return canvas * (1 - a) + ink_rgb * a


def crumple(image, rng):
    """Fold lines (brightness steps along random lines) and a gentle mesh warp."""
    w, h = image.size
    array = np.asarray(image, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = np.ones((h, w), np.float32)
    for _ in range(rng.randint(2, 5)):
        if rng.random() < 0.6:  # horizontal-ish fold
            y0, slope = rng.uniform(0.1, 0.9) * h, rng.uniform(-0.1, 0.1)
            d = yy - (y0 + slope * xx)
        else:
            x0, slope = rng.uniform(0.2, 0.8) * w, rng.uniform(-0.05, 0.05)
            d = xx - (x0 + slope * yy)
        k = rng.uniform(0.08, 0.2)
        shade *= 1 - k * np.exp(-(d / rng.uniform(6, 30)) ** 2) + k * 0.5 * np.tanh(d / rng.uniform(20, 120))
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    low = np.asarray(Image.fromarray(nrng.uniform(0, 255, (8, 5)).astype(np.uint8)).resize((w, h), Image.BICUBIC), np.float32) / 255
    shade *= 0.93 + 0.1 * low
    array = array * shade[..., None]
    warped = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))
    gx, gy = 5, 10
    mesh = []
    jitter = {}
    amp = rng.uniform(2, 6)
    for j in range(gy + 1):
        for i in range(gx + 1):
            edge = i in (0, gx) or j in (0, gy)
            jitter[i, j] = (0, 0) if edge else (rng.uniform(-amp, amp), rng.uniform(-amp, amp))
    for j in range(gy):
        for i in range(gx):
            box = (int(i * w / gx), int(j * h / gy), int((i + 1) * w / gx), int((j + 1) * h / gy))
            corners = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
            quad = []
            for ci, cj in corners:
                dx, dy = jitter[ci, cj]
                quad += [ci * w / gx + dx, cj * h / gy + dy]
            mesh.append((box, quad))
    return warped.transform((w, h), Image.MESH, mesh, Image.BICUBIC, fillcolor=(0, 0, 0))


def homography(src, dst):
    rows = []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=np.float64))
    return (vt[-1] / vt[-1, -1]).reshape(3, 3)


def background(kind, size, rng):
    w, h = size
    nrng = np.random.default_rng(rng.randint(0, 2**31))
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin((y + 30 * np.sin(x / 170.0)) / 9.0) * 0.5 + 0.5
        t = np.clip(grain * 0.6 + nrng.normal(0, 0.08, (h, w)), 0, 1)[..., None]
        image = np.array([150, 98, 58]) * (1 - t) + np.array([196, 142, 92]) * t
    elif kind == "fabric":
        y, x = np.mgrid[0:h, 0:w]
        weave = ((x // 6 + y // 6) % 2).astype(np.float32)
        t = np.clip(weave * 0.5 + nrng.normal(0, 0.1, (h, w)) + 0.25, 0, 1)[..., None]
        image = np.array([62, 74, 110]) * (1 - t) + np.array([92, 104, 140]) * t
    elif kind == "marble":
        low = np.asarray(Image.fromarray(nrng.uniform(0, 255, (h // 50 + 2, w // 50 + 2)).astype(np.uint8)).resize((w, h), Image.BICUBIC), np.float32)
        image = np.full((h, w, 3), 200, np.float32) + ((low - 128) / 4)[..., None]
    else:  # dark desk
        image = np.full((h, w, 3), 46, np.float32) + nrng.normal(0, 5, (h, w, 1))
    return Image.fromarray(np.clip(image, 0, 255).astype(np.uint8))


def capture(paper_img, rng, kind):
    w, h = paper_img.size
    if kind.startswith("scan"):
        pad = int(rng.uniform(0.03, 0.12) * w)
        bed = rng.choice([(255, 255, 255), (250, 250, 248), (235, 235, 235)])
        canvas = Image.new("RGB", (w + 2 * pad, h + 2 * pad), bed)
        canvas.paste(paper_img, (pad, pad))
        image = canvas.rotate(rng.uniform(-2.0, 2.0), resample=Image.BICUBIC, fillcolor=bed)
        if rng.random() < 0.3:  # the scanner lid's dark border on one side
            a = np.asarray(image, np.float32)
            side = int(rng.uniform(0.01, 0.03) * a.shape[1])
            a[:, :side] *= 0.25
            image = Image.fromarray(a.astype(np.uint8))
        array = np.asarray(image, np.float32) + np.random.default_rng(rng.randint(0, 2**31)).normal(0, 2, (image.size[1], image.size[0], 1))
        image = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))
        blur = rng.choice([0, 0, 0.5, 0.8])
    else:
        ch = int(h * rng.uniform(1.08, 1.25))
        cw = int(max(w * rng.uniform(1.3, 1.8), ch * 0.55))
        canvas = background(rng.choice(["wood", "dark", "fabric", "marble"]), (cw, ch), rng)
        cx, cy = cw / 2 + rng.uniform(-0.1, 0.1) * (cw - w), ch / 2
        steep = kind == "photo_steep"  # held low and at an angle: strong keystone and rotation
        tilt = rng.uniform(0.1, 0.22) if steep else rng.uniform(0, 0.08)
        side = rng.choice([-1, 1])
        top_w, bot_w = w * (1 - tilt * (side > 0)), w * (1 - tilt * (side < 0))
        quad = [(cx - top_w / 2, cy - h / 2), (cx + top_w / 2, cy - h / 2), (cx + bot_w / 2, cy + h / 2), (cx - bot_w / 2, cy + h / 2)]
        angle = math.radians(rng.uniform(-9, 9) if steep else rng.uniform(-4, 4))
        quad = [(cx + (x - cx) * math.cos(angle) - (y - cy) * math.sin(angle) + rng.uniform(-8, 8),
                 cy + (x - cx) * math.sin(angle) + (y - cy) * math.cos(angle) + rng.uniform(-8, 8)) for x, y in quad]
        inverse = homography(quad, [(0, 0), (w, 0), (w, h), (0, h)])
        coeffs = inverse.flatten()[:8]
        warped = paper_img.transform(canvas.size, Image.PERSPECTIVE, coeffs, Image.BICUBIC)
        mask = Image.new("L", paper_img.size, 255).transform(canvas.size, Image.PERSPECTIVE, coeffs, Image.BICUBIC)
        canvas.paste(warped, (0, 0), mask)
        a = np.asarray(canvas, np.float32)
        hh, ww = a.shape[:2]
        gx = np.linspace(rng.uniform(0.78, 1.0), rng.uniform(0.95, 1.1), ww, dtype=np.float32)[None, :, None]
        gy = np.linspace(rng.uniform(0.85, 1.05), rng.uniform(0.85, 1.05), hh, dtype=np.float32)[:, None, None]
        a = a * gx * gy
        if rng.random() < 0.35:  # a soft shadow of the phone across a corner
            yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
            d = (xx / ww) * rng.uniform(-1, 1) + (yy / hh) * rng.uniform(0.5, 1) - rng.uniform(0.8, 1.2)
            a = a * (1 - 0.3 / (1 + np.exp(-d * 25)))[..., None]
        a = a + np.random.default_rng(rng.randint(0, 2**31)).normal(0, rng.uniform(2, 5), a.shape)
        image = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
        longest = max(image.size)
        target = rng.randint(1600, 2600)
        if longest > target:
            s = target / longest
            image = image.resize((int(image.size[0] * s), int(image.size[1] * s)), Image.LANCZOS)
        blur = rng.choice([0, 0.6, 0.9, 1.2])
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    return image, blur


def wide_page(image, paper_w, rng):
    """The scan of the whole A4 glass with the receipt somewhere on it (the German scans' kind):
    a receipt 57-80 mm wide on a 210 mm page, often against a corner, the rest the lid's white
    or grey; a receipt longer than the page makes the page longer (a legal-size bed)."""
    w, h = image.size
    page_w = int(paper_w * 210 / rng.uniform(57, 80))
    page_h = max(int(page_w * 1.414), h + int(0.02 * page_w))
    page_w = max(page_w, w + 4)
    shade = rng.choice([(255, 255, 255), (248, 248, 246), (232, 232, 230), (214, 214, 212)])
    page = Image.new("RGB", (page_w, page_h), shade)
    if rng.random() < 0.5:  # against the glass's corner, as a receipt is usually laid
        x = rng.randint(0, int(0.04 * page_w))
        y = rng.randint(0, int(0.04 * page_w))
        if rng.random() < 0.5:
            x = page_w - w - x
    else:
        x, y = rng.randint(0, page_w - w), rng.randint(0, page_h - h)
    y = min(y, page_h - h)
    page.paste(image, (x, y))
    array = np.asarray(page, np.float32) + np.random.default_rng(rng.randint(0, 2**31)).normal(0, 1.5, (page_h, page_w, 1))
    page = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))
    return page, {"size": [page_w, page_h], "receipt_box": [x, y, x + w, y + h]}


def render_one(job):
    out, seed, split, index, families, fonts, options = job
    rng = random.Random(f"{seed}:{split}:{index}")
    family = rng.choice(families)
    font_name = rng.choice(fonts)
    lang = rng.choice(list(LANGS))
    lang = options.get("lang") or lang
    paper = rng.choice(PAPERS)
    kind = rng.choice(CAPTURES)
    # the new options draw from their own generators, so the main one's sequence (and every
    # render without them) stays as it was
    wide = options.get("wide", 0) and random.Random(f"{seed}:{split}:{index}:wide")
    if wide and wide.random() < options["wide"]:
        kind = wide.choice(["scan", "scan_faded"])
    else:
        wide = None
    if "faded" in kind:
        paper = "thermal"
    header = None
    if options.get("headers"):
        hrng = random.Random(f"{seed}:{split}:{index}:headers")
        header = (hrng.choice(options["headers"]), hrng)
    builder, truth = build(rng, family, lang, header)
    canvas, alpha, ink_rgb, line_h = render_paper(builder, font_name, rng, paper)
    alpha = fade(alpha, rng, strong="faded" in kind) if paper == "thermal" else alpha
    paper_img = Image.fromarray(np.clip(compose(canvas, alpha, ink_rgb), 0, 255).astype(np.uint8))
    if "crumpled" in kind:
        paper_img = crumple(paper_img, rng)
    image, blur = capture(paper_img, rng, kind)
    if wide:
        image, page = wide_page(image, paper_img.size[0], wide)
    quality = rng.choice([60, 75, 85, 92]) if kind.startswith("photo") else rng.choice([80, 90, 95])
    stem = f"rcpt-{split}-{seed}-{index:05d}"
    image.save(os.path.join(out, stem + ".jpg"), "JPEG", quality=quality)
    lines = [Builder.text_of(l, builder.cols) if l["style"] not in ("blank", "barcode") else "" for l in builder.lines]
    truth.update({"layout_family": family, "font": font_name, "monospace": FONTS[font_name][1], "language": lang, "paper": paper,
                  "capture": kind, "blur": blur, "jpeg_quality": quality, "split": split, "seed": seed, "index": index, "lines": lines})
    if wide:
        truth["wide_page"] = page
    with open(os.path.join(out, stem + ".json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    return stem


def selfcheck(n):
    """Truth against the printed text for n receipts of every family: items add up to the subtotal,
    the total follows from subtotal, savings, tax and rounding, and every item amount, every item
    description and the total are printed. Returns the number of failures."""
    failures = 0

    def c(text):
        return int(round(float(text) * 100)) if text else 0

    for i in range(n):
        rng = random.Random(f"selfcheck:{i}")
        family = list(FAMILIES)[i % len(FAMILIES)]
        builder, t = build(rng, family, rng.choice(list(LANGS)))
        text = "\n".join(Builder.text_of(line, builder.cols) for line in builder.lines)
        digits = text.replace(".", "").replace(",", "")
        subtotal = sum(c(x["amount"]) for x in t["items"])
        expect = subtotal - c(t["savings"]) + (0 if t["tax_included"] else c(t["tax"]) + c(t["rounding"]))
        problems = []
        if subtotal != c(t["subtotal"]) or expect != c(t["total"]):
            problems.append("totals do not add up")
        for x in t["items"]:
            if x["amount"].replace(".", "") not in digits:
                problems.append(f"amount {x['amount']} not printed")
            printed = all(w in text for w in x["description"].split()) if family in ("wrapped", "sku_multiline", "long_names", "cut_names") else x["description"] in text
            if not printed:  # wrapped descriptions: every word printed
                problems.append(f"description {x['description']!r} not printed")
        if t["total"].replace(".", "") not in digits:
            problems.append("total not printed")
        if problems:
            failures += 1
            print(f"selfcheck {i} ({family}): " + "; ".join(problems), file=sys.stderr)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--split", choices=["train", "heldout"], default="train")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first index (to extend a set without re-rendering it)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--families", help="train split only: draw from these train families (comma-separated)")
    parser.add_argument("--headers", choices=["plain", "varied"], default="plain",
                        help="varied: the header families of HEADER_FAMILIES (logo, legal entity, branch, title, greeting, cashier around the name)")
    parser.add_argument("--lang", choices=list(LANGS), help="render only this language")
    parser.add_argument("--wide", type=float, default=0.0, metavar="P",
                        help="this share of receipts scanned flat on the whole A4 glass (a wide page with margins)")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--selfcheck", type=int, metavar="N", help="check truth against the printed text of N receipts and exit")
    args = parser.parse_args()
    if args.selfcheck:
        failures = selfcheck(args.selfcheck)
        print(f"selfcheck: {args.selfcheck - failures} passed, {failures} failed")
        return 1 if failures else 0
    splits = load_splits()
    heldout_families, heldout_fonts = splits["heldout"]["families"], splits["heldout"]["fonts"]
    heldout_headers = splits["heldout"]["header_families"]
    if args.list:
        for name, what in FAMILIES.items():
            print(f"family {name:15s} {'HELD OUT ' if name in heldout_families else ''}{what}")
        for name, (path, mono, _) in FONTS.items():
            print(f"font   {name:20s} {'HELD OUT ' if name in heldout_fonts else ''}{'mono' if mono else 'proportional'} {path}")
        for name, what in HEADER_FAMILIES.items():
            print(f"header {name:15s} {'HELD OUT ' if name in heldout_headers else ''}{what}")
        print("languages", " ".join(LANGS), "| papers", " ".join(PAPERS), "| captures", " ".join(CAPTURES))
        return 0
    if not args.out:
        parser.error("--out is required")
    unknown = (set(heldout_families) - set(FAMILIES)) | (set(heldout_fonts) - set(FONTS)) | (set(heldout_headers) - set(HEADER_FAMILIES))
    if unknown:
        sys.exit(f"splits.json names unknown families or fonts: {sorted(unknown)}")
    if args.split == "train":
        families = [f for f in FAMILIES if f not in heldout_families]
        fonts = [f for f in FONTS if f not in heldout_fonts]
        if args.families:
            chosen = args.families.split(",")
            if set(chosen) - set(families):
                sys.exit(f"train families only: {sorted(set(chosen) - set(families))}")
            families = chosen
    elif args.families:
        sys.exit("--families picks among train families only")
    else:
        families, fonts = list(heldout_families), list(heldout_fonts)
    headers = [h for h in HEADER_FAMILIES if (h in heldout_headers) == (args.split == "heldout")] if args.headers == "varied" else None
    options = {"lang": args.lang, "headers": headers, "wide": args.wide}
    os.makedirs(args.out, exist_ok=True)
    jobs = [(args.out, args.seed, args.split, i, families, fonts, options) for i in range(args.start, args.start + args.count)]
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(args.jobs) as pool:
            for _ in pool.imap_unordered(render_one, jobs):
                pass
    else:
        for job in jobs:
            render_one(job)
    print(f"rendered {args.count} {args.split} receipts into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
