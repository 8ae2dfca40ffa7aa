import Foundation
import SnapsortImaging
import SnapsortStages

/// Card evidence simulated from catalog entries, for training and testing the classifier where
/// no labelled photos exist.
///
/// It imitates what the palette, barcode and OCR stages report on real cards, with the failure
/// modes measured in NOTES.md: OCR reads the brand exactly on well under half of the cards, drops
/// diacritics, confuses look-alike glyphs, adds junk tokens from logos and barcodes, or misses the
/// brand line entirely; palettes are shifted by lighting and mixed with a white or grey background;
/// barcodes are often absent. The numbers below are guesses at those rates, not measurements.
public struct SyntheticCards: Sendable {
  public var missNameRate = 0.15
  public var charErrorRate = 0.06
  public var dropDiacriticsRate = 0.6
  public var noColoursRate = 0.05
  public var noBarcodeRate = 0.4

  public init() {}

  /// How the `source` of every simulated card begins.
  public static let sourcePrefix = "synthetic/"

  static let boilerplate = [
    "member since", "card number", "valid thru", "points", "loyalty card", "club card", "karta",
    "kundenkarte", "carte de fidélité", "tarjeta", "carta fedeltà", "klantenkaart", "kundkort",
    "картка", "www", "app", "scan me", "gold", "premium", "bonus", "service", "customer",
    "not transferable", "terms apply", "mitglied", "socio", "membre",
  ]
  static let people = [
    "anna kowalska", "jan nowak", "max mustermann", "marie dubois", "maria garcia", "mario rossi",
    "jan de vries", "erik andersson", "olena shevchenko", "john smith", "emily johnson",
  ]
  static let syllables = [
    "ka", "lo", "mi", "ver", "tan", "dra", "mo", "shi", "rel", "qua", "bor", "nix", "zen", "pa", "lu",
    "fen", "gro", "tri", "vol", "sa", "ber", "kor", "mel", "dun", "ra", "sto", "vix", "el", "ion", "ar",
  ]
  static let suffixes = ["", "", " market", " store", " club", " mart", " bank", " pharma", " shop", " plus"]

  /// One simulated card of `issuer`.
  public func card(of issuer: Issuer, rng: inout SeededGenerator) -> CardEvidence {
    var lines: [String] = []
    let phrases = [issuer.name] + issuer.aliases
    var shown =
      Double.random(in: 0..<1, using: &rng) < 0.65 ? issuer.name : phrases.randomElement(using: &rng)!
    // An English OCR model prints Cyrillic as Latin look-alikes (measured on rendered cards).
    if let lookalike = IssuerText.latinLookalike(shown), Double.random(in: 0..<1, using: &rng) < 0.8 {
      shown = lookalike
    }
    var name: String? = nil
    if Double.random(in: 0..<1, using: &rng) >= missNameRate {
      let read = corrupt(shown, rng: &rng)
      lines.append(read)
      name = read
    }
    if let program = issuer.program, Double.random(in: 0..<1, using: &rng) < 0.35 {
      lines.append(corrupt(program, rng: &rng))
    }
    for _ in 0..<Int.random(in: 0...3, using: &rng) {
      lines.append(corrupt(Self.boilerplate.randomElement(using: &rng)!, rng: &rng))
    }
    if Double.random(in: 0..<1, using: &rng) < 0.3 {
      lines.append(Self.people.randomElement(using: &rng)!.uppercased())
    }
    if Double.random(in: 0..<1, using: &rng) < 0.5 {
      lines.append(
        String(
          (0..<Int.random(in: 8...16, using: &rng)).map { _ in "0123456789".randomElement(using: &rng)! }))
    }
    if Double.random(in: 0..<1, using: &rng) < 0.2 { lines.append(junk(rng: &rng)) }
    lines.shuffle(using: &rng)
    var names: [String] = []
    if let name, Double.random(in: 0..<1, using: &rng) < 0.7 {
      names.append(name)
    } else if let first = lines.first {
      names.append(first)
    }
    return CardEvidence(
      lines: lines, names: names, colours: colours(issuer.colors, rng: &rng), codes: codes(issuer, rng: &rng))
  }

  /// An invented issuer (name, colours) that is in no catalog: the "unknown" cards.
  public func inventedIssuer(rng: inout SeededGenerator, index: Int) -> Issuer {
    var name = ""
    for _ in 0..<Int.random(in: 2...3, using: &rng) { name += Self.syllables.randomElement(using: &rng)! }
    name = name.prefix(1).uppercased() + name.dropFirst() + Self.suffixes.randomElement(using: &rng)!
    let colours = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
      String(format: "#%06x", Int.random(in: 0..<0x100_0000, using: &rng))
    }
    return Issuer(id: "invented-\(index)", name: name, colors: colours + ["#ffffff"])
  }

  /// OCR-like damage: lost diacritics, look-alike glyph swaps, dropped or doubled letters, case.
  public func corrupt(_ text: String, rng: inout SeededGenerator) -> String {
    var source = text
    if Double.random(in: 0..<1, using: &rng) < dropDiacriticsRate {
      source = String(
        String.UnicodeScalarView(
          source.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            $0.properties.generalCategory != .nonspacingMark
          }))
    }
    let swaps: [Character: [Character]] = [
      "o": ["0", "c"], "O": ["0", "Q", "D"], "l": ["1", "I", "|"], "i": ["l", "1", "í"], "I": ["l", "1"],
      "e": ["c", "é"], "a": ["o", "e"], "s": ["5"], "S": ["5", "$"], "B": ["8"], "n": ["m", "r"],
      "m": ["n"], "u": ["v"], "c": ["e", "("], "r": ["n"], "t": ["f"], "h": ["b"],
    ]
    var out = ""
    for character in source {
      let roll = Double.random(in: 0..<1, using: &rng)
      if roll < charErrorRate * 0.5, let options = swaps[character] {
        out += String(options.randomElement(using: &rng)!)
      } else if roll < charErrorRate * 0.75 {
        continue
      } else if roll < charErrorRate * 0.85, character != " " {
        out.append(character)
        out.append(character)
      } else if roll < charErrorRate, character == " " {
        continue
      } else {
        out.append(character)
      }
    }
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: out = out.uppercased()
    case 1: out = out.lowercased()
    default: break
    }
    if Double.random(in: 0..<1, using: &rng) < 0.15 {
      out += " " + ["{3", "@", "Ill", "~", "®"].randomElement(using: &rng)!
    }
    return out
  }

  func junk(rng: inout SeededGenerator) -> String {
    let pool = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ|/\\-_=~%#")
    return String((0..<Int.random(in: 2...6, using: &rng)).map { _ in pool.randomElement(using: &rng)! })
  }

  /// A palette as the palette stage reports it: brand colours shifted by lighting and camera,
  /// a background, shares that sum to 1.
  func colours(_ brand: [String], rng: inout SeededGenerator) -> [CardEvidence.Colour] {
    if Double.random(in: 0..<1, using: &rng) < noColoursRate { return [] }
    let labs = brand.compactMap(CIELAB.lab(hex:))
    let lightShift = Double.random(in: -12...8, using: &rng)
    let chromaScale = Double.random(in: 0.75...1.1, using: &rng)
    var picked: [CIELAB.Lab] = labs.shuffled(using: &rng).prefix(
      Int.random(in: 1...max(1, min(3, labs.count)), using: &rng)
    ).map {
      CIELAB.Lab(
        l: min(100, max(0, $0.l + lightShift + Double.random(in: -5...5, using: &rng))),
        a: $0.a * chromaScale + Double.random(in: -5...5, using: &rng),
        b: $0.b * chromaScale + Double.random(in: -5...5, using: &rng))
    }
    if Double.random(in: 0..<1, using: &rng) < 0.6 {
      let grey = Double.random(in: 80...97, using: &rng)
      picked.append(
        CIELAB.Lab(
          l: grey, a: Double.random(in: -2...2, using: &rng), b: Double.random(in: -3...3, using: &rng)))
    }
    if Double.random(in: 0..<1, using: &rng) < 0.3 {
      picked.append(CIELAB.Lab(l: Double.random(in: 5...25, using: &rng), a: 0, b: 0))
    }
    var shares = picked.map { _ in Double.random(in: 0.1...1, using: &rng) }
    let total = shares.reduce(0, +)
    shares = shares.map { $0 / total }
    return zip(picked, shares).map {
      CardEvidence.Colour(lab: CIELAB.lab(hex: CIELAB.hex($0)) ?? $0, share: $1)
    }
  }

  func codes(_ issuer: Issuer, rng: inout SeededGenerator) -> [CardEvidence.Code] {
    if Double.random(in: 0..<1, using: &rng) < noBarcodeRate { return [] }
    func digits(_ count: Int) -> String {
      String((0..<max(0, count)).map { _ in "0123456789".randomElement(using: &rng)! })
    }
    if let pattern = issuer.barcodes.randomElement(using: &rng), Double.random(in: 0..<1, using: &rng) < 0.9 {
      let prefix = pattern.prefix ?? ""
      let length = pattern.length ?? (prefix.count + Int.random(in: 6...12, using: &rng))
      return [CardEvidence.Code(symbology: pattern.symbology, value: prefix + digits(length - prefix.count))]
    }
    let symbology = ["ean13", "code128", "qr", "code39", "i25"].randomElement(using: &rng)!
    let length = symbology == "ean13" ? 13 : Int.random(in: 8...19, using: &rng)
    return [CardEvidence.Code(symbology: symbology, value: digits(length))]
  }

  /// `perIssuer` cards of every catalog issuer plus `unknown` cards of invented issuers.
  public func dataset(catalog: IssuerCatalog, perIssuer: Int, unknown: Int, seed: UInt64) -> [LabelledCard] {
    var rng = SeededGenerator(seed: seed)
    var cards: [LabelledCard] = []
    for issuer in catalog.issuers {
      for k in 0..<perIssuer {
        cards.append(
          LabelledCard(
            evidence: card(of: issuer, rng: &rng), label: issuer.id,
            source: "\(Self.sourcePrefix)\(issuer.id)/\(seed)-\(k)"))
      }
    }
    for k in 0..<unknown {
      let invented = inventedIssuer(rng: &rng, index: k)
      cards.append(
        LabelledCard(
          evidence: card(of: invented, rng: &rng), label: nil,
          source: "\(Self.sourcePrefix)unknown/\(seed)-\(k)"))
    }
    return cards
  }
}
