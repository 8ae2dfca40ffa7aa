import CTesseract
import Foundation

/// Owns one `TessBaseAPI`. Not thread-safe: each worker creates its own, once, and reuses it.
public final class TesseractEngine {
  /// A recognised word or line: text, box `[x, y, width, height]` in the input's pixels and
  /// tesseract's confidence (0–100).
  public struct Item: Sendable, Equatable {
    public var text: String
    public var box: Box
    public var confidence: Double
    public init(text: String, box: Box, confidence: Double) {
      self.text = text
      self.box = box
      self.confidence = confidence
    }
  }

  public struct Result: Sendable {
    public var lines: [Item]
    public var words: [Item]
    /// The deadline ran out; what was recognised until then is still returned.
    public var timedOut: Bool
    /// The lines' text joined with spaces.
    public var text: String { lines.map(\.text).joined(separator: " ") }

    /// The same reading with every box scaled by `sx` across and `sy` down: a reading of a scaled
    /// copy put back in the original's pixels.
    public func scaled(x sx: Double, y sy: Double) -> Result {
      let scale = { (item: Item) -> Item in
        var item = item
        item.box = Box(
          x: (item.box.x * sx).rounded(), y: (item.box.y * sy).rounded(),
          width: (item.box.width * sx).rounded(), height: (item.box.height * sy).rounded())
        return item
      }
      return Result(lines: lines.map(scale), words: words.map(scale), timedOut: timedOut)
    }
  }

  public enum PageSegmentation: Int32, Sendable {
    /// One column of text lines of varying size: a receipt.
    case singleColumn = 4
    case singleBlock = 6
    /// One line of text: a line cut out of a page read before.
    case singleLine = 7
    case sparseText = 11
    case auto = 3
  }

  public static let tessdata = "/usr/share/tesseract-ocr/5/tessdata"

  private let api: OpaquePointer
  public let languages: String
  /// False when the model was loaded without its word lists (`TraineddataWithoutWordLists`).
  public let hasWordLists: Bool
  /// The pixels of every image recognised so far: a measure of the work done that, unlike the
  /// CPU clock, does not move with the machine's load, so a budget in it gives the same records
  /// in every run.
  public private(set) var pixelsRead = 0

  /// - Parameters:
  ///   - wordLists: false loads a single language without its word lists: for a script model
  ///     such as `Latin` that is about 210 MB less resident memory. Ignored for "+"-joined
  ///     languages, which tesseract only loads from files.
  /// - Throws: `NativeLibraryError` when a language's traineddata is missing or tesseract fails
  ///   to initialise.
  public init(languages: String, wordLists: Bool = true) throws(NativeLibraryError) {
    try Self.checkInstalled(languages)
    guard let api = TessBaseAPICreate() else { throw .handleNotCreated(library: "tesseract") }
    self.api = api
    self.languages = languages
    let trimmed =
      wordLists || languages.contains("+")
      ? nil : TraineddataWithoutWordLists(path: "\(Self.tessdata)/\(languages).traineddata")
    hasWordLists = trimmed == nil
    guard Self.initialise(api, languages: languages, trimmed: trimmed) else {
      throw .loadFailed(library: "tesseract", detail: "the languages \(languages)")
    }
    // Cards and receipts are photographed, not scanned: no dictionary bias against brand names.
    _ = TessBaseAPISetVariable(api, "load_system_dawg", "0")
    // Tesseract and leptonica print diagnostics on stderr; a batch run's log is ours.
    _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
    _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
  }

  private static func initialise(
    _ api: OpaquePointer, languages: String, trimmed: TraineddataWithoutWordLists?
  ) -> Bool {
    guard let trimmed else { return TessBaseAPIInit3(api, tessdata, languages) == 0 }
    return trimmed.bytes.withUnsafeBytes { raw in
      TessBaseAPIInit5(
        api, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), languages,
        OEM_DEFAULT, nil, 0, nil, nil, 0, 0) == 0
    }
  }

  deinit {
    // TessBaseAPIEnd frees the recognition state, TessBaseAPIDelete the handle (capi.h).
    TessBaseAPIEnd(api)
    TessBaseAPIDelete(api)
  }

  /// Names the first of the "+"-joined languages that is not installed.
  public static func checkInstalled(_ languages: String) throws(NativeLibraryError) {
    for language in languages.split(separator: "+") where !isInstalled(String(language)) {
      throw .missingLanguage(language: String(language), package: package(for: String(language)))
    }
  }

  /// Debian's package for a traineddata name: `tesseract-ocr-deu` for `deu`, and for a script
  /// model (capitalised) `tesseract-ocr-script-<ISO 15924 code>`, as scripts/ensure-deps.sh maps.
  public static func package(for language: String) -> String {
    switch language {
    case "Latin": return "tesseract-ocr-script-latn"
    case "Cyrillic": return "tesseract-ocr-script-cyrl"
    case "Greek": return "tesseract-ocr-script-grek"
    default: return "tesseract-ocr-" + language.lowercased().replacingOccurrences(of: "_", with: "-")
    }
  }

  public static func isInstalled(_ language: String) -> Bool {
    FileManager.default.fileExists(atPath: "\(tessdata)/\(language).traineddata")
  }

  /// Recognises a grey or RGB bitmap fed directly (no temporary files).
  ///
  /// - Parameters:
  ///   - deadline: milliseconds of the calling thread's CPU time (`ThreadCPUClock`) before
  ///     recognition is cancelled; tesseract's monitor asks before each word. Not wall time: at a
  ///     load of 20 on two cores readings ran out of a wall deadline that finish on an idle
  ///     machine, and the records changed with the load. `wallGuard(deadline)` of wall time is the
  ///     last guard against a call that gets no CPU at all.
  ///   - invertUnsureLines: tesseract's own retry of a line it read unsurely, inverted (white print
  ///     on a dark band): a second pass of the network over each such line.
  public func recognize(
    _ bitmap: Bitmap, segmentation: PageSegmentation = .sparseText, resolution: Int = 300,
    deadline: Int = 10_000, invertUnsureLines: Bool = true
  ) -> Result {
    pixelsRead += bitmap.width * bitmap.height
    TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(segmentation.rawValue)))
    // Set on every call: the worker's engine is shared by stages that want either.
    _ = TessBaseAPISetVariable(api, "tessedit_do_invert", invertUnsureLines ? "1" : "0")
    let timedOut: Bool = bitmap.pixels.withUnsafeBufferPointer { pixels in
      TessBaseAPISetImage(
        api, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.channels),
        Int32(bitmap.rowBytes))
      TessBaseAPISetSourceResolution(api, Int32(resolution))
      return recognizeSetImage(deadline: max(1, deadline))
    }
    let lines = items(level: RIL_TEXTLINE)
    let words = items(level: RIL_WORD)
    // Forget the image: the pixel buffer is released after this call.
    TessBaseAPIClear(api)
    return Result(lines: lines, words: words, timedOut: timedOut)
  }

  /// Wall milliseconds after which a reading with a CPU `deadline` is stopped all the same: twenty
  /// times the deadline, at least 10 s, so that only a call starved of the CPU far beyond a
  /// loaded machine's share (a tenth of a core at a load of 20 on two) meets it.
  static func wallGuard(_ deadline: Int) -> Int {
    min(Int(Int32.max), max(10_000, min(deadline, Int(Int32.max)) * 20))
  }

  /// Recognises the image set on `api` until `deadline` ms of this thread's CPU time or the wall
  /// guard run out; true when one of them did.
  private func recognizeSetImage(deadline: Int) -> Bool {
    let monitor = TessMonitorCreate()
    // TessMonitorCreate's counterpart, per capi.h.
    defer { TessMonitorDelete(monitor) }
    let wall = Self.wallGuard(deadline)
    TessMonitorSetDeadlineMSecs(monitor, Int32(wall))
    var budget = CPUBudget(endsAt: ThreadCPUClock.milliseconds() + Double(deadline))
    let start = DispatchTime.now().uptimeNanoseconds
    let status = withUnsafeMutablePointer(to: &budget) { budget in
      TessMonitorSetCancelThis(monitor, budget)
      // Called by the recognising thread before each word, the thread whose clock counts.
      TessMonitorSetCancelFunc(monitor) { context, _ in
        guard let budget = context?.assumingMemoryBound(to: CPUBudget.self) else { return false }
        budget.pointee.spent = ThreadCPUClock.milliseconds() >= budget.pointee.endsAt
        return budget.pointee.spent
      }
      return TessBaseAPIRecognize(api, monitor)
    }
    let elapsed = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    return status != 0 && (budget.spent || elapsed >= wall - 5)
  }

  /// What the monitor's cancel callback reads and writes: the thread CPU time a reading ends at.
  private struct CPUBudget {
    var endsAt: Double
    var spent = false
  }

  private func items(level: TessPageIteratorLevel) -> [Item] {
    guard let iterator = TessBaseAPIGetIterator(api) else { return [] }
    // The iterator from TessBaseAPIGetIterator is the caller's to delete (capi.h).
    defer { TessResultIteratorDelete(iterator) }
    let page = TessResultIteratorGetPageIterator(iterator)
    var result: [Item] = []
    repeat {
      guard let raw = TessResultIteratorGetUTF8Text(iterator, level) else { continue }
      // Text from GetUTF8Text is freed with TessDeleteText (capi.h).
      let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
      TessDeleteText(raw)
      var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
      guard !text.isEmpty, TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else {
        continue
      }
      result.append(
        Item(
          text: text,
          box: Box(
            x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top)),
          confidence: Double(TessResultIteratorConfidence(iterator, level))))
    } while TessPageIteratorNext(page, level) != 0
    return result
  }
}
