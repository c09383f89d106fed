import Foundation

/// Builds the `FeaturePrint` of an analysis image.
///
/// Input: `AnalysisImage`. Output: `FeaturePrint` (418 floats, L2-normalised).
///
/// ```swift
/// let fp = FeaturePrintAnalyzer().analyze(image)
/// fp.cosine(other) > 0.75   // same scene
/// ```
/// Three blocks, each normalised to unit length, then weighted:
/// 1. **Structure** (256): luma on a 16×16 grid, lightly blurred, z-scored, so
///    exposure changes (affine in luma) cancel and small shifts barely move it.
/// 2. **Colour layout** (32): chromaticity (r, g of r+g+b) on a 4×4 grid after a
///    grey-world white balance, centred, so white-balance and exposure changes cancel.
///    A photo with next to no colour (black and white, a grey wall) has a block that is
///    only JPEG rounding or the residue of its white balance: scaled to unit length it would
///    be noise at full weight, and two frames of one grey scene would disagree on it at
///    random. So the block is scaled by `1 / max(its length, colourFloor)` and fades out
///    below the floor, while a last
///    "colourless" component (after the bias, so the other offsets stay) rises to keep
///    the block at unit length: two grey frames agree on colour, as two frames of a
///    colour scene do, and a grey photo and a colour one share nothing there.
/// 3. **Gradient orientations** (128): 8-bin orientation histograms on a 4×4 grid,
///    from a 128-px image so noise and blur barely change them.
/// A constant bias component sets where unrelated photos fall, calibrated so
/// that 0.75 separates same-scene pairs from different scenes (see RESULTS.md).
/// Rotation by EXIF Orientation is already undone by the decoder.
public struct FeaturePrintAnalyzer: Analyzer {
    public static let id = "featureprint"
    public static let version = 2
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("weightStructure", 0.5, in: 0...1, "share of the structure block in the similarity"),
        ParameterSpec("weightColour", 0.3, in: 0...1, "share of the colour-layout block"),
        ParameterSpec("weightGradient", 0.2, in: 0...1, "share of the gradient-orientation block"),
        ParameterSpec("bias", 0.5, in: 0...4, "constant component: raises every similarity toward 1 (calibration)"),
        ParameterSpec("colourFloor", 0.03, in: 0...0.1, "colour-layout length under which the block fades: a grey photo's is JPEG rounding (~1e-5), or a white-balance shift's residue (0.001–0.015 on grey scenes); of 90 colour sources, two read under 0.04 (0.012 and 0.025) and the rest up to 1.26"),
    ]
    public static let dimension = 256 + 32 + 128 + 1 + 1
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public func analyze(_ image: AnalysisImage) -> FeaturePrint {
        let w = image.width, h = image.height
        let structure = structureBlock(image.luma, w, h)
        let colour = colourBlock(image)
        let gradient = gradientBlock(image.luma, w, h)
        var v: [Float] = []
        v.reserveCapacity(Self.dimension)
        var colourless: Float = 0
        let blocks = [(structure, parameters["weightStructure"], 1e-9), (colour, parameters["weightColour"], max(1e-9, parameters["colourFloor"])),
                      (gradient, parameters["weightGradient"], 1e-9)]
        for (k, (block, weight, floor)) in blocks.enumerated() {
            let length = block.reduce(0) { $0 + $1 * $1 }.squareRoot()
            let n = max(Float(floor), length)
            let s = Float(weight.squareRoot()) / n
            v += block.map { $0 * s }
            if k == 1 { colourless = Float(weight.squareRoot()) * max(0, 1 - (length / n) * (length / n)).squareRoot() }
        }
        v.append(Float(parameters["bias"]))
        v.append(colourless)
        let norm = max(1e-9, v.reduce(0) { $0 + $1 * $1 }.squareRoot())
        // Rounded so the cached bytes and the manifest do not depend on summation order.
        return FeaturePrint(vector: v.map { (($0 / norm) * 1e6).rounded() / 1e6 })
    }

    func structureBlock(_ y: [Float], _ w: Int, _ h: Int) -> [Float] {
        var g = ImageOps.resample(y, w, h, to: 16, 16)
        g = ImageOps.gaussian(g, 16, 16, sigma: 0.7)
        let mean = g.reduce(0, +) / Float(g.count)
        let sd = max(1e-3, (g.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(g.count)).squareRoot())
        return g.map { ($0 - mean) / sd }
    }

    func colourBlock(_ image: AnalysisImage) -> [Float] {
        let w = image.width, h = image.height, n = 4
        var sums = [Double](repeating: 0, count: n * n * 3)
        var total = [Double](repeating: 0, count: 3)
        image.rgb.withUnsafeBufferPointer { p in
            for yy in 0..<h {
                let ty = min(n - 1, yy * n / h)
                for xx in 0..<w {
                    let tx = min(n - 1, xx * n / w)
                    let i = (yy * w + xx) * 3, t = (ty * n + tx) * 3
                    for c in 0..<3 { let v = Double(p[i + c]); sums[t + c] += v; total[c] += v }
                }
            }
        }
        // Grey world: divide each channel by its frame mean, cancelling a global white-balance cast.
        let gain = total.map { 1 / max(1, $0) }
        var out: [Float] = []
        for t in 0..<(n * n) {
            let r = sums[3 * t] * gain[0], g = sums[3 * t + 1] * gain[1], b = sums[3 * t + 2] * gain[2]
            let s = max(1e-12, r + g + b)
            out.append(Float(r / s - 1.0 / 3)); out.append(Float(g / s - 1.0 / 3))
        }
        return out
    }

    func gradientBlock(_ y: [Float], _ w: Int, _ h: Int) -> [Float] {
        let tw = w >= h ? 128 : max(16, 128 * w / h), th = w >= h ? max(16, 128 * h / w) : 128
        let s = ImageOps.gaussian(ImageOps.resample(y, w, h, to: tw, th), tw, th, sigma: 1)
        let cells = 4, bins = 8
        var hist = [Float](repeating: 0, count: cells * cells * bins)
        for yy in 1..<(th - 1) {
            for xx in 1..<(tw - 1) {
                let i = yy * tw + xx
                let dx = s[i + 1] - s[i - 1], dy = s[i + tw] - s[i - tw]
                let m = (dx * dx + dy * dy).squareRoot()
                guard m > 0.5 else { continue }
                var a = atan2(dy, dx)
                if a < 0 { a += .pi }
                let b = min(bins - 1, Int(a / .pi * Float(bins)))
                let c = min(cells - 1, yy * cells / th) * cells + min(cells - 1, xx * cells / tw)
                hist[c * bins + b] += m
            }
        }
        for c in 0..<(cells * cells) {
            let slice = hist[(c * bins)..<((c + 1) * bins)]
            let sum = max(1e-6, slice.reduce(0, +))
            for b in 0..<bins { hist[c * bins + b] = hist[c * bins + b] / sum - 1 / Float(bins) }
        }
        return hist
    }

    /// `print` as the same photo turned `quarterTurns` × 90° clockwise would give it, without
    /// decoding it again: the structure, colour and gradient grids turn, and each gradient
    /// orientation moves by 90° (4 of the 8 bins over 180°). For a photo stored on its side
    /// without an EXIF orientation, to compare it with its upright burst.
    public static func turned(_ print: FeaturePrint, quarterTurns: Int) -> FeaturePrint {
        let v = print.vector
        guard v.count == dimension else { return print }
        let q = ((quarterTurns % 4) + 4) % 4
        // Clockwise: new (r, c) comes from old (n−1−c, r); three turns are one the other way.
        func cell(_ r: Int, _ c: Int, _ n: Int) -> Int {
            switch q {
            case 1: return (n - 1 - c) * n + r
            case 2: return (n - 1 - r) * n + (n - 1 - c)
            case 3: return c * n + (n - 1 - r)
            default: return r * n + c
            }
        }
        var out = v  // the bias and the colourless component stay where they are
        for r in 0..<16 { for c in 0..<16 { out[r * 16 + c] = v[cell(r, c, 16)] } }
        for r in 0..<4 { for c in 0..<4 { for k in 0..<2 { out[256 + (r * 4 + c) * 2 + k] = v[256 + cell(r, c, 4) * 2 + k] } } }
        for r in 0..<4 {
            for c in 0..<4 {
                for b in 0..<8 { out[288 + (r * 4 + c) * 8 + (b + 4 * q) % 8] = v[288 + cell(r, c, 4) * 8 + b] }
            }
        }
        return FeaturePrint(vector: out)
    }
}
