import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import Logging
import PhotoCurate

/// Writes the context card of an album the catalog knows only by title, by asking
/// an Anthropic Messages API–compatible endpoint for the product's JSON structure.
///
/// ```swift
/// let provider = try AlbumContextProvider.fromEnvironment()   // nil without ANTHROPIC_API_KEY
/// let entry = try provider?.complete(titleOnlyEntry)           // the product's fields, validated
/// ```
/// Input: an `AlbumEntry` with `needsContext`. Output: the same entry with the
/// summary, bullets, rating, recommendation (and, when the catalog lacks them,
/// year, genres, label and key tracks) filled in.
///
/// The key comes from the environment only (`ANTHROPIC_API_KEY`), never from a
/// file. Each call has a 10 s limit and one automatic retry on a transient
/// failure (no connection, timeout, HTTP 408/429/5xx/529). Answers are cached per
/// album and model in SQLite, so an album never costs a second call. The reply is
/// treated as hostile input: it goes through the catalog's own field checks, and
/// the card through `ContentGuard`. Any failure throws `Failure` with the reason;
/// the caller shows "Couldn't find a match" and logs it.
public final class AlbumContextProvider: @unchecked Sendable {
    /// How a request reaches the endpoint (the seam a test points at a local stub server).
    public typealias Transport = @Sendable (URLRequest) throws -> (Data, Int)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public let transient: Bool
        public init(_ description: String, transient: Bool = false) { self.description = description; self.transient = transient }
    }

    public let endpoint: URL
    public let model: String
    public var timeout: TimeInterval = 10
    /// Pause before the single retry.
    public var retryDelay: TimeInterval = 1
    public let cachePath: String?
    let apiKey: String
    let transport: Transport
    let cache: DatabaseQueue?
    let log = Logger(label: "albums")
    private let lock = NSLock()
    /// Requests actually sent (retries included): what the cache saves.
    public private(set) var requestsSent = 0

    public static let defaultEndpoint = "https://api.anthropic.com"
    public static let defaultModel = "claude-sonnet-4-5"

    /// The product's card structure, sent as the required output.
    public static let structure = """
    {"album_title": string, "artist_name": string, "release_year": integer or null, "genres": [string], \
    "record_label": string or null, "context_summary": string (2-3 sentences), "context_bullets": [string] (3-5 items), \
    "rating": number 0-10, "recommendation": "ESSENTIAL" | "RECOMMENDED" | "SKIP" | "AVOID", "key_tracks": [string]}
    """

    public static let instructions = """
    You write the context card of a record-shop app that explains why an album matters musically: its sound, its \
    place in the artist's work and in its genre, its influence. Never mention price, value, worth, cost, investment, \
    rarity, pressings, collecting or collectibility. If you do not know the album, say so in context_summary and use \
    the recommendation SKIP. Reply with one JSON object only, no prose and no code fence, with exactly this structure:
    """ + "\n" + structure

    /// - Parameters:
    ///   - cachePath: SQLite file for answers; nil keeps none.
    ///   - transport: nil uses URLSession with the timeout.
    public init(endpoint: URL, apiKey: String, model: String = defaultModel, cachePath: String?, transport: Transport? = nil) throws {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.model = model
        self.cachePath = cachePath
        if let cachePath {
            try FileManager.default.createDirectory(atPath: (cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var config = Configuration()
            config.busyMode = .timeout(10)
            do {
                let q = try DatabaseQueue(path: cachePath, configuration: config)
                try q.write { db in
                    try db.execute(sql: "CREATE TABLE IF NOT EXISTS context (album TEXT NOT NULL, model TEXT NOT NULL, json TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (album, model))")
                }
                cache = q
            } catch {
                throw Failure("\(cachePath): cannot open the context cache (\(error))")
            }
        } else { cache = nil }
        self.transport = transport ?? Self.urlSessionTransport
    }

    /// The provider the environment asks for: nil when `ANTHROPIC_API_KEY` is unset.
    /// `ANTHROPIC_BASE_URL` points at a compatible endpoint; `PHOTOCURATE_ALBUMS_MODEL` names the model.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment,
                                       cachePath: String? = defaultCachePath()) throws -> AlbumContextProvider? {
        guard let key = env["ANTHROPIC_API_KEY"], !key.isEmpty else { return nil }
        let base = env["ANTHROPIC_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultEndpoint
        guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https" else {
            throw Failure("ANTHROPIC_BASE_URL \"\(base)\" is not an http(s) address")
        }
        let model = env["PHOTOCURATE_ALBUMS_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultModel
        return try AlbumContextProvider(endpoint: url, apiKey: key, model: model, cachePath: cachePath)
    }

    /// `$XDG_CACHE_HOME/photocurate/album-context.sqlite`.
    public static func defaultCachePath(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/photocurate/album-context.sqlite"
    }

    /// The entry with its context written; the catalog's own title, artist and cover are kept.
    public func complete(_ entry: AlbumEntry, catalogFolder: String) throws -> AlbumEntry {
        if let cached = try? cache?.read({ db in
            try String.fetchOne(db, sql: "SELECT json FROM context WHERE album = ? AND model = ?", arguments: [entry.id, model])
        }), let done = try? merge(Data(cached.utf8), into: entry, folder: catalogFolder) {
            return done
        }
        let reply = try request(entry)
        let done = try merge(reply, into: entry, folder: catalogFolder)
        do {
            try cache?.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO context (album, model, json, created) VALUES (?, ?, ?, ?)",
                               arguments: [entry.id, model, String(decoding: reply, as: UTF8.self), Date().timeIntervalSince1970])
            }
        } catch {
            log.warning("album context not cached (\(cachePath ?? "")): \(error)", metadata: ["event": "album-context-cache"])
        }
        return done
    }

    /// The reply's JSON object, checked field by field like a catalog entry.
    func merge(_ json: Data, into entry: AlbumEntry, folder: String) throws -> AlbumEntry {
        guard var o = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw Failure("the reply is not a JSON object")
        }
        // The catalog decides which album and cover this is; the catalog's facts win.
        o["album_title"] = entry.album_title
        o["artist_name"] = entry.artist_name
        o["album_art"] = entry.album_art
        if let y = entry.release_year { o["release_year"] = y }
        if !entry.genres.isEmpty { o["genres"] = entry.genres }
        if let l = entry.record_label { o["record_label"] = l }
        if !entry.key_tracks.isEmpty { o["key_tracks"] = entry.key_tracks }
        do { return try AlbumCatalog.validate(o, folder: folder, titleOnlyAllowed: false) } catch let e as AlbumCatalog.LoadError {
            throw Failure("the reply does not have the card's structure: \(e.description)")
        }
    }

    /// One call, retried once when the failure is transient; the JSON text of the answer.
    func request(_ entry: AlbumEntry) throws -> Data {
        var url = endpoint
        if !url.path.hasSuffix("/messages") { url = url.appendingPathComponent("v1/messages") }
        var req = URLRequest(url: url, timeoutInterval: timeout)
        req.httpMethod = "POST"
        req.setValue("application/json", forHTTPHeaderField: "content-type")
        req.setValue(apiKey, forHTTPHeaderField: "x-api-key")
        req.setValue("2023-06-01", forHTTPHeaderField: "anthropic-version")
        struct Message: Encodable { var role: String; var content: String }
        struct Body: Encodable { var model: String; var max_tokens: Int; var system: String; var messages: [Message]; var temperature: Double }
        let ask = "Album: \"\(entry.album_title)\" by \(entry.artist_name)" + (entry.release_year.map { " (\($0))" } ?? "") + "."
        req.httpBody = try? JSONEncoder().encode(Body(model: model, max_tokens: 1024, system: Self.instructions,
                                                      messages: [Message(role: "user", content: ask)], temperature: 0))
        var last: Failure? = nil
        for attempt in 0..<2 {
            if attempt == 1 {
                log.info("album context: retrying \(entry.artist_name) — \(entry.album_title) after \(last!.description)", metadata: ["event": "album-context-retry"])
                Thread.sleep(forTimeInterval: retryDelay)
            }
            do { return try once(req) } catch let f as Failure {
                last = f
                if !f.transient { break }
            }
        }
        throw last!
    }

    func once(_ req: URLRequest) throws -> Data {
        lock.lock(); requestsSent += 1; lock.unlock()
        let data: Data, status: Int
        do { (data, status) = try transport(req) } catch let f as Failure { throw f } catch {
            throw Failure("\(req.url?.absoluteString ?? ""): \(Self.reason(error, timeout: req.timeoutInterval))", transient: true)
        }
        guard (200..<300).contains(status) else {
            let detail = Self.apiError(data).map { ": \($0)" } ?? ""
            throw Failure("\(req.url?.absoluteString ?? ""): HTTP \(status)\(detail)", transient: [408, 409, 429, 500, 502, 503, 504, 529].contains(status))
        }
        struct Reply: Decodable { struct Block: Decodable { var type: String; var text: String? }; var content: [Block]? }
        guard let reply = try? JSONDecoder().decode(Reply.self, from: data), let blocks = reply.content else {
            throw Failure("the reply is not a Messages API response (no content)")
        }
        let text = blocks.compactMap { $0.type == "text" ? $0.text : nil }.joined()
        // Models sometimes wrap the object in a code fence or a sentence: the outermost braces.
        guard let open = text.firstIndex(of: "{"), let close = text.lastIndex(of: "}"), open < close else {
            throw Failure("the reply has no JSON object in its text")
        }
        return Data(text[open...close].utf8)
    }

    /// The network failure in words, not a Foundation dump.
    static func reason(_ error: Error, timeout: TimeInterval) -> String {
        let e = error as NSError
        guard e.domain == NSURLErrorDomain else { return "\(error)" }
        switch e.code {
        case NSURLErrorTimedOut: return "no reply within \(ParameterSpec.formatted(timeout)) s"
        case NSURLErrorCannotConnectToHost: return "connection refused"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "host not found"
        case NSURLErrorNotConnectedToInternet: return "no network"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted: return "the TLS connection failed"
        default: return "network error \(e.code)"
        }
    }

    static func apiError(_ data: Data) -> String? {
        struct E: Decodable { struct Inner: Decodable { var type: String?; var message: String? }; var error: Inner? }
        guard let e = try? JSONDecoder().decode(E.self, from: data).error else { return nil }
        return [e.type, e.message].compactMap { $0 }.joined(separator: ": ").prefix(300).description
    }

    /// URLSession with a hard limit: the whole exchange, not only idle time, within `timeoutInterval`.
    static let urlSessionTransport: Transport = { request in
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = request.timeoutInterval
        config.timeoutIntervalForResource = request.timeoutInterval
        let session = URLSession(configuration: config)
        defer { session.finishTasksAndInvalidate() }
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var result: Result<(Data, Int), Error> = .failure(Failure("no reply", transient: true)) }
        let box = Box()
        let task = session.dataTask(with: request) { data, response, error in
            if let error { box.result = .failure(error) } else {
                box.result = .success((data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + request.timeoutInterval + 1) == .timedOut {
            task.cancel()
            throw Failure("\(request.url?.absoluteString ?? ""): no reply within \(Int(request.timeoutInterval)) s", transient: true)
        }
        return try box.result.get()
    }
}
