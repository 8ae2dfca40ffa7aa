import Foundation
import SnapsortImaging

/// Recognises a code whose content changes between scans (a one-time or time-based QR, Card
/// Snap §9): storing it in a wallet is pointless, so the record says so.
public enum DynamicCode {
  /// Query parameters that carry one-time or expiring material.
  static let tokenParameters: Set<String> = [
    "token", "otp", "nonce", "session", "sessionid", "sid", "sig", "signature", "exp", "expires",
    "expiry", "ts", "timestamp", "jwt",
  ]

  /// Why `value` looks dynamic, or nil.
  public static func reason(_ value: String) -> String? {
    let lower = value.lowercased()
    if lower.hasPrefix("otpauth://") { return "one-time password (otpauth)" }
    if let url = URL(string: value), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    {
      if let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems {
        for item in items where tokenParameters.contains(item.name.lowercased()) {
          if let v = item.value, v.count >= 6 { return "URL with a \(item.name.lowercased()) parameter" }
        }
        for item in items {
          if let v = item.value, isRandomToken(v) { return "URL with a random token" }
        }
      }
      for segment in url.pathComponents where isRandomToken(segment) {
        return "URL with a random token"
      }
      if hasTimestamp(value) { return "URL with a timestamp" }
      return nil
    }
    if value.count >= 12, value.contains(where: { !$0.isNumber }), hasTimestamp(value) {
      return "time-based payload (timestamp)"
    }
    return nil
  }

  /// A long run of letters and digits mixed the way generated tokens are, not the way words or
  /// member numbers are: ≥ 20 characters, letters and digits both, upper and lower case or a
  /// high share of digit/letter changes.
  static func isRandomToken(_ s: String) -> Bool {
    let chars = Array(s.unicodeScalars)
    guard chars.count >= 20,
      chars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
    else { return false }
    let digits = chars.filter { ("0"..."9").contains($0) }.count
    let letters = chars.filter { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }.count
    guard digits >= 3, letters >= 3 else { return false }
    var changes = 0
    for (a, b) in zip(chars, chars.dropFirst()) {
      let da = ("0"..."9").contains(a), db = ("0"..."9").contains(b)
      if da != db { changes += 1 }
    }
    return Double(changes) / Double(chars.count - 1) >= 0.2
  }

  /// A Unix time in seconds (2017…2039) or milliseconds standing alone between non-digits.
  static func hasTimestamp(_ s: String) -> Bool {
    var run = ""
    for c in s + " " {
      if c.isASCII && c.isNumber {
        run.append(c)
        continue
      }
      if let n = Int(run) {
        if run.count == 10, (1_500_000_000...2_200_000_000).contains(n) { return true }
        if run.count == 13, (1_500_000_000_000...2_200_000_000_000).contains(n) { return true }
      }
      run = ""
    }
    return false
  }
}
