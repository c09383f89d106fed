import Foundation
import PhotoCurate

/// Synthetic clustering inputs at any scale: scenes of 5 photos a few seconds
/// apart, scenes 5 minutes apart, prints scattered around a per-scene direction.
public enum SyntheticPrints {
    public static func inputs(_ n: Int, perScene: Int = 5, seed: UInt64 = 7) -> [ClusterInput] {
        var rng = SeededRandom(seed: seed)
        let dim = FeaturePrintAnalyzer.dimension
        var base = [Float](repeating: 0, count: dim)
        var out: [ClusterInput] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            if i % perScene == 0 { base = (0..<dim).map { _ in Float(rng.uniform(-0.5, 0.5)) } }
            var v = base.map { $0 + Float(rng.uniform(-0.1, 0.1)) }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            v = v.map { $0 / norm }
            out.append(ClusterInput(epoch: Double(i / perScene) * 300 + Double(i % perScene) * 2, latitude: nil, longitude: nil,
                                    print: FeaturePrint(vector: v), quality: 0.5, path: String(format: "p%07d", i)))
        }
        return out
    }
}
