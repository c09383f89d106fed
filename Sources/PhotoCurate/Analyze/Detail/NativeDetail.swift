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
    /// Whether the file stores the picture on its side (EXIF orientation 5–8): then DCT
    /// position (u, v) holds the upright frequency (v, u). `nil` in results cached before v4.
    public var transposed: Bool?
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

    /// The coarsest DCT frequencies (u² + v² ≤ 5: rings 1 and 2, 0.06–0.14 cycles/px)
    /// that `blurDifference` fits. Mild defocus at 100 % (σ 1.3–6 px) already
    /// takes 20–90 % of their power; finer coefficients of a blurred frame hold
    /// mostly JPEG error, grain and the leakage of in-block ramps, which is as
    /// strong in its sharp sibling, so a fit that reached them bent back up and
    /// read shaken frames as the sharper (AUC 0.1–0.7 on the mild trips; 0.95–1.0
    /// with this band on trips made of large photographs, which have detail at 100 %).
    static let blurBand = 5.0 / 256

    /// Each orientation sector's DCT positions (AC only), coarsest first.
    static let sectorPositions: [[Int]] = (0..<3).map { s in
        (1..<64).filter { sector($0) == s }.sorted { (f2($0), $0) < (f2($1), $1) }
    }

    /// Blur of this frame against another of the same scene, as σ²ᵢ − σ²ⱼ (native px²
    /// of this frame; negative when it is sharper): the mean over three orientation
    /// sectors of a fit of ln(Pᵢ/Pⱼ) against f² (intercept free: exposure, contrast),
    /// over the coarse frequencies of `blurBand` where both frames stand 3× above their
    /// own floor (the mean of the sector's 4 finest coefficients: grain, JPEG error).
    /// The DCT's leakage makes it read about half a large blur; it is for ranking
    /// burst frames, not for a σ in px. `nil` when no sector has 3 such frequencies.
    public func blurDifference(comparedWith other: NativeDetail) -> Double? {
        let fits = sectorBlurDifference(comparedWith: other).compactMap { $0 }
        return fits.isEmpty ? nil : fits.reduce(0, +) / Double(fits.count)
    }

    /// `blurDifference` per orientation sector (0 along x, 1 diagonal, 2 along y; `nil` where
    /// fewer than 3 frequencies qualify). A smear takes detail along its direction only, so a
    /// smeared frame keeps, across the smear, detail that a defocused sibling has lost.
    public func sectorBlurDifference(comparedWith other: NativeDetail) -> [Double?] {
        // Frames of different sizes compare in cycles per pixel of their own width.
        let scale = Double(max(width, height)) / Double(max(1, max(other.width, other.height)))
        // Upright frequency k's position in each file: a frame shot on its side holds a
        // horizontal edge's detail where its sibling holds a vertical one's.
        func at(_ k: Int, _ t: Bool?) -> Int { t == true ? (k % 8) * 8 + k / 8 : k }
        return Self.sectorPositions.map { ks -> Double? in
            let finest = ks.suffix(4)
            let fa = finest.map { Double(power[at($0, transposed)]) }.reduce(0, +) / Double(finest.count)
            let fb = finest.map { Double(other.power[at($0, other.transposed)]) }.reduce(0, +) / Double(finest.count)
            var xs: [Double] = [], ys: [Double] = []
            for k in ks where Self.f2(k) <= Self.blurBand {
                let a = Double(power[at(k, transposed)]) - fa, b = Double(other.power[at(k, other.transposed)]) - fb
                guard a > 3 * fa + 1, b > 3 * fb + 1 else { continue }
                xs.append(Self.f2(k)); ys.append(log(a / b))
            }
            guard xs.count >= 3 else { return nil }
            let n = Double(xs.count), mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
            var sxx = 0.0, sxy = 0.0
            for i in xs.indices { sxx += (xs[i] - mx) * (xs[i] - mx); sxy += (xs[i] - mx) * (ys[i] - my) }
            guard sxx > 0 else { return nil }
            return -(sxy / sxx) / (4 * Double.pi * Double.pi) * scale * scale
        }
    }
}
