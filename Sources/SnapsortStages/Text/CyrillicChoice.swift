import Foundation

/// Whether a name line's reading by the Cyrillic packs (`cyrillic_languages`) replaces its
/// `name_languages` reading: a logistic regression over both readings' confidences and letters,
/// fitted by `bench/names/fit_names.py` on the generator's training cards, where the label is
/// which of the two readings is nearer the printed name. A Latin name read with `rus` still comes
/// out in Cyrillic letters, often with more confidence than the dictionary-free Latin reading, so
/// the confidences alone do not decide it.
public struct CyrillicChoice: Codable, Sendable, Equatable, StandardisedLogistic {
  /// Feature names this build computes, in a model file's terms.
  public static let featureNames = [
    "cyrillic_confidence", "latin_confidence", "confidence_margin", "page_confidence", "cyrillic_share",
    "cyrillic_letters", "latin_letters", "latin_diacritics",
  ]

  public var features: [String]
  public var mean: [Double]
  public var scale: [Double]
  public var weights: [Double]
  public var bias: Double
  /// The probability from which the Cyrillic reading is taken.
  public var threshold: Double
  /// Readings' measurements with the probability the fitting script gave them, for a test.
  public var examples: [NameModel.Example]?

  /// The measurements of a line read with a Cyrillic pack (`cyrillic`) and with the Latin model
  /// (`latin`, nil when that reading failed), whose page reading had `pageConfidence` (0–1).
  static func measurements(
    cyrillic: CardNameReader.LineReading, latin: CardNameReader.LineReading?, pageConfidence: Double
  )
    -> [String: Double]
  {
    let cyrillicLetters = cyrillic.text.unicodeScalars.filter { $0.properties.isAlphabetic }
    let inCyrillic = cyrillicLetters.filter { (0x400...0x4FF).contains($0.value) }.count
    return measurements(
      cyrillicConfidence: cyrillic.confidence, letters: cyrillicLetters.count,
      share: Double(inCyrillic) / Double(max(1, cyrillicLetters.count)), latin: latin,
      pageConfidence: pageConfidence)
  }

  /// The measurements of a Cyrillic reading given by its confidence (0–100), letters and share of
  /// them in Cyrillic.
  private static func measurements(
    cyrillicConfidence: Double, letters: Int, share: Double, latin: CardNameReader.LineReading?,
    pageConfidence: Double
  ) -> [String: Double] {
    let latinText = latin?.text ?? ""
    let latinLetters = latinText.filter(\.isLetter)
    return [
      "cyrillic_confidence": cyrillicConfidence / 100,
      "latin_confidence": (latin?.confidence ?? 0) / 100,
      "confidence_margin": (cyrillicConfidence - (latin?.confidence ?? 0)) / 100,
      "page_confidence": pageConfidence,
      "cyrillic_share": share,
      "cyrillic_letters": log1p(Double(letters)),
      "latin_letters": log1p(Double(latinLetters.count)),
      "latin_diacritics": CardNameReconciler.hasDiacritics(latinText) ? 1 : 0,
    ]
  }

  /// Whether any reading of at most `letters` letters by the Cyrillic packs could be taken over
  /// `latin`, so that a line none could be taken for is not read with them. The probability is
  /// logistic in the measurements, each monotone in the reading's confidence, share and letters,
  /// so its largest value over every such reading lies at a corner of their ranges.
  func couldTake(over latin: CardNameReader.LineReading?, pageConfidence: Double, letters: Int) -> Bool {
    for confidence in [0.0, 100] {
      for share in [0.0, 1] {
        for count in [1, max(1, letters)] {
          let values = Self.measurements(
            cyrillicConfidence: confidence, letters: count, share: share, latin: latin,
            pageConfidence: pageConfidence)
          if takes(values) { return true }
        }
      }
    }
    return false
  }

  /// The probability that the Cyrillic reading is nearer the name than the Latin one.
  public func probability(_ values: [String: Double]) -> Double {
    logistic { values[$0] }
  }

  public func takes(_ values: [String: Double]) -> Bool {
    probability(values) >= threshold
  }
}
