import Foundation
import Hummingbird
import Logging
import PhotoCurateExhibit

/// Serves an exhibit folder and its curator over HTTP (Hummingbird).
///
/// ```swift
/// try await ExhibitServer(folder: "out/exhibit", curator: try Curator(exhibit: ex), port: 8080).run()
/// ```
/// `GET /` and every file of the folder (the gallery works as from `file://`,
/// plus the question box); `POST /api/ask {question, workId?, history?}` →
/// `{answer, known, sources}`. Bodies over 64 KiB get 413, bad JSON 400, and
/// every error is JSON with a message.
public struct ExhibitServer: Sendable {
    public let folder: String
    public let curator: Curator
    public let llm: LLMCurator?
    public let host: String
    public let port: Int

    public init(folder: String, curator: Curator, llm: LLMCurator? = nil, host: String = "127.0.0.1", port: Int = 8080) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.curator = curator
        self.llm = llm
        self.host = host
        self.port = port
    }

    struct AskRequest: Decodable {
        var question: String
        var workId: String?
        var history: [LLMCurator.Message]?
    }

    static func json(_ status: HTTPResponse.Status, _ data: Data) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{}".utf8)
        return json(status, body)
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let curator = self.curator, llm = self.llm
        router.post("/api/ask") { request, context -> Response in
            var request = request
            let buffer: ByteBuffer
            do { buffer = try await request.collectBody(upTo: 64 * 1024) } catch {
                return Self.error(.contentTooLarge, "POST /api/ask: the body is over 64 KiB")
            }
            let ask: AskRequest
            do { ask = try JSONDecoder().decode(AskRequest.self, from: Data(buffer: buffer)) } catch {
                return Self.error(.badRequest, "POST /api/ask: expected JSON {\"question\": \"…\", \"workId\"?: \"work-01\"}")
            }
            let q = ask.question.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !q.isEmpty, q.count <= 2000 else { return Self.error(.badRequest, "POST /api/ask: the question must have 1 to 2000 characters") }
            let answer: Curator.Answer
            if let llm { answer = await llm.ask(q, workId: ask.workId, history: ask.history ?? []) } else { answer = curator.ask(q, workId: ask.workId) }
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Self.json(.ok, try e.encode(answer))
        }
        router.add(middleware: FileMiddleware(folder, searchForIndexHtml: true))
        return router
    }

    public func run() async throws { try await Serve.run(router(), host: host, port: port, label: "server") }
}
