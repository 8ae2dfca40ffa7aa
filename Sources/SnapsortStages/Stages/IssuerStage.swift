import Foundation
import SnapsortNative

/// Needs nothing, uses `CardText`, `CardPalette`, `CodeReads` (any may be missing); produces
/// `IssuerMatch`: the most likely issuer from the catalog with its probability and the next
/// alternatives, or `id: null` when no issuer is likely enough.
public final class IssuerStage: Stage {
  public static let name = "issuer"
  public static let summary =
    "Which shop, programme or bank issued the card: catalog + trained model over text, colour, barcode"
  public static let needs: [any Artifact.Type] = []
  public static let uses: [any Artifact.Type] = [CardText.self, CardPalette.self, CodeReads.self]
  public static let produces: [any Artifact.Type] = [IssuerMatch.self]

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
    let card = RecordAssembly.card(from: item.artifacts)
    guard item.kind == .card || card != nil else { return }
    item.artifacts.write(classifier.classify(CardEvidence(card: card ?? CardRecord())))
  }

}
