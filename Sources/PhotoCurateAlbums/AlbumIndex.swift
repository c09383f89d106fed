import COpenCVShim
import Foundation
import PhotoCurate

/// A catalog's covers, analysed (ORB features, cached per cover) and indexed for a shortlist.
///
/// ```swift
/// let index = try AlbumIndex.build(AlbumCatalog.load("catalog"), cache: cache)
/// index.problems   // covers that could not be read, each with the file and reason
/// ```
/// The shortlist is a multi-probe LSH over each cover's strongest points (OpenCV's
/// FLANN): a photo's points vote for covers, the covers with most votes are then
/// verified geometrically (`AlbumIdentifier`). Memory grows linearly: about
/// `indexFeatures` × 32 bytes per cover plus the hash tables.
public final class AlbumIndex: @unchecked Sendable {
    public let catalog: AlbumCatalog
    /// Albums whose cover could be analysed, with their features (same order).
    public let albums: [AlbumEntry]
    public let features: [CoverFeatures]
    /// Covers left out (unreadable, no features), with the reason; and the catalog's own problems.
    public let problems: [String]
    public let computed: Int
    public let reused: Int
    let lsh: OpaquePointer?

    deinit { if let lsh { pc_cv_lsh_free(lsh) } }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static func build(_ catalog: AlbumCatalog, cache: CacheStore?, cover: Parameters? = nil, identify: Parameters? = nil) throws -> AlbumIndex {
        let cp = try cover ?? Parameters(AlbumParameters.cover)
        let ip = try identify ?? Parameters(AlbumParameters.identify)
        let key = ResultKey(analyzer: AlbumParameters.coverAnalyzer, version: AlbumParameters.coverVersion, parametersHash: cp.hash)
        let n = catalog.albums.count
        var results = [Result<(CoverFeatures, CacheStore.Entry?), Failure>?](repeating: nil, count: n)
        let lock = NSLock()
        try Vips.start()
        DispatchQueue.concurrentPerform(iterations: n) { i in
            let r = analyse(catalog, catalog.albums[i], cache: cache, key: key, parameters: cp)
            lock.lock(); results[i] = r; lock.unlock()
        }
        var albums: [AlbumEntry] = [], features: [CoverFeatures] = [], problems = catalog.problems, fresh: [CacheStore.Entry] = []
        for (i, r) in results.enumerated() {
            switch r! {
            case .success(let (f, entry)):
                albums.append(catalog.albums[i]); features.append(f)
                if let entry { fresh.append(entry) }
            case .failure(let e): problems.append(e.description)
            }
        }
        if let cache, !fresh.isEmpty {
            // A cache that cannot be written costs only time next run.
            do { try cache.write(fresh) } catch { problems.append("albums cache: not written (\(error)); covers will be analysed again next time") }
        }
        let lsh = try makeLSH(features, perCover: ip.int("indexFeatures"))
        return AlbumIndex(catalog: catalog, albums: albums, features: features, problems: problems,
                          computed: fresh.count, reused: features.count - fresh.count, lsh: lsh)
    }

    init(catalog: AlbumCatalog, albums: [AlbumEntry], features: [CoverFeatures], problems: [String], computed: Int, reused: Int, lsh: OpaquePointer?) {
        self.catalog = catalog; self.albums = albums; self.features = features; self.problems = problems
        self.computed = computed; self.reused = reused; self.lsh = lsh
    }

    static func analyse(_ catalog: AlbumCatalog, _ album: AlbumEntry, cache: CacheStore?, key: ResultKey, parameters: Parameters)
        -> Result<(CoverFeatures, CacheStore.Entry?), Failure> {
        let path = catalog.artPath(album)
        let who = "\(path) (\(album.artist_name) — \(album.album_title))"
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(Failure(description: "\(who): cannot be read: \(String(cString: strerror(errno)))")) }
        let file = PhotoFile(path: path, size: Int64(st.st_size), mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        do {
            let hash = try (try? cache?.knownHash(for: file)) ?? StableHash.file(at: path)
            if let cache, let data = try? cache.results(for: hash, keys: [key])[key], let f = CoverFeatures(encoded: data) {
                return .success((f, nil))
            }
            let image = try Decoder(longEdge: parameters.int("coverSize")).decode(path)
            let f = try CoverFeatures.extract(image, maxFeatures: parameters.int("coverFeatures"))
            guard f.count >= 20 else {
                return .failure(Failure(description: "\(who): only \(f.count) distinct points; a plain cover cannot be recognised, left out"))
            }
            return .success((f, CacheStore.Entry(file: file, contentHash: hash, results: [(key, f.encoded())])))
        } catch {
            return .failure(Failure(description: "\(who): \(error)"))
        }
    }

    static func makeLSH(_ features: [CoverFeatures], perCover: Int) throws -> OpaquePointer? {
        var desc: [UInt8] = [], owners: [Int32] = []
        for (i, f) in features.enumerated() {
            let p = f.prefix(perCover)
            desc += p.descriptors
            owners += [Int32](repeating: Int32(i), count: p.count)
        }
        guard !owners.isEmpty else { return nil }
        // Longer keys as the index grows keep buckets small (≈ 8–30 entries each).
        let keyBits = max(12, min(24, Int(log2(Double(owners.count) / 16).rounded())))
        guard let lsh = pc_cv_lsh_build(desc, owners, Int32(owners.count), 6, Int32(keyBits), 1) else {
            throw Failure(description: "albums index: " + String(cString: pc_cv_last_error()))
        }
        return lsh
    }

    /// Votes of a photo's points for each cover (index order).
    func votes(_ query: CoverFeatures, ratio: Double) -> [Int32] {
        var v = [Int32](repeating: 0, count: features.count)
        guard let lsh, query.count > 0 else { return v }
        _ = pc_cv_lsh_vote(lsh, query.descriptors, Int32(query.count), Float(ratio), &v, Int32(v.count))
        return v
    }
}
