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
    let common = commonWords(Array(byKey.keys), parameters: parameters)
    // A name of legal forms alone (`SDN BHD`) names nothing, and conflicts with no name.
    let farApart = { (a: String, b: String) in
      !a.isEmpty && !b.isEmpty
        && weightedDistance(words(ofKey: a), words(ofKey: b), common: [], parameters: parameters)
          > parameters.maxGroupNameDistance
    }
    // An address or a slogan read as the merchant: the merchant's name is then on a line above.
    let readsAs = { (receipt: Int, key: String) in
      receipts[receipt].lines.prefix(parameters.nameLines).contains {
        closeness(words($0), words(ofKey: key), common: common, parameters: parameters) != nil
      }
    }
    var byIdentifier: [String: Int] = [:]
    for (index, receipt) in receipts.enumerated() {
      for identifier in identifiers(receipt.lines, parameters: parameters).sorted() {
        if let first = byIdentifier[identifier] {
          groups.link(first, index) { keyA, keyB in
            farApart(keyA, keyB) && !readsAs(index, keyA) && !readsAs(first, keyB)
          }
        } else {
          byIdentifier[identifier] = index
        }
      }
    }
    for (a, b) in closeNames(Array(byKey.keys), common: common, parameters: parameters) {
      groups.link(byKey[a]![0], byKey[b]![0], unlessNamed: farApart)
    }
    let names = groups.names(receipts.map(\.merchant))
    return Dictionary(uniqueKeysWithValues: names.map { (receipts[$0.key].id, $0.value) })
  }

  static func words(ofKey key: String) -> [String] { key.split(separator: " ").map(String.init) }

  /// Words of three or more characters in `commonWordNames` or more of the distinct names.
  static func commonWords(_ keys: [String], parameters: Parameters) -> Set<String> {
    var namesOfWord: [String: Int] = [:]
    for key in keys {
      for word in Set(words(ofKey: key)) where word.count >= 3 { namesOfWord[word, default: 0] += 1 }
    }
    return Set(namesOfWord.filter { $0.value >= parameters.commonWordNames }.keys)
  }

  /// Pairs of distinct name keys within `maxDistance`, closest first (ties by the keys).
  static func closeNames(_ keys: [String], common: Set<String>, parameters: Parameters) -> [(String, String)]
  {
    let words = keys.map { Self.words(ofKey: $0) }
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
      if let distance = closeness(words[pair[0]], words[pair[1]], common: common, parameters: parameters) {
        let (a, b) = (keys[pair[0]], keys[pair[1]])
        close.append((distance, min(a, b), max(a, b)))
      }
    }
    return close.sorted { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }.map { ($0.a, $0.b) }
  }

  /// The two names' weighted distance when they read as one merchant's, else nil.
  static func closeness(_ a: [String], _ b: [String], common: Set<String>, parameters: Parameters) -> Double?
  {
    let distance = weightedDistance(a, b, common: common, parameters: parameters)
    guard distance <= parameters.maxDistance,
      distance <= parameters.closeWithoutWords
        || wordsCorrespond(a, b, common: common, parameters: parameters)
    else { return nil }
    return distance
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

/// Union–find over receipts that refuses a link joining two names the user split, and, when
/// asked, one between two groups whose names conflict.
struct LinkedGroups {
  private var sets: DisjointSets
  /// How many receipts of each root's group carry each name key.
  private var keysOfRoot: [Int: [String: Int]]
  private let splits: [(String, String)]

  init(count: Int, keys: [String?], choices: [MerchantGrouping.Choice]) {
    sets = DisjointSets(count: count)
    keysOfRoot = [:]
    for (index, key) in keys.enumerated() { if let key { keysOfRoot[index] = [key: 1] } }
    splits = choices.filter { $0.kind == .split }.map { ($0.first, $0.second) }
  }

  mutating func root(_ index: Int) -> Int { sets.root(of: index) }

  /// The key most of the root's receipts carry (ties: the smaller key); nil for a group without
  /// a name.
  private func mainKey(ofRoot root: Int) -> String? {
    keysOfRoot[root]?.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key
  }

  /// Joins the groups of `a` and `b`, unless the user split two of their names or
  /// `conflicting` holds for the two groups' main keys.
  mutating func link(
    _ a: Int, _ b: Int, unlessNamed conflicting: (String, String) -> Bool = { _, _ in false }
  ) {
    let (rootA, rootB) = (root(a), root(b))
    guard rootA != rootB else { return }
    let keysA = keysOfRoot[rootA] ?? [:], keysB = keysOfRoot[rootB] ?? [:]
    for (first, second) in splits
    where (keysA[first] != nil && keysB[second] != nil)
      || (keysA[second] != nil && keysB[first] != nil)
    {
      return
    }
    if let keyA = mainKey(ofRoot: rootA), let keyB = mainKey(ofRoot: rootB), keyA != keyB,
      conflicting(keyA, keyB)
    {
      return
    }
    sets.join(rootA, rootB)
    keysOfRoot[rootA] = keysA.merging(keysB, uniquingKeysWith: +)
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
