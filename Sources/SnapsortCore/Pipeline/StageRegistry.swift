import SnapsortStages

/// Every stage `pipeline.json` can name, in one alphabetised list.
///
/// A new stage is one file plus one line here; `snapsort list-stages` and the README's stage
/// table are generated from this list.
public enum StageRegistry {
  public static let all: [any Stage.Type] = [
    BarcodeStage.self,
    CardDetectStage.self,
    ClassifyStage.self,
    IssuerStage.self,
    LoadStage.self,
    OCRStage.self,
    PaletteStage.self,
    ReceiptStage.self,
    ReceiptWarpStage.self,
    WarpStage.self,
  ]

  public static func stage(named name: String) -> (any Stage.Type)? {
    all.first { $0.name == name }
  }
}
