import Foundation
import SnapsortImaging
import SnapsortStages

extension MerchantGrouping {
  /// Each receipt's merchant: the name of its group, by receipt id. Receipts with no merchant
  /// name and no identifier shared with a named one are left out.
  public static func entities(
    of receipts: [Receipt], choices: [Choice] = [], parameters: Parameters = Parameters()
  ) -> [Int64: String] {
    let keys = receipts.map { $0.merchant.map(key) }
    var groups = LinkedGroups(count: receipts.count, keys: keys, choices: choices)
    var byKey: [String: [Int]] = [:]
    for (index, key) in keys.enumerated() { if let key { byKey[key, default: []].append(index) } }
    for choice in choices where choice.kind == .merge {
      if let a = byKey[choice.first]?.first, let b = byKey[choice.second]?.first { groups.link(a, b) }
    }
    for members in byKey.values { for index in members.dropFirst() { groups.link(members[0], index) } }
    var byIdentifier: [String: Int] = [:]
    for (index, receipt) in receipts.enumerated() {
      for identifier in identifiers(receipt.lines, parameters: parameters).sorted() {
        if let first = byIdentifier[identifier] {
          groups.link(first, index)
        } else {
          byIdentifier[identifier] = index
        }
      }
    }
    for (a, b) in closeNames(Array(byKey.keys), parameters: parameters) {
      groups.link(byKey[a]![0], byKey[b]![0])
    }
    let names = groups.names(receipts.map(\.merchant))
    return Dictionary(uniqueKeysWithValues: names.map { (receipts[$0.key].id, $0.value) })
  }

  /// Pairs of distinct name keys within `maxDistance`, closest first (ties by the keys).
  static func closeNames(_ keys: [String], parameters: Parameters) -> [(String, String)] {
    let words = keys.map { $0.split(separator: " ").map(String.init) }
    var namesOfWord: [String: Int] = [:]
    for name in words { for word in Set(name) where word.count >= 3 { namesOfWord[word, default: 0] += 1 } }
    let common = Set(namesOfWord.filter { $0.value >= parameters.commonWordNames }.keys)
    // Only names sharing three characters in a row are compared: a name within 20 % of
    // another shares one, and a store of thousands of names is not compared pair by pair.
    var namesOfTrigram: [Substring: [Int]] = [:]
    let joined = words.map { Array($0.joined()) }
    for (index, characters) in joined.enumerated() where characters.count >= 3 {
      for trigram in Set((0...(characters.count - 3)).map { String(characters[$0..<$0 + 3])[...] }) {
        namesOfTrigram[trigram, default: []].append(index)
      }
    }
    var pairs: Set<[Int]> = []
    for members in namesOfTrigram.values where members.count > 1 {
      for i in members.indices {
        for j in members.indices where j > i { pairs.insert([members[i], members[j]]) }
      }
    }
    var close: [(distance: Double, a: String, b: String)] = []
    for pair in pairs {
      let distance = weightedDistance(words[pair[0]], words[pair[1]], common: common, parameters: parameters)
      if distance <= parameters.maxDistance
        && (distance <= parameters.closeWithoutWords
          || wordsCorrespond(words[pair[0]], words[pair[1]], common: common, parameters: parameters))
      {
        let (a, b) = (keys[pair[0]], keys[pair[1]])
        close.append((distance, min(a, b), max(a, b)))
      }
    }
    return close.sorted { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }.map { ($0.a, $0.b) }
  }

  /// Whether every word of each name but the common and the shortest ones is close to a word of
  /// the other.
  static func wordsCorrespond(_ a: [String], _ b: [String], common: Set<String>, parameters: Parameters)
    -> Bool
  {
    func covered(_ words: [String], by others: [String]) -> Bool {
      words.allSatisfy { word in
        common.contains(word) || word.count <= parameters.unmatchedWordLength
          || others.contains { other in
            Double(EditDistance.levenshtein(word, other)) / Double(max(word.count, other.count))
              <= parameters.maxWordDistance
          }
      }
    }
    return covered(a, by: b) && covered(b, by: a)
  }

  /// Levenshtein distance where characters of common words weigh `commonWordWeight`, as a
  /// share of the heavier name.
  static func weightedDistance(_ a: [String], _ b: [String], common: Set<String>, parameters: Parameters)
    -> Double
  {
    func weighted(_ words: [String]) -> [(Character, Double)] {
      words.flatMap { word in
        let weight = common.contains(word) ? parameters.commonWordWeight : 1
        return word.map { ($0, weight) }
      }
    }
    let p = weighted(a), q = weighted(b)
    let pWeight = p.reduce(0) { $0 + $1.1 }, qWeight = q.reduce(0) { $0 + $1.1 }
    guard pWeight > 0, qWeight > 0 else { return 1 }
    var previous = [0.0]
    for (_, weight) in q { previous.append(previous.last! + weight) }
    for (character, weight) in p {
      var current = [previous[0] + weight]
      for (j, (other, otherWeight)) in q.enumerated() {
        let substitution = previous[j] + (character == other ? 0 : max(weight, otherWeight))
        current.append(min(previous[j + 1] + weight, current[j] + otherWeight, substitution))
      }
      previous = current
    }
    return previous.last! / max(pWeight, qWeight)
  }
}

/// Union–find over receipts that refuses a link joining two names the user split.
struct LinkedGroups {
  private var sets: DisjointSets
  /// The name keys in each root's group.
  private var keysOfRoot: [Int: Set<String>]
  private let splits: [(String, String)]

  init(count: Int, keys: [String?], choices: [MerchantGrouping.Choice]) {
    sets = DisjointSets(count: count)
    keysOfRoot = [:]
    for (index, key) in keys.enumerated() { if let key { keysOfRoot[index] = [key] } }
    splits = choices.filter { $0.kind == .split }.map { ($0.first, $0.second) }
  }

  mutating func root(_ index: Int) -> Int { sets.root(of: index) }

  mutating func link(_ a: Int, _ b: Int) {
    let (rootA, rootB) = (root(a), root(b))
    guard rootA != rootB else { return }
    let keysA = keysOfRoot[rootA] ?? [], keysB = keysOfRoot[rootB] ?? []
    for (first, second) in splits
    where (keysA.contains(first) && keysB.contains(second))
      || (keysA.contains(second) && keysB.contains(first))
    {
      return
    }
    sets.join(rootA, rootB)
    keysOfRoot[rootA] = keysA.union(keysB)
    keysOfRoot[rootB] = nil
  }

  /// Each receipt's group name: of the name most of the group's receipts carry once OCR's
  /// confusions and legal forms are set aside, the spelling closest to the others (the medoid
  /// by edit distance, each spelling counted once per receipt); receipts in a group without any
  /// name are left out.
  mutating func names(_ merchants: [String?]) -> [Int: String] {
    var spellings: [Int: [String: Int]] = [:]
    for (index, merchant) in merchants.enumerated() {
      if let merchant { spellings[root(index), default: [:]][merchant, default: 0] += 1 }
    }
    let nameOfRoot = spellings.mapValues(Self.medoid)
    var result: [Int: String] = [:]
    for index in merchants.indices { if let name = nameOfRoot[root(index)] { result[index] = name } }
    return result
  }

  static func medoid(_ counts: [String: Int]) -> String {
    let keyOf = Dictionary(uniqueKeysWithValues: counts.keys.map { ($0, MerchantGrouping.key($0)) })
    var receiptsOfKey: [String: Int] = [:]
    for (spelling, count) in counts { receiptsOfKey[keyOf[spelling]!, default: 0] += count }
    let key = receiptsOfKey.min { ($1.value, $0.key) < ($0.value, $1.key) }!.key
    let spellings = counts.filter { keyOf[$0.key] == key }
      .sorted { ($1.value, $0.key) < ($0.value, $1.key) }
    let folded = spellings.map { TextFolding.fold($0.key) }
    // The 50 most frequent spellings are the candidates; every spelling votes.
    let scored = folded.prefix(50).indices.map { candidate in
      (
        cost: folded.indices.reduce(0) {
          $0 + spellings[$1].value * EditDistance.levenshtein(folded[candidate], folded[$1])
        }, index: candidate
      )
    }
    return spellings[scored.min { ($0.cost, $0.index) < ($1.cost, $1.index) }!.index].key
  }
}
