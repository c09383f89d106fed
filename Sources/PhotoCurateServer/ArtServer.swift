import Foundation
import Hummingbird
import Logging
import PhotoCurate
import PhotoCurateArt

/// Serves the art-match REST API (the product's contract) and its web page.
///
/// ```swift
/// try await ArtServer(library: library, port: 3001).run()
/// ```
/// `POST /api/search/text {query}`, `/api/search/image {imageBase64}`,
/// `/api/search/combined {query, imageBase64}` (each also takes `filters`,
/// `sort`, `seed`, `limit`) → `{success, criteria, results, count}`;
/// `GET /api/artworks/{id}`, `GET /api/artworks/{id}/image`, `GET /api/analysis/artwork/{id}`,
/// `POST /api/analysis/enqueue {artworkIds?}` (idempotent), `POST /api/visualize` → JPEG.
/// The contract is `docs/art/openapi.yaml`. Images over 10 MB get 413, bad
/// base64 or a non-image 400, an unknown id 404; every error is JSON
/// `{success: false, error}`. Image decodes run two at a time, so a burst of
/// uploads queues instead of growing memory.
public struct ArtServer: Sendable {
    public let library: ArtLibrary
    public let host: String
    public let port: Int
    public static let maxImageBytes = 10 * 1024 * 1024

    public init(library: ArtLibrary, host: String = "127.0.0.1", port: Int = 3001) {
        self.library = library; self.host = host; self.port = port
    }

    struct Filters: Decodable {
        var priceMin: Double?, priceMax: Double?, styles: [String]?, colors: [String]?, artist: String?
    }
    struct SearchRequest: Decodable {
        var query: String?
        var imageBase64: String?
        var filters: Filters?
        var sort: String?
        var seed: UInt64?
        var limit: Int?
    }
    struct VisualizeRequest: Decodable {
        var artworkId: String
        var imageBase64: String
        var x: Double?, y: Double?, scale: Double?, rotation: Int?, opacity: Double?, aspectLock: Bool?, stretch: Double?, grid: Bool?
    }
    struct EnqueueRequest: Decodable { var artworkIds: [String]? }

    struct Failure: Error { let status: HTTPResponse.Status; let message: String }

    static func json<T: Encodable>(_ status: HTTPResponse.Status, _ value: T) -> Response {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        let data = (try? e.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        struct E: Encodable { let success = false; let error: String }
        return json(status, E(error: message))
    }

    /// Reads and decodes a JSON body of at most `limit` bytes.
    static func body<T: Decodable>(_ request: Request, _ what: String, limit: Int, as: T.Type) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch {
            throw Failure(status: .contentTooLarge, message: "\(what): the body is over \(limit / 1_048_576) MB (images are limited to 10 MB)")
        }
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: buffer)) } catch let DecodingError.keyNotFound(k, _) {
            throw Failure(status: .badRequest, message: "\(what): the field \(k.stringValue) is missing")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw Failure(status: .badRequest, message: "\(what): the field \(ctx.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type")
        } catch {
            throw Failure(status: .badRequest, message: "\(what): the body is not valid JSON")
        }
    }

    /// Base64 (optionally a data: URL) → image bytes, with the 10 MB limit.
    static func imageBytes(_ b64: String, _ what: String) throws -> Data {
        // On UTF-8 bytes, not Characters: a 13 MB string walked by grapheme cost ~300 MB of copies.
        var bytes = [UInt8]()
        bytes.reserveCapacity(b64.utf8.count)
        var body = b64.utf8[...]
        if body.starts(with: "data:".utf8), let comma = body.firstIndex(of: UInt8(ascii: ",")) { body = body[body.index(after: comma)...] }
        for c in body where c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09 { bytes.append(c) }
        if bytes.isEmpty { throw Failure(status: .badRequest, message: "\(what): imageBase64 is empty") }
        if bytes.count / 4 * 3 > maxImageBytes + 3 { throw Failure(status: .contentTooLarge, message: "\(what): the image is over 10 MB") }
        guard let data = Data(base64Encoded: Data(bytes)) else { throw Failure(status: .badRequest, message: "\(what): imageBase64 is not valid base64") }
        if data.count > maxImageBytes { throw Failure(status: .contentTooLarge, message: "\(what): the image is over 10 MB") }
        return data
    }

    /// Decodes uploaded bytes through a private temporary file (libvips reads files; the bytes never touch the catalog).
    func withImageFile<T>(_ data: Data, _ what: String, _ body: (String) throws -> T) async throws -> T {
        await gate.acquire()
        defer { Task { await gate.release() } }
        let path = NSTemporaryDirectory() + "photocurate-upload-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw Failure(status: .internalServerError, message: "\(what): the upload could not be stored for decoding")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { return try body(path) } catch let e as PhotoError {
            throw Failure(status: .badRequest, message: "\(what): the upload is not a readable image (\(e.reason))")
        } catch let f as Failure { throw f } catch {
            throw Failure(status: .badRequest, message: "\(what): the upload is not a readable image (\(error))")
        }
    }

    let gate = AsyncGate(permits: 2)
    let responses = ResponseEncoder()

    func options(_ r: SearchRequest) throws -> SearchOptions {
        var o = SearchOptions()
        o.priceMin = r.filters?.priceMin; o.priceMax = r.filters?.priceMax; o.styles = r.filters?.styles; o.colors = r.filters?.colors
        o.artist = r.filters?.artist; o.seed = r.seed
        if let s = r.sort {
            guard let sort = SearchOptions.Sort(rawValue: s) else {
                throw Failure(status: .badRequest, message: "sort must be one of \(SearchOptions.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            o.sort = sort
        }
        if let l = r.limit {
            guard (1...200).contains(l) else { throw Failure(status: .badRequest, message: "limit must be 1–200") }
            o.limit = l
        }
        return o
    }

    func search(_ request: Request, mode: String) async throws -> Response {
        let what = "POST /api/search/\(mode)"
        do {
            let r = try await Self.body(request, what, limit: 14 * 1024 * 1024, as: SearchRequest.self)
            let o = try options(r)
            var criteria = SearchCriteria()
            if mode != "image" {
                guard let q = r.query?.trimmingCharacters(in: .whitespacesAndNewlines), !q.isEmpty else {
                    throw Failure(status: .badRequest, message: "\(what): query is missing or empty")
                }
                guard q.count <= 1000 else { throw Failure(status: .badRequest, message: "\(what): query is over 1000 characters") }
                criteria = QueryParser().parse(q)
            }
            if mode != "text" {
                guard let b64 = r.imageBase64 else { throw Failure(status: .badRequest, message: "\(what): imageBase64 is missing") }
                let data = try Self.imageBytes(b64, what)
                let room = try await withImageFile(data, what) { try RoomAnalyzer().analyze(path: $0) }
                let rc = RoomAnalyzer().criteria(for: room)
                criteria = mode == "image" ? rc : criteria.merged(with: rc)
            }
            let data = try responses.encode(ArtMatcher().search(criteria, entries: library.entries, options: o))
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        } catch let f as Failure { return Self.error(f.status, f.message) }
    }

    struct AnalysisResult: Encodable {
        let id: String, artworkId: String, status: String
        let analysisDate: Date?, imageUrl: String, title: String, studioName: String
        let aiData: ArtAnalysis?, error: String?
        let createdAt: Date, updatedAt: Date
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrors())
        let library = self.library
        router.post("/api/search/text") { request, _ in try await self.search(request, mode: "text") }
        router.post("/api/search/image") { request, _ in try await self.search(request, mode: "image") }
        router.post("/api/search/combined") { request, _ in try await self.search(request, mode: "combined") }
        router.get("/api/artworks/:id") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            guard let a = library.catalog.artwork(id: id) else { return Self.error(.notFound, "GET /api/artworks/\(id): no artwork with this id") }
            return Self.json(.ok, a)
        }
        router.get("/api/artworks/:id/image") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            guard let a = library.catalog.artwork(id: id), let path = try? library.catalog.imagePath(of: a),
                  let data = FileManager.default.contents(atPath: path) else {
                return Self.error(.notFound, "GET /api/artworks/\(id)/image: no artwork image with this id")
            }
            let ext = (path as NSString).pathExtension.lowercased()
            let type = ext == "png" ? "image/png" : ext == "webp" ? "image/webp" : "image/jpeg"
            return Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=3600"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/api/analysis/artwork/:id") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            guard let a = library.catalog.artwork(id: id) else { return Self.error(.notFound, "GET /api/analysis/artwork/\(id): no artwork with this id") }
            let (status, data, err): (String, ArtAnalysis?, String?)
            switch library.state(of: id) {
            case .done(let an): (status, data, err) = ("done", an, nil)
            case .failed(let why): (status, data, err) = ("failed", nil, why)
            case .pending: (status, data, err) = ("pending", nil, nil)
            case .absent: return Self.error(.notFound, "GET /api/analysis/artwork/\(id): not analysed yet; POST /api/analysis/enqueue {\"artworkIds\": [\"\(id)\"]}")
            }
            let when = library.analysedDate(of: id)
            return Self.json(.ok, AnalysisResult(id: "analysis-\(id)", artworkId: id, status: status, analysisDate: when, imageUrl: a.imageUrls?.first ?? "",
                                                 title: a.title, studioName: a.studioName, aiData: data, error: err,
                                                 createdAt: library.loadedAt, updatedAt: when ?? library.loadedAt))
        }
        router.post("/api/analysis/enqueue") { request, _ -> Response in
            do {
                var request = request
                let buffer = try await request.collectBody(upTo: 1 << 20)
                let r: EnqueueRequest = buffer.readableBytes == 0 ? EnqueueRequest(artworkIds: nil)
                    : try JSONDecoder().decode(EnqueueRequest.self, from: Data(buffer: buffer))
                let ids = r.artworkIds ?? library.catalog.artworks.map(\.objectID)
                let unknown = ids.filter { library.catalog.artwork(id: $0) == nil }
                if !unknown.isEmpty { return Self.error(.notFound, "POST /api/analysis/enqueue: no artwork with id \(unknown.prefix(5).joined(separator: ", "))") }
                let fresh = library.enqueue(ids)
                if !fresh.isEmpty { Task.detached { library.analyseMissing(ids: fresh, workers: 1) } }
                struct R: Encodable { let success = true; let enqueued: Int; let jobIds: [String] }
                return Self.json(.ok, R(enqueued: fresh.count, jobIds: fresh.map { "analysis-\($0)" }))
            } catch is DecodingError {
                return Self.error(.badRequest, "POST /api/analysis/enqueue: expected JSON {\"artworkIds\": [\"…\"]} or an empty body")
            } catch {
                return Self.error(.contentTooLarge, "POST /api/analysis/enqueue: the body is over 1 MB")
            }
        }
        router.post("/api/visualize") { request, _ -> Response in
            let what = "POST /api/visualize"
            do {
                let r = try await Self.body(request, what, limit: 14 * 1024 * 1024, as: VisualizeRequest.self)
                guard let a = library.catalog.artwork(id: r.artworkId), let art = try? library.catalog.imagePath(of: a) else {
                    throw Failure(status: .notFound, message: "\(what): no artwork with id \(r.artworkId)")
                }
                let p = RoomVisualizer.Placement(x: r.x ?? 0.5, y: r.y ?? 0.4, scale: r.scale ?? 0.3, rotation: r.rotation ?? 0, opacity: r.opacity ?? 1,
                                                 aspectLock: r.aspectLock ?? true, stretch: r.stretch ?? 1, grid: r.grid ?? false)
                if let why = p.problem { throw Failure(status: .badRequest, message: "\(what): \(why)") }
                let data = try Self.imageBytes(r.imageBase64, what)
                let jpeg = try await self.withImageFile(data, what) { try RoomVisualizer().composite(room: $0, artwork: art, placement: p) }
                return Response(status: .ok, headers: [.contentType: "image/jpeg", .contentDisposition: "attachment; filename=\"composite.jpg\""],
                                body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
            } catch let f as Failure { return Self.error(f.status, f.message) }
        }
        router.get("/") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: ArtPage.html)))
        }
        return router
    }

    public func run() async throws { try await Serve.run(router(), host: host, port: port, label: "art-server") }
}

/// Errors the router raises itself (no such route, a method the route does not take, anything
/// unexpected) answer in the same JSON as the handlers' own: `{success: false, error}`.
struct JSONErrors<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do { return try await next(request, context) } catch let e as HTTPError {
            let why = e.status == .notFound ? "no such endpoint (see docs/art/openapi.yaml)" : (e.body ?? e.status.reasonPhrase)
            return ArtServer.error(e.status, "\(request.method) \(request.uri.path): \(why)")
        } catch {
            return ArtServer.error(.internalServerError, "\(request.method) \(request.uri.path): \(error)")
        }
    }
}

/// At most `permits` holders at a time; the rest wait in order.
actor AsyncGate {
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []
    init(permits: Int) { free = permits }
    func acquire() async {
        if free > 0 { free -= 1; return }
        await withCheckedContinuation { waiters.append($0) }
    }
    func release() {
        if waiters.isEmpty { free += 1 } else { waiters.removeFirst().resume() }
    }
}
