import Foundation

/// One work's context packet in the product's format: what the curator and the
/// narration may say about it, and nothing else.
///
/// ```
/// [Exhibit Context]
/// Artist: Ana Souza
/// Mission: Light on working harbours.
/// [Editorial: 1 June 2024, 16:07–16:08]
/// Theme: Harbour days
/// [Work: work-01 "Harbour at dusk"]
/// Summary: Boats back at the quay. Taken on 1 June 2024 at 16:07.
/// Story: …
/// Technique: Camera: Canon EOS 40D. Exposure: 1/250 s at f/8, ISO 100.
/// Tags: harbour, boats
/// Quote: "The sea keeps its own hours."
/// ```
/// `sentences` is the same content cut into the units the curator retrieves and quotes.
public struct ContextPacket: Sendable, Equatable {
    /// One retrievable sentence: where it comes from and the words that ask for it.
    public struct Sentence: Sendable, Equatable {
        /// nil for the exhibit's own facts (artist, mission, bio, themes).
        public var workId: String?
        public var field: String
        public var text: String
    }

    public let workId: String
    public let text: String
    public let sentences: [Sentence]

    public init(work: Work, editorial: Editorial?, artist: Artist) {
        workId = work.id
        var lines = ["[Exhibit Context]"]
        if !artist.name.isEmpty { lines.append("Artist: \(artist.name)") }
        if !artist.mission.isEmpty { lines.append("Mission: \(artist.mission)") }
        if !artist.bio.isEmpty { lines.append("Bio: \(artist.bio)") }
        if !artist.themes.isEmpty { lines.append("Themes: \(artist.themes.joined(separator: ", "))") }
        if let e = editorial {
            lines.append("[Editorial: \(e.title)]")
            if !e.theme.isEmpty { lines.append("Theme: \(e.theme)") }
            if !e.summary.isEmpty { lines.append("Summary: \(e.summary)") }
        }
        lines.append("[Work: \(work.id)\(work.title.isEmpty ? "" : " \"\(work.title)\"")]")
        for (k, v) in Self.fields(work) where !v.isEmpty { lines.append("\(k.prefix(1).uppercased() + k.dropFirst()): \(v)") }
        text = lines.joined(separator: "\n") + "\n"
        sentences = Self.sentences(of: work)
    }

    static func fields(_ w: Work) -> [(String, String)] {
        [("title", w.title), ("year", w.year), ("medium", w.medium), ("summary", w.summary), ("story", w.story),
         ("technique", w.technique), ("tags", w.tags.joined(separator: ", ")), ("quote", w.quote.map { "\"\($0)\"" } ?? "")]
    }

    /// A work's sentences, each standing alone (so the answer that quotes one makes sense).
    static func sentences(of w: Work) -> [Sentence] {
        let name = w.title.isEmpty ? w.id : "\"\(w.title)\""
        var out: [Sentence] = []
        if !w.title.isEmpty { out.append(Sentence(workId: w.id, field: "title", text: "\(w.id) is titled \"\(w.title)\".")) }
        if !w.year.isEmpty { out.append(Sentence(workId: w.id, field: "year", text: "\(name) is from \(w.year).")) }
        if !w.medium.isEmpty { out.append(Sentence(workId: w.id, field: "medium", text: "The medium of \(name) is: \(w.medium).")) }
        for f in ["summary", "story", "technique"] {
            let v = f == "summary" ? w.summary : f == "story" ? w.story : w.technique
            for s in split(v) { out.append(Sentence(workId: w.id, field: kind(of: s, in: f), text: s)) }
        }
        if !w.tags.isEmpty { out.append(Sentence(workId: w.id, field: "tags", text: "The tags of \(name) are: \(w.tags.joined(separator: ", ")).")) }
        if let q = w.quote, !q.isEmpty { out.append(Sentence(workId: w.id, field: "quote", text: "The quote with \(name) is: \"\(q)\"")) }
        return out
    }

    /// The sentences the stage composes from facts have fixed forms; each is its own kind of fact
    /// (the user's own sentences keep their field).
    static func kind(of s: String, in field: String) -> String {
        if s.contains(" was taken on ") || s.range(of: #" was taken (in|at) "#, options: .regularExpression) != nil { return "date" }
        if s.hasPrefix("It comes from a moment of ") { return "moment" }
        if s.hasPrefix("It was picked by photocurate") { return "reasons" }
        if s.contains("recognised across the trip") { return "people" }
        if s.hasPrefix("The camera was ") { return "camera" }
        if s.hasPrefix("The lens was ") { return "lens" }
        if s.hasPrefix("The exposure was ") { return "exposure" }
        if s.hasPrefix("The focal length was ") { return "focal" }
        return field
    }

    static func sentences(of a: Artist) -> [Sentence] {
        var out: [Sentence] = []
        if !a.name.isEmpty { out.append(Sentence(workId: nil, field: "artist", text: "The artist is \(a.name).")) }
        for s in split(a.mission) { out.append(Sentence(workId: nil, field: "mission", text: s)) }
        for s in split(a.bio) { out.append(Sentence(workId: nil, field: "bio", text: s)) }
        if !a.themes.isEmpty { out.append(Sentence(workId: nil, field: "themes", text: "The artist's themes are: \(a.themes.joined(separator: ", ")).")) }
        return out
    }

    /// Sentence ends: ".", "!" or "?" followed by a space and a capital or a quote;
    /// "f/8." and "45.410°" do not end one.
    static func split(_ text: String) -> [String] {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return [] }
        var out: [String] = [], current = ""
        let chars = Array(t)
        for (i, c) in chars.enumerated() {
            current.append(c)
            if ".!?".contains(c), i + 2 < chars.count, chars[i + 1] == " ",
               chars[i + 2].isUppercase || "\"“(".contains(chars[i + 2]) {
                out.append(current.trimmingCharacters(in: .whitespaces)); current = ""
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { out.append(current.trimmingCharacters(in: .whitespaces)) }
        return out
    }
}
