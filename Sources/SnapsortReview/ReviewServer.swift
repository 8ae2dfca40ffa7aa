import FlyingFox
import FlyingSocks
import Foundation

/// `snapsort review`'s HTTP server: the page and its API on 127.0.0.1 only.
///
/// Every request but the page's static script and style must carry the session's token (in
/// the page's URL, then in a header), and its Host must be this address, so another site open
/// in the browser can neither read nor write (it cannot set the header, and a rebound DNS name
/// fails the Host check). Writes are POSTs of JSON with the header.
public final class ReviewServer: Sendable {
  public static let tokenHeader = HTTPHeader("X-Review-Token")
  let session: ReviewSession
  let token: String
  let server: HTTPServer

  /// - Parameter port: 0 lets the system choose a free port.
  public init(session: ReviewSession, port: UInt16, token: String = ReviewServer.newToken()) throws {
    self.session = session
    self.token = token
    server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), timeout: 60, logger: .disabled)
  }

  /// 128 random bits, hex: the URL's secret for this run of the server.
  public static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
      .joined()
  }

  /// Starts listening; returns the page's URL (with the token) once connections are accepted.
  ///
  /// - Throws: the bind's error (a port in use: `SocketError.failed` with `EADDRINUSE`).
  public func start() async throws -> URL {
    await addRoutes()
    let failure = FailureBox()
    Task { [server] in
      do { try await server.run() } catch { failure.set(error) }
    }
    while true {
      if let error = failure.error { throw error }
      if case .ip4(_, let port) = await server.listeningAddress {
        return URL(string: "http://127.0.0.1:\(port)/?token=\(token)")!
      }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
  }

  /// Closes the listening socket, then waits for the write in progress, if any (a rewarp takes
  /// about a second), so the folder is left as that write leaves it.
  public func stop() async {
    await server.stop(timeout: 1)
    _ = try? await session.perform { _ in true }
  }

  // MARK: - Routes

  private func addRoutes() async {
    let page = ReviewPage.self
    await server.appendRoute("GET /review.js") { _ in
      Self.response(Data(page.script.utf8), type: "text/javascript")
    }
    await server.appendRoute("GET /review.css") { _ in Self.response(Data(page.style.utf8), type: "text/css")
    }
    // Browsers ask for it on their own; no icon, and no 404 in the console.
    await server.appendRoute("GET /favicon.ico") { _ in HTTPResponse(statusCode: .noContent) }
    await server.appendRoute("GET /") { [self] request in
      try self.guarded(request, write: false) { _ in
        Self.response(Data(page.html.utf8), type: "text/html; charset=utf-8", extra: page.securityHeaders)
      }
    }
    await route("GET /api/queue") { session, request in
      try session.queue(
        search: request.query["q"] ?? "", offset: try Self.number(request, "offset") ?? 0,
        limit: try Self.number(request, "limit") ?? 100)
    }
    await route("GET /api/record") { session, request in try session.detail(file: Self.file(request)) }
    await route("GET /api/checks") { session, request in
      try session.checks(
        file: Self.file(request), subtotal: request.query["subtotal"], tax: request.query["tax"],
        total: request.query["total"])
    }
    await route("GET /api/issuers") { session, request in try session.issuerOptions(request.query["q"] ?? "")
    }
    await server.appendRoute("GET /photo") { [self] request in
      let file = try? Self.file(request)
      return try await self.answer(request, write: false) { session in
        let photo = try session.photo(file: file ?? "")
        return Self.response(photo.data, type: photo.type)
      }
    }
    await server.appendRoute("GET /crop") { [self] request in
      let file = try? Self.file(request)
      return try await self.answer(request, write: false) { session in
        Self.response(try session.crop(file: file ?? ""), type: "image/jpeg")
      }
    }
    await server.appendRoute("GET /page") { [self] request in
      let file = try? Self.file(request)
      return try await self.answer(request, write: false) { session in
        Self.response(try session.page(file: file ?? ""), type: "image/jpeg")
      }
    }
    await post("/api/correct", as: ReviewSession.FieldEdit.self) { try $0.correct($1) }
    await post("/api/quad", as: ReviewSession.CornerEdit.self) { try $0.rewarp($1) }
    await post("/api/labels", as: ReviewSession.LabelEdit.self) { try $0.label($1) }
  }

  /// A GET answered with JSON from the session.
  private func route(
    _ route: HTTPRoute, _ body: @escaping @Sendable (ReviewSession, HTTPRequest) throws -> Data
  ) async {
    await server.appendRoute(route) { [self] request in
      try await self.answer(request, write: false) { session in
        Self.response(try body(session, request), type: "application/json")
      }
    }
  }

  /// A POST of a JSON body decoded as `Edit`, answered with JSON.
  private func post<Edit: Decodable & Sendable>(
    _ path: String, as type: Edit.Type, _ body: @escaping @Sendable (ReviewSession, Edit) throws -> Data
  ) async {
    await server.appendRoute(HTTPRoute("POST \(path)")) { [self] request in
      let data = try await request.bodyData
      return try await self.answer(request, write: true) { session in
        let edit: Edit
        do {
          edit = try JSONDecoder().decode(Edit.self, from: data)
        } catch {
          throw ReviewError(400, "the request is not the JSON \(path) takes: \(error)")
        }
        return Self.response(try body(session, edit), type: "application/json")
      }
    }
  }

  /// Checks the request, then runs `body` in the session; a refusal becomes its status and a
  /// JSON `{"error": …}` the page shows.
  private func answer(
    _ request: HTTPRequest, write: Bool, _ body: @escaping @Sendable (ReviewSession) throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    do {
      try check(request, write: write)
      return try await session.perform(body)
    } catch let error as ReviewError {
      return Self.failure(error)
    } catch {
      return Self.failure(ReviewError(500, "\(error)"))
    }
  }

  private func guarded(
    _ request: HTTPRequest, write: Bool, _ body: (HTTPRequest) throws -> HTTPResponse
  ) throws -> HTTPResponse {
    do {
      try check(request, write: write)
      return try body(request)
    } catch let error as ReviewError {
      return Self.failure(error)
    }
  }

  /// A whole-number query parameter; nil when absent, 400 when it is not a number.
  static func number(_ request: HTTPRequest, _ name: String) throws -> Int? {
    guard let text = request.query[name] else { return nil }
    guard let value = Int(text) else { throw ReviewError(400, "\(name) must be a whole number") }
    return value
  }

  /// The token (a header on writes, the header or the URL's query on reads), the Host, and for
  /// a write a JSON body: a form another site posts has none of them.
  private func check(_ request: HTTPRequest, write: Bool) throws {
    let host = request.headers[.host] ?? ""
    guard host.hasPrefix("127.0.0.1:") || host.hasPrefix("localhost:") else {
      throw ReviewError(403, "this server answers only to 127.0.0.1")
    }
    let given = request.headers[Self.tokenHeader] ?? (write ? nil : request.query["token"])
    guard given == token else {
      throw ReviewError(403, "open the URL snapsort review printed (it holds this session's token)")
    }
    if write, !(request.headers[.contentType] ?? "").hasPrefix("application/json") {
      throw ReviewError(415, "writes take application/json")
    }
  }

  static func file(_ request: HTTPRequest) throws -> String {
    guard let file = request.query["file"], !file.isEmpty else { throw ReviewError(400, "no file given") }
    return file
  }

  static func response(_ body: Data, type: String, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
    var headers: [HTTPHeader: String] = [.contentType: type, HTTPHeader("Cache-Control"): "no-store"]
    headers.merge(extra) { $1 }
    return HTTPResponse(statusCode: .ok, headers: HTTPHeaders(headers), body: body)
  }

  static func failure(_ error: ReviewError) -> HTTPResponse {
    let body = (try? ReviewSession.json(["error": error.description])) ?? Data()
    return HTTPResponse(
      statusCode: HTTPStatusCode(error.status, phrase: "Refused"),
      headers: [.contentType: "application/json"], body: body)
  }
}

/// The server task's error, read by `start` while it waits for the socket to listen.
private final class FailureBox: @unchecked Sendable {
  // Guarded by `lock`: set once by the server's task, read by the waiting one.
  private let lock = NSLock()
  private var stored: (any Error)?
  var error: (any Error)? { lock.withLock { stored } }
  func set(_ error: any Error) { lock.withLock { stored = error } }
}

extension ReviewServer {
  /// Whether `start` failed because another program listens on the port.
  public static func isPortTaken(_ error: any Error) -> Bool {
    if case SocketError.failed(_, let code, _) = error as? SocketError ?? .blocked {
      return code == EADDRINUSE
    }
    return false
  }
}
