extension Array where Element == Double {
  /// The middle value, or the mean of the two middle values of an even count; 0 for no values.
  public var median: Double {
    guard !isEmpty else { return 0 }
    let sorted = self.sorted(), middle = count / 2
    return count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
