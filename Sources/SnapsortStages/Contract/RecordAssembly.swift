import Foundation
import SnapsortImaging
import SnapsortNative

/// Puts a photo's record together from its artifacts: the one place where a record is made, so
/// each field has one source and one rounding rule.
public enum RecordAssembly {
  /// The record of `item` as its artifacts stand, failed with `error` when one is given.
  public static func record(of item: PhotoItem, error: RecordError?) -> Record {
    let artifacts = item.artifacts
    let file = artifacts[ImageFile.self]
    var record = Record(file: item.relativePath, sha256: file?.sha256 ?? "")
    record.kind = item.kind
    record.image = file?.info
    record.classification = artifacts[KindDecision.self]?.classification
    record.card = card(from: artifacts)
    record.receipt = receipt(from: artifacts)
    let notes = artifacts.written.flatMap(\.notes)
    record.notes = notes.isEmpty ? nil : notes
    if let warnings = file?.warnings, !warnings.isEmpty { record.warnings = warnings }
    if let error {
      record.status = .error
      record.error = error
    }
    return record
  }

  /// The card part of a record; nil when no card stage wrote anything.
  public static func card(from artifacts: Artifacts) -> CardRecord? {
    let geometry = artifacts[CardGeometry.self], crop = artifacts[CardCrop.self]
    let palette = artifacts[CardPalette.self], codes = artifacts[CodeReads.self]
    let text = artifacts[CardText.self], issuer = artifacts[IssuerMatch.self]
    guard geometry != nil || crop != nil || palette != nil || codes != nil || text != nil || issuer != nil
    else { return nil }
    var card = CardRecord()
    card.quad = (crop?.quad ?? geometry?.quad).map { Quad($0).map(Rounding.tenths) }
    card.confidence = geometry?.confidence.map(Rounding.thousandths)
    card.shape = geometry?.shape == .pass ? .pass : nil
    card.reason = geometry?.reason
    card.crop = crop?.file
    card.colors = palette?.colors
    card.backgrounds = palette?.backgrounds
    card.headerColor = palette?.headerColor
    card.barcodes = codes?.barcodes
    card.name = text?.name
    if let spelling = artifacts[CatalogSpelling.self], let name = card.name {
      card.name = spelling.applied(to: name)
    }
    card.text = text?.lines
    card.payment = text?.payment
    card.issuer = issuer
    return card
  }

  /// The receipt part of a record; nil when no receipt stage wrote anything.
  public static func receipt(from artifacts: Artifacts) -> ReceiptRecord? {
    let page = artifacts[ReceiptPage.self]
    guard var receipt = artifacts[ReceiptReadout.self]?.receipt ?? page.map({ _ in ReceiptRecord() })
    else { return nil }
    if let page {
      receipt.quad = Quad(page.quad).map(Rounding.tenths)
      receipt.skew = Rounding.hundredths(page.skew)
    }
    return receipt
  }
}

/// The record's one rounding rule per kind of number: pixels to tenths, angles to hundredths,
/// confidences and shares to thousandths.
public enum Rounding {
  public static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
  public static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
  public static func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
