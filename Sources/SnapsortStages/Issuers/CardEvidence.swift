import Foundation
import SnapsortImaging

/// What earlier stages found on one card, in the form the issuer features compare against the
/// catalog: OCR lines, the suggested name, palette colours in CIELAB and barcodes.
public struct CardEvidence: Sendable {
  public struct Colour: Sendable {
    public var lab: CIELAB.Lab
    public var share: Double
    public init(lab: CIELAB.Lab, share: Double) {
      self.lab = lab
      self.share = share
    }
  }
  public struct Code: Sendable, Equatable {
    public var symbology: String
    public var value: String
    public init(symbology: String, value: String) {
      self.symbology = symbology
      self.value = value
    }
  }

  public var lines: [String]
  public var names: [String]
  public var colours: [Colour]
  public var codes: [Code]

  /// Windows over all OCR lines and over the suggested names, built once per card.
  let textWindows: TextWindows
  let nameWindows: TextWindows

  public init(lines: [String], names: [String] = [], colours: [Colour] = [], codes: [Code] = []) {
    self.lines = lines
    self.names = names
    self.colours = colours
    self.codes = codes
    self.textWindows = TextWindows(lines: names, readingOrder: lines)
    self.nameWindows = TextWindows(lines: names)
  }

  /// Evidence from a card record; any of the palette, barcode and OCR fields may be missing.
  public init(card: CardRecord?) {
    let lines = card?.text?.map(\.text) ?? []
    var names: [String] = []
    if let suggestion = card?.name {
      if let suggested = suggestion.suggested { names.append(suggested) }
      names += suggestion.alternatives
    }
    let colours = (card?.colors ?? []).compactMap { color -> Colour? in
      guard let lab = CIELAB.lab(hex: color.hex), color.share > 0 else { return nil }
      return Colour(lab: lab, share: color.share)
    }
    let codes = (card?.barcodes ?? []).map { Code(symbology: $0.symbology, value: $0.value) }
    self.init(lines: lines, names: names, colours: colours, codes: codes)
  }

  public var hasText: Bool { !textWindows.isEmpty }
  public var hasColours: Bool { !colours.isEmpty }
  public var hasCodes: Bool { !codes.isEmpty }
}
