import Foundation

/// Point matches between a cover and a photo, the input of the homography fit.
///
/// ```swift
/// let query = index.query(photoFeatures)
/// let pairs = CoverMatcher.match(query, cover: coverFeatures, vocabulary: index.vocabulary, ratio: 0.8)
/// ```
/// A cover point is compared only with the photo's points under the same node of
/// the vocabulary tree (`CoverMatcher.level`), not with all of them: the nearest
/// and second nearest there decide (Lowe's ratio test). That is ~10× fewer
/// Hamming distances than OpenCV's brute-force matcher (22 ms per cover here).
public enum CoverMatcher {
    /// Tree level whose nodes group the candidates: the root's 10 children, ~250 photo points
    /// each. Level 2 (100 nodes) was faster per pair but its ratio test, among ~25 points, let
    /// through more chance pairs: 0.973 against 0.983 on the development set.
    public static let level = 1

    /// A photo's features with their words (for the shortlist) and nodes (for matching).
    public struct Query: Sendable {
        public let features: CoverFeatures
        public let words: [Int32]
        /// Photo points by node at `level`.
        let byNode: [Int32: [Int32]]
    }

    public static func query(_ q: CoverFeatures, vocabulary: VisualVocabulary) -> Query {
        var words = [Int32](repeating: 0, count: q.count), byNode: [Int32: [Int32]] = [:]
        q.descriptors.withUnsafeBytes { raw in
            for i in 0..<q.count {
                let (w, n) = vocabulary.quantize(raw, at: i, level: level)
                words[i] = w
                byNode[n, default: []].append(Int32(i))
            }
        }
        return Query(features: q, words: words, byNode: byNode)
    }

    /// Pairs (cover x, y → photo x, y) that pass the ratio test; each photo point used once at most.
    public static func match(_ query: Query, cover: CoverFeatures, vocabulary: VisualVocabulary, ratio: Double) -> (from: [Float], to: [Float]) {
        var best: [Int32: (cover: Int, distance: Int)] = [:]
        query.features.descriptors.withUnsafeBytes { qraw in
            cover.descriptors.withUnsafeBytes { craw in
                for i in 0..<cover.count {
                    let node = vocabulary.quantize(craw, at: i, level: level).node
                    guard let candidates = query.byNode[node] else { continue }
                    let c = (craw.loadUnaligned(fromByteOffset: i * 32, as: UInt64.self), craw.loadUnaligned(fromByteOffset: i * 32 + 8, as: UInt64.self),
                             craw.loadUnaligned(fromByteOffset: i * 32 + 16, as: UInt64.self), craw.loadUnaligned(fromByteOffset: i * 32 + 24, as: UInt64.self))
                    var d1 = Int.max, d2 = Int.max, j1: Int32 = -1
                    for j in candidates {
                        let o = Int(j) * 32
                        let d = (c.0 ^ qraw.loadUnaligned(fromByteOffset: o, as: UInt64.self)).nonzeroBitCount
                            + (c.1 ^ qraw.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self)).nonzeroBitCount
                            + (c.2 ^ qraw.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self)).nonzeroBitCount
                            + (c.3 ^ qraw.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self)).nonzeroBitCount
                        if d < d1 { d2 = d1; d1 = d; j1 = j } else if d < d2 { d2 = d }
                    }
                    // With a lone candidate there is no second opinion: ORB's usual bound for a true match.
                    let ok = d2 == Int.max ? d1 <= 64 : Double(d1) < ratio * Double(d2)
                    guard j1 >= 0, ok else { continue }
                    // One cover point per photo point: the closer claim wins.
                    if let prior = best[j1], prior.distance <= d1 { continue }
                    best[j1] = (i, d1)
                }
            }
        }
        var from: [Float] = [], to: [Float] = []
        for (j, m) in best.sorted(by: { $0.key < $1.key }) {
            from += [cover.keypoints[m.cover * 4], cover.keypoints[m.cover * 4 + 1]]
            to += [query.features.keypoints[Int(j) * 4], query.features.keypoints[Int(j) * 4 + 1]]
        }
        return (from, to)
    }
}
