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
/// Welch's method: the image is cut into non-overlapping 64×64 windows; each
/// has its mean removed and a Hann taper applied (so window edges do not leak
/// power into every frequency), is transformed, and its power is averaged into
/// orientation sectors and radial bins. Averaging windows steadies the estimate;
/// using the whole frame makes it about the scene, not about one tile.
public struct SpectrumAnalyzer: Analyzer {
    public static let id = "spectrum"
    public static let version = 1
    /// 64 px: many windows average out a sharp region that a shifted frame half-loses
    /// (128 px windows made such a frame read as blurred), at the same cost.
    public static let window = 64
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("sectors", 4, in: 2...8, integer: true, "orientation sectors over 0–180° (motion blur shows in one of them)"),
        ParameterSpec("bins", 32, in: 8...32, integer: true, "radial frequency bins from 0 to 0.5 cycles/px (32 = one per frequency a 64-px window resolves)"),
    ]
    public let parameters: Parameters
    private let cell: [Int]
    public init(parameters: Parameters) {
        self.parameters = parameters
        cell = Self.cells(sectors: parameters.int("sectors"), bins: parameters.int("bins"))
    }

    private static let plan = FFT.Plan(n: window)
    private static let taper: [Float] = {
        let n = window
        let hann = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1))) }
        return (0..<(n * n)).map { hann[$0 / n] * hann[$0 % n] }
    }()

    public func analyze(_ image: AnalysisImage) -> PowerSpectrum {
        let n = Self.window, sectors = parameters.int("sectors"), bins = parameters.int("bins")
        var sums = [Double](repeating: 0, count: sectors * bins), counts = sums
        let w = image.width, h = image.height
        var origins: [(Int, Int)] = []
        for ty in Swift.stride(from: 0, through: h - n, by: n) {
            for tx in Swift.stride(from: 0, through: w - n, by: n) { origins.append((tx, ty)) }
        }
        var re = [Float](repeating: 0, count: n * n), im = re
        image.luma.withUnsafeBufferPointer { y in
            // Two real windows per complex transform: one in the real part, one in the imaginary.
            func load(_ o: (Int, Int), into dst: inout [Float]) {
                var mean: Float = 0
                for r in 0..<n { for c in 0..<n { mean += y[(o.1 + r) * w + o.0 + c] } }
                mean /= Float(n * n)
                for r in 0..<n { for c in 0..<n { dst[r * n + c] = (y[(o.1 + r) * w + o.0 + c] - mean) * Self.taper[r * n + c] } }
            }
            var k = 0
            while k < origins.count {
                load(origins[k], into: &re)
                let pair = k + 1 < origins.count
                if pair { load(origins[k + 1], into: &im) } else { for i in 0..<(n * n) { im[i] = 0 } }
                Self.plan.transform2D(&re, &im, inverse: false)
                // Raw pointers: this loop runs 4,096 times a window, ~50 windows a photo.
                re.withUnsafeBufferPointer { re in im.withUnsafeBufferPointer { im in cell.withUnsafeBufferPointer { cell in
                sums.withUnsafeMutableBufferPointer { sums in counts.withUnsafeMutableBufferPointer { counts in
                for v in 0..<n {
                    for u in 0..<n {
                        let i = v * n + u
                        let c = cell[i]
                        guard c >= 0 else { continue }
                        // Z(k) = A(k) + i·B(k) with A, B hermitian: A = (Z(k) + Z*(−k))/2, B = (Z(k) − Z*(−k))/2i.
                        let j = ((n - v) % n) * n + (n - u) % n
                        let ar = 0.5 * (re[i] + re[j]), ai = 0.5 * (im[i] - im[j])
                        let br = 0.5 * (im[i] + im[j]), bi = 0.5 * (re[j] - re[i])
                        sums[c] += Double(ar * ar + ai * ai) + (pair ? Double(br * br + bi * bi) : 0)
                        counts[c] += pair ? 2 : 1
                    }
                }
                } } } } }
                k += 2
            }
        }
        // Rounded to 6 significant digits so the cached bytes do not depend on float printing.
        let power = (0..<(sectors * bins)).map { i -> Float in
            guard counts[i] > 0 else { return 0 }
            return Float(Self.significant(sums[i] / counts[i]))
        }
        return PowerSpectrum(sectors: sectors, bins: bins, power: power)
    }

    /// Which (sector, bin) each coefficient of a window's transform falls in; -1 for DC and the corners past 0.5.
    static func cells(sectors: Int, bins: Int) -> [Int] {
        let n = window
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
        return cell
    }

    static func significant(_ v: Double, digits: Int = 6) -> Double {
        guard v > 0, v.isFinite else { return 0 }
        let scale = pow(10, Double(digits) - ceil(log10(v)))
        return (v * scale).rounded() / scale
    }
}
