import Foundation
import SnapsortNative

/// Reads `card.text`, `card.name`, `card.colors` and `card.barcodes` (any may be missing) and
/// writes `card.issuer`: the most likely issuer from the catalog with its probability and the
/// next alternatives, or `id: null` when no issuer is likely enough.
public final class IssuerStage: Stage {
  public static let name = "issuer"
  public static let summary =
    "Which shop, programme or bank issued the card: catalog + trained model over text, colour, barcode"

  public struct Options: StageOptions, Equatable {
    /// The model file written by `snapsort train-issuers` (default: the bundled one).
    public var model: String = IssuerModel.bundledFileName
    /// The issuer catalog (default: the bundled `issuers.json`).
    public var catalog: String = IssuerCatalog.bundledFileName
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try ConfigError.at("model") { try IssuerModel.load(from: context.resolve(options.model)) }
    try ConfigError.at("catalog") { try IssuerCatalog.load(from: context.resolve(options.catalog)) }
  }

  private let classifier: IssuerClassifier

  public init(options: Options, context: StageContext) throws {
    let model = try IssuerModel.load(from: context.resolve(options.model))
    let catalog = try IssuerCatalog.load(from: context.resolve(options.catalog))
    classifier = IssuerClassifier(model: model, catalog: catalog)
  }

  public func process(_ item: PhotoItem) throws {
    guard item.record.kind == .card || item.record.card != nil else { return }
    var card = item.card
    // Earlier stages may have left lines or barcodes on the item without copying them to the
    // record; take whichever is richer.
    if card.text == nil, !item.textLines.isEmpty { card.text = item.textLines }
    if card.barcodes == nil, !item.barcodes.isEmpty { card.barcodes = item.barcodes }
    let evidence = CardEvidence(card: card)
    var result = item.card
    result.issuer = classifier.classify(evidence)
    item.card = result
  }
}
