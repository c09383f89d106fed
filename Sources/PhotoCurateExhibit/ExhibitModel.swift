import Foundation

/// The exhibit's files, in the product's own schema so that other tools (and the
/// original app) read them: `artist.json`, `works.json`, `editorials.json` and
/// `editorials/<id>.json`. JSON Schemas: `docs/exhibit/schemas/`.
///
/// ```json
/// {"id": "work-01", "title": "", "year": "2024", "medium": "Photograph (JPEG, 4000 × 3000 px)",
///  "summary": "…", "story": "…", "technique": "…", "tags": ["harbour"], "imageName": "work-01.jpg"}
/// ```
/// A field with no fact behind it is empty: the stage never invents one.
public struct Artist: Codable, Sendable, Equatable {
    public var name: String
    public var mission: String
    public var bio: String
    public var themes: [String]
}

public struct Work: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var year: String
    public var medium: String
    public var summary: String
    public var story: String
    public var technique: String
    public var tags: [String]
    public var imageName: String
    public var quote: String?
}

/// One entry of `editorials.json`: a moment or day of the trip (or the user's grouping).
public struct Editorial: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var theme: String
    public var summary: String
    /// `<id>/cover.jpg`, relative to `editorials/`.
    public var cover: String
    /// Work ids, in exhibit order.
    public var works: [String]
}

/// `editorials/<id>.json`: the editorial and its works, with image names relative to `editorials/`.
public struct EditorialDetail: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var theme: String
    public var summary: String
    public var cover: String
    public var works: [Work]
}

/// `narration.json`: what the tour says for each work, and the audio file when spoken.
public struct Narration: Codable, Sendable, Equatable {
    public var workId: String
    public var text: String
    /// `audio/work-01.wav` when the exhibit was built with a voice.
    public var audio: String?
    /// Length of the audio in seconds, when there is audio.
    public var seconds: Double?
}

/// Everything the gallery page shows, as one value (`data.js` holds it for `file://`).
public struct Exhibit: Codable, Sendable, Equatable {
    public var artist: Artist
    public var works: [Work]
    public var editorials: [Editorial]
    public var narration: [Narration]
    /// Seconds between the end of a work's narration and the next work.
    public var pauseSeconds: Double
    /// Reading speed used when there is no audio.
    public var wordsPerMinute: Double

    /// Loads an exhibit folder written by `ExhibitStage`, with a clear reason when it is not one.
    public static func load(folder: String) throws -> Exhibit {
        func read<T: Decodable>(_ name: String, _ type: T.Type) throws -> T {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ExhibitError.notAnExhibit(folder, "\(name) is missing or unreadable")
            }
            do { return try JSONDecoder().decode(T.self, from: data) } catch {
                throw ExhibitError.notAnExhibit(folder, "\(name) does not follow the exhibit schema: \(ExhibitError.describe(error))")
            }
        }
        let settings = try read("exhibit.json", Settings.self)
        return Exhibit(artist: try read("artist.json", Artist.self), works: try read("works.json", [Work].self),
                       editorials: try read("editorials.json", [Editorial].self), narration: try read("narration.json", [Narration].self),
                       pauseSeconds: settings.pauseSeconds, wordsPerMinute: settings.wordsPerMinute)
    }

    /// `exhibit.json`: the tour's timing and the files' schema id.
    struct Settings: Codable {
        var schema: String
        var pauseSeconds: Double
        var wordsPerMinute: Double
    }
    static let schemaId = "photocurate.exhibit/1"
}

public enum ExhibitError: Error, CustomStringConvertible {
    case notAnExhibit(String, String)
    case badUserFile(String, String)
    case voice(String)
    case provider(String)

    public var description: String {
        switch self {
        case .notAnExhibit(let f, let why): return "\(f) is not an exhibit folder: \(why)"
        case .badUserFile(let f, let why): return "\(f): \(why)"
        case .voice(let why): return "voice: \(why)"
        case .provider(let why): return why
        }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let k, let c): return "missing '\(k.stringValue)' at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.dataCorrupted(let c):
            return "\(c.debugDescription) at '\(c.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: return "\(error)"
        }
    }
}
