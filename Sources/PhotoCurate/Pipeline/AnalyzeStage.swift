import Foundation

/// Analyse stage: `ImportedPhoto` → `PhotoRecord` plus the new cache entry.
/// Runs every analyzer of the pipeline whose result is not cached, on the one
/// decoded image. It knows analyzers only as `AnalyzerPlugin`s: which run is the
/// pipeline's choice (`PipelineDefinition.analyzers`).
public struct AnalyzeStage: PerPhotoStage {
    public static let id = "analyze"
    let analyzers: [(id: String, instance: AnalyzerPlugin.Instance)]
    let drainedHooks: [@Sendable () -> Void]
    public let importKey: ResultKey
    public var clock: StageClock?

    /// The pipeline's analyzers, configured with its parameters; `upstream` hashes the decode that feeds them.
    public init(pipeline: PipelineDefinition, upstream: String, importKey: ResultKey, clock: StageClock? = nil) {
        analyzers = pipeline.analyzers.compactMap { id in
            AnalyzerRegistry.plugin(id).map { (id, $0.build(pipeline.parameters(id), upstream)) }
        }
        drainedHooks = pipeline.analyzers.compactMap { AnalyzerRegistry.plugin($0)?.drained }
        self.importKey = importKey
        self.clock = clock
    }

    /// Tells the analyzers that every photo of the run has been through the stage
    /// (they free their models: see `AnalyzerPlugin.drained`).
    public func drained() {
        for hook in drainedHooks { hook() }
    }

    /// The cache keys of every analyzer that runs.
    public var pixelKeys: [ResultKey] { analyzers.map(\.instance.key) }

    public func process(_ photo: ImportedPhoto) async throws -> (PhotoRecord, CacheStore.Entry?) {
        let id = photo.identified
        var record = PhotoRecord(file: id.file, contentHash: id.contentHash, computed: [])
        var fresh: [(ResultKey, Data)] = []
        if photo.fresh { fresh.append((importKey, try AnalyzerPlugin.encoder.encode(photo.outcome))); record.computed.append(PhotoImporter.id) }
        switch photo.outcome {
        case .failed(let e):
            record.error = e
        case .facts(let facts):
            record.facts = facts
            // Pixels as import left them; decoded here only if a cached result turns out unreadable.
            var image = photo.image
            let pixels = { () throws -> AnalysisImage? in
                if image == nil, let decode = photo.decodeLater { image = try decode() }
                return image
            }
            do {
                for (analyzerID, a) in analyzers {
                    // The cached result if it still decodes; otherwise computed on the decoded image and queued for the cache.
                    if let d = id.cached[a.key], (try? a.store(d, &record)) != nil { continue }
                    guard let image = try pixels() else { continue }
                    let data = try clock.map { c in try c.measure(analyzerID) { try a.analyze(image) } } ?? a.analyze(image)
                    try a.store(data, &record)
                    fresh.append((a.key, data))
                    record.computed.append(analyzerID)
                }
            } catch let e as PhotoError {
                record.error = ErrorInfo(e)
            }
        }
        let entry = fresh.isEmpty && id.knownByPath ? nil : CacheStore.Entry(file: id.file, contentHash: id.contentHash, results: fresh)
        return (record, entry)
    }
}
