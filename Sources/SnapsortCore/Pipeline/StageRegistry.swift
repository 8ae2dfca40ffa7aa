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

  /// The stages that write `artifacts` and everything those stages need or use, in an order the
  /// declarations allow (registry order among equals): a pipeline built from the registry rather
  /// than from a list of names.
  public static func stages(producing artifacts: [any Artifact.Type]) -> [any Stage.Type] {
    func producer(of artifact: any Artifact.Type) -> (any Stage.Type)? {
      all.first { $0.produces.contains { $0 == artifact } }
    }
    var chosen: [any Stage.Type] = []
    var wanted = artifacts
    while let artifact = wanted.popLast() {
      guard let stage = producer(of: artifact), !chosen.contains(where: { $0 == stage }) else { continue }
      chosen.append(stage)
      wanted += stage.needs + stage.uses
    }
    var ordered: [any Stage.Type] = []
    var written: [any Artifact.Type] = []
    while ordered.count < chosen.count {
      let ready = chosen.first { stage in
        !ordered.contains { $0 == stage }
          && (stage.needs + stage.uses).allSatisfy { input in
            written.contains { $0 == input } || !chosen.contains { $0.produces.contains { $0 == input } }
          }
      }
      guard let ready else { break }
      ordered.append(ready)
      written += ready.produces
    }
    return ordered
  }
}
