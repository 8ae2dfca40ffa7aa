import Foundation
import SnapsortImaging

/// An issuer prepared for scoring: phrases and colours parsed once.
public struct PreparedIssuer: Sendable {
  public let issuer: Issuer
  let phrases: [IssuerPhrase]
  let program: IssuerPhrase?
  let chromatic: [CIELAB.Lab]
  let neutral: [CIELAB.Lab]

  public init(_ issuer: Issuer) {
    self.issuer = issuer
    var seen = Set<String>()
    var phrases: [IssuerPhrase] = []
    // Cyrillic names also as the Latin look-alikes an English OCR model reads them as.
    let texts = [issuer.name] + issuer.aliases
    let lookalikes =
      texts.compactMap(IssuerText.latinLookalike) + texts.compactMap(IssuerText.latinLookalikeAlternative)
    for text in texts + lookalikes {
      let phrase = IssuerPhrase(text)
      guard !phrase.text.isEmpty, seen.insert(phrase.text).inserted else { continue }
      phrases.append(phrase)
    }
    self.phrases = phrases
    if let program = issuer.program.map({ IssuerPhrase(IssuerText.withoutCardVocabulary($0)) }),
      !program.text.isEmpty, !seen.contains(program.text)
    {
      self.program = program
    } else {
      self.program = nil
    }
    let colours = issuer.colors.compactMap(CIELAB.lab(hex:))
    chromatic = colours.filter { $0.chroma >= Self.neutralChroma }
    neutral = colours.filter { $0.chroma < Self.neutralChroma }
  }

  /// Below this CIELAB chroma a brand colour is white, black or grey, which most cards show.
  static let neutralChroma = 15.0
}

/// The feature vector of one (card, candidate issuer) pair.
///
/// Every feature is computed the same way for any issuer, so a model over these features scores
/// issuers it never saw in training, and the catalog can grow without retraining. The one that
/// is not about the catalog entry, `labelled`, is about the user: a model trained on a person's
/// labelled folder knows which issuers that person's cards are of, and a card whose name OCR did
/// not read is more likely one of those than any of the other issuers of its colour. It is the
/// last name, so a model trained before it reads with weight 0 on it (`IssuerModel.load`).
public enum IssuerFeatures {
  public static let names = [
    "text_best",  // best trigram Dice of a name or alias with a window of the OCR text
    "text_best_pow4",  // the same, sharpened: near-exact matches stand out
    "text_exact",  // a window equals a name or alias (after folding)
    "text_exact_short",  // …and that alias has at most 3 characters (easily matched by chance)
    "name_best",  // best Dice against the suggested card name and its alternatives
    "program_best",  // best Dice of the programme name
    "colour_chromatic",  // Σ share × similarity of card colours to chromatic brand colours
    "brand_coverage",  // mean over chromatic brand colours of their best match on the card
    "colour_neutral",  // Σ share × similarity to the brand's white/black/grey colours
    "barcode_symbology",  // a card barcode has a symbology the issuer is known to use
    "barcode_pattern",  // a card barcode matches a known length and prefix
    "barcode_mismatch",  // the issuer's patterns are known and no card barcode fits them
    "text_x_colour",  // text_best × colour_chromatic
    "bigram_best",  // best bigram Dice of a name or alias (forgives more on short words)
    "text_margin",  // text_best minus the best text_best of any other candidate (negative if beaten)
    "text_top",  // this candidate has the highest text_best of all (and it is over 0.5)
    "labelled",  // the model was trained on labelled cards of this issuer (the user's own issuers)
  ]
  public static var count: Int { names.count }

  /// Features of the card itself, for the "none of these" alternative.
  public static let nullNames = ["bias", "has_text", "has_barcode", "has_colours", "max_text"]

  /// Colour similarity: exp(−ΔE² / 2σ²) with σ = 14, about a just-noticeable difference in print
  /// and camera lighting combined.
  static func similarity(_ deltaE: Double) -> Double {
    let sigma = 14.0
    return exp(-(deltaE * deltaE) / (2 * sigma * sigma))
  }

  /// The "none of these" alternative's features; `rows` are the card's candidate rows.
  public static func nullVector(_ card: CardEvidence, rows: [[Double]]) -> [Double] {
    let maxText = rows.map { $0[0] }.max() ?? 0
    return [1, card.hasText ? 1 : 0, card.hasCodes ? 1 : 0, card.hasColours ? 1 : 0, maxText]
  }

  /// Feature rows of one card against every candidate: the per-pair features, then those that
  /// compare a candidate's text match with the other candidates', then whether the candidate is
  /// one of the model's labelled issuers (`labelled`, one flag per candidate; none when empty).
  public static func rows(
    _ card: CardEvidence, _ candidates: [PreparedIssuer], labelled: [Bool] = []
  ) -> [[Double]] {
    withRelative(candidates.map { pairVector(card, $0) }, labelled: labelled)
  }

  /// Appends the features that compare each candidate's text match with the others', and the
  /// labelled flag; `rows` hold the pair features of exactly the candidates in play, `labelled`
  /// their flags (or nothing: no candidate is labelled).
  package static func withRelative(_ pairRows: [[Double]], labelled: [Bool] = []) -> [[Double]] {
    var rows = pairRows
    var best = -1.0
    var second = -1.0
    var bestIndex = -1
    for (index, row) in rows.enumerated() {
      if row[0] > best {
        second = best
        best = row[0]
        bestIndex = index
      } else if row[0] > second {
        second = row[0]
      }
    }
    for index in rows.indices {
      let other = index == bestIndex ? max(second, 0) : max(best, 0)
      rows[index].append(rows[index][0] - other)
      rows[index].append(index == bestIndex && best > 0.5 && best > second ? 1 : 0)
      rows[index].append(index < labelled.count && labelled[index] ? 1 : 0)
    }
    return rows
  }

  /// The features that depend on the card and one candidate only.
  package static func pairVector(_ card: CardEvidence, _ issuer: PreparedIssuer) -> [Double] {
    let text = textFeatures(card, issuer)
    let programBest = issuer.program.map { card.hasText ? card.textWindows.match($0).score : 0 } ?? 0
    let colour = colourFeatures(card, issuer)
    let codes = barcodeFeatures(card, issuer)
    return [
      text.best, pow(text.best, 4), text.exact ? 1 : 0, text.exactShort ? 1 : 0, text.nameBest, programBest,
      colour.chromatic, colour.coverage, colour.neutral, codes.symbology, codes.pattern, codes.mismatch,
      text.best * colour.chromatic, text.bigramBest,
    ]
  }

  /// How well the card's text, and its name lines, match the issuer's names and aliases.
  static func textFeatures(
    _ card: CardEvidence, _ issuer: PreparedIssuer
  ) -> (best: Double, bigramBest: Double, exact: Bool, exactShort: Bool, nameBest: Double) {
    var textBest = 0.0
    var bigramBest = 0.0
    var exact = false
    var exactShort = false
    var nameBest = 0.0
    guard card.hasText else { return (textBest, bigramBest, exact, exactShort, nameBest) }
    for phrase in issuer.phrases {
      let match = card.textWindows.match(phrase)
      // Short names need a near-exact match: two shared trigrams of a 2-letter word mean little.
      let lengthFactor = min(1, Double(phrase.text.count + 2) / 7)
      textBest = max(textBest, match.score * lengthFactor)
      bigramBest = max(bigramBest, match.bigram * lengthFactor)
      if match.exact {
        exact = true
        if phrase.text.count <= 3 { exactShort = true }
      }
      if !card.nameWindows.isEmpty {
        nameBest = max(nameBest, card.nameWindows.match(phrase).score * lengthFactor)
      }
    }
    return (textBest, bigramBest, exact, exactShort, nameBest)
  }

  /// How much of the card is in the issuer's chromatic and neutral colours, and how many of the
  /// issuer's chromatic colours the card shows.
  static func colourFeatures(
    _ card: CardEvidence, _ issuer: PreparedIssuer
  ) -> (chromatic: Double, neutral: Double, coverage: Double) {
    var chromatic = 0.0
    var neutral = 0.0
    var coverage = 0.0
    guard card.hasColours else { return (chromatic, neutral, coverage) }
    let total = card.colours.reduce(0) { $0 + $1.share }
    for colour in card.colours {
      let share = colour.share / max(total, 1e-9)
      if let best = issuer.chromatic.map({ CIELAB.distance($0, colour.lab) }).min() {
        chromatic += share * similarity(best)
      }
      if let best = issuer.neutral.map({ CIELAB.distance($0, colour.lab) }).min() {
        neutral += share * similarity(best)
      }
    }
    if !issuer.chromatic.isEmpty {
      for brand in issuer.chromatic {
        let best = card.colours.filter { $0.share >= 0.03 }.map { CIELAB.distance($0.lab, brand) }
          .min()
        coverage += best.map(similarity) ?? 0
      }
      coverage /= Double(issuer.chromatic.count)
    }
    return (chromatic, neutral, coverage)
  }

  /// Whether the card's codes are of a symbology the issuer uses, fit one of its patterns, or
  /// neither.
  static func barcodeFeatures(
    _ card: CardEvidence, _ issuer: PreparedIssuer
  ) -> (symbology: Double, pattern: Double, mismatch: Double) {
    var symbology = 0.0
    var pattern = 0.0
    var mismatch = 0.0
    let patterns = issuer.issuer.barcodes
    let known = Set(issuer.issuer.symbologies + patterns.map(\.symbology))
    guard card.hasCodes && !known.isEmpty else { return (symbology, pattern, mismatch) }
    if card.codes.contains(where: { known.contains($0.symbology) }) { symbology = 1 }
    let fits = card.codes.contains { code in
      patterns.contains { p in
        p.symbology == code.symbology && (p.length.map { $0 == code.value.count } ?? true)
          && (p.prefix.map { code.value.hasPrefix($0) } ?? true)
          && (p.length != nil || p.prefix != nil)
      }
    }
    if fits { pattern = 1 }
    if symbology == 0 && pattern == 0 { mismatch = 1 }
    return (symbology, pattern, mismatch)
  }
}
