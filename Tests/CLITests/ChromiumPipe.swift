import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// the browser reads commands on its fd 3 and writes replies and events on its fd 4, each one
/// JSON message ended by a NUL byte), so a test sends real mouse and key input to a page.
final class ChromiumPipe {
  private var pid: pid_t = 0
  private let commands: Int32
  private let replies: Int32
  private var buffer = Data()
  private var nextID = 0
  /// Every event received so far (`method` and `params`), for console and exception checks.
  private(set) var events: [[String: Any]] = []
  private var session: String?

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(browser: String, profile: URL) throws {
    var toBrowser: [Int32] = [0, 0]
    var fromBrowser: [Int32] = [0, 0]
    guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed") }
    // Far from 3 and 4, so the dup2 onto them below cannot overwrite each other.
    let childRead = fcntl(toBrowser[0], F_DUPFD, 100)
    let childWrite = fcntl(fromBrowser[1], F_DUPFD, 100)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, childRead, 3)
    posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
      "--window-size=1280,1000", "--user-data-dir=\(profile.path)", "about:blank",
    ]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let status = posix_spawn(&pid, browser, &actions, nil, &argv, environ)
    for fd in [toBrowser[0], fromBrowser[1], childRead, childWrite] { close(fd) }
    guard status == 0 else { throw Failure(description: "cannot start \(browser): \(status)") }
    commands = toBrowser[1]
    replies = fromBrowser[0]
  }

  deinit {
    close(commands)
    close(replies)
    if pid > 0 {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  /// Opens a page and attaches to it; later commands go to that page.
  func open(_ url: String) throws {
    let target = try send("Target.createTarget", ["url": "about:blank"], toPage: false)
    let attached = try send(
      "Target.attachToTarget", ["targetId": target["targetId"] as Any, "flatten": true], toPage: false)
    session = attached["sessionId"] as? String
    for domain in ["Runtime.enable", "Log.enable", "Page.enable"] { _ = try send(domain) }
    _ = try send("Page.navigate", ["url": url])
  }

  /// Sends a command and waits for its reply's `result`.
  @discardableResult
  func send(_ method: String, _ params: [String: Any] = [:], toPage: Bool = true) throws -> [String: Any] {
    nextID += 1
    var message: [String: Any] = ["id": nextID, "method": method, "params": params]
    if toPage, let session { message["sessionId"] = session }
    var data = try JSONSerialization.data(withJSONObject: message)
    data.append(0)
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(commands, bytes.baseAddress! + offset, bytes.count - offset)
        guard written > 0 else { throw Failure(description: "the browser closed its pipe") }
        offset += written
      }
    }
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      guard let reply = try nextMessage(until: deadline) else { break }
      if reply["id"] as? Int == nextID {
        if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
        return reply["result"] as? [String: Any] ?? [:]
      }
      events.append(reply)
    }
    throw Failure(description: "\(method): no reply within 60 s")
  }

  /// The value of a JavaScript expression in the page.
  @discardableResult
  func evaluate(_ expression: String) throws -> Any? {
    let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
    if let exception = result["exceptionDetails"] {
      throw Failure(description: "\(expression): \(exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Polls `expression` until it is true.
  func wait(for expression: String, seconds: Double = 30) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try evaluate(expression) as? Bool == true { return }
      usleep(100_000)
    }
    throw Failure(description: "waited \(Int(seconds)) s for \(expression)")
  }

  /// A real press, move and release of the left mouse button, in CSS pixels of the viewport.
  func drag(from start: (x: Double, y: Double), by offset: (x: Double, y: Double), steps: Int = 6) throws {
    func mouse(_ type: String, _ x: Double, _ y: Double, buttons: Int) throws {
      try send(
        "Input.dispatchMouseEvent",
        ["type": type, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1])
    }
    try mouse("mouseMoved", start.x, start.y, buttons: 0)
    try mouse("mousePressed", start.x, start.y, buttons: 1)
    for step in 1...steps {
      let share = Double(step) / Double(steps)
      try mouse("mouseMoved", start.x + offset.x * share, start.y + offset.y * share, buttons: 1)
    }
    try mouse("mouseReleased", start.x + offset.x, start.y + offset.y, buttons: 0)
  }

  /// A real key press and release, as the focused element receives it.
  func press(_ key: String, code: Int) throws {
    for type in ["rawKeyDown", "keyUp"] {
      try send(
        "Input.dispatchKeyEvent", ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code])
    }
  }

  /// Console calls, uncaught exceptions and logged warnings or errors (CSP violations, failed
  /// loads) seen so far, one line each.
  func problems() -> [String] {
    events.compactMap { event -> String? in
      let params = event["params"] as? [String: Any] ?? [:]
      switch event["method"] as? String {
      case "Runtime.exceptionThrown": return "exception: \(params["exceptionDetails"] ?? "")"
      case "Runtime.consoleAPICalled": return "console.\(params["type"] ?? ""): \(params["args"] ?? "")"
      case "Log.entryAdded":
        let entry = params["entry"] as? [String: Any] ?? [:]
        let level = entry["level"] as? String ?? ""
        return level == "error" || level == "warning"
          ? "log \(level): \(entry["text"] ?? "") \(entry["url"] ?? "")" : nil
      default: return nil
      }
    }
  }

  /// Reads up to the next NUL-ended message, or nil at the deadline or end of the pipe.
  private func nextMessage(until deadline: Date) throws -> [String: Any]? {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = buffer[buffer.startIndex..<end]
        buffer.removeSubrange(buffer.startIndex...end)
        return try JSONSerialization.jsonObject(with: message) as? [String: Any] ?? [:]
      }
      let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
      var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, left) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = read(replies, &chunk, chunk.count)
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[0..<count])
    }
  }
}
