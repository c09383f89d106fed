import Foundation
import PhotoCurate

/// Visual words for binary (ORB) descriptors: a k-majority tree, trained on a
/// catalog's own points, that turns a descriptor into a word id.
///
/// ```swift
/// let vocabulary = VisualVocabulary.train(descriptors, count: n, branching: 10, depth: 4)
/// let w = vocabulary.word(descriptors, at: 17)    // 0..<vocabulary.words
/// ```
/// A cover then becomes a bag of words, and a photo's words look up the covers
/// that share them in an inverted file (`AlbumIndex`): the shortlist's cost
/// grows with the postings it touches, not with the catalog's size. Training is
/// deterministic (seeded): the same points give the same words.
public struct VisualVocabulary: Sendable {
    public let branching: Int
    public let depth: Int
    /// Node centres, 4 words of 64 bits each; node 0 is the root (no centre used).
    var centers: [UInt64]
    /// First child of each node, or -1 for a leaf; children are consecutive.
    var firstChild: [Int32]
    var childCount: [UInt8]
    /// The word of each leaf node (-1 for inner nodes).
    var leafWord: [Int32]
    public private(set) var words: Int

    /// Trains on `count` descriptors of 32 bytes, one after another.
    public static func train(_ descriptors: [UInt8], count: Int, branching: Int, depth: Int, seed: UInt64 = 0x5eed) -> VisualVocabulary {
        precondition(descriptors.count >= count * 32)
        var v = VisualVocabulary(branching: branching, depth: depth, centers: [0, 0, 0, 0], firstChild: [-1], childCount: [0], leafWord: [-1], words: 0)
        let packed: [UInt64] = descriptors.withUnsafeBytes { raw in (0..<count * 4).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self) } }
        var rng = SeededRandom(seed: seed)
        packed.withUnsafeBufferPointer { d in
            v.split(node: 0, members: Array(0..<count), level: 0, data: d, rng: &rng)
        }
        return v
    }

    @inline(__always) static func distance(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>) -> Int {
        (a[0] ^ b[0]).nonzeroBitCount + (a[1] ^ b[1]).nonzeroBitCount + (a[2] ^ b[2]).nonzeroBitCount + (a[3] ^ b[3]).nonzeroBitCount
    }

    private mutating func split(node: Int, members: [Int], level: Int, data: UnsafeBufferPointer<UInt64>, rng: inout SeededRandom) {
        if level == depth || members.count <= branching {
            leafWord[node] = Int32(words); words += 1
            return
        }
        let base = data.baseAddress!
        // k-means++ seeding: each next centre drawn in proportion to its distance from the chosen ones.
        var chosen = [members[Int(rng.next() % UInt64(members.count))]]
        var nearest = members.map { Self.distance(base + $0 * 4, base + chosen[0] * 4) }
        while chosen.count < branching {
            let total = nearest.reduce(0, +)
            if total == 0 { break }
            var r = Int(rng.next() % UInt64(total))
            var pick = 0
            for (k, d) in nearest.enumerated() { if r < d { pick = k; break }; r -= d }
            chosen.append(members[pick])
            for (k, m) in members.enumerated() { nearest[k] = min(nearest[k], Self.distance(base + m * 4, base + members[pick] * 4)) }
        }
        var centres = chosen.flatMap { Array(data[($0 * 4)..<($0 * 4 + 4)]) }
        let k = chosen.count
        var assign = [Int](repeating: 0, count: members.count)
        // k-majority: assign to the nearest centre, then each centre's bits become its members' majority.
        for _ in 0..<8 {
            var changed = false
            centres.withUnsafeBufferPointer { c in
                for (i, m) in members.enumerated() {
                    var best = 0, bestD = Int.max
                    for j in 0..<k {
                        let d = Self.distance(base + m * 4, c.baseAddress! + j * 4)
                        if d < bestD { bestD = d; best = j }
                    }
                    if assign[i] != best { assign[i] = best; changed = true }
                }
            }
            var ones = [Int32](repeating: 0, count: k * 256), sizes = [Int](repeating: 0, count: k)
            for (i, m) in members.enumerated() {
                let j = assign[i]
                sizes[j] += 1
                for w in 0..<4 {
                    var bits = data[m * 4 + w]
                    while bits != 0 {
                        let b = bits.trailingZeroBitCount
                        ones[j * 256 + w * 64 + b] += 1
                        bits &= bits - 1
                    }
                }
            }
            for j in 0..<k where sizes[j] > 0 {
                for w in 0..<4 {
                    var word: UInt64 = 0
                    for b in 0..<64 where Int(ones[j * 256 + w * 64 + b]) * 2 > sizes[j] { word |= 1 << UInt64(b) }
                    centres[j * 4 + w] = word
                }
            }
            if !changed { break }
        }
        var groups = [[Int]](repeating: [], count: k)
        for (i, m) in members.enumerated() { groups[assign[i]].append(m) }
        let live = (0..<k).filter { !groups[$0].isEmpty }
        if live.count <= 1 {
            leafWord[node] = Int32(words); words += 1
            return
        }
        let first = firstChild.count
        firstChild[node] = Int32(first)
        childCount[node] = UInt8(live.count)
        for j in live {
            centers += centres[(j * 4)..<(j * 4 + 4)]
            firstChild.append(-1); childCount.append(0); leafWord.append(-1)
        }
        for (c, j) in live.enumerated() { split(node: first + c, members: groups[j], level: level + 1, data: data, rng: &rng) }
    }

    /// The word of descriptor `i` of `descriptors` (32 bytes each).
    public func word(_ descriptors: UnsafeRawBufferPointer, at i: Int) -> Int32 {
        quantize(descriptors, at: i, level: 0).word
    }

    /// The word of descriptor `i`, and the node it passed at `level` (1 = the root's children):
    /// points under one node are near each other, so matching compares only those.
    public func quantize(_ descriptors: UnsafeRawBufferPointer, at i: Int, level: Int) -> (word: Int32, node: Int32) {
        let d = (descriptors.loadUnaligned(fromByteOffset: i * 32, as: UInt64.self), descriptors.loadUnaligned(fromByteOffset: i * 32 + 8, as: UInt64.self),
                 descriptors.loadUnaligned(fromByteOffset: i * 32 + 16, as: UInt64.self), descriptors.loadUnaligned(fromByteOffset: i * 32 + 24, as: UInt64.self))
        return centers.withUnsafeBufferPointer { c in
            var node = 0, at = 0, depthSeen = 0
            while firstChild[node] >= 0 {
                let first = Int(firstChild[node])
                var best = first, bestD = Int.max
                for child in first..<(first + Int(childCount[node])) {
                    let p = c.baseAddress! + child * 4
                    let dist = (d.0 ^ p[0]).nonzeroBitCount + (d.1 ^ p[1]).nonzeroBitCount + (d.2 ^ p[2]).nonzeroBitCount + (d.3 ^ p[3]).nonzeroBitCount
                    if dist < bestD { bestD = dist; best = child }
                }
                node = best
                depthSeen += 1
                if depthSeen <= level { at = node }
            }
            return (leafWord[node], Int32(at))
        }
    }

    /// Bytes held (what the index adds per word).
    public var memoryBytes: Int { centers.count * 8 + firstChild.count * 4 + childCount.count + leafWord.count * 4 }
}
