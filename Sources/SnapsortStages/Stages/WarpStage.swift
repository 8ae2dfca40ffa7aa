import Foundation
import SnapsortImaging
import SnapsortNative

/// Needs `CardGeometry` and `ImagePixels`, uses `ImageFile`; produces `CardCrop`.
///
/// Maps the card's quad to an upright crop sampled from the full-resolution image, decides which
/// way is up, reorders the corners so the first is the card's top-left, and names the crop's file
/// `cards/<sha256 prefix>.jpg`. The file is written once the photo's stages have run
/// (`CardCropFile`), when OCR has said whether there is a payment card's number to paint over.
public final class WarpStage: Stage {
  public static let name = "warp"
  public static let summary =
    "Homography to an upright crop from the full-resolution image; decide which way is up"
  public static let needs: [any Artifact.Type] = [CardGeometry.self, ImagePixels.self]
  public static let uses: [any Artifact.Type] = [ImageFile.self]
  public static let produces: [any Artifact.Type] = [CardCrop.self]

  public struct Options: StageOptions, Equatable {
    public var width: Int = 1012
    public var height: Int = 638
    /// JPEG quality of the crop file.
    public var quality: Int = 90
    /// Write the crop into the output's `cards/` folder.
    public var writeCrop: Bool = true
    /// Rows a crop is scaled to for reading it both ways up with `text_orientation_languages`
    /// when no barcode says which way is up; 0 never reads it (the layout alone decides then).
    /// The crop is read as the ocr stage prepares it, and at the ocr stage's `coarse_page_height`
    /// with its `languages` the reading of the way chosen is the ocr stage's coarse reading too.
    public var textOrientationHeight: Int = 224
    /// Tesseract languages of those readings: the ocr stage's, so the worker's engine is shared.
    public var textOrientationLanguages: String = "eng"
    /// Confidently read letters by which one of those readings must beat the other to decide:
    /// the turned one leading turns the crop, the upright one keeps it whatever the layout says
    /// (bench/names/fit_orientation.py on training cards).
    public var textOrientationLead: Int = 4
    /// Confidently read letters from which the crop as it is counts as upright without reading
    /// it turned (bench/names/fit_orientation.py on training cards).
    public var textOrientationSureAt: Int = 9
    /// Degrees within which a crop's quad square to the image's axes is a card drawn on a screen,
    /// which shows it upright: unless a barcode says otherwise it is kept as detected, without
    /// reading it or asking the layout (on the training cards no crop that square lay upside
    /// down, and the readings turned a screenshot wrongly: bench/speed/fit_square_orientation.py);
    /// a negative value reads such crops too.
    public var squareUprightDegrees: Double = 0.25
    /// Bench setting: appends each crop's orientation evidence (barcode votes, layout, both
    /// readings) to this JSON Lines file; every reading is then made, whatever decides.
    public var orientationLog: String = ""
    public init() {}
  }

  public static func validate(_ options: Options, context: StageContext) throws {
    guard (64...4096).contains(options.width), (64...4096).contains(options.height) else {
      throw ConfigError(path: "width", "width and height must be between 64 and 4096")
    }
    guard (1...100).contains(options.quality) else { throw ConfigError(path: "quality", "must be 1…100") }
    guard options.textOrientationHeight == 0 || options.textOrientationHeight >= 100 else {
      throw ConfigError(path: "text_orientation_height", "use 0 (no reading) or at least 100 px")
    }
    guard options.textOrientationLead >= 0 else {
      throw ConfigError(path: "text_orientation_lead", "use 0 or more letters")
    }
    guard options.textOrientationSureAt >= options.textOrientationLead else {
      throw ConfigError(path: "text_orientation_sure_at", "use at least text_orientation_lead letters")
    }
  }

  private let options: Options
  /// zbar's row step in the orientation scan: every second row finds a card's code at half the
  /// cost of every row.
  static let zbarDensity = 2
  private let zbar: ZBarScanner
  private let textOrientation: TextOrientation?
  private let orientationLog: JSONLinesLog?
  /// This worker's buffers, reused from photo to photo (see `Bitmap.warped(…reductionBuffer:)`).
  private var reductionBuffer: [UInt8] = []
  private var grayBuffer: [UInt8] = []

  public init(options: Options, context: StageContext) throws {
    self.options = options
    self.zbar = try ZBarScanner(testInverted: true, scanDensity: Self.zbarDensity)
    self.textOrientation =
      options.textOrientationHeight == 0
      ? nil
      : TextOrientation(
        engine: try context.workerEngines.engine(languages: options.textOrientationLanguages),
        height: options.textOrientationHeight,
        sureAt: options.orientationLog.isEmpty ? options.textOrientationSureAt : nil)
    self.orientationLog =
      options.orientationLog.isEmpty
      ? nil : try JSONLinesLog(url: URL(fileURLWithPath: options.orientationLog))
  }

  public func process(_ item: PhotoItem) throws {
    guard let geometry = item.artifacts[CardGeometry.self], var quad = geometry.quad else { return }
    let horizontal = Quad.distance(quad[0], quad[1]) + Quad.distance(quad[2], quad[3])
    let vertical = Quad.distance(quad[1], quad[2]) + Quad.distance(quad[3], quad[0])
    let isPass = geometry.shape == .pass
    // The card is landscape: start at a corner from which the first side is a long side. A pass
    // stays as the screen shows it, upright and in its own proportions.
    if vertical > horizontal && !geometry.cornersAreFinal && !isPass { quad = Array(quad[3...] + quad[..<3]) }
    let size =
      isPass
      ? Self.passSize(aspect: vertical / max(1, horizontal), cardSize: options)
      : (width: options.width, height: options.height)
    let full = try item.fullImage()
    guard
      var crop = full.warped(
        quad: quad, width: size.width, height: size.height, reductionBuffer: &reductionBuffer)
    else {
      throw StageFailure("the card's corners do not form a usable quadrilateral")
    }
    let drawnOnScreen = Quad.isSquareToAxes(quad, withinDegrees: options.squareUprightDegrees)
    var (turned, reading, codeScan): (Bool, CropReading?, CropCodeScan?) = (false, nil, nil)
    var prepared: (gray: Bitmap, flattened: Bitmap?)?
    if !geometry.cornersAreFinal && !isPass {
      (turned, reading, codeScan, prepared) = upsideDown(
        crop, item: item, quad: quad, drawnOnScreen: drawnOnScreen)
    }
    if turned {
      crop = crop.rotated180()
      quad = Array(quad[2...] + quad[..<2])
      codeScan = codeScan?.turned(width: crop.width, height: crop.height)
      // Flattening's tiles do not turn with the crop: the ocr stage prepares the turned one anew.
      prepared = nil
    }
    var file: String?
    if options.writeCrop, item.outputDirectory != nil,
      let sha256 = item.artifacts[ImageFile.self]?.sha256,
      !sha256.isEmpty
    {
      file = "cards/\(sha256.prefix(16)).jpg"
    }
    item.artifacts.write(
      CardCrop(
        image: crop, quad: quad, file: file, quality: options.quality, reading: reading, codeScan: codeScan,
        prepared: prepared, drawnOnScreen: drawnOnScreen))
  }

  /// A pass's crop: its own height over width, with as many pixels as a card's crop, so that the
  /// stages after it read a pass at the scale they read a card.
  static func passSize(aspect: Double, cardSize options: Options) -> (width: Int, height: Int) {
    let area = Double(options.width * options.height)
    let width = max(1, Int((area / max(0.1, aspect)).squareRoot().rounded()))
    return (width, max(1, Int((Double(width) * aspect).rounded())))
  }

  /// What said which way up a crop is, as the orientation log records it.
  private struct Evidence: Encodable {
    var file: String
    /// The corners as detected, before the crop is turned.
    var quad: [[Double]]
    var barcodeUp: Int
    var barcodeDown: Int
    /// True upside down, false upright, nil when the layout says nothing.
    var layout: Bool?
    var text: TextOrientation.Reading?
    var turned: Bool
  }

  /// A barcode read upside down says the card is; without one, a quad square to the image (a
  /// screen's card) is upright; else the type read both ways up may
  /// (upside-down type reads as few, unsure letters), and it comes before the layout, which
  /// takes a code panel printed at the top for one at the bottom; else the layout (a chip, a code
  /// panel) may; else the crop is kept as detected. bench/names/fit_orientation.py measured the
  /// order on training cards. The type is read as the ocr stage prepares a crop
  /// (`TextContrast.flattened`), so that the reading of the way chosen is the ocr stage's coarse
  /// reading too (returned with the verdict; nil when that way was not read), the zbar scan
  /// is the barcode stage's read of the crop, and the grey crop and its flattened page (nil when
  /// the text was not read) are the ocr stage's, unless the crop is turned.
  private func upsideDown(_ crop: Bitmap, item: PhotoItem, quad: [Point], drawnOnScreen: Bool) -> (
    Bool, CropReading?, CropCodeScan, (gray: Bitmap, flattened: Bitmap?)
  ) {
    let gray = crop.grayscale(recycling: Bitmap.take(&grayBuffer))
    defer { grayBuffer = gray.pixels }
    let symbols = zbar.scan(gray)
    let votes = symbols.map(\.orientation)
    let down = votes.filter { $0 == 2 }.count
    let up = votes.filter { $0 == 0 }.count
    let logs = orientationLog != nil
    let barcode: Bool? = down == up ? nil : down > up
    let onScreen = barcode == nil && drawnOnScreen
    // Half of it for each reading, in the thread's CPU time (`TesseractEngine.recognize`): a tiled
    // pattern can take tesseract 250 ms of CPU a way.
    let deadline = Int(min(5000, item.secondsRemaining * 1000))
    let decided = barcode != nil || onScreen
    let flattened = decided && !logs || textOrientation == nil ? nil : TextContrast.flattened(gray)
    let readings = flattened.flatMap { textOrientation?.readings($0, deadline: deadline) }
    let text = readings?.evidence
    let textVerdict = text?.verdict(lead: options.textOrientationLead)
    let layout = (decided || textVerdict != nil) && !logs ? nil : CardLayout.verdict(crop)
    let turned = barcode ?? (onScreen ? false : textVerdict ?? layout ?? false)
    orientationLog?.append(
      Evidence(
        file: item.relativePath, quad: quad.map { [$0.x, $0.y] }, barcodeUp: up, barcodeDown: down,
        layout: layout, text: text, turned: turned))
    let read = turned ? readings?.turned : readings?.upright
    return (
      turned,
      read.map {
        CropReading(
          height: options.textOrientationHeight, languages: options.textOrientationLanguages,
          segmentation: Int(TesseractEngine.PageSegmentation.sparseText.rawValue), result: $0)
      },
      CropCodeScan(symbols: symbols, inverted: true), (gray, flattened)
    )
  }
}
