import SnapsortStages

extension Rewarp {
  /// What a rewarp did: every record of the run, and for each corrected file whether its new
  /// record replaced the old one or why the old one stands.
  public struct Outcome: Sendable {
    /// Every record of the run, sorted by path: the replaced ones new, the others as they were.
    public var records: [Record]
    /// Files whose new record replaced the old one.
    public var replaced: [String]
    /// Files whose old record stands, each with the reason the new one was not taken.
    public var kept: [(file: String, reason: String)]
  }
}
