import SnapsortImaging

/// The colour of the light on a photographed card, estimated from the card's own white (white
/// print, a white code panel, the white of the card): near-neutral samples that come out tinted
/// are tinted by the light, so scaling each channel until they are neutral again takes the cast
/// off every colour of the card. Exposure is left alone: making the white white as well lost more
/// cards than it won (the brightest near-neutral of many cards is a grey or a pastel, not white).
///
/// Fitted by `bench/cards/fit_palette_balance.py` on train renders (600 photos, seeds 8102, 8312
/// and 8521; 500 screenshots, seeds 8311 and 8522, left unbalanced as cards square to the image):
/// the first background within ΔE00 10 on 472 → 489 of 589 photos, screenshots 438 of 496 either
/// way; chroma 8–15 and lightness 60–75 give 481–489. On seeds 8102 and 8312 alone, exposure
/// corrected half way gave 321 and fully 317 of 394, against 332 for the cast alone.
struct CardWhiteBalance: Equatable {
  /// Gains for red, green and blue in linear light.
  var red: Double
  var green: Double
  var blue: Double

  /// Samples under this CIELAB chroma and over this lightness may be white under a coloured light.
  static let neutralChroma = 12.0
  static let minimumLightness = 60.0
  /// The brightest quarter of those is the reference: the white itself, not the greys of its
  /// anti-aliased edges.
  static let brightestShare = 0.25
  /// Fewer such samples than this share of the card is no white to go by.
  static let minimumShare = 0.02
  /// A larger gain is a colour of the card taken for white, not the light (the photos' casts
  /// reach about 1.25).
  static let maximumGain = 1.3

  /// The balance that makes the card's white neutral at its own brightest channel; nil when the
  /// card shows too little near-neutral light area, or when it would take more than
  /// `maximumGain`. `samples` are linear-light RGB with their CIELAB colours.
  static func estimate(linear samples: [SIMD3<Double>], lab: [CIELAB.Lab]) -> CardWhiteBalance? {
    // A clipped channel says nothing about the light's colour (glare, a blown-out white).
    let clipped = CIELAB.linear(254.0 / 255)
    var candidates = zip(samples, lab).filter { sample, colour in
      colour.chroma < neutralChroma && colour.l > minimumLightness && sample.max() < clipped
    }.map(\.0)
    guard !candidates.isEmpty, Double(candidates.count) >= minimumShare * Double(samples.count) else {
      return nil
    }
    candidates.sort { $0.sum() > $1.sum() }
    let count = max(1, Int((brightestShare * Double(candidates.count)).rounded()))
    let reference = candidates.prefix(count).reduce(SIMD3<Double>(), +) / Double(count)
    guard reference.min() > 0 else { return nil }
    let gains = SIMD3(repeating: reference.max()) / reference
    guard gains.max() <= maximumGain else { return nil }
    return CardWhiteBalance(red: gains.x, green: gains.y, blue: gains.z)
  }

  /// A linear-light colour under this balance, clamped to the sRGB gamut.
  func apply(_ sample: SIMD3<Double>) -> SIMD3<Double> {
    (sample * SIMD3(red, green, blue)).clamped(lowerBound: .zero, upperBound: .one)
  }
}
