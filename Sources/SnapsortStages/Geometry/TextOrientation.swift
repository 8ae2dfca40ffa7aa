import SnapsortImaging
import SnapsortNative

/// Which way up a card crop's type reads, for when no barcode says: the crop read by tesseract as
/// it is and turned by 180°, at a coarse height.
///
/// Tesseract's network reads type that is upside down as a scatter of short, unsure words, so the
/// way that yields more confidently read letters is up. A coarse page keeps the readings cheap (a
/// name and the card's headings are body-sized type there, and they are what counts), and a crop
/// that reads as many letters as `sureAt` as it is is not read turned: on the training cards no
/// such crop read better turned. Both counts and the lead that decides
/// (`WarpStage.Options.textOrientationLead`) are fitted by bench/names/fit_orientation.py.
struct TextOrientation {
  /// Letters and digits tesseract read with at least `confidentAt` confidence, each way.
  struct Reading: Encodable, Equatable {
    var upright: Int
    /// Nil when the crop was not read turned (the upright reading was sure).
    var turned: Int?
    /// The words of each reading as [letters and digits, confidence], for the fit.
    var uprightWords: [[Double]]
    var turnedWords: [[Double]]?

    /// True when the turned reading leads by `lead` letters or more, false when the upright one
    /// does or was sure, nil when neither does.
    func verdict(lead: Int) -> Bool? {
      let lead = max(1, lead)
      guard let turned else { return false }
      if turned >= upright + lead { return true }
      if upright >= turned + lead { return false }
      return nil
    }
  }

  /// The counts with the readings they were made from, boxes in the pixels of the crop read
  /// (the turned reading's in the turned crop's), for the ocr stage to reuse.
  struct Readings {
    var evidence: Reading
    var upright: TesseractEngine.Result
    var turned: TesseractEngine.Result?
  }

  let engine: TesseractEngine
  /// Rows the crop is scaled to before both readings.
  var height: Int
  /// Confidently read letters from which the upright reading is taken without the turned one;
  /// nil reads both ways always.
  var sureAt: Int?
  /// Tesseract's confidence from which a word's letters count.
  var confidentAt = 70.0

  /// The counts of a grey crop; nil when a reading ran out of time.
  func read(_ gray: Bitmap, deadline: Int) -> Reading? {
    readings(gray, deadline: deadline)?.evidence
  }

  /// The counts and readings of a grey crop, read as prepared; nil when a reading ran out of time.
  func readings(_ gray: Bitmap, deadline: Int) -> Readings? {
    let page =
      gray.height > height
      ? gray.resized(width: max(1, gray.width * height / gray.height), height: height) : gray
    let toCrop = { (result: TesseractEngine.Result) in
      page.height == gray.height
        ? result
        : result.scaled(
          x: Double(gray.width) / Double(page.width), y: Double(gray.height) / Double(page.height))
    }
    let upright = engine.recognize(page, segmentation: .sparseText, deadline: max(1, deadline / 2))
    guard !upright.timedOut else { return nil }
    let uprightWords = Self.words(upright)
    let letters = confidentLetters(uprightWords)
    if let sureAt, letters >= sureAt {
      let evidence = Reading(upright: letters, turned: nil, uprightWords: uprightWords, turnedWords: nil)
      return Readings(evidence: evidence, upright: toCrop(upright), turned: nil)
    }
    let turned = engine.recognize(
      page.rotated180(), segmentation: .sparseText, deadline: max(1, deadline / 2))
    guard !turned.timedOut else { return nil }
    let turnedWords = Self.words(turned)
    let evidence = Reading(
      upright: letters, turned: confidentLetters(turnedWords), uprightWords: uprightWords,
      turnedWords: turnedWords)
    return Readings(evidence: evidence, upright: toCrop(upright), turned: toCrop(turned))
  }

  private func confidentLetters(_ words: [[Double]]) -> Int {
    Int(words.filter { $0[1] >= confidentAt }.reduce(0) { $0 + $1[0] })
  }

  private static func words(_ result: TesseractEngine.Result) -> [[Double]] {
    result.words.map { word in
      [Double(OCRStage.lettersAndDigits(in: word.text)), (word.confidence * 10).rounded() / 10]
    }
  }
}
