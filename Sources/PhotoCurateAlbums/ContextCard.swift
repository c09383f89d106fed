import Foundation
import PhotoCurate

/// The album's context card, in the product's order: cover, artist and title, badge,
/// summary, bullets, rating, key tracks, then year, genres and label.
///
/// ```swift
/// let card = ContextCard(entry, coverPath: "catalog/kind-of-blue.jpg")
/// print(card.text())          // terminal
/// try card.json()             // for other tools
/// try card.html()             // one self-contained page (the cover inlined)
/// ```
/// Everything shown has passed `ContentGuard`; what it removed is in `guardNotes`.
public struct ContextCard: Sendable {
    public let entry: AlbumEntry
    public let coverPath: String
    public let guardNotes: [String]

    public init(_ raw: AlbumEntry, coverPath: String) {
        let (clean, notes) = ContentGuard.screen(raw)
        self.entry = clean; self.coverPath = coverPath; self.guardNotes = notes
    }

    static func rating(_ r: Double) -> String {
        (r == r.rounded() ? String(format: "%.0f", r) : String(format: "%.1f", r)) + "/10"
    }

    var details: [String] {
        var d: [String] = []
        if let y = entry.release_year { d.append(String(y)) }
        if !entry.genres.isEmpty { d.append(entry.genres.joined(separator: ", ")) }
        if let l = entry.record_label, !l.isEmpty { d.append(l) }
        return d
    }

    public func text() -> String {
        var l: [String] = []
        l.append("[cover: \(coverPath)]")
        l.append("\(entry.artist_name) — \(entry.album_title)")
        l.append(entry.recommendation.badge)
        l.append("")
        if !entry.context_summary.isEmpty { l.append(entry.context_summary); l.append("") }
        for b in entry.context_bullets { l.append("• " + b) }
        l.append("")
        l.append("Rating: " + Self.rating(entry.rating))
        if !entry.key_tracks.isEmpty { l.append("Key tracks: " + entry.key_tracks.joined(separator: ", ")) }
        if !details.isEmpty { l.append(details.joined(separator: " · ")) }
        return l.joined(separator: "\n")
    }

    /// The product's card fields, in its order, plus the badge's text.
    public struct JSONCard: Codable, Sendable {
        public var album_art: String
        public var artist_name: String
        public var album_title: String
        public var recommendation: String
        public var badge: String
        public var context_summary: String
        public var context_bullets: [String]
        public var rating: Double
        public var key_tracks: [String]
        public var release_year: Int?
        public var genres: [String]
        public var record_label: String?
    }

    public var jsonCard: JSONCard {
        JSONCard(album_art: coverPath, artist_name: entry.artist_name, album_title: entry.album_title,
                 recommendation: entry.recommendation.rawValue, badge: entry.recommendation.badge,
                 context_summary: entry.context_summary, context_bullets: entry.context_bullets, rating: entry.rating,
                 key_tracks: entry.key_tracks, release_year: entry.release_year, genres: entry.genres, record_label: entry.record_label)
    }

    public func json() throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(jsonCard)
    }

    static func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A page that needs nothing else: the cover is inlined as a data URL (a 600 px JPEG made by libvips).
    public func html() throws -> String {
        let cover = try VImage.thumbnail(coverPath, width: 600).srgb8().jpeg(quality: 85)
        let src = "data:image/jpeg;base64," + Data(cover).base64EncodedString()
        let e = entry
        var body = """
        <img class="cover" src="\(src)" alt="Cover of \(Self.esc(e.album_title))">
        <h1>\(Self.esc(e.artist_name)) — \(Self.esc(e.album_title))</h1>
        <p class="badge \(e.recommendation.rawValue.lowercased())">\(Self.esc(e.recommendation.badge))</p>

        """
        if !e.context_summary.isEmpty { body += "<p class=\"summary\">\(Self.esc(e.context_summary))</p>\n" }
        if !e.context_bullets.isEmpty { body += "<ul>" + e.context_bullets.map { "<li>\(Self.esc($0))</li>" }.joined() + "</ul>\n" }
        body += "<p class=\"rating\">Rating: \(Self.esc(Self.rating(e.rating)))</p>\n"
        if !e.key_tracks.isEmpty { body += "<h2>Key tracks</h2><ol>" + e.key_tracks.map { "<li>\(Self.esc($0))</li>" }.joined() + "</ol>\n" }
        if !details.isEmpty { body += "<p class=\"details\">\(Self.esc(details.joined(separator: " · ")))</p>\n" }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Self.esc(e.artist_name)) — \(Self.esc(e.album_title))</title>
        <style>
        body{font:16px/1.45 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fafafa}
        .cover{width:100%;max-width:24rem;display:block;margin:0 auto 1rem;box-shadow:0 2px 12px #0003}
        h1{font-size:1.4rem;margin:.5rem 0}.badge{display:inline-block;padding:.2rem .6rem;border-radius:1rem;background:#eee;font-weight:600}
        .essential{background:#dff3ff}.recommended{background:#e3f7e3}.skip{background:#f4f4e0}.avoid{background:#fbe4e4}
        ul{padding-left:1.2rem;list-style:none}ul li:before{content:"• "}.details{color:#555}
        </style></head><body>
        \(body)</body></html>

        """
    }
}
