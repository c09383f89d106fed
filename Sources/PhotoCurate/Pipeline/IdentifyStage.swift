import Foundation

/// A photo whose identity is known, with whatever the cache already holds for it.
public struct IdentifiedPhoto: Sendable {
    public var file: PhotoFile
    public var contentHash: String
    public var cached: [ResultKey: Data]
    /// True when path, size and mtime matched the cache (nothing to record about the file itself).
    public var knownByPath: Bool
}

/// Identify stage: `PhotoFile` → `IdentifiedPhoto`.
///
/// Path, size and mtime unchanged since the last run: the stored content hash
/// is trusted and the file is not read. Otherwise the bytes are hashed, so a
/// renamed or moved photo still finds its results.
public struct IdentifyStage: PerPhotoStage {
    public static let id = "identify"
    let cache: CacheStore?
    let keys: [ResultKey]
    let clock: StageClock?

    public init(cache: CacheStore?, keys: [ResultKey], clock: StageClock? = nil) {
        self.cache = cache
        self.keys = keys
        self.clock = clock
    }

    public func process(_ file: PhotoFile) async throws -> IdentifiedPhoto {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let known = try cache?.knownHash(for: file)
        let hash = try known ?? StableHash.file(at: file.path)
        let cached = try cache?.results(for: hash, keys: keys) ?? [:]
        clock?.add("identify", Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        return IdentifiedPhoto(file: file, contentHash: hash, cached: cached, knownByPath: known != nil)
    }
}
