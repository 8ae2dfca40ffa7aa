import ArgumentParser
import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortReview
import SnapsortStages
import SnapsortTools

struct ReviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract:
      "Serve a page on this machine to check and correct a run, the records most in need of a look first.",
    discussion: """
      Prints the page's URL (127.0.0.1 only, with a token for this session) and serves until \
      Ctrl-C. The queue lists OUT's records by how much they need a look (a failed photo, no card \
      outline, no barcode, no or an unsure name or issuer, receipt amounts that do not add up), \
      each reason with its points. The search box takes what `snapsort search` takes: keywords \
      and its options, e.g. "coffee -decaf --kind receipt". On a card, drag a corner (or focus \
      it and press the arrow keys, with Shift for larger steps) and the card is run again from \
      the warp on with those corners, as `snapsort rewarp` does; edit the name, choose the issuer \
      from the catalog, choose the background colour, add tags and notes. On a receipt, edit the \
      merchant, date, currency and amounts; its checks are computed again as you type.

      Corrections are kept in the store apart from what the run read, so a later `snapsort run` \
      into OUT keeps them and search, show and export see them; records.jsonl stays the \
      pipeline's. Exit 2: OUT is not a run's output folder, or the port is taken.
      """)

  @Argument(help: "A run's output folder.", completion: .directory)
  var out: String = "out"

  @Option(name: .long, help: "The port on 127.0.0.1 (default: a free port the system picks).")
  var port: Int?

  @OptionGroup var configChoice: ConfigChoice

  func validate() throws {
    if let port, !(0...65535).contains(port) { throw ValidationError("--port takes 0 to 65535.") }
  }

  func run() throws {
    let session = try openSession()
    let server: ReviewServer
    do {
      server = try ReviewServer(session: session, port: UInt16(port ?? 0))
    } catch {
      Terminal.error("cannot serve on 127.0.0.1:\(port ?? 0): \(error)")
      throw SnapsortExit.usage
    }
    let url: URL
    switch Self.wait({ try await server.start() }) {
    case .success(let started): url = started
    case .failure(let error):
      Terminal.error(
        ReviewServer.isPortTaken(error)
          ? "port \(port ?? 0) on 127.0.0.1 is taken: give another --port, or none for a free one"
          : "cannot serve on 127.0.0.1:\(port ?? 0): \(error)")
      throw SnapsortExit.usage
    }
    // Unbuffered: a script or test that started the server reads the URL before it stops.
    FileHandle.standardOutput.write(Data((url.absoluteString + "\n").utf8))
    session.prepareReanalysis()
    Terminal.info("reviewing \(session.outputDirectory.path) at the URL above; Ctrl-C stops")
    Self.waitForInterrupt()
    _ = Self.wait { await server.stop() }
    Terminal.info("stopped")
  }

  /// The run in OUT with its config (for re-running a card) and the search box's parser.
  private func openSession() throws -> ReviewSession {
    let outputURL = URL(fileURLWithPath: out)
    let configURL = RunSummary.read(in: outputURL).flatMap { try? configChoice.resolve(forRunOf: $0) }
    let catalog: IssuerCatalog
    do {
      catalog = try IssuerCatalog.load(from: StageContext().resolve(IssuerCatalog.bundledFileName))
    } catch let failure as DataFileError {
      Terminal.error(failure.message)
      throw SnapsortExit.usage
    }
    do {
      return try ReviewSession(
        outputDirectory: outputURL, configURL: configURL, catalog: catalog, parseSearch: Self.parseSearch)
    } catch {
      Terminal.error("\(error)")
      throw SnapsortExit.usage
    }
  }

  /// The search box's text read exactly as `snapsort search` reads its arguments.
  @Sendable static func parseSearch(_ text: String) throws -> ReviewSearch {
    do {
      let search = try SearchCommand.parse(words(of: text))
      return ReviewSearch(query: search.query, filter: search.filters.filter(), category: search.category)
    } catch {
      throw ReviewError(400, SearchCommand.message(for: error))
    }
  }

  /// Splits the box's text as a shell would split a command line: at whitespace, except inside
  /// single or double quotes.
  static func words(of text: String) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    for character in text {
      if let open = quote {
        if character == open { quote = nil } else { word.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        inWord = true
      } else if character.isWhitespace {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(character)
        inWord = true
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Runs async work from this synchronous command and waits for it.
  private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<
    T, any Error
  > {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
      do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
      done.signal()
    }
    done.wait()
    return box.result!
  }

  /// Blocks until SIGINT (Ctrl-C) or SIGTERM arrives.
  private static func waitForInterrupt() {
    let arrived = DispatchSemaphore(value: 0)
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { arrived.signal() }
      source.resume()
      return source
    }
    arrived.wait()
    for source in sources { source.cancel() }
  }
}

/// A result handed from a task to the thread waiting on a semaphore for it.
private final class ResultBox<T>: @unchecked Sendable {
  // Written by the task before it signals, read by the waiter after: the semaphore orders them.
  var result: Result<T, any Error>?
}
