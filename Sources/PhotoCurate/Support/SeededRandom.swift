import Foundation

/// SplitMix64: a small, fast generator whose sequence is fixed by its seed on
/// every platform, which is what makes generated trips byte-identical, a catalog's
/// visual words the same on every machine and a seeded "random" sort reproducible.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public init(seed: UInt64, stream: UInt64) { state = seed &+ stream &* 0x9E37_79B9_7F4A_7C15; _ = next() }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(next() >> 11) / Double(1 << 53)
    }

    /// Log-uniform in [a, b): as likely to be 1–10 as 100–1000.
    public mutating func logUniform(_ a: Double, _ b: Double) -> Double { exp(uniform(log(a), log(b))) }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    public mutating func chance(_ p: Double) -> Bool { uniform(0, 1) < p }
}
