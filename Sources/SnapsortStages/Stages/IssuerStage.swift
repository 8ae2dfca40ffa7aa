import Foundation
import SnapsortNative

/// Needs nothing, uses `CardText`, `CardPalette`, `CodeReads` (any may be missing); produces
/// `IssuerMatch`: the most likely issuer from the catalog with its probability and the next
/// alternatives, or `id: null` when no issuer is likely enough; and `CatalogSpelling` when the
/// suggested name is, up to OCR damage, a name of the issuer named with high confidence.
public final class IssuerStage: Stage {
  public static let name = "issuer"
  public static let summary =
    "Which shop, programme or bank issued the card: catalog + trained model over text, colour, barcode"
  public static let needs: [any Artifact.Type] = []
  public static let uses: [any Artifact.Type] = [CardText.self, CardPalette.self, CodeReads.self]
  public static let produces: [any Artifact.Type] = [IssuerMatch.self, CatalogSpelling.self]

  public struct Options: StageOptions, Equatable {
    /// The model file written by `snapsort train-issuers` (default: the bundled one).
    public var model: String = IssuerModel.bundledFileName
    /// The issuer catalog (default: the bundled `issuers.json`).
    public var catalog: String = IssuerCatalog.bundledFileName
    /// The issuer's probability from which the suggested name takes the catalog's spelling of
    /// that issuer's name when it is more than one accent or glyph away (`Decathlo` →
    /// `Decathlon`); above 1 never. Fitted by bench/names/catalog_spelling.py on 400 generated
    /// train cards: just above the surest wrong issuer there (0.995, an unknown bank).
    public var nameSpellingConfidence: Double = 0.9955
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    try ConfigError.at("model") { try IssuerModel.load(from: context.resolve(options.model)) }
    try ConfigError.at("catalog") { try IssuerCatalog.load(from: context.resolve(options.catalog)) }
    guard options.nameSpellingConfidence >= 0 else {
      throw ConfigError(path: "name_spelling_confidence", "must be 0 or more")
    }
  }

  private let classifier: IssuerClassifier
  private let spellings: CardNameCatalog
  private let nameSpellingConfidence: Double

  public init(options: Options, context: StageContext) throws {
    let model = try IssuerModel.load(from: context.resolve(options.model))
    let catalog = try IssuerCatalog.load(from: context.resolve(options.catalog))
    classifier = IssuerClassifier(model: model, catalog: catalog)
    spellings = CardNameCatalog(catalog: catalog)
    nameSpellingConfidence = options.nameSpellingConfidence
  }

  public func process(_ item: PhotoItem) throws {
    let card = RecordAssembly.card(from: item.artifacts)
    guard item.kind == .card || card != nil else { return }
    let match = classifier.classify(CardEvidence(card: card ?? CardRecord()))
    item.artifacts.write(match)
    // The classifier saw the name as read, so its confidence is evidence besides the spelling.
    if let id = match.id, match.confidence >= nameSpellingConfidence, let read = card?.name?.suggested,
      let spelled = spellings.spelling(of: read, issuer: id), spelled != read
    {
      item.artifacts.write(CatalogSpelling(name: spelled))
    }
  }

}
