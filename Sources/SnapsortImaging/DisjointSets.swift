/// Union–find over the indices `0..<count`, with path halving: which samples form one area of a
/// card, which receipts name one merchant.
public struct DisjointSets: Sendable {
  private var parent: [Int]

  public init(count: Int) { parent = Array(0..<count) }

  /// The representative of `index`'s set.
  public mutating func root(of index: Int) -> Int {
    var index = index
    while parent[index] != index {
      parent[index] = parent[parent[index]]
      index = parent[index]
    }
    return index
  }

  /// Puts the sets of `a` and `b` together, under `a`'s representative.
  public mutating func join(_ a: Int, _ b: Int) {
    let rootA = root(of: a), rootB = root(of: b)
    if rootA != rootB { parent[rootB] = rootA }
  }
}
