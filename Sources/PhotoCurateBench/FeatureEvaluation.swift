import Foundation
import PhotoCurate

/// How well feature prints separate same-scene pairs from different-scene pairs.
public enum FeatureEvaluation {
    public struct Report: Codable, Sendable {
        public var photos: Int
        public var samePairs: Int
        public var differentPairs: Int
        public var auc: Double?
        public var threshold: Double
        public var precisionAtThreshold: Double
        public var recallAtThreshold: Double
        /// Same-scene pairs where one side is stored rotated (Orientation 3/6/8).
        public var rotatedSamePairs: Int
        public var rotatedRecallAtThreshold: Double
        public var rotatedAuc: Double?
        /// Similarity quantiles, for calibration.
        public var sameQuantiles: [Double]
        public var differentQuantiles: [Double]
    }

    /// `prints` and `files` are parallel: each print with the label of its file.
    public static func evaluate(prints: [FeaturePrint], files: [TripLabels.File], threshold: Double = 0.75) -> Report {
        var same: [Double] = [], diff: [Double] = [], rotSame: [Double] = []
        var rotDiff: [Double] = []
        let m = SimilarityMatrix(prints)
        let s = m.block(rows: 0..<prints.count, cols: 0..<prints.count)
        let n = prints.count
        for i in 0..<n {
            for j in (i + 1)..<n {
                let v = Double(s[i * n + j])
                let rotated = files[i].orientation != 1 || files[j].orientation != 1
                if files[i].scene == files[j].scene { same.append(v); if rotated { rotSame.append(v) } } else { diff.append(v); if rotated { rotDiff.append(v) } }
            }
        }
        let tp = Double(same.filter { $0 >= threshold }.count), fp = Double(diff.filter { $0 >= threshold }.count)
        func q(_ a: [Double]) -> [Double] {
            let sorted = a.sorted()
            return sorted.isEmpty ? [] : [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99].map { (sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * $0))] * 1000).rounded() / 1000 }
        }
        return Report(photos: n, samePairs: same.count, differentPairs: diff.count, auc: Metrics.auc(positive: same, negative: diff),
                      threshold: threshold, precisionAtThreshold: tp + fp > 0 ? tp / (tp + fp) : 1,
                      recallAtThreshold: same.isEmpty ? 1 : tp / Double(same.count),
                      rotatedSamePairs: rotSame.count,
                      rotatedRecallAtThreshold: rotSame.isEmpty ? 1 : Double(rotSame.filter { $0 >= threshold }.count) / Double(rotSame.count),
                      rotatedAuc: Metrics.auc(positive: rotSame, negative: rotDiff),
                      sameQuantiles: q(same), differentQuantiles: q(diff))
    }
}
