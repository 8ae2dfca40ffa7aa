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
    let latinText = latin?.text ?? ""
    let latinLetters = latinText.filter(\.isLetter)
    return [
      "cyrillic_confidence": cyrillic.confidence / 100,
      "latin_confidence": (latin?.confidence ?? 0) / 100,
      "confidence_margin": (cyrillic.confidence - (latin?.confidence ?? 0)) / 100,
      "page_confidence": pageConfidence,
      "cyrillic_share": Double(inCyrillic) / Double(max(1, cyrillicLetters.count)),
      "cyrillic_letters": log1p(Double(cyrillicLetters.count)),
      "latin_letters": log1p(Double(latinLetters.count)),
      "latin_diacritics": CardNameReconciler.hasDiacritics(latinText) ? 1 : 0,
    ]
  }

  /// The probability that the Cyrillic reading is nearer the name than the Latin one.
  public func probability(_ values: [String: Double]) -> Double {
    logistic { values[$0] }
  }

  public func takes(_ values: [String: Double]) -> Bool {
    probability(values) >= threshold
  }
}
