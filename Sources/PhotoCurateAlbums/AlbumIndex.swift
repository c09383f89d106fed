import Foundation
import PhotoCurate

/// A catalog's covers, analysed (ORB features, cached per cover) and indexed for a shortlist.
///
/// ```swift
/// let index = try AlbumIndex.build(AlbumCatalog.load("catalog"), cache: cache)
/// index.problems   // covers that could not be read, each with the file and reason
/// index.shortlist(photoFeatures, count: 5)
/// ```
/// The shortlist is a bag of visual words: a vocabulary tree trained on the
/// catalog's own points (`VisualVocabulary`) turns each cover's strongest points
/// into words, and an inverted file lists the covers of each word. A photo's
/// words score the covers they share (idf²-weighted histogram intersection), and the
/// best few are verified geometrically (`AlbumIdentifier`). The cost of a photo
/// grows with the postings its words touch, not with the catalog.
///
/// Memory: the inverted file takes ~5 bytes per indexed point (`indexFeatures`
/// per cover); the covers' full features (~29 KB each) stay in memory up to
/// `memoryCovers` covers, and beyond that are read from the albums cache for the
/// shortlisted covers only.
public final class AlbumIndex: @unchecked Sendable {
    public let catalog: AlbumCatalog
    /// Albums whose cover could be analysed (index order).
    public let albums: [AlbumEntry]
    /// Covers left out (unreadable, no features), with the reason; and the catalog's own problems.
    public let problems: [String]
    public let computed: Int
    public let reused: Int
    public let vocabulary: VisualVocabulary
    /// Inverted file: covers (and their count of the word) for word w at wordStart[w]..<wordStart[w+1].
    let wordStart: [Int32]
    let postingCover: [Int32]
    let postingCount: [UInt8]
    let idf: [Float]
    /// Per cover: √ of its idf² mass, so covers with many points do not win by size alone.
    let coverNorm: [Float]
    let store: FeatureStore

    /// Covers whose full features are kept in memory; above it they are read from the cache.
    public static let memoryCovers = 5000
    /// Points the vocabulary is trained on, at most (12.8 MB); more words separated covers better up to here.
    static let sampleCap = 400_000

    enum FeatureStore {
        case memory([CoverFeatures])
        case cache(CacheStore, key: ResultKey, hashes: [String])

        /// Cover `i`'s features, or nil when the cache no longer has them.
        func features(_ i: Int) -> CoverFeatures? {
            switch self {
            case .memory(let all): return all[i]
            case .cache(let cache, let key, let hashes):
                return (try? cache.results(for: hashes[i], keys: [key])[key]).flatMap { CoverFeatures(encoded: $0) }
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// The full features of cover `i` (for verification).
    public func coverFeatures(_ i: Int) throws -> CoverFeatures {
        guard let f = store.features(i) else {
            throw Failure(description: "\(catalog.artPath(albums[i])): its features are no longer in the albums cache; run `photocurate albums index` again")
        }
        return f
    }

    /// Bytes the shortlist index holds (vocabulary and inverted file), for the scale report.
    public var indexBytes: Int { vocabulary.memoryBytes + wordStart.count * 4 + postingCover.count * 5 + idf.count * 4 + coverNorm.count * 4 }
    public var postings: Int { postingCover.count }

    /// - Parameter memoryCovers: above this many covers (and with a cache), features are read back from the cache.
    public static func build(_ catalog: AlbumCatalog, cache: CacheStore?, cover: Parameters? = nil, identify: Parameters? = nil,
                             memoryCovers: Int = AlbumIndex.memoryCovers) throws -> AlbumIndex {
        let cp = try cover ?? Parameters(AlbumParameters.cover)
        let ip = try identify ?? Parameters(AlbumParameters.identify)
        let key = ResultKey(analyzer: AlbumParameters.coverAnalyzer, version: AlbumParameters.coverVersion, parametersHash: cp.hash)
        let n = catalog.albums.count
        let perCover = ip.int("indexFeatures")
        let inMemory = cache == nil || n <= memoryCovers
        // Points the vocabulary is trained on: up to `sampleCap`, spread evenly over the covers.
        let sampleEach = max(4, min(perCover, Self.sampleCap / max(1, n)))
        try Vips.start()
        var albums: [AlbumEntry] = [], kept: [CoverFeatures] = [], hashes: [String] = [], descriptorsSeen = 0
        var problems = catalog.problems, computed = 0, sample: [UInt8] = []
        // In batches, so that a large catalog's features never sit in memory all at once.
        let batch = 512
        for start in stride(from: 0, to: n, by: batch) {
            let range = start..<min(n, start + batch)
            let results = ResultSlots<Result<(CoverFeatures, CacheStore.Entry?, String), Failure>>(count: range.count)
            DispatchQueue.concurrentPerform(iterations: range.count) { k in
                results[k] = analyse(catalog, catalog.albums[range.lowerBound + k], cache: cache, key: key, parameters: cp)
            }
            var fresh: [CacheStore.Entry] = []
            for k in 0..<range.count {
                switch results[k]! {
                case .success(let (f, entry, hash)):
                    albums.append(catalog.albums[range.lowerBound + k]); hashes.append(hash)
                    if inMemory { kept.append(f) }
                    descriptorsSeen += min(perCover, f.count)
                    sample += f.descriptors.prefix(min(perCover, sampleEach) * 32)
                    if let entry { fresh.append(entry) }
                case .failure(let e): problems.append(e.description)
                }
            }
            computed += fresh.count
            if let cache, !fresh.isEmpty {
                // A cache that cannot be written costs only time next run; at scale it is needed.
                do { try cache.write(fresh) } catch {
                    if !inMemory { throw Failure(description: "albums cache: not written (\(error)); a catalog of \(n) covers needs it") }
                    problems.append("albums cache: not written (\(error)); covers will be analysed again next time")
                }
            }
        }
        // A deeper tree for a larger catalog: 10^depth leaves at most, and no more than the
        // points trained on allow (a leaf holds at least one). 300,000 points → ~130,000 words.
        let depth = max(3, min(6, Int(log10(Double(max(10, descriptorsSeen))).rounded(.up))))
        let vocabulary = VisualVocabulary.train(sample, count: sample.count / 32, branching: 10, depth: depth)
        // Words of each cover (a second pass: at scale the features come from the cache again,
        // one cover at a time, so that they are never all in memory), then the inverted file.
        let store: FeatureStore = inMemory ? .memory(kept) : .cache(cache!, key: key, hashes: hashes)
        let words = ResultSlots<[(Int32, UInt8)]>(count: albums.count)
        DispatchQueue.concurrentPerform(iterations: albums.count) { i in
            guard let f = store.features(i) else { return }
            var c: [Int32: Int] = [:]
            f.prefix(perCover).descriptors.withUnsafeBytes { raw in for k in 0..<(raw.count / 32) { c[vocabulary.word(raw, at: k), default: 0] += 1 } }
            words[i] = c.keys.sorted().map { ($0, UInt8(min(255, c[$0]!))) }
        }
        var perCoverCounts: [[(Int32, UInt8)]] = []
        for i in albums.indices {
            guard let list = words[i] else {
                throw Failure(description: "\(catalog.artPath(albums[i])): its features vanished from the albums cache while indexing")
            }
            perCoverCounts.append(list)
        }
        var counts = [Int32](repeating: 0, count: vocabulary.words + 1)
        for list in perCoverCounts { for (w, _) in list { counts[Int(w) + 1] += 1 } }
        var wordStart = counts
        for w in 0..<vocabulary.words { wordStart[w + 1] += wordStart[w] }
        var postingCover = [Int32](repeating: 0, count: Int(wordStart[vocabulary.words]))
        var postingCount = [UInt8](repeating: 0, count: postingCover.count)
        var fill = Array(wordStart.dropLast())
        for (c, list) in perCoverCounts.enumerated() {
            for (w, k) in list {
                let at = Int(fill[Int(w)]); fill[Int(w)] += 1
                postingCover[at] = Int32(c); postingCount[at] = k
            }
        }
        let covers = Float(max(1, albums.count))
        let idf = (0..<vocabulary.words).map { w -> Float in
            let df = Float(wordStart[w + 1] - wordStart[w])
            return df > 0 ? log(covers / df) : 0
        }
        let coverNorm = perCoverCounts.map { list in max(1e-6, list.reduce(Float(0)) { $0 + idf[Int($1.0)] * idf[Int($1.0)] * Float($1.1) }).squareRoot() }
        perCoverCounts = []
        return AlbumIndex(catalog: catalog, albums: albums, problems: problems, computed: computed, reused: albums.count - computed,
                          vocabulary: vocabulary, wordStart: wordStart, postingCover: postingCover, postingCount: postingCount,
                          idf: idf, coverNorm: coverNorm,
                          store: store)
    }

    init(catalog: AlbumCatalog, albums: [AlbumEntry], problems: [String], computed: Int, reused: Int, vocabulary: VisualVocabulary,
         wordStart: [Int32], postingCover: [Int32], postingCount: [UInt8], idf: [Float], coverNorm: [Float], store: FeatureStore) {
        self.catalog = catalog; self.albums = albums; self.problems = problems; self.computed = computed; self.reused = reused
        self.vocabulary = vocabulary; self.wordStart = wordStart; self.postingCover = postingCover; self.postingCount = postingCount
        self.idf = idf; self.coverNorm = coverNorm; self.store = store
    }

    /// The covers that share most of the photo's words, best first, with their scores.
    public func shortlist(_ query: CoverMatcher.Query, count: Int) -> [(cover: Int, score: Double)] {
        guard !query.words.isEmpty, !albums.isEmpty else { return [] }
        var q: [Int32: Int] = [:]
        for w in query.words { q[w, default: 0] += 1 }
        var score = [Float](repeating: 0, count: albums.count)
        for (w, k) in q {
            // idf² (tf-idf on both sides): a word few covers have says much more than a common one.
            let weight = idf[Int(w)] * idf[Int(w)]
            if weight <= 0 { continue }
            for at in Int(wordStart[Int(w)])..<Int(wordStart[Int(w) + 1]) {
                score[Int(postingCover[at])] += weight * Float(min(k, Int(postingCount[at])))
            }
        }
        var order: [(Int, Float)] = []
        for c in score.indices where score[c] > 0 { order.append((c, score[c] / coverNorm[c])) }
        order.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return order.prefix(count).map { ($0.0, (Double($0.1) * 1000).rounded() / 1000) }
    }

    static func analyse(_ catalog: AlbumCatalog, _ album: AlbumEntry, cache: CacheStore?, key: ResultKey, parameters: Parameters)
        -> Result<(CoverFeatures, CacheStore.Entry?, String), Failure> {
        let path = catalog.artPath(album)
        let who = "\(path) (\(album.artist_name) — \(album.album_title))"
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(Failure(description: "\(who): cannot be read: \(String(cString: strerror(errno)))")) }
        let file = PhotoFile(path: path, size: Int64(st.st_size), mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        do {
            let hash = try (try? cache?.knownHash(for: file)) ?? StableHash.file(at: path)
            if let cache, let data = try? cache.results(for: hash, keys: [key])[key], let f = CoverFeatures(encoded: data) {
                return .success((f, nil, hash))
            }
            let image = try Decoder(longEdge: parameters.int("coverSize")).decode(path)
            let f = try CoverFeatures.extract(image, maxFeatures: parameters.int("coverFeatures"))
            guard f.count >= 20 else {
                return .failure(Failure(description: "\(who): only \(f.count) distinct points; a plain cover cannot be recognised, left out"))
            }
            return .success((f, CacheStore.Entry(file: file, contentHash: hash, results: [(key, f.encoded())]), hash))
        } catch {
            return .failure(Failure(description: "\(who): \(error)"))
        }
    }

}
