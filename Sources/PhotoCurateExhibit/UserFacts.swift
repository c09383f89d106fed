import Foundation
import Yams

/// What the user wrote about the exhibit: `artist.yml` and `works.yml`, found in
/// the curated folder (or given to `exhibit build`).
///
/// ```yaml
/// # artist.yml
/// name: Ana Souza
/// mission: Light on working harbours.
/// bio: Ana photographs the coast of Portugal.
/// themes: [harbours, light]
/// ```
/// ```yaml
/// # works.yml: keyed by the photo's path relative to the folder
/// works:
///   IMG_1001.jpg:
///     title: Harbour at dusk
///     summary: Boats back at the quay.
///     story: The last boat came in at seven.
///     quote: "The sea keeps its own hours."
///     tags: [harbour, boats]
/// editorials:            # optional: groups of your own instead of one per moment
///   - id: harbour-days
///     title: Harbour days
///     theme: Work at the water's edge
///     photos: [IMG_1001.jpg, IMG_1002.jpg]
/// ```
/// Every key is checked: a mistake names the file, the line and what is allowed.
public struct UserFacts: Sendable {
    public struct WorkNote: Sendable, Equatable {
        public var title, summary, story, quote, technique: String?
        public var tags: [String] = []
    }
    public struct Group: Sendable, Equatable {
        public var id: String
        public var title: String
        public var theme: String
        public var summary: String
        public var photos: [String]
    }
    public var artist: Artist?
    public var works: [String: WorkNote] = [:]
    public var editorials: [Group] = []

    public init() {}

    /// Reads `artist.yml` and `works.yml` from `folder` when they exist.
    public static func load(folder: String, artistFile: String? = nil, worksFile: String? = nil) throws -> UserFacts {
        var u = UserFacts()
        let fm = FileManager.default
        let a = artistFile ?? folder + "/artist.yml", w = worksFile ?? folder + "/works.yml"
        if artistFile != nil || fm.fileExists(atPath: a) { u.artist = try parseArtist(try text(a), source: a) }
        if worksFile != nil || fm.fileExists(atPath: w) { try u.parseWorks(try text(w), source: w) }
        return u
    }

    static func text(_ path: String) throws -> String {
        guard let d = FileManager.default.contents(atPath: path) else { throw ExhibitError.badUserFile(path, "cannot be read") }
        guard let s = String(data: d, encoding: .utf8) else { throw ExhibitError.badUserFile(path, "is not UTF-8 text") }
        return s
    }

    static func root(_ text: String, _ source: String) throws -> [(Node, Node)] {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch { throw ExhibitError.badUserFile(source, "not valid YAML: \(error)") }
        guard let node else { return [] }
        guard let m = node.mapping else { throw ExhibitError.badUserFile(source, "expected a mapping") }
        return Array(m)
    }

    static func where_(_ source: String, _ n: Node) -> String { n.mark.map { "\(source):\($0.line)" } ?? source }

    static func string(_ v: Node, _ field: String, _ source: String) throws -> String {
        guard let s = v.scalar?.string else { throw ExhibitError.badUserFile(where_(source, v), "'\(field)' must be text") }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func strings(_ v: Node, _ field: String, _ source: String) throws -> [String] {
        if let s = v.sequence { return try s.map { try string($0, field, source) } }
        if let s = v.scalar?.string { return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        throw ExhibitError.badUserFile(where_(source, v), "'\(field)' must be a list of text")
    }

    static func parseArtist(_ text: String, source: String) throws -> Artist {
        var a = Artist(name: "", mission: "", bio: "", themes: [])
        for (k, v) in try root(text, source) {
            switch k.string {
            case "name": a.name = try string(v, "name", source)
            case "mission": a.mission = try string(v, "mission", source)
            case "bio": a.bio = try string(v, "bio", source)
            case "themes": a.themes = try strings(v, "themes", source)
            default: throw ExhibitError.badUserFile(where_(source, k), "unknown key '\(k.string ?? "?")'; allowed: name, mission, bio, themes")
            }
        }
        return a
    }

    mutating func parseWorks(_ text: String, source: String) throws {
        for (k, v) in try Self.root(text, source) {
            switch k.string {
            case "works":
                guard let m = v.mapping else { throw ExhibitError.badUserFile(Self.where_(source, v), "'works' must map a photo's path to its notes") }
                for (pk, pv) in m {
                    guard let path = pk.string, let fields = pv.mapping else {
                        throw ExhibitError.badUserFile(Self.where_(source, pk), "each work is a photo path with a mapping of notes")
                    }
                    var note = WorkNote()
                    for (fk, fv) in fields {
                        let f = fk.string ?? "?"
                        switch f {
                        case "title": note.title = try Self.string(fv, f, source)
                        case "summary": note.summary = try Self.string(fv, f, source)
                        case "story": note.story = try Self.string(fv, f, source)
                        case "quote": note.quote = try Self.string(fv, f, source)
                        case "technique": note.technique = try Self.string(fv, f, source)
                        case "tags": note.tags = try Self.strings(fv, f, source)
                        default: throw ExhibitError.badUserFile(Self.where_(source, fk), "'\(path)' has unknown field '\(f)'; allowed: title, summary, story, quote, technique, tags")
                        }
                    }
                    works[path] = note
                }
            case "editorials":
                guard let list = v.sequence else { throw ExhibitError.badUserFile(Self.where_(source, v), "'editorials' must be a list") }
                for item in list {
                    guard let m = item.mapping else { throw ExhibitError.badUserFile(Self.where_(source, item), "each editorial is a mapping with id, title and photos") }
                    var g = Group(id: "", title: "", theme: "", summary: "", photos: [])
                    for (fk, fv) in m {
                        let f = fk.string ?? "?"
                        switch f {
                        case "id": g.id = try Self.string(fv, f, source)
                        case "title": g.title = try Self.string(fv, f, source)
                        case "theme": g.theme = try Self.string(fv, f, source)
                        case "summary": g.summary = try Self.string(fv, f, source)
                        case "photos": g.photos = try Self.strings(fv, f, source)
                        default: throw ExhibitError.badUserFile(Self.where_(source, fk), "editorial has unknown field '\(f)'; allowed: id, title, theme, summary, photos")
                        }
                    }
                    guard g.id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else {
                        throw ExhibitError.badUserFile(Self.where_(source, item), "editorial id '\(g.id)' must be kebab-case (a-z, 0-9 and single hyphens)")
                    }
                    guard !editorials.contains(where: { $0.id == g.id }) else {
                        throw ExhibitError.badUserFile(Self.where_(source, item), "editorial id '\(g.id)' is used twice")
                    }
                    editorials.append(g)
                }
            default:
                throw ExhibitError.badUserFile(Self.where_(source, k), "unknown key '\(k.string ?? "?")'; allowed: works, editorials")
            }
        }
    }
}
