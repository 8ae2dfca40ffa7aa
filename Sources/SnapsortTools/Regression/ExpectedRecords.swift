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
    /// The folder of the file (`cards`, `receipts`…), for per-folder minimums.
    public var folder: String {
      file.split(separator: "/").dropLast().joined(separator: "/")
    }
  }

  public struct Report: Sendable {
    public var checkedFiles: Int
    public var mismatches: [Mismatch]
    public var fields: [FieldResult]
    public var passed: Bool { mismatches.isEmpty }

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

  /// Loads every `*.expected.json` under `directory`, keyed by the record path without extension.
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
    return result
  }

  public static func compare(expected: [String: [String: Any]], records: [Record]) throws -> Report {
    var byStem: [String: Record] = [:]
    for record in records {
      let stem = (record.file as NSString).deletingPathExtension
      byStem[stem] = record
    }
    var mismatches: [Mismatch] = []
    var fields: [FieldResult] = []
    for stem in expected.keys.sorted() {
      var spec = expected[stem]!
      let tolerances = spec.removeValue(forKey: "_tolerance") as? [String: Double] ?? [:]
      let containsPaths = Set(spec.removeValue(forKey: "_contains") as? [String] ?? [])
      for key in spec.keys where key.hasPrefix("_") { spec.removeValue(forKey: key) }
      guard let record = byStem[stem] else {
        mismatches.append(Mismatch(file: stem, field: "(record)", expected: "a record", actual: "none"))
        fields.append(FieldResult(file: stem, field: "(record)", passed: false))
        continue
      }
      let actual =
        try JSONSerialization.jsonObject(with: RecordCoding.encodeLine(record)) as? [String: Any] ?? [:]
      // Each top-level field, and each member of `card` and `receipt`, is one checked group.
      for (path, expectedValue, actualValue) in groups(spec, actual) {
        var context = Context(file: record.file, tolerances: tolerances, containsPaths: containsPaths)
        context.compare(expectedValue, actualValue, path: path)
        mismatches += context.mismatches
        fields.append(FieldResult(file: record.file, field: path, passed: context.mismatches.isEmpty))
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
