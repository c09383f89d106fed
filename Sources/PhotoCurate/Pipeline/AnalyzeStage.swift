import Foundation

/// Analyse stage: `ImportedPhoto` → `PhotoRecord` plus the new cache entry.
/// Runs every analyzer whose result is not cached, on the one decoded image.
public struct AnalyzeStage: PerPhotoStage {
    public static let id = "analyze"
    public let quality: QualityAnalyzer
    public let featurePrint: FeaturePrintAnalyzer
    public let qualityKey: ResultKey
    public let featureKey: ResultKey
    public let importKey: ResultKey
    public var clock: StageClock?

    public init(quality: QualityAnalyzer, featurePrint: FeaturePrintAnalyzer, upstream: String, importKey: ResultKey, clock: StageClock? = nil) {
        self.clock = clock
        self.quality = quality
        self.featurePrint = featurePrint
        self.qualityKey = quality.key(upstream: upstream)
        self.featureKey = featurePrint.key(upstream: upstream)
        self.importKey = importKey
    }

    public var pixelKeys: [ResultKey] { [qualityKey, featureKey] }

    public func process(_ photo: ImportedPhoto) async throws -> (PhotoRecord, CacheStore.Entry?) {
        let id = photo.identified
        var record = PhotoRecord(file: id.file, contentHash: id.contentHash, computed: [])
        var fresh: [(ResultKey, Data)] = []
        let enc = JSONEncoder()
        enc.outputFormatting = .sortedKeys
        if photo.fresh { fresh.append((importKey, try enc.encode(photo.outcome))); record.computed.append(PhotoImporter.id) }
        switch photo.outcome {
        case .failed(let e):
            record.error = e
        case .facts(let facts):
            record.facts = facts
            let dec = JSONDecoder()
            if let d = id.cached[qualityKey], let q = try? dec.decode(TechnicalQualityScore.self, from: d) {
                record.quality = q
            } else if let image = photo.image {
                let q = clock.map { c in c.measure(QualityAnalyzer.id) { quality.analyze(image) } } ?? quality.analyze(image)
                record.quality = q
                fresh.append((qualityKey, try enc.encode(q)))
                record.computed.append(QualityAnalyzer.id)
            }
            if let d = id.cached[featureKey], let f = try? dec.decode(FeaturePrint.self, from: d) {
                record.featurePrint = f
            } else if let image = photo.image {
                let f = clock.map { c in c.measure(FeaturePrintAnalyzer.id) { featurePrint.analyze(image) } } ?? featurePrint.analyze(image)
                record.featurePrint = f
                fresh.append((featureKey, try enc.encode(f)))
                record.computed.append(FeaturePrintAnalyzer.id)
            }
        }
        let entry = fresh.isEmpty && id.knownByPath ? nil : CacheStore.Entry(file: id.file, contentHash: id.contentHash, results: fresh)
        return (record, entry)
    }
}
