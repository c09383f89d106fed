import Foundation

/// Measures the luma power spectrum of the analysis image, for comparing the
/// blur of photos of one scene (see `PowerSpectrum.extraBlur`).
///
/// Input: `AnalysisImage`. Output: `PowerSpectrum`.
///
/// ```swift
/// let s = SpectrumAnalyzer().analyze(image)
/// s.power.count   // sectors × bins = 128
/// ```
/// Welch's method: the image is cut into non-overlapping 128×128 windows; each
/// has its mean removed and a Hann taper applied (so window edges do not leak
/// power into every frequency), is transformed, and its power is averaged into
/// orientation sectors and radial bins. Averaging windows steadies the estimate;
/// using the whole frame makes it about the scene, not about one tile.
public struct SpectrumAnalyzer: Analyzer {
    public static let id = "spectrum"
    public static let version = 1
    public static let window = 128
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("sectors", 4, in: 2...8, integer: true, "orientation sectors over 0–180° (motion blur shows in one of them)"),
        ParameterSpec("bins", 32, in: 8...64, integer: true, "radial frequency bins from 0 to 0.5 cycles/px"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    private static let plan = FFT.Plan(n: window)
    private static let taper: [Float] = {
        let n = window
        let hann = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1))) }
        return (0..<(n * n)).map { hann[$0 / n] * hann[$0 % n] }
    }()

    public func analyze(_ image: AnalysisImage) -> PowerSpectrum {
        let n = Self.window, sectors = parameters.int("sectors"), bins = parameters.int("bins")
        // Which (sector, bin) each FFT coefficient falls in; -1 for DC.
        var cell = [Int](repeating: -1, count: n * n)
        for v in 0..<n {
            let fy = Double(v < n / 2 ? v : v - n) / Double(n)
            for u in 0..<n {
                let fx = Double(u < n / 2 ? u : u - n) / Double(n)
                let r = (fx * fx + fy * fy).squareRoot()
                guard r > 0, r < 0.5 else { continue }
                var angle = atan2(fy, fx)
                if angle < 0 { angle += .pi }
                let sector = Int((angle + .pi / Double(2 * sectors)) / (.pi / Double(sectors))) % sectors
                cell[v * n + u] = sector * bins + min(bins - 1, Int(r / 0.5 * Double(bins)))
            }
        }
        var sums = [Double](repeating: 0, count: sectors * bins), counts = sums
        var re = [Float](repeating: 0, count: n * n), im = re
        let w = image.width, h = image.height
        image.luma.withUnsafeBufferPointer { y in
            var ty = 0
            while ty + n <= h {
                var tx = 0
                while tx + n <= w {
                    var mean: Float = 0
                    for r in 0..<n { for c in 0..<n { mean += y[(ty + r) * w + tx + c] } }
                    mean /= Float(n * n)
                    for r in 0..<n {
                        for c in 0..<n { re[r * n + c] = (y[(ty + r) * w + tx + c] - mean) * Self.taper[r * n + c] }
                    }
                    for i in 0..<(n * n) { im[i] = 0 }
                    Self.plan.transform2D(&re, &im, inverse: false)
                    for i in 0..<(n * n) where cell[i] >= 0 {
                        sums[cell[i]] += Double(re[i] * re[i] + im[i] * im[i])
                        counts[cell[i]] += 1
                    }
                    tx += n
                }
                ty += n
            }
        }
        // Rounded to 6 significant digits so the cached bytes do not depend on float printing.
        let power = (0..<(sectors * bins)).map { i -> Float in
            guard counts[i] > 0 else { return 0 }
            return Float(Self.significant(sums[i] / counts[i]))
        }
        return PowerSpectrum(sectors: sectors, bins: bins, power: power)
    }

    static func significant(_ v: Double, digits: Int = 6) -> Double {
        guard v > 0, v.isFinite else { return 0 }
        let scale = pow(10, Double(digits) - ceil(log10(v)))
        return (v * scale).rounded() / scale
    }
}
