import Foundation
import PhotoCurate

/// A catalog with its analyses: what search, the server and the evaluation read.
///
/// ```swift
/// let library = try ArtLibrary(catalog: ArtCatalog.load("catalog"), cache: CacheStore(path: ArtLibrary.defaultCachePath()))
/// let report = library.analyseMissing()        // analyses each image once; the cache keeps it
/// library.analysis(of: "aw-001")?.basicVisualProperties.dominantColors
/// ```
/// Each artwork's first image is analysed once per content, analyzer version and
/// parameters (`ResultKey`), so re-indexing an unchanged catalog reads the cache
/// only, and an edited image is analysed again. An image that cannot be analysed
/// is recorded with the reason (`state(of:)`); its artwork stays in the catalog
/// (GET works) but cannot match.
public final class ArtLibrary: @unchecked Sendable {
    public let catalog: ArtCatalog
    public let analyzer: ArtAnalyzer
    let cache: CacheStore?
    private let lock = NSLock()
    private var analyses: [String: ArtAnalysis] = [:]
    private var failures: [String: String] = [:]
    private var queued: Set<String> = []
    private var analysedAt: [String: Date] = [:]
    public let loadedAt = Date()

    public enum State: Equatable { case done(ArtAnalysis), failed(String), pending, absent }

    public struct Report: Sendable {
        public var analysed = 0, reused = 0
        public var problems: [String] = []
    }

    public init(catalog: ArtCatalog, analyzer: ArtAnalyzer? = nil, cache: CacheStore?) throws {
        self.catalog = catalog
        self.analyzer = try analyzer ?? ArtAnalyzer()
        self.cache = cache
    }

    /// `art.sqlite` beside the photo cache.
    public static func defaultCachePath() -> String {
        (CacheStore.defaultPath() as NSString).deletingLastPathComponent + "/art.sqlite"
    }

    var key: ResultKey { ResultKey(analyzer: ArtAnalyzer.id, version: ArtAnalyzer.version, parametersHash: analyzer.parameters.hash) }

    public func analysis(of id: String) -> ArtAnalysis? { lock.withLock { analyses[id] } }

    public func state(of id: String) -> State {
        lock.withLock {
            if let a = analyses[id] { return .done(a) }
            if let f = failures[id] { return .failed(f) }
            if queued.contains(id) { return .pending }
            return .absent
        }
    }

    public func analysedDate(of id: String) -> Date? { lock.withLock { analysedAt[id] } }

    /// Artworks with an analysis, in catalog order.
    public var analysed: [(Artwork, ArtAnalysis)] { entries.map { ($0.artwork, $0.analysis) } }

    /// The same, boxed and kept ready: every search reads it, and copying records per search cost more than ranking them.
    public var entries: [ArtEntry] {
        lock.withLock {
            if let ready = analysedList { return ready }
            let list = catalog.artworks.compactMap { a in analyses[a.objectID].map { ArtEntry(artwork: a, analysis: $0) } }
            analysedList = list
            return list
        }
    }
    private var analysedList: [ArtEntry]?

    /// Marks ids as queued; returns those newly queued (not analysed, failed or already queued).
    public func enqueue(_ ids: [String]) -> [String] {
        lock.withLock {
            var fresh: [String] = []
            for id in ids where analyses[id] == nil && failures[id] == nil && !queued.contains(id) {
                queued.insert(id); fresh.append(id)
            }
            return fresh
        }
    }

    /// Analyses every artwork (or `ids`) that has no analysis yet, `workers` at a time.
    @discardableResult
    public func analyseMissing(ids: [String]? = nil, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                               progress: ((Int, Int) -> Void)? = nil) -> Report {
        let wanted = ids.map(Set.init)
        let todo = catalog.artworks.filter { a in
            (wanted?.contains(a.objectID) ?? true) && lock.withLock { analyses[a.objectID] == nil && failures[a.objectID] == nil }
        }
        var report = Report()
        report.problems = ids == nil ? catalog.problems : []
        let batch = 64
        var done = 0
        for start in stride(from: 0, to: todo.count, by: batch) {
            let part = Array(todo[start..<min(todo.count, start + batch)])
            let results = ResultSlots<Result<(ArtAnalysis, CacheStore.Entry?), ArtFailure>>(count: part.count)
            let q = DispatchQueue(label: "art.analyse", attributes: .concurrent)
            let group = DispatchGroup(), gate = DispatchSemaphore(value: max(1, workers))
            for (k, a) in part.enumerated() {
                gate.wait()
                q.async(group: group) {
                    results[k] = self.analyseOne(a)
                    gate.signal()
                }
            }
            group.wait()
            var fresh: [CacheStore.Entry] = []
            lock.withLock {
                for (k, a) in part.enumerated() {
                    queued.remove(a.objectID)
                    switch results[k]! {
                    case .success(let (analysis, entry)):
                        analyses[a.objectID] = analysis
                        analysedList = nil
                        analysedAt[a.objectID] = Date()
                        if let entry { fresh.append(entry); report.analysed += 1 } else { report.reused += 1 }
                    case .failure(let f):
                        failures[a.objectID] = f.reason
                        report.problems.append("\(a.objectID) (\(a.title)): \(f.reason)")
                    }
                }
            }
            if let cache, !fresh.isEmpty {
                do { try cache.write(fresh) } catch { report.problems.append("art cache: not written (\(error)); these images will be analysed again next time") }
            }
            done += part.count
            progress?(done, todo.count)
        }
        return report
    }

    struct ArtFailure: Error { let reason: String }

    func analyseOne(_ a: Artwork) -> Result<(ArtAnalysis, CacheStore.Entry?), ArtFailure> {
        let path: String
        do { path = try catalog.imagePath(of: a) } catch { return .failure(ArtFailure(reason: "\(error)")) }
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(ArtFailure(reason: "\(path): cannot be read: \(String(cString: strerror(errno)).lowercased())")) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(ArtFailure(reason: "\(path): not a regular file")) }
        let file = PhotoFile(path: path, size: Int64(st.st_size), mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        do {
            let hash = try (try? cache?.knownHash(for: file)) ?? StableHash.file(at: path)
            if let cache, let data = try? cache.results(for: hash, keys: [key])[key],
               var cached = try? JSONDecoder().decode(ArtAnalysis.self, from: data) {
                // Catalog facts (dimensions, techniques, price) may have changed since: re-derive the words.
                cached = analyzer.describe(Self.withCatalogFacts(cached.measured, a), artwork: a)
                return .success((cached, nil))
            }
            let analysis = try analyzer.analyze(path: path, artwork: a)
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            return .success((analysis, CacheStore.Entry(file: file, contentHash: hash, results: [(key, try e.encode(analysis))])))
        } catch {
            return .failure(ArtFailure(reason: "\(error)"))
        }
    }

    /// The image measurements with the orientation and size that the catalog's dimensions give.
    static func withCatalogFacts(_ m: ArtAnalysis.Measured, _ a: Artwork) -> ArtAnalysis.Measured {
        var m = m
        var aspect = Double(m.width) / Double(max(1, m.height))
        m.longestSideCm = nil
        if let d = a.dimensions { aspect = d.widthCm / d.heightCm; m.longestSideCm = max(d.widthCm, d.heightCm) }
        m.aspect = ArtAnalyzer.r(aspect)
        m.orientation = aspect > 1.1 ? "landscape" : aspect < 1 / 1.1 ? "portrait" : "square"
        m.sizeClass = m.longestSideCm.map { $0 < 40 ? "small" : $0 < 100 ? "medium" : $0 < 160 ? "large" : "oversized" } ?? "unknown"
        return m
    }
}

/// An artwork with its analysis, shared by reference.
public final class ArtEntry: Sendable {
    public let artwork: Artwork
    public let analysis: ArtAnalysis
    public init(artwork: Artwork, analysis: ArtAnalysis) { self.artwork = artwork; self.analysis = analysis }
}
