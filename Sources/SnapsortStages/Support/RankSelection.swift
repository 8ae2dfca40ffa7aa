extension Array where Element: Comparable {
  /// The value at `rank` of the array sorted ascending, by Hoare's selection (the array is
  /// reordered): the same value a full sort gives, in linear time on average, for a median or a
  /// percentile of many values.
  mutating func selectElement(atRank rank: Int) -> Element {
    var low = 0, high = count - 1
    while low < high {
      let pivot = self[(low + high) / 2]
      var i = low, j = high
      while i <= j {
        while self[i] < pivot { i += 1 }
        while self[j] > pivot { j -= 1 }
        if i <= j {
          swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if rank <= j {
        high = j
      } else if rank >= i {
        low = i
      } else {
        return self[rank]
      }
    }
    return self[rank]
  }
}
