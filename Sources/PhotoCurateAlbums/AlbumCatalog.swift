import Foundation

/// A folder of cover images with `albums.json`: the albums photos are matched against.
///
/// ```swift
/// let catalog = try AlbumCatalog.load("~/Records/catalog")
/// for p in catalog.problems { print(p) }   // "albums.json entry 12 (…): rating: 11 is outside 0–10"
/// ```
/// An entry that fails validation is reported with its file and field and left out;
/// the others are used.
public struct AlbumCatalog: Sendable {
    public let folder: String
    public let albums: [AlbumEntry]
    /// Entries left out, each naming the file, the entry and the field.
    public let problems: [String]

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Largest albums.json read (a catalog of 50,000 albums is about 60 MB).
    public static let maxBytes = 256 << 20

    public static func load(_ folder: String) throws -> AlbumCatalog {
        let file = folder + "/albums.json"
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw LoadError(description: "\(folder): not a catalog folder (it should hold albums.json and the cover images)")
        }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: file) else {
            throw LoadError(description: "\(file): missing (a catalog folder holds albums.json and the cover images)")
        }
        if let size = attrs[.size] as? Int, size > maxBytes {
            throw LoadError(description: "\(file): \(size) bytes is more than the \(maxBytes >> 20) MB a catalog may have")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw LoadError(description: "\(file): cannot be read (permission?)")
        }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw LoadError(description: "\(file): not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))")
        }
        // Either a list of albums or {"albums": [...]}.
        let list: [Any]
        if let a = root as? [Any] { list = a } else if let o = root as? [String: Any], let a = o["albums"] as? [Any] { list = a } else {
            throw LoadError(description: "\(file): expected a list of albums, or an object with an \"albums\" list")
        }
        var albums: [AlbumEntry] = [], problems: [String] = [], seen: [String: Int] = [:]
        for (i, item) in list.enumerated() {
            do {
                let entry = try validate(item, folder: folder)
                if let first = seen[entry.id] {
                    problems.append("\(file) entry \(i + 1) (\(entry.artist_name) — \(entry.album_title)): same artist and title as entry \(first + 1); left out")
                    continue
                }
                seen[entry.id] = i
                albums.append(entry)
            } catch let e as LoadError {
                problems.append("\(file) entry \(i + 1)\(label(item)): \(e.description); left out")
            }
        }
        return AlbumCatalog(folder: folder, albums: albums, problems: problems)
    }

    public init(folder: String, albums: [AlbumEntry], problems: [String] = []) {
        self.folder = folder; self.albums = albums; self.problems = problems
    }

    public func artPath(_ a: AlbumEntry) -> String { folder + "/" + a.album_art }

    static func label(_ item: Any) -> String {
        guard let o = item as? [String: Any] else { return "" }
        let t = (o["album_title"] as? String).map { String($0.prefix(60)) }, a = (o["artist_name"] as? String).map { String($0.prefix(60)) }
        return t == nil && a == nil ? "" : " (\(a ?? "?") — \(t ?? "?"))"
    }

    /// A JSON number (true and false are not numbers, although Foundation may hand them over as such).
    static func number(_ v: Any) -> Double? {
        guard !"\(type(of: v))".contains("Bool") else { return nil }
        return (v as? NSNumber)?.doubleValue
    }

    /// One entry, field by field, with the reason a person can act on.
    static let contextFields = ["context_summary", "context_bullets", "rating", "recommendation"]

    static func validate(_ item: Any, folder: String, titleOnlyAllowed: Bool = true) throws -> AlbumEntry {
        guard let o = item as? [String: Any] else { throw LoadError(description: "not an object") }
        func string(_ k: String, required: Bool = true, max: Int = 2000) throws -> String? {
            guard let v = o[k], !(v is NSNull) else {
                if required { throw LoadError(description: "\(k): missing") }
                return nil
            }
            guard let s = v as? String else { throw LoadError(description: "\(k): expected text") }
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if required && t.isEmpty { throw LoadError(description: "\(k): empty") }
            if t.count > max { throw LoadError(description: "\(k): longer than \(max) characters") }
            return t
        }
        func strings(_ k: String, count: ClosedRange<Int>? = nil) throws -> [String] {
            guard let v = o[k], !(v is NSNull) else {
                if let count, count.lowerBound > 0 { throw LoadError(description: "\(k): missing") }
                return []
            }
            guard let a = v as? [Any], a.allSatisfy({ $0 is String }) else { throw LoadError(description: "\(k): expected a list of texts") }
            let s = (a as! [String]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            if let count, !count.contains(s.count) { throw LoadError(description: "\(k): \(s.count) items, expected \(count.lowerBound)–\(count.upperBound)") }
            if s.contains(where: { $0.count > 500 }) { throw LoadError(description: "\(k): an item is longer than 500 characters") }
            return s
        }
        let title = try string("album_title", max: 300)!, artist = try string("artist_name", max: 300)!
        var year: Int?
        if let v = o["release_year"], !(v is NSNull) {
            guard let n = number(v), n == n.rounded(), (1877...2100).contains(n) else {
                throw LoadError(description: "release_year: expected a year (1877–2100)")
            }
            year = Int(n)
        }
        let art = try string("album_art", max: 1000)!
        guard !art.hasPrefix("/"), !art.split(separator: "/").contains("..") else {
            throw LoadError(description: "album_art: \"\(art)\" must be a file inside the catalog folder")
        }
        guard FileManager.default.isReadableFile(atPath: folder + "/" + art) else {
            throw LoadError(description: "album_art: \(folder)/\(art) does not exist or cannot be read")
        }
        // Known only by title: the context fields all absent; a provider writes them when matched.
        if titleOnlyAllowed && contextFields.allSatisfy({ o[$0] == nil || o[$0] is NSNull }) {
            var e = AlbumEntry(album_title: title, artist_name: artist, release_year: year, genres: try strings("genres"),
                               record_label: try string("record_label", required: false, max: 300), context_summary: "",
                               context_bullets: [], rating: 0, recommendation: .SKIP, key_tracks: try strings("key_tracks"), album_art: art)
            e.needsContext = true
            return e
        }
        guard let r = o["rating"].flatMap(number), r.isFinite else {
            throw LoadError(description: "rating: expected a number 0–10")
        }
        guard (0...10).contains(r) else { throw LoadError(description: "rating: \(r) is outside 0–10") }
        guard let recText = o["recommendation"] as? String else { throw LoadError(description: "recommendation: missing (ESSENTIAL, RECOMMENDED, SKIP or AVOID)") }
        guard let rec = AlbumEntry.Recommendation(rawValue: recText.uppercased()) else {
            throw LoadError(description: "recommendation: \"\(recText.prefix(40))\" is not ESSENTIAL, RECOMMENDED, SKIP or AVOID")
        }
        return AlbumEntry(album_title: title, artist_name: artist, release_year: year, genres: try strings("genres"),
                          record_label: try string("record_label", required: false, max: 300),
                          context_summary: try string("context_summary", max: 1500)!,
                          context_bullets: try strings("context_bullets", count: 3...5), rating: r,
                          recommendation: rec, key_tracks: try strings("key_tracks"), album_art: art)
    }
}
