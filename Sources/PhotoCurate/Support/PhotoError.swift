import Foundation

/// Why one photo could not be used. Every case names the file.
public enum PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case empty(path: String)
    case notAnImage(path: String)
    case tooLarge(path: String, pixels: Int, limit: Int)
    case corrupt(path: String, reason: String)
    case badMetadata(path: String, reason: String)
    case io(path: String, reason: String)

    public var path: String {
        switch self {
        case .unreadable(let p, _), .empty(let p), .notAnImage(let p), .tooLarge(let p, _, _),
             .corrupt(let p, _), .badMetadata(let p, _), .io(let p, _): return p
        }
    }

    /// A short machine-readable kind, stable across versions (it goes into the manifest).
    public var kind: String {
        switch self {
        case .unreadable: return "unreadable"
        case .empty: return "empty"
        case .notAnImage: return "not-an-image"
        case .tooLarge: return "too-large"
        case .corrupt: return "corrupt"
        case .badMetadata: return "bad-metadata"
        case .io: return "io"
        }
    }

    public var reason: String {
        switch self {
        case .unreadable(_, let r): return "cannot be read: \(r)"
        case .empty: return "is empty (0 bytes)"
        case .notAnImage: return "is not an image libvips can read"
        case .tooLarge(_, let px, let limit): return "is \(px / 1_000_000) megapixels, over the \(limit / 1_000_000) MP limit (raise it with --set import.maxMegapixels=N)"
        case .corrupt(_, let r): return "is corrupt or truncated: \(r)"
        case .badMetadata(_, let r): return "has unreadable metadata: \(r)"
        case .io(_, let r): return "I/O error: \(r)"
        }
    }

    public var description: String { "\(RawPath.display(path)): \(reason)" }
}
