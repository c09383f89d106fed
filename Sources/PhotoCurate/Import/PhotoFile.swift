import Foundation

/// One file found by the scanner: where it is and what `stat` says of it.
public struct PhotoFile: Sendable, Hashable, Codable {
    public let path: String
    public let size: Int64
    /// Modification time in nanoseconds since 1970, as stat reports it.
    public let mtimeNs: Int64

    public init(path: String, size: Int64, mtimeNs: Int64) {
        self.path = path
        self.size = size
        self.mtimeNs = mtimeNs
    }
}
