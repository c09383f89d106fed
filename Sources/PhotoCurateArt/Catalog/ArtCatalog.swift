import Foundation
import PhotoCurate

/// Why a catalog, or one of its records, could not be used.
public enum ArtCatalogError: Error, CustomStringConvertible, Equatable {
    case field(String, String)
    case unreadable(String, String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .field(let f, let why): return "field \(f) \(why)"
        case .unreadable(let p, let why): return "\(p): \(why)"
        case .invalid(let p, let why): return "\(p): \(why)"
        }
    }
}

/// An artwork catalog: `artworks.json`, a JSON array of `Artwork` records.
///
/// ```swift
/// let catalog = try ArtCatalog.load("catalog/artworks.json")
/// catalog.artworks.count      // 300
/// catalog.problems            // ["record 12 (aw-012): field price is missing"]
/// catalog.imagePath(of: catalog.artworks[0])   // "/abs/catalog/images/aw-001.jpg"
/// ```
/// A bad record is left out with a problem that names it and says why; the
/// others load. A second record with an `objectID` already seen is left out too.
public struct ArtCatalog: Sendable {
    /// The catalog file, absolute.
    public let file: String
    public let artworks: [Artwork]
    public let problems: [String]
    private let byID: [String: Int]

    /// Largest catalog file read (a hostile or mistaken path should not exhaust memory).
    public static let maxBytes = 256 << 20

    public init(file: String, artworks: [Artwork], problems: [String] = []) {
        self.file = file
        var kept: [Artwork] = [], seen: [String: Int] = [:], problems = problems
        for a in artworks {
            if seen[a.objectID] != nil { problems.append("\(a.objectID): a second record with this objectID is left out"); continue }
            seen[a.objectID] = kept.count
            kept.append(a)
        }
        self.artworks = kept
        self.byID = seen
        self.problems = problems
    }

    /// Loads `path`: an `artworks.json` file, or a folder that holds one.
    public static func load(_ path: String) throws -> ArtCatalog {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ArtCatalogError.unreadable(path, "no such file or folder")
        }
        let file = URL(fileURLWithPath: isDir.boolValue ? path + "/artworks.json" : path).standardizedFileURL.path
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: file) else {
            throw ArtCatalogError.unreadable(file, isDir.boolValue ? "the folder has no artworks.json" : "cannot be read")
        }
        if let size = attrs[.size] as? Int, size > maxBytes {
            throw ArtCatalogError.invalid(file, "is \(size >> 20) MB; a catalog over \(maxBytes >> 20) MB is refused")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw ArtCatalogError.unreadable(file, "cannot be read") }
        return try parse(data, file: file)
    }

    /// Parses catalog JSON; `file` names it in messages and anchors relative image paths.
    public static func parse(_ data: Data, file: String) throws -> ArtCatalog {
        let raw: [JSONValue]
        do {
            let top = try JSONDecoder().decode(JSONValue.self, from: data)
            switch top {
            case .array(let a): raw = a
            case .object(let o):
                // An Algolia export wraps records in {"hits": [...]}.
                guard case .array(let a)? = o["hits"] ?? o["artworks"] else {
                    throw ArtCatalogError.invalid(file, "expected a JSON array of artworks (or {\"hits\": [...]})")
                }
                raw = a
            default: throw ArtCatalogError.invalid(file, "expected a JSON array of artworks")
            }
        } catch let e as ArtCatalogError { throw e } catch {
            throw ArtCatalogError.invalid(file, "is not valid JSON (\(error.localizedDescription))")
        }
        var artworks: [Artwork] = [], problems: [String] = []
        let encoder = JSONEncoder()
        for (i, value) in raw.enumerated() {
            var label = "record \(i + 1)"
            if case .object(let o) = value, case .string(let id)? = o["objectID"] { label += " (\(id))" }
            do {
                let a = try JSONDecoder().decode(Artwork.self, from: try encoder.encode(value))
                if let why = validate(a) { problems.append("\(label): \(why)"); continue }
                artworks.append(a)
            } catch let e as ArtCatalogError {
                problems.append("\(label): \(e)")
            } catch {
                problems.append("\(label): not an artwork object")
            }
        }
        return ArtCatalog(file: file, artworks: artworks, problems: problems)
    }

    static func validate(_ a: Artwork) -> String? {
        if a.objectID.isEmpty || a.objectID.count > 200 { return "objectID must have 1 to 200 characters" }
        if a.objectID.contains("/") { return "objectID must not contain \"/\"" }
        if !a.price.isFinite || a.price < 0 { return "price must be a number ≥ 0" }
        if (a.imageUrls ?? []).isEmpty { return "imageUrls is empty: there is nothing to analyse" }
        if let d = a.dimensions, !(d.widthCm > 0 && d.heightCm > 0 && d.widthCm.isFinite && d.heightCm.isFinite) {
            return "dimensions must be positive numbers of centimetres"
        }
        return nil
    }

    public func artwork(id: String) -> Artwork? { byID[id].map { artworks[$0] } }

    /// The local file of the artwork's first image: a `file://` URL, an absolute
    /// path, or a path relative to the catalog file. Remote URLs are not fetched.
    public func imagePath(of a: Artwork) throws -> String {
        guard let first = a.imageUrls?.first, !first.isEmpty else { throw ArtCatalogError.field("imageUrls", "is empty") }
        if first.hasPrefix("file://") {
            guard let u = URL(string: first), u.isFileURL else { throw ArtCatalogError.field("imageUrls[0]", "is not a valid file URL") }
            return u.path
        }
        if first.hasPrefix("http://") || first.hasPrefix("https://") {
            throw ArtCatalogError.field("imageUrls[0]", "is a remote URL (\(first)); the catalog's images must be local files")
        }
        if first.hasPrefix("/") { return first }
        return ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(first)
    }
}
