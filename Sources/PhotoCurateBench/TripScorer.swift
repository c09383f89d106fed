import Foundation
import PhotoCurate

/// Scores a manifest against a trip's labels.
///
/// ```swift
/// let report = try TripScorer.score(labels: TripLabels.read("trip/labels.json"), manifest: Manifest.read("out/manifest.json"))
/// ```
public enum TripScorer {
    public struct Report: Codable, Sendable {
        public var files: Int
        public var scored: Int
        public var clustering: Clustering
        /// Of `quality.overall`: the absolute, per-photo score.
        public var quality: Quality
        /// Of `score.technical`: the absolute score with blur and exposure relative to the visual group.
        public var technicalInGroup: Quality?
        public var laplacianBaseline: Quality
        public var top: Top
        public struct Clustering: Codable, Sendable {
            public var pairwise: Metrics.PairScores
            public var ari: Double
            public var predictedGroups: Int
            public var scenes: Int
        }
        public struct Quality: Codable, Sendable {
            public var aucGlobal: Double?
            public var aucWithinScenes: Double?
            public var aucByKind: [String: Double]
            public var aucByKindWithinScenes: [String: Double]
        }
        public struct Top: Codable, Sendable {
            public var n: Int
            public var picked: Int
            public var degraded: Int
            public var fractionDegraded: Double
            public var sceneCoverage: Double
            public var sameSceneDuplicatePairs: Int
            public var corruptPicked: Int
        }
    }

    /// Scores `manifest` against `labels`; photos cut from a source named in `excludingSources`
    /// (a flat test pattern is no photograph: its blurred and clean crops are the same grey
    /// field) are left out of the quality AUCs, not of clustering or the top N.
    public static func score(labels: TripLabels, manifest: Manifest, excludingSources: Set<String> = []) -> Report {
        func label(_ p: Manifest.Photo) -> TripLabels.File? { labels.files[(p.path as NSString).lastPathComponent] }
        let scored = manifest.photos.filter { p in label(p).map { !$0.corrupt && $0.scene != nil } == true && p.cluster != nil && p.quality != nil }
        let truth = scored.map { label($0)!.scene! }
        let predicted = scored.map { $0.cluster! }
        let clustering = Report.Clustering(pairwise: Metrics.pairwise(truth: truth, predicted: predicted),
                                           ari: Metrics.adjustedRand(truth: truth, predicted: predicted),
                                           predictedGroups: Set(predicted).count, scenes: Set(truth).count)

        let judged = scored.filter { p in label(p)!.source.map { !excludingSources.contains($0) } ?? true }
        func quality(_ value: (Manifest.Photo) -> Double) -> Report.Quality {
            let clean = judged.filter { label($0)!.degradation == nil }
            let degraded = judged.filter { label($0)!.degradation != nil }
            let global = Metrics.auc(positive: clean.map(value), negative: degraded.map(value))
            // Within scenes: pool every (clean, degraded) pair of the same scene.
            func within(_ kind: String?) -> Double? {
                var wins = 0.0, pairs = 0.0
                for c in clean {
                    for d in degraded where label(d)!.scene == label(c)!.scene && (kind == nil || label(d)!.degradation!.kind == kind) {
                        let a = value(c), b = value(d)
                        wins += a > b ? 1 : a == b ? 0.5 : 0
                        pairs += 1
                    }
                }
                return pairs > 0 ? wins / pairs : nil
            }
            var byKind: [String: Double] = [:], byKindWithin: [String: Double] = [:]
            for kind in TripGenerator.kinds {
                let ofKind = degraded.filter { label($0)!.degradation!.kind == kind }
                if let a = Metrics.auc(positive: clean.map(value), negative: ofKind.map(value)) { byKind[kind] = a }
                if let w = within(kind) { byKindWithin[kind] = w }
            }
            return Report.Quality(aucGlobal: global, aucWithinScenes: within(nil), aucByKind: byKind, aucByKindWithinScenes: byKindWithin)
        }

        let picks = manifest.picks.compactMap { p in manifest.photos.first { $0.path == p.path } }
        let pickLabels = picks.map(label)
        let scenesPicked = pickLabels.compactMap { $0?.scene }
        var dupPairs = 0
        for i in 0..<scenesPicked.count { for j in (i + 1)..<scenesPicked.count where scenesPicked[i] == scenesPicked[j] { dupPairs += 1 } }
        let n = manifest.summary.top
        let totalScenes = Set(labels.files.values.compactMap(\.scene)).count
        let degradedPicked = pickLabels.filter { $0?.degradation != nil }.count
        let top = Report.Top(n: n, picked: picks.count, degraded: degradedPicked,
                             fractionDegraded: picks.isEmpty ? 0 : Double(degradedPicked) / Double(picks.count),
                             sceneCoverage: Double(Set(scenesPicked).count) / Double(max(1, min(n, totalScenes))),
                             sameSceneDuplicatePairs: dupPairs, corruptPicked: pickLabels.filter { $0?.corrupt ?? false }.count)
        return Report(files: manifest.photos.count, scored: scored.count, clustering: clustering,
                      quality: quality { $0.quality!.overall },
                      technicalInGroup: judged.allSatisfy { $0.score != nil } ? quality { $0.score!.technical } : nil,
                      laplacianBaseline: quality { $0.quality!.measurements.laplacianVariance },
                      top: top)
    }

    public static func render(_ r: Report) -> String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "n/a" }
        func kinds(_ d: [String: Double]) -> String { TripGenerator.kinds.map { "\($0) \(f(d[$0]))" }.joined(separator: ", ") }
        return """
        files \(r.files), scored \(r.scored)
        clustering: ARI \(f(r.clustering.ari)); pairwise precision \(f(r.clustering.pairwise.precision)), recall \(f(r.clustering.pairwise.recall)), F1 \(f(r.clustering.pairwise.f1)); \(r.clustering.predictedGroups) groups for \(r.clustering.scenes) scenes
        quality (overall): AUC global \(f(r.quality.aucGlobal)), within scenes \(f(r.quality.aucWithinScenes))
          by kind (global): \(kinds(r.quality.aucByKind))
          by kind (within scenes): \(kinds(r.quality.aucByKindWithinScenes))
        \(r.technicalInGroup.map { g in "score.technical (with blur and exposure relative to its visual group): AUC global \(f(g.aucGlobal)), within scenes \(f(g.aucWithinScenes))\n  by kind (global): \(kinds(g.aucByKind))\n  by kind (within scenes): \(kinds(g.aucByKindWithinScenes))\n" } ?? "")baseline (variance of Laplacian, same decode): AUC global \(f(r.laplacianBaseline.aucGlobal)), within scenes \(f(r.laplacianBaseline.aucWithinScenes))
          by kind (global): \(kinds(r.laplacianBaseline.aucByKind))
        top \(r.top.n): \(r.top.picked) picked, \(r.top.degraded) degraded (\(f(r.top.fractionDegraded))), scene coverage \(f(r.top.sceneCoverage)), same-scene pairs \(r.top.sameSceneDuplicatePairs), corrupt \(r.top.corruptPicked)
        """
    }
}
