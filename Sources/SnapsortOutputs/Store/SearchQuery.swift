import Foundation
import SnapsortImaging

/// A search query with Screen Cache's semantics, parsed into an OR of ANDs of keywords.
///
/// - Keywords are runs of letters and digits, compared case- and accent-insensitively
///   (`TextFolding.fold`: `zabka` finds `Żabka`, `norrebro` finds `Nørrebro`).
/// - `+`, `and`, and any other punctuation or whitespace between keywords mean AND; a run of
///   whitespace and punctuation counts as one AND.
/// - `or` means OR. AND binds tighter: `a b or c` is `(a AND b) OR c`.
/// - `-` and `not` mean the keyword right after must not appear (`-` anywhere in the run of
///   punctuation before a keyword, so `a -b` and `a-b` both exclude `b`). Saying it twice
///   (`not -b`) still means "not b".
/// - A query of only whitespace and punctuation (or only operators) applies no filter.
public struct SearchQuery: Sendable, Equatable {
  public struct Term: Sendable, Equatable {
    /// Folded by `TextFolding.fold`: lowercased, without diacritics.
    public var keyword: String
    public var negated: Bool
    public init(_ keyword: String, negated: Bool = false) {
      self.keyword = keyword
      self.negated = negated
    }
  }

  /// Alternatives (OR) of conjunctions (AND); empty when the query filters nothing.
  public var clauses: [[Term]]

  public var isEmpty: Bool { clauses.isEmpty }

  public init(clauses: [[Term]]) { self.clauses = clauses }

  public init(parsing text: String) {
    enum Token: Equatable {
      case word(String)
      case minus
    }
    var tokens: [Token] = []
    var word = ""
    for character in text {
      if character.isLetter || character.isNumber {
        word.append(character)
        continue
      }
      if !word.isEmpty {
        tokens.append(.word(word))
        word = ""
      }
      if character == "-" || character == "\u{2212}" { tokens.append(.minus) }
    }
    if !word.isEmpty { tokens.append(.word(word)) }

    var clauses: [[Term]] = [[]]
    var negateNext = false
    for token in tokens {
      switch token {
      case .minus:
        negateNext = true
      case .word(let raw):
        let keyword = TextFolding.fold(raw)
        switch keyword {
        case "and":
          continue
        case "or":
          if !(clauses.last?.isEmpty ?? true) { clauses.append([]) }
          negateNext = false
        case "not":
          negateNext = true
        default:
          clauses[clauses.count - 1].append(Term(keyword, negated: negateNext))
          negateNext = false
        }
      }
    }
    self.clauses = clauses.filter { !$0.isEmpty }
  }

  /// Whether `text` satisfies the query: the same rule the store applies with its index, as
  /// case-insensitive substring matching (used to check the store and by tests).
  public func matches(_ text: String) -> Bool {
    if clauses.isEmpty { return true }
    let folded = TextFolding.fold(text)
    return clauses.contains { clause in
      clause.allSatisfy { folded.contains($0.keyword) != $0.negated }
    }
  }
}
