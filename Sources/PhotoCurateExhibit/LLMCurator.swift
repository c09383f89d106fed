import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging

/// The curator with a language model writing the answer: an OpenAI-compatible
/// chat endpoint (a local llama.cpp server, Ollama) gets the product's
/// instructions and the context packets; its answer is kept only when every
/// sentence of it is supported by one sentence of the packets (its words and
/// every number in it), otherwise the curator says it doesn't know.
///
/// ```swift
/// let llm = LLMCurator(curator: curator, endpoint: URL(string: "http://127.0.0.1:8081/v1")!, model: "local")
/// await llm.ask("What lens was used?", workId: "work-03", history: []).answer
/// ```
/// Any failure (refused, timed out, not JSON, no answer) falls back to the
/// retrieval curator, with the reason in the log.
public struct LLMCurator: Sendable {
    public struct Message: Codable, Sendable, Equatable {
        public var role: String
        public var content: String
        public init(role: String, content: String) { self.role = role; self.content = content }
    }
    /// How a request reaches the endpoint: the seam the tests replace with a local stub.
    public typealias Transport = @Sendable (URLRequest) async throws -> (Data, Int)

    public static let instructions = """
    You are the curator of this exhibit. Answer the visitor's question in 2–3 sentences using ONLY the exhibit context \
    below; if the answer is not in the context, say you don't know. Do not add facts, opinions or guesses.
    """

    public let curator: Curator
    public let endpoint: URL
    public let model: String
    public let apiKey: String?
    public var timeout: TimeInterval = 30
    public var transport: Transport

    public init(curator: Curator, endpoint: URL, model: String, apiKey: String? = nil, transport: Transport? = nil) {
        self.curator = curator
        self.endpoint = endpoint
        self.model = model
        self.apiKey = apiKey
        self.transport = transport ?? { request in
            let (data, response) = try await URLSession.shared.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
    }

    /// The product's rule: more than 6 messages keep only the last 2.
    public static func trimmed(_ history: [Message]) -> [Message] {
        history.count > 6 ? Array(history.suffix(2)) : history
    }

    public func ask(_ question: String, workId: String?, history: [Message]) async -> Curator.Answer {
        let log = Logger(label: "runtime")
        let context = curator.packetText(current: workId)
        var messages = [Message(role: "system", content: Self.instructions + "\n\n" + context)]
        messages += Self.trimmed(history)
        messages.append(Message(role: "user", content: question))
        var url = endpoint
        if !url.path.hasSuffix("/chat/completions") { url = url.appendingPathComponent("chat/completions") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let apiKey { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        struct Body: Encodable { var model: String; var messages: [Message]; var temperature: Double }
        request.httpBody = try? JSONEncoder().encode(Body(model: model, messages: messages, temperature: 0))
        struct Reply: Decodable { struct Choice: Decodable { struct M: Decodable { var content: String? }; var message: M? }; var choices: [Choice]? }
        let text: String
        do {
            let (data, status) = try await transport(request)
            guard (200..<300).contains(status) else { throw ExhibitError.provider("HTTP \(status)") }
            guard let content = try JSONDecoder().decode(Reply.self, from: data).choices?.first?.message?.content else {
                throw ExhibitError.provider("the reply has no choices[0].message.content")
            }
            text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            log.warning("curator model at \(url.absoluteString) failed (\(error)); answering from the packets", metadata: ["event": "llm-failed"])
            return curator.ask(question, workId: workId)
        }
        if text.isEmpty || text.lowercased().contains("don't know") || text.lowercased().contains("do not know") {
            return Curator.Answer(answer: Curator.unknown, known: false, sources: [])
        }
        guard let sources = curator.support(for: text) else {
            log.info("curator model's answer refused: it states something the packets do not", metadata: ["event": "llm-ungrounded", "answer": .string(text)])
            return Curator.Answer(answer: Curator.unknown, known: false, sources: [])
        }
        return Curator.Answer(answer: text, known: true, sources: sources)
    }
}

extension Curator {
    /// The packets the model is given: the work on screen first, then the rest.
    public func packetText(current: String?) -> String {
        let editorialOf = Dictionary(exhibit.editorials.flatMap { e in e.works.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        let works = exhibit.works.sorted { a, b in (a.id == current ? 0 : 1, a.id) < (b.id == current ? 0 : 1, b.id) }
        return works.map { ContextPacket(work: $0, editorial: editorialOf[$0.id], artist: exhibit.artist).text }.joined(separator: "\n")
    }

    /// The packet sentences that support every sentence of `text`, or nil when one
    /// of its sentences has a number, or most of its words, that no single packet sentence has.
    public func support(for text: String) -> [Answer.Source]? {
        func words(_ s: String) -> [String] {
            s.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
                .filter { $0.count >= 3 && !Self.stopwords.contains($0) }
        }
        // Each packet sentence's words once, not once per sentence of the answer.
        let have = rows.map { r in Set(words(r.text) + words(titles[r.workId ?? ""] ?? "") + [r.workId ?? ""].flatMap(words)) }
        var sources: [Answer.Source] = []
        for sentence in ContextPacket.split(text) {
            let w = words(sentence)
            if w.isEmpty { continue }
            let numbers = w.filter { $0.first!.isNumber }
            var best: (Int, Double)? = nil
            for k in rows.indices {
                guard numbers.allSatisfy(have[k].contains) else { continue }
                let cover = Double(w.filter(have[k].contains).count) / Double(w.count)
                if cover > (best?.1 ?? 0) { best = (k, cover) }
            }
            guard let best, best.1 >= 0.75 else { return nil }
            let r = rows[best.0]
            if !sources.contains(where: { $0.sentence == r.text }) { sources.append(.init(workId: r.workId, field: r.field, sentence: r.text)) }
        }
        return sources.isEmpty ? nil : sources
    }
}
