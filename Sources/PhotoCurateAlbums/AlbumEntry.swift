import Foundation

/// One album of a catalog, in the product's field names (`albums.json`).
///
/// ```json
/// {"album_title": "Kind of Blue", "artist_name": "Miles Davis", "release_year": 1959,
///  "genres": ["Jazz"], "record_label": "Columbia", "context_summary": "…",
///  "context_bullets": ["…", "…", "…"], "rating": 9.5, "recommendation": "ESSENTIAL",
///  "key_tracks": ["So What"], "album_art": "kind-of-blue.jpg"}
/// ```
public struct AlbumEntry: Codable, Sendable, Equatable {
    public var album_title: String
    public var artist_name: String
    public var release_year: Int?
    public var genres: [String]
    public var record_label: String?
    public var context_summary: String
    public var context_bullets: [String]
    public var rating: Double
    public var recommendation: Recommendation
    public var key_tracks: [String]
    public var album_art: String
    /// The catalog knows the album only by title (no summary, bullets, rating or
    /// recommendation): its card needs a context provider. Not a product field.
    public var needsContext = false

    enum CodingKeys: String, CodingKey {
        case album_title, artist_name, release_year, genres, record_label, context_summary, context_bullets,
             rating, recommendation, key_tracks, album_art
    }

    public enum Recommendation: String, Codable, Sendable, CaseIterable {
        case ESSENTIAL, RECOMMENDED, SKIP, AVOID

        /// The badge as the product shows it.
        public var badge: String {
            switch self {
            case .ESSENTIAL: return "ESSENTIAL 💎"
            case .RECOMMENDED: return "RECOMMENDED 👍"
            case .SKIP: return "SKIP 😐"
            case .AVOID: return "AVOID 💩"
            }
        }
    }

    public init(album_title: String, artist_name: String, release_year: Int? = nil, genres: [String] = [],
                record_label: String? = nil, context_summary: String, context_bullets: [String], rating: Double,
                recommendation: Recommendation, key_tracks: [String] = [], album_art: String) {
        self.album_title = album_title; self.artist_name = artist_name; self.release_year = release_year
        self.genres = genres; self.record_label = record_label; self.context_summary = context_summary
        self.context_bullets = context_bullets; self.rating = rating; self.recommendation = recommendation
        self.key_tracks = key_tracks; self.album_art = album_art
    }

    /// A stable id for history and cache rows: artist and title, lower-cased.
    public var id: String { (artist_name + " — " + album_title).lowercased() }
}
