import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortOutputs
import SnapsortStages

/// Compares a run's records with expected records: the regression check users run and the
/// golden test over `samples/`.
///
/// An expected file `NAME.expected.json` sits beside the photo `NAME.<ext>` and lists only the
/// fields it checks, in the record's own shape. Numbers match within a tolerance: `"_tolerance"`
/// maps a dotted field path (`card.quad`) to an absolute tolerance; the default is 1e-6.
/// Arrays must have the same length, except under `"_contains"` paths, where every expected
/// element must appear.
///
/// Each file is judged on its own, field group by field group (`status`, `card.quad`,
/// `receipt.total`…). `golden-known-misses.json` at the top of the expected folder, when present,
/// lists the (file, field) pairs known not to match today, each with its reason: such a pair
/// that still fails is a known miss, not a mismatch; one that matches is a mismatch ("remove it
/// from the known misses"), so the list only shrinks. Every other failing pair is a mismatch.
/// `snapsort check` and the golden test read the same verdicts from `compare`.
public struct ExpectedRecords {
  public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var field: String
    public var expected: String
    public var actual: String
    public var description: String { "\(file): \(field): expected \(expected), got \(actual)" }
  }

  /// One checked field group of one file: `status`, `kind`, `card.quad`, `receipt.total`…
  public struct FieldResult: Sendable, Equatable {
    public var file: String
    public var field: String
    public var passed: Bool
    /// The differences found inside the group (empty when it passed).
    public var differences: [Mismatch] = []
    /// The reason recorded in the known misses, when the pair is listed there.
    public var knownMiss: String? = nil
    /// The folder of the file (`cards`, `receipts`…).
    public var folder: String {
      file.split(separator: "/").dropLast().joined(separator: "/")
    }
  }

  /// A (file, field) pair recorded as not matching today, and why.
  public struct KnownMiss: Sendable, Equatable, Codable, Hashable {
    /// The record's file (`2024/IMG_0042.jpg`), as `records.jsonl` names it.
    public var file: String
    /// The field group (`card.issuer`).
    public var field: String
    public var reason: String

    public init(file: String, field: String, reason: String) {
      self.file = file
      self.field = field
      self.reason = reason
    }
  }

  public struct Report: Sendable {
    public var checkedFiles: Int
    /// What fails the check: fields that do not match and are not known misses, and known
    /// misses that match now.
    public var mismatches: [Mismatch]
    public var fields: [FieldResult]
    public var passed: Bool { mismatches.isEmpty }

    /// Fields that fail and are listed as known misses.
    public var knownMisses: [FieldResult] { fields.filter { !$0.passed && $0.knownMiss != nil } }

    /// Fields that fail and are not listed: regressions, or new fields that never matched.
    public var unexpectedMisses: [FieldResult] { fields.filter { !$0.passed && $0.knownMiss == nil } }

    /// Known misses that match now and must leave the list.
    public var fixedKnownMisses: [FieldResult] { fields.filter { $0.passed && $0.knownMiss != nil } }

    /// Every failing field with a reason: the recorded one where there is one, else the first
    /// difference. What `RECORD_GOLDEN=1` writes.
    public var currentMisses: [KnownMiss] {
      fields.filter { !$0.passed }.map { result in
        KnownMiss(
          file: result.file, field: result.field,
          reason: result.knownMiss
            ?? "new: "
            + (result.differences.first.map { "\($0.field): expected \($0.expected), got \($0.actual)" }
              ?? "no record"))
      }
    }

    /// Passing counts per folder and field, e.g. `["cards": ["card.quad": 15]]`.
    public var passCounts: [String: [String: Int]] {
      var counts: [String: [String: Int]] = [:]
      for result in fields {
        counts[result.folder, default: [:]][result.field, default: 0] += result.passed ? 1 : 0
      }
      return counts
    }
  }

  public static let suffix = ".expected.json"
  public static let knownMissesFileName = "golden-known-misses.json"
  /// Where `load` puts a file's known misses (field → reason) in its expected object.
  static let knownMissesKey = "_known_misses"

  /// Loads every `*.expected.json` under `directory`, keyed by the record path without extension,
  /// with the known misses of `golden-known-misses.json` (when present) attached to their files.
  ///
  /// - Throws: when a file cannot be read or parsed, or a known miss names a file without an
  ///   expected record.
  public static func load(from directory: URL) throws -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    let root = directory.standardizedFileURL.path
    guard let enumerator = FileManager.default.enumerator(atPath: root) else {
      throw InputError("cannot read \(root)")
    }
    for case let relative as String in enumerator where relative.hasSuffix(suffix) {
      let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
      guard let expected = object as? [String: Any] else {
        throw InputError("\(relative): expected a JSON object")
      }
      result[String(relative.dropLast(suffix.count))] = expected
    }
    for miss in try loadKnownMisses(from: directory) {
      let stem = (miss.file as NSString).deletingPathExtension
      guard var spec = result[stem] else {
        throw InputError("\(knownMissesFileName): \(miss.file) has no \(suffix)")
      }
      var misses = spec[knownMissesKey] as? [String: String] ?? [:]
      misses[miss.field] = miss.reason
      spec[knownMissesKey] = misses
      result[stem] = spec
    }
    return result
  }

  /// The known misses of `directory/golden-known-misses.json`; none when there is no such file.
  public static func loadKnownMisses(from directory: URL) throws -> [KnownMiss] {
    let url = directory.appendingPathComponent(knownMissesFileName)
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    do {
      return try JSONDecoder().decode([KnownMiss].self, from: Data(contentsOf: url))
    } catch {
      throw InputError("\(url.path): \(error)")
    }
  }

  /// `misses` as `golden-known-misses.json` holds them: sorted, one per line, for short diffs.
  public static func encodeKnownMisses(_ misses: [KnownMiss]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let lines = try misses.sorted { ($0.file, $0.field) < ($1.file, $1.field) }.map {
      "  " + String(decoding: try encoder.encode($0), as: UTF8.self)
    }
    return Data((lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
  }

  public static func compare(expected: [String: [String: Any]], records: [Record]) throws -> Report {
    var actual: [String: (file: String, object: [String: Any])] = [:]
    for record in records {
      let stem = (record.file as NSString).deletingPathExtension
      let object =
        try JSONSerialization.jsonObject(with: RecordCoding.encodeLine(record)) as? [String: Any] ?? [:]
      actual[stem] = (record.file, object)
    }
    return compare(expected: expected, actual: actual)
  }

  /// Compares expected objects with records already in their JSON shape, keyed by the record's
  /// path without extension.
  public static func compare(
    expected: [String: [String: Any]], actual: [String: (file: String, object: [String: Any])]
  ) -> Report {
    var mismatches: [Mismatch] = []
    var fields: [FieldResult] = []
    for stem in expected.keys.sorted() {
      var spec = expected[stem]!
      let tolerances = spec.removeValue(forKey: "_tolerance") as? [String: Double] ?? [:]
      let containsPaths = Set(spec.removeValue(forKey: "_contains") as? [String] ?? [])
      var knownMisses = spec.removeValue(forKey: knownMissesKey) as? [String: String] ?? [:]
      for key in spec.keys where key.hasPrefix("_") { spec.removeValue(forKey: key) }
      guard let entry = actual[stem] else {
        let missing = Mismatch(file: stem, field: "(record)", expected: "a record", actual: "none")
        let reason = knownMisses.removeValue(forKey: "(record)")
        if reason == nil { mismatches.append(missing) }
        fields.append(
          FieldResult(file: stem, field: "(record)", passed: false, differences: [missing], knownMiss: reason)
        )
        continue
      }
      let (file, object) = entry
      // Each top-level field, and each member of `card` and `receipt`, is one checked group.
      for (path, expectedValue, actualValue) in groups(spec, object) {
        var context = Context(file: file, tolerances: tolerances, containsPaths: containsPaths)
        context.compare(expectedValue, actualValue, path: path)
        let passed = context.mismatches.isEmpty
        let reason = knownMisses.removeValue(forKey: path)
        switch (passed, reason) {
        case (false, nil):
          mismatches += context.mismatches
        case (true, .some):
          mismatches.append(
            Mismatch(
              file: file, field: path, expected: "a known miss (\(knownMissesFileName))",
              actual: "a match: remove it from the known misses"))
        default:
          break
        }
        fields.append(
          FieldResult(
            file: file, field: path, passed: passed, differences: context.mismatches, knownMiss: reason))
      }
      // A known miss for a field the file does not check would hide nothing and never leave.
      for field in knownMisses.keys.sorted() {
        mismatches.append(
          Mismatch(
            file: file, field: field, expected: "a checked field (\(knownMissesFileName))",
            actual: "not in \(stem)\(suffix): remove it from the known misses"))
      }
    }
    return Report(checkedFiles: expected.count, mismatches: mismatches, fields: fields)
  }

  private static func groups(_ spec: [String: Any], _ actual: [String: Any]) -> [(String, Any, Any?)] {
    var result: [(String, Any, Any?)] = []
    for key in spec.keys.sorted() {
      if ["card", "receipt"].contains(key), let nested = spec[key] as? [String: Any] {
        let actualNested = actual[key] as? [String: Any]
        for inner in nested.keys.sorted() {
          result.append(("\(key).\(inner)", nested[inner]!, actualNested?[inner]))
        }
      } else {
        result.append((key, spec[key]!, actual[key]))
      }
    }
    return result
  }

  private struct Context {
    let file: String
    let tolerances: [String: Double]
    let containsPaths: Set<String>
    var mismatches: [Mismatch] = []

    init(file: String, tolerances: [String: Double], containsPaths: Set<String>) {
      self.file = file
      self.tolerances = tolerances
      self.containsPaths = containsPaths
    }

    /// The tolerance of the nearest enclosing path that declares one.
    func tolerance(for path: String) -> Double {
      var candidate = path.replacingOccurrences(of: #"\[\d+\]"#, with: "", options: .regularExpression)
      while true {
        if let value = tolerances[candidate] { return value }
        guard let dot = candidate.lastIndex(of: ".") else { return 1e-6 }
        candidate = String(candidate[..<dot])
      }
    }

    mutating func fail(_ path: String, _ expected: Any, _ actual: Any?) {
      mismatches.append(
        Mismatch(
          file: file, field: path.isEmpty ? "(root)" : path, expected: render(expected),
          actual: render(actual)))
    }

    mutating func compare(_ expected: Any, _ actual: Any?, path: String) {
      switch expected {
      case let object as [String: Any]:
        guard let actualObject = actual as? [String: Any] else { return fail(path, expected, actual) }
        for key in object.keys.sorted() {
          compare(object[key]!, actualObject[key], path: path.isEmpty ? key : "\(path).\(key)")
        }
      case let array as [Any]:
        guard let actualArray = actual as? [Any] else { return fail(path, expected, actual) }
        let plainPath = path.replacingOccurrences(of: #"\[\d+\]"#, with: "", options: .regularExpression)
        if containsPaths.contains(plainPath) {
          for element in array {
            let found = actualArray.contains { candidate in
              var probe = self
              probe.mismatches = []
              probe.compare(element, candidate, path: path)
              return probe.mismatches.isEmpty
            }
            if !found { fail(path, element, "no such element in \(render(actual))") }
          }
          return
        }
        guard array.count == actualArray.count else {
          return fail(path + " (length)", array.count, actualArray.count)
        }
        for (index, element) in array.enumerated() {
          compare(element, actualArray[index], path: "\(path)[\(index)]")
        }
      case is NSNull:
        if !(actual is NSNull) && actual != nil { fail(path, expected, actual) }
      case let number as NSNumber where !(expected is Bool) && !isBool(number):
        guard let actualNumber = actual as? NSNumber, !isBool(actualNumber) else {
          return fail(path, expected, actual)
        }
        if abs(number.doubleValue - actualNumber.doubleValue) > tolerance(for: path) {
          fail(path, expected, actual)
        }
      default:
        if !equal(expected, actual) { fail(path, expected, actual) }
      }
    }

    private func isBool(_ number: NSNumber) -> Bool {
      // JSONSerialization gives booleans the Objective-C type "c" (char).
      String(cString: number.objCType) == "c"
    }

    private func equal(_ a: Any, _ b: Any?) -> Bool {
      guard let b else { return false }
      if let a = a as? String, let b = b as? String { return a == b }
      if let a = a as? Bool, let b = b as? Bool { return a == b }
      return render(a) == render(b)
    }

    private func render(_ value: Any?) -> String {
      guard let value else { return "(missing)" }
      if value is NSNull { return "null" }
      if let string = value as? String { return "\"\(string)\"" }
      if let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
      {
        return String(decoding: data, as: UTF8.self)
      }
      return "\(value)"
    }
  }
}
