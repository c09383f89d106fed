import Foundation

/// The statistics the scorer reports.
public enum Metrics {
    /// ROC AUC: the probability that a random positive scores above a random negative (ties count ½).
    /// Here "positive" is the class expected to score higher.
    public static func auc(positive: [Double], negative: [Double]) -> Double? {
        guard !positive.isEmpty, !negative.isEmpty else { return nil }
        let all = positive.map { ($0, 1) } + negative.map { ($0, 0) }
        let sorted = all.sorted { $0.0 < $1.0 }
        var rankSum = 0.0
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1].0 == sorted[i].0 { j += 1 }
            let avgRank = Double(i + j) / 2 + 1
            for k in i...j where sorted[k].1 == 1 { rankSum += avgRank }
            i = j + 1
        }
        let np = Double(positive.count), nn = Double(negative.count)
        return (rankSum - np * (np + 1) / 2) / (np * nn)
    }

    public struct PairScores: Codable, Sendable { public var precision: Double; public var recall: Double; public var f1: Double }

    /// Pairwise precision/recall of a predicted partition against the truth.
    public static func pairwise(truth: [Int], predicted: [Int]) -> PairScores {
        var tp = 0.0, fp = 0.0, fn = 0.0
        for i in 0..<truth.count {
            for j in (i + 1)..<truth.count {
                let t = truth[i] == truth[j], p = predicted[i] == predicted[j]
                if t && p { tp += 1 } else if p { fp += 1 } else if t { fn += 1 }
            }
        }
        let precision = tp + fp > 0 ? tp / (tp + fp) : 1, recall = tp + fn > 0 ? tp / (tp + fn) : 1
        return PairScores(precision: precision, recall: recall, f1: precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0)
    }

    /// Adjusted Rand Index (Hubert & Arabie).
    public static func adjustedRand(truth: [Int], predicted: [Int]) -> Double {
        let n = truth.count
        guard n > 1 else { return 1 }
        var table: [Int: [Int: Int]] = [:]
        var a: [Int: Int] = [:], b: [Int: Int] = [:]
        for i in 0..<n {
            table[truth[i], default: [:]][predicted[i], default: 0] += 1
            a[truth[i], default: 0] += 1
            b[predicted[i], default: 0] += 1
        }
        func c2(_ x: Int) -> Double { Double(x * (x - 1)) / 2 }
        let index = table.values.flatMap(\.values).reduce(0.0) { $0 + c2($1) }
        let sa = a.values.reduce(0.0) { $0 + c2($1) }, sb = b.values.reduce(0.0) { $0 + c2($1) }
        let expected = sa * sb / c2(n), maxIndex = (sa + sb) / 2
        return maxIndex == expected ? 1 : (index - expected) / (maxIndex - expected)
    }
}
