import Foundation

/// Analyse stage: `ImportedPhoto` → `PhotoRecord` plus the new cache entry.
/// Runs every analyzer whose result is not cached, on the one decoded image.
public struct AnalyzeStage: PerPhotoStage {
    public static let id = "analyze"
    public let quality: QualityAnalyzer
    public let featurePrint: FeaturePrintAnalyzer
    public let spectrum: SpectrumAnalyzer
    public let detail: DetailAnalyzer
    public let detailKey: ResultKey
    public let qualityKey: ResultKey
    public let featureKey: ResultKey
    public let spectrumKey: ResultKey
    public let importKey: ResultKey
    public var clock: StageClock?

    public init(quality: QualityAnalyzer, featurePrint: FeaturePrintAnalyzer, spectrum: SpectrumAnalyzer = SpectrumAnalyzer(),
                detail: DetailAnalyzer = DetailAnalyzer(), upstream: String, importKey: ResultKey, clock: StageClock? = nil) {
        self.detail = detail
        self.detailKey = detail.key(upstream: upstream)
        self.clock = clock
        self.quality = quality
        self.featurePrint = featurePrint
        self.qualityKey = quality.key(upstream: upstream)
        self.featureKey = featurePrint.key(upstream: upstream)
        self.spectrum = spectrum
        self.spectrumKey = spectrum.key(upstream: upstream)
        self.importKey = importKey
    }

    public var pixelKeys: [ResultKey] { [qualityKey, featureKey, spectrumKey, detailKey] }

    public func process(_ photo: ImportedPhoto) async throws -> (PhotoRecord, CacheStore.Entry?) {
        let id = photo.identified
        var record = PhotoRecord(file: id.file, contentHash: id.contentHash, computed: [])
        var fresh: [(ResultKey, Data)] = []
        if photo.fresh { fresh.append((importKey, try Self.encoder.encode(photo.outcome))); record.computed.append(PhotoImporter.id) }
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
                record.quality = try resolve(quality, qualityKey, photo, pixels, &fresh, &record.computed)
                record.featurePrint = try resolve(featurePrint, featureKey, photo, pixels, &fresh, &record.computed)
                record.spectrum = try resolve(spectrum, spectrumKey, photo, pixels, &fresh, &record.computed)
                record.detail = try resolve(detail, detailKey, photo, pixels, &fresh, &record.computed)?.detail
            } catch let e as PhotoError {
                record.error = ErrorInfo(e)
            }
        }
        let entry = fresh.isEmpty && id.knownByPath ? nil : CacheStore.Entry(file: id.file, contentHash: id.contentHash, results: fresh)
        return (record, entry)
    }

    /// Key-sorted, so the same result is stored as the same bytes.
    private static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }

    /// The cached result if there is one; otherwise computed on the decoded image and queued for the cache.
    private func resolve<A: Analyzer>(_ analyzer: A, _ key: ResultKey, _ photo: ImportedPhoto, _ pixels: () throws -> AnalysisImage?,
                                      _ fresh: inout [(ResultKey, Data)], _ computed: inout [String]) throws -> A.Output? {
        if let d = photo.identified.cached[key], let v = try? JSONDecoder().decode(A.Output.self, from: d) { return v }
        guard let image = try pixels() else { return nil }
        let v = clock.map { c in c.measure(A.id) { analyzer.analyze(image) } } ?? analyzer.analyze(image)
        fresh.append((key, try Self.encoder.encode(v)))
        computed.append(A.id)
        return v
    }
}
