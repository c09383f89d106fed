import Foundation
import Logging

/// Runs the whole pipeline over a folder.
///
/// ```swift
/// var options = CurationRunner.Options(root: "/home/me/Trip")
/// options.pipeline.stages["select"]!.set("top", 20)
/// let result = try await CurationRunner(options: options).run()
/// ```
/// scan → identify → import → analyse run per photo, `jobs` at a time, and hand
/// their records to the collector through a bounded channel. Cache writes are
/// batched (every 32 photos or 0.5 s) and flushed when the run stops, also on
/// Ctrl-C. Clustering and selection then see the whole set.
public final class CurationRunner {
    public struct Options {
        public var root: String
        public var pipeline: PipelineDefinition = .defaults()
        public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// `nil` runs without a cache (benchmarks' cold runs, `--no-cache`).
        public var cachePath: String? = CacheStore.defaultPath()
        public var progress: ProgressSink?
        public init(root: String) { self.root = root }
    }

    public struct Result {
        public var root: String
        public var records: [PhotoRecord]
        /// Indices into `records` of the usable photos, in path order; cluster and selection indices refer to this list.
        public var usable: [Int]
        public var clustering: Clustering
        public var selection: Selection
        public var problems: [ErrorInfo]
        public var timings: [String: Double]
        public var computedPhotos: Int
        public var cachedPhotos: Int
        public var cancelled: Bool
        public var pipeline: PipelineDefinition
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    /// The decoder and the analyse stage a pipeline runs, with the cache keys of
    /// everything they store: built in one place, so `cache prune` keeps exactly
    /// what a run would read.
    public static func analysis(for p: PipelineDefinition, clock: StageClock? = nil) -> (decoder: Decoder, importKey: ResultKey, analyze: AnalyzeStage) {
        let decoder = Decoder(longEdge: p.parameters("import").int("longEdge"),
                              maxPixels: Int(p.parameters("import")["maxMegapixels"] * 1_000_000))
        let upstream = ImportStage.upstreamHash(decoder)
        let importKey = ResultKey(analyzer: PhotoImporter.id, version: PhotoImporter.version, parametersHash: upstream)
        let analyze = AnalyzeStage(pipeline: p, upstream: upstream, importKey: importKey, clock: clock)
        return (decoder, importKey, analyze)
    }

    /// Every cache key a run of this pipeline reads and writes.
    public static func resultKeys(for p: PipelineDefinition) -> [ResultKey] {
        let a = analysis(for: p)
        return [a.importKey] + a.analyze.pixelKeys
    }

    public func run() async throws -> Result {
        let started = Date()
        var timings: [String: Double] = [:]
        let p = options.pipeline
        try Vips.start()
        let clock = StageClock()
        let (decoder, importKey, analyze) = Self.analysis(for: p, clock: clock)
        let importer = PhotoImporter(decoder: decoder, clock: clock)
        let importStage = ImportStage(importer: importer, pixelKeys: analyze.pixelKeys)
        let cache = try options.cachePath.flatMap { path -> CacheStore? in
            do {
                return try CacheStore.openChecked(path: path) { Logger(label: "stage").warning("\($0)", metadata: ["event": "cache-rebuilt", "path": .string(path)]) }
            } catch let e as CacheError where e.canRunWithout {
                guard case .open(_, let why) = e else { return nil }
                Logger(label: "stage").warning("cache \(path) cannot be used (\(why)): this run goes on without caching; make it writable or give another --cache to keep results for the next run",
                                               metadata: ["event": "cache-unwritable", "path": .string(path)])
                return nil
            }
        }
        let identify = IdentifyStage(cache: cache, keys: [importKey] + analyze.pixelKeys, clock: clock)

        options.progress?.handle(.stage("scan"))
        var t0 = Date()
        let scan = try FolderScanner().scan(options.root)
        timings["scan"] = Date().timeIntervalSince(t0)
        options.progress?.handle(.scanned(total: scan.files.count))
        options.progress?.handle(.stage("analyse"))

        t0 = Date()
        let writer = CacheBatcher(cache: cache)
        var records: [PhotoRecord] = []
        records.reserveCapacity(scan.files.count)
        var done = 0, computed = 0, cached = 0
        let total = scan.files.count
        try await BoundedMap.run(scan.files, limit: options.jobs, transform: { file -> (PhotoRecord, CacheStore.Entry?) in
            do {
                let identified = try await identify.process(file)
                let imported = try await importStage.process(identified)
                return try await analyze.process(imported)
            } catch let e as PhotoError {
                return (PhotoRecord(file: file, error: ErrorInfo(e), computed: []), nil)
            } catch {
                return (PhotoRecord(file: file, error: ErrorInfo(path: file.path, kind: "internal", message: "\(file.path): \(error)"), computed: []), nil)
            }
        }, consume: { (record, entry) in
            if let entry { writer.add(entry) }
            if record.computed.isEmpty { cached += 1 } else { computed += 1 }
            done += 1
            records.append(record)
            self.options.progress?.handle(.photo(done: done, total: total, path: record.file.path, cached: record.computed.isEmpty, failed: record.error != nil))
        })
        writer.flush()
        analyze.drained()
        let cancelled = Task.isCancelled
        timings["analyse"] = Date().timeIntervalSince(t0)
        // Task-seconds per per-photo stage (they overlap across `jobs` tasks).
        for (k, v) in clock.snapshot { timings["task." + k] = v }

        records.sort { $0.file.path.utf8.lexicographicallyPrecedes($1.file.path.utf8) }
        // Interrupted: what was computed is in the cache; the set is incomplete, so stop here.
        let usable = cancelled ? [] : records.indices.filter { records[$0].usable }

        options.progress?.handle(.stage("cluster"))
        t0 = Date()
        let clusterInputs = usable.map { i -> ClusterInput in
            let r = records[i], f = r.facts!
            return ClusterInput(epoch: f.timeTrusted ? f.captureEpoch : nil, latitude: f.latitude, longitude: f.longitude,
                                print: r.featurePrint!, quality: r.quality!.overall, path: r.file.path,
                                aspect: f.displayAspect, orientationUnknown: f.orientation == 1)
        }
        let clustering = try ClusterStage(parameters: p.parameters(ClusterStage.id)).run(clusterInputs)
        timings["cluster"] = Date().timeIntervalSince(t0)

        options.progress?.handle(.stage("select"))
        t0 = Date()
        let selectInputs = usable.map { i -> SelectInput in
            let r = records[i], f = r.facts!
            let faces = r.faceResult  // decoded once: it is stored as JSON bytes
            let label = f.timeTrusted ? f.captureTime.flatMap(CaptureTime.clockLabel(iso:)) : nil
            return SelectInput(path: r.file.path, technical: r.quality!, localHour: f.timeTrusted ? f.captureTime.flatMap(CaptureTime.localHour(iso:)) : nil,
                               timeLabel: label, print: r.featurePrint!, spectrum: r.spectrum, detail: r.detail, damaged: f.damaged,
                               timeTrusted: f.timeTrusted, faces: faces?.faces, suggestedRotation: faces?.suggestedRotation,
                               epoch: f.timeTrusted ? f.captureEpoch : nil)
        }
        let selection = try SelectStage(parameters: p.parameters(SelectStage.id)).run((selectInputs, clustering))
        timings["select"] = Date().timeIntervalSince(t0)

        let problems = scan.problems.map(ErrorInfo.init) + records.compactMap(\.error)
        timings["total"] = Date().timeIntervalSince(started)
        options.progress?.handle(.finished(seconds: timings["total"]!))
        return Result(root: options.root, records: records, usable: usable, clustering: clustering, selection: selection,
                      problems: problems, timings: timings, computedPhotos: computed, cachedPhotos: cached,
                      cancelled: cancelled, pipeline: p)
    }
}

/// Collects cache entries and writes them in batches: one transaction per 32
/// photos or per half second, whichever comes first. A cache that cannot be
/// written (disk full, read-only) is said once and the run goes on without
/// caching: the results are in this run's outputs, only not kept for the next.
final class CacheBatcher {
    private(set) var cache: CacheStore?
    var pending: [CacheStore.Entry] = []
    var last = Date()
    /// Why writing stopped, once it has.
    private(set) var failure: String?
    init(cache: CacheStore?) { self.cache = cache }

    func add(_ e: CacheStore.Entry) {
        guard cache != nil else { return }
        pending.append(e)
        if pending.count >= 32 || Date().timeIntervalSince(last) > 0.5 { flush() }
    }

    func flush() {
        guard let c = cache, !pending.isEmpty else { return }
        do { try c.write(pending) } catch {
            failure = "cache \(c.path) cannot be written (\(CacheStore.reason(error))): the run goes on without caching; free space or choose another --cache to keep results for the next run"
            Logger(label: "stage").warning("\(failure!)", metadata: ["event": "cache-unwritable", "path": .string(c.path)])
            cache = nil
        }
        pending.removeAll(keepingCapacity: true)
        last = Date()
    }
}
