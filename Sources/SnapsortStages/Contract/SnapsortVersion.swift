/// The version records and run summaries name; another version may give other records.
public enum SnapsortVersion {
  public static let current = "0.1.0"
}
