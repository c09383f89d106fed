import Foundation

/// What a photo looks like at 100 %, read from its JPEG's DCT coefficients
/// during the scaled decode (`NativeDetailProbe`): grain and the fine detail that
/// mild defocus or a short smear remove, at the file's own resolution.
///
/// ```swift
/// let d = image.native!            // a 12 MP JPEG
/// d.noiseLuma                       // 9.1: per-pixel grain σ in levels
/// d.blurDifference(comparedWith: other)  // 3.6: px² more blur (σ² difference, native pixels)
/// ```
/// Every value is at native scale: pixels of the stored file, levels of 8-bit
/// luma. `power[k]` is the mean dequantized power of DCT coefficient k (row-major
/// v·8+u) over all luma blocks; DCT coefficient (u, v) stands for spatial
/// frequency (u/16, v/16) cycles per pixel, so its power ratio between two frames
/// of one scene gives their blur difference the way `PowerSpectrum` does at the
/// analysis scale, but seeing detail that scale cannot.
public struct NativeDetail: Codable, Sendable, Equatable {
    /// Full-resolution size as stored (before EXIF rotation).
    public var width: Int
    public var height: Int
    /// Luma grain σ per pixel (levels), from the flattest blocks' finest frequencies; quantization-aware.
    /// 0 when `grainUnmeasured` says why it could not be measured.
    public var noiseLuma: Double
    /// Why grain was not measured (a thumbnail, a coarse quantizer); nil when it was.
    public var grainUnmeasured: String?
    /// The luma grain σ when it was measured, nil when `grainUnmeasured` says why not.
    public var grain: Double? { grainUnmeasured == nil ? noiseLuma : nil }
    /// Colour grain σ per pixel (the larger of Cb and Cr, levels); `nil` for a grey JPEG.
    public var noiseChroma: Double?
    /// Mean dequantized power per DCT position (64, DC first), all luma blocks.
    public var power: [Float]
    /// Fraction of luma blocks in which each coefficient survived quantization.
    public var nonzero: [Float]
    /// The luma quantizer steps (64, natural order): what the file could keep at all.
    public var quant: [Int]
    /// The frame cut into `tiles`×`tiles` regions, upright (EXIF rotation applied), row-major.
    public var tiles: [Tile]
    /// Native edge-spread estimate in the sharpest tiles (px; 30th percentile of tiles with detail).
    public var sharpWidth: Double?

    public struct Tile: Codable, Sendable, Equatable {
        /// Box in upright full-resolution pixels.
        public var x: Int, y: Int, w: Int, h: Int
        /// Edge spread σ (native px) from the fall of the tile's spectrum; `nil` where the tile has too little detail.
        public var width: Double?
        /// Mean luma AC power (how much detail the tile holds).
        public var energy: Double
    }

    /// Spatial frequency² of DCT position k, in (cycles/px)².
    @inline(__always) static func f2(_ k: Int) -> Double {
        let u = Double(k % 8), v = Double(k / 8)
        return (u * u + v * v) / 256
    }

    /// Orientation sector of DCT position k: 0 frequencies along x (vertical edges),
    /// 1 diagonal, 2 along y. A smear removes detail along its direction only.
    @inline(__always) static func sector(_ k: Int) -> Int {
        let u = Double(k % 8), v = Double(k / 8)
        let a = atan2(v, u) * 180 / .pi
        return a < 30 ? 0 : a > 60 ? 2 : 1
    }

    /// Expected dequantized power of zero-mean gaussian noise σ after quantization with step q.
    static func quantizedPower(sigma s: Double, step q: Double) -> Double {
        guard s > 0 else { return 0 }
        var sum = 0.0
        var m = 1.0
        while m < 400 {
            let a = (m - 0.5) * q, b = (m + 0.5) * q
            let p = 0.5 * (erf(b / (s * 2.0.squareRoot())) - erf(a / (s * 2.0.squareRoot())))
            sum += 2 * p * m * m * q * q
            if p < 1e-12 && a > 8 * s { break }
            m += 1
        }
        return sum
    }

    /// The noise σ whose quantized power is `power` (bisection; monotone in σ).
    static func sigma(quantizedPower power: Double, step q: Double) -> Double {
        var lo = 0.0, hi = 255.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if quantizedPower(sigma: mid, step: q) < power { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Blur of this frame against another of the same scene, as σ²ᵢ − σ²ⱼ (native px²
    /// of this frame; negative when it is sharper): the worst of three orientation
    /// sectors, since a smear blurs one direction. `nil` when too few frequencies
    /// stand above both frames' grain and quantization.
    public func blurDifference(comparedWith other: NativeDetail) -> Double? {
        // Frames of different sizes compare in cycles per pixel of their own width.
        let scale = Double(max(width, height)) / Double(max(1, max(other.width, other.height)))
        let floorA = noiseLuma * noiseLuma, floorB = other.noiseLuma * other.noiseLuma
        var worst: Double?
        for s in 0..<3 {
            var xs: [Double] = [], ys: [Double] = []
            for k in 1..<64 where Self.sector(k) == s {
                let q = Double(max(quant[k], other.quant[k]))
                // Frequencies where the reference frame has detail well above its grain and
                // quantization. This frame may have lost them: that loss is the measurement,
                // so its power is only clamped (a blurred frame reads at most 1/50 of it).
                guard other.nonzero[k] >= 0.02 else { continue }
                let fa = max(floorA, Self.quantizedPower(sigma: noiseLuma, step: q)), fb = max(floorB, Self.quantizedPower(sigma: other.noiseLuma, step: q))
                let b = Double(other.power[k]) - fb
                guard b > 3 * fb, b > 1 else { continue }
                let a = max(Double(power[k]) - fa, 0.02 * b)
                xs.append(Self.f2(k)); ys.append(log(a / b))
            }
            guard xs.count >= 3 else { continue }
            // Least squares through the origin's neighbourhood: intercept free (exposure, contrast).
            let n = Double(xs.count), mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
            var sxx = 0.0, sxy = 0.0
            for i in xs.indices { sxx += (xs[i] - mx) * (xs[i] - mx); sxy += (xs[i] - mx) * (ys[i] - my) }
            guard sxx > 0 else { continue }
            let slope = sxy / sxx
            let d2 = -slope / (4 * Double.pi * Double.pi) * scale * scale
            worst = max(worst ?? -Double.infinity, d2)
        }
        return worst
    }
}
