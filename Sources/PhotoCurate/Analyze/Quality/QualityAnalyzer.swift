import Foundation

/// Measures sharpness, exposure, noise and composition on the analysis image.
///
/// Input: `AnalysisImage`. Output: `TechnicalQualityScore`.
///
/// ```swift
/// let q = QualityAnalyzer().analyze(image)
/// q.sharpness   // 0.93
/// ```
/// Sharpness is an edge-spread estimate, not Laplacian energy: at every strong
/// edge, σ = contrast / (peak gradient · √(2π)), the width a gaussian-blurred
/// step would have. It is independent of contrast (so of exposure), barely
/// moved by noise (only strong edges count), measured per tile so a sharp
/// subject on a soft background scores sharp, and per edge direction so
/// motion blur (one direction widened) is caught.
public struct QualityAnalyzer: Analyzer {
    public static let id = "quality"
    /// 2: chroma-confirmed noise, region clipping, tile/frame edge-width blend.
    /// 3: edge-width medians from 0.01 px histograms instead of sorts (same values to 0.01 px).
    /// 4: the width blends the subject (saliency-weighted tiles) with the sharpest tiles.
    /// 5: only the direction ratio above `motionFree` counts as motion.
    /// 6: direction medians floored at 0.5 px before their ratio (below the analysis image's resolution).
    /// 7: saliency FFT with precomputed twiddles; a block is clipped when most of its pixels are (was: its mean);
    ///    median luma measured.
    /// 8: grain is also judged at 100 % where the JPEG's DCT blocks show it (`NativeDetail.noiseLuma`).
    /// 9: the native grain comes from `detail` v2's sample of blocks.
    /// 10: clipped colour measured (blocks where any channel is blown; luma misses a blown yellow);
    ///     deciles of each pixel's brightest channel, for exposure against the burst.
    /// 11: exposure allows a blown sky (up to 12 % clipped at normal brightness) and 8 % crushed shadows.
    /// 12: where the JPEG shows grain at 100 % (`NativeDetail.grainUnmeasured` is nil), that grain alone sets
    ///     the noise score: the analysis-scale estimate reads texture (foliage, sand) as noise in photos with no flat area.
    ///     The sharpest-tile width is the 10th percentile of tiles (was the 30th): a macro in shallow focus
    ///     has its subject in few tiles. Exposure forgives a dark, crushed frame whose highlights reach 0.75 (low key: a stage, a night street).
    /// 13: sharpness halves at an edge σ of 2.4 px (was 2.2): three shallow-focus macros of real
    ///     cameras (2.25–2.3 px, sharp at 100 %) were called blurred; mild defocus is judged against the
    ///     burst, and no trip frame's score moved across 0.5.
    /// 14: exposure also falls when over a third of the frame is blown in some colour (`colourBlown`):
    ///     a colour-cast frame pushed 1.8 stops, 97 % blown in one channel, read 0.32 on luma alone.
    /// 15: `coarseSpread` measured (how much brightness varies across the frame), so selection can tell a blank frame.
    /// 16: deciles of each pixel's darkest channel too (`darkestDeciles`), for exposure against the burst where the
    ///     brightest channel is blown everywhere (a saturated sky).
    /// 17: a subject on a white background (`whiteBackground`) is high key, not over-exposed: its clipped
    ///     background counts neither as clipped highlights nor as blown colour, and its brightness is
    ///     judged on what is not background.
    /// 18: a subject before a bright, flat backdrop joined to the border (`highKey`: a product on a
    ///     white or grey sweep) is also judged on its own tones, and the better reading stands.
    public static let version = 18
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("tiles", 6, in: 2...16, integer: true, "tiles per side for the local sharpness measure"),
        ParameterSpec("sharpTileQuantile", 0.1, in: 0...1, "which tile sets the sharpness (0 = sharpest tile, 0.5 = median)"),
        ParameterSpec("motionFree", 1.3, in: 1...3, "direction ratio that content alone reaches (wings, ripples); only the excess counts as motion"),
        ParameterSpec("motionMinShare", 0.2, in: 0...0.5, "share of the edges a direction needs to count in the direction ratio (sparse directions are content, not motion)"),
        ParameterSpec("clipBlock", 8, in: 1...32, integer: true, "block size (px) in which clipping is counted: speckles smaller than this are not clipping"),
        ParameterSpec("backdropLevel", 0.78, in: 0...1, "brightness (block mean, 0–1) from which a flat block joined to the border is backdrop (a studio sweep, a white table)"),
        ParameterSpec("backdropFlat", 5, in: 0...50, "σ of luma (levels) in an 8×8 block up to which it is flat enough to be backdrop"),
        ParameterSpec("highKeyBackdrop", 0.3, in: 0...1, "share of the frame that is backdrop from which a frame is high key and its subject's own tones are judged too; 1 turns this off"),
        ParameterSpec("highKeyBorder", 0.5, in: 0...1, "share of the frame's border that is backdrop for high key (a subject with backdrop round it, not a sky along one edge)"),
        ParameterSpec("edgeWidthRef", 2.4, in: 0.5...6, "edge σ (px) at which sharpness is 0.5"),
        ParameterSpec("noiseRef", 3.0, in: 0.5...20, "noise σ (levels) at which the noise score is 0.5"),
        ParameterSpec("grainRef", 8.0, in: 1...40, "per-pixel grain σ at 100 % (levels, JPEG only) at which the noise score is 0.5: the smallest grain a person rejects"),
        ParameterSpec("weightSharpness", 0.40, in: 0...1, "exponent of sharpness in overall"),
        ParameterSpec("weightExposure", 0.30, in: 0...1, "exponent of exposure in overall"),
        ParameterSpec("weightNoise", 0.25, in: 0...1, "exponent of noise in overall"),
        ParameterSpec("weightComposition", 0.05, in: 0...1, "exponent of composition in overall"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public func analyze(_ image: AnalysisImage) -> TechnicalQualityScore {
        let w = image.width, h = image.height
        let y = image.luma
        let noiseSigma = noiseLevel(image)
        let edges = edgeSpread(y, w, h, noise: noiseSigma)
        let lap = laplacianVariance(y, w, h)
        let expo = exposureStats(y, w, h)
        let colourClip = colourClipping(image)
        let (deciles, darkest) = Self.channelDeciles(image)
        let sal = saliency(y, w, h)

        // Where the subject is (tiles weighted by saliency: a shallow depth of field
        // is not blur) blended with the sharpest tiles (a subject saliency missed).
        let subject = Self.subjectWidth(edges.tileMedians, tiles: parameters.int("tiles"), saliency: sal.map, mapSize: 64) ?? edges.width
        let effWidth = (subject * edges.width).squareRoot() * pow(max(1, edges.motion / parameters["motionFree"]), 0.75)
        // Steep curves: each score is ~1 while its fault is absent and falls fast once it is there,
        // so one fault is enough to sink `overall` and a clean photo is not penalised for its content.
        let sharpness = edges.count < 40 ? 0.35 : 1 / (1 + pow(effWidth / parameters["edgeWidthRef"], 5))
        // Grain at 100 %: per-pixel σ from the file's own DCT blocks, which the
        // analysis scale averages away (σ 8 in a 12 MP frame reads about 1.5 at 768 px).
        // Where it is measured it decides alone: the analysis-scale estimate has no flat
        // patch to look at in a frame full of leaves or sand, and reads their texture as noise.
        // A thumbnail (under 64,000 px, so it is its own analysis image) has no flat patch
        // at all; at that size a person judges nothing at 100 %, and neither do we.
        let grain = image.native?.grain
        let thumbnail = grain == nil && w * h < NativeDetailProbe.minGrainBlocks * 64
        let noise = thumbnail ? 1 : grain.map { falloff($0, ref: parameters["grainRef"]) }
            ?? falloff(noiseSigma, ref: parameters["noiseRef"])
        // Colour blown beyond what luma clips: a white background blows every channel and is no fault.
        let frameExposure = exposureScore(expo) * Self.colourBlown(expo.whiteBackground ? max(0, colourClip - expo.high) : colourClip)
        // High key: a subject before a bright backdrop that looks right on its own tones is
        // judged on them, its backdrop's blown colour forgiven. A subject that looks wrong too is
        // no excuse: a frame pushed two stops, 74 % blown, kept its luma-only 0.11 when the
        // backdrop was forgiven, and filled a top 20 ahead of its scene's clean frame.
        var exposure = frameExposure, unlifted: Double? = nil
        if expo.highKey, let tones = expo.subject {
            let subject = Self.subjectScore(tones) * Self.colourBlown(max(0, colourClip - expo.backdrop))
            if subject >= Self.highKeySubject && subject > frameExposure { unlifted = frameExposure; exposure = subject }
        }
        let thirds = Self.thirdsAlignment(sal.x, sal.y)
        let size = sal.size <= 0.02 ? sal.size / 0.02 : sal.size <= 0.4 ? 1 : max(0, 1 - (sal.size - 0.4) / 0.6)
        let composition = 0.65 * thirds + 0.35 * size

        let ws = parameters["weightSharpness"], we = parameters["weightExposure"], wn = parameters["weightNoise"], wc = parameters["weightComposition"]
        let total = max(1e-9, ws + we + wn + wc)
        let overall = exp((ws * log(max(1e-4, sharpness)) + we * log(max(1e-4, exposure)) + wn * log(max(1e-4, noise)) + wc * log(max(1e-4, composition))) / total)

        func r(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }  // stable JSON across platforms' float printing
        return TechnicalQualityScore(
            sharpness: r(sharpness), exposure: r(exposure), noise: r(noise), composition: r(composition), overall: r(overall),
            measurements: .init(edgeWidth: r(edges.width), edgeWidthGlobal: r(edges.global), motionRatio: r(edges.motion), edgeCount: edges.count,
                                laplacianVariance: r(lap), noiseSigma: r(noiseSigma), meanLuma: r(expo.mean),
                                clippedHighlights: r(expo.high), clippedShadows: r(expo.low), dynamicRange: r(expo.range),
                                whitePoint: r(expo.white), blackPoint: r(expo.black), subjectEdgeWidth: r(subject),
                                saliencyX: r(sal.x), saliencyY: r(sal.y), subjectSize: r(sal.size), medianLuma: r(expo.median),
                                grainNative: grain.map(r), clippedColour: r(colourClip), brightestDeciles: deciles.map(r), darkestDeciles: darkest.map(r),
                                noiseNote: thumbnail ? "not judged: a \(w)×\(h) thumbnail has no flat area to show grain in" : nil,
                                coarseSpread: r(Self.coarseSpread(y, w, h)), whiteBackground: expo.whiteBackground,
                                backdrop: r(expo.backdrop), highKey: expo.highKey,
                                subjectExposure: expo.subject.map { r(Self.subjectScore($0)) }, unliftedExposure: unlifted.map(r)))
    }

    /// σ of the luma means of a 16×16 grid of blocks (levels): how much the frame's brightness
    /// varies across it, with grain averaged away in each block.
    static func coarseSpread(_ y: [Float], _ w: Int, _ h: Int, grid: Int = 16) -> Double {
        guard w >= grid, h >= grid else { return 0 }
        var sums = [Double](repeating: 0, count: grid * grid), counts = sums
        // Each block's columns as one run: column x is in block min(grid − 1, x · grid / w), so
        // block b starts at ⌈b · w / grid⌉. Pixels are added to their block in the same order as
        // one at a time, so the sums are the same bits.
        let starts = (0...grid).map { b in b == grid ? w : (b * w + grid - 1) / grid }
        y.withUnsafeBufferPointer { p in
            sums.withUnsafeMutableBufferPointer { s in
                counts.withUnsafeMutableBufferPointer { c in
                    for yy in 0..<h {
                        let row = min(grid - 1, yy * grid / h) * grid, base = yy * w
                        for b in 0..<grid {
                            var acc = s[row + b]
                            for xx in starts[b]..<starts[b + 1] { acc += Double(p[base + xx]) }
                            s[row + b] = acc
                            c[row + b] += Double(starts[b + 1] - starts[b])
                        }
                    }
                }
            }
        }
        let means = zip(sums, counts).map { $0 / max(1, $1) }
        let m = means.reduce(0, +) / Double(means.count)
        return (means.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(means.count)).squareRoot()
    }

    // MARK: Sharpness

    public struct EdgeStats {
        public var width: Double; public var global: Double; public var motion: Double; public var count: Int
        /// Median edge width per tile (row-major, `tiles`×`tiles`); nil where a tile has too few edges.
        public var tileMedians: [Float?] = []
    }

    /// Edge spread on a copy smoothed in proportion to the noise, so grain does
    /// not pass for fine edges; the smoothing's own spread is then taken out.
    public func edgeSpread(_ y: [Float], _ w: Int, _ h: Int, noise: Double) -> EdgeStats {
        let smoothing = Float(min(2.5, max(0.7, 0.35 * noise)))
        let s = smoothing <= 0.75 ? ImageOps.binomial(y, w, h) : ImageOps.gaussian(y, w, h, sigma: smoothing)
        let minContrast = Float(max(12, 5 * noise)), minGradient = Float(max(2, 0.5 * noise))
        let tiles = parameters.int("tiles")
        // Widths go into 0.01 px histograms (0–12 px): medians in O(n), no sorting. One flat
        // table for all of them (tiles, then the four directions, then all edges): an array of
        // histograms checked each one's uniqueness on every edge.
        let nTiles = tiles * tiles, bins = SpreadHistogram.bins
        var table = [UInt32](repeating: 0, count: (nTiles + 5) * bins)
        var tally = [Int](repeating: 0, count: nTiles + 5)
        let k: Float = 6, margin = 8
        let root2pi = Float(sqrt(2 * Double.pi))
        guard w > 2 * margin + 2, h > 2 * margin + 2 else { return EdgeStats(width: 0, global: 0, motion: 1, count: 0) }
        let tileOfColumn = (0..<w).map { min(tiles - 1, $0 * tiles / w) }
        let tileOfRow = (0..<h).map { min(tiles - 1, $0 * tiles / h) * tiles }
        var gxa = [Float](repeating: 0, count: w * h), gya = gxa, ga = gxa
        gxa.withUnsafeMutableBufferPointer { gx in gya.withUnsafeMutableBufferPointer { gy in ga.withUnsafeMutableBufferPointer { g in
        table.withUnsafeMutableBufferPointer { table in tally.withUnsafeMutableBufferPointer { tally in
        @inline(__always) func add(_ k: Int, _ bin: Int) { table[k * bins + bin] += 1; tally[k] += 1 }
        s.withUnsafeBufferPointer { p in
            for yy in 1..<(h - 1) {
                for xx in 1..<(w - 1) {
                    let i = yy * w + xx
                    let a = p[i - w - 1], b = p[i - w], c = p[i - w + 1], d = p[i - 1], f = p[i + 1], gg = p[i + w - 1], hh = p[i + w], ii = p[i + w + 1]
                    let dx = ((c + 2 * f + ii) - (a + 2 * d + gg)) / 8
                    let dy = ((gg + 2 * hh + ii) - (a + 2 * b + c)) / 8
                    gx[i] = dx; gy[i] = dy; g[i] = (dx * dx + dy * dy).squareRoot()
                }
            }
            for yy in margin..<(h - margin) {
                for xx in margin..<(w - margin) {
                    let i = yy * w + xx
                    let m = g[i]
                    guard m >= minGradient else { continue }
                    let ux = gx[i] / m, uy = gy[i] / m
                    // Non-maximum suppression along the gradient: keep edge centres only.
                    let ox = Int(ux.rounded()), oy = Int(uy.rounded())
                    guard m >= g[i + oy * w + ox], m > g[i - oy * w - ox] else { continue }
                    let fx = Float(xx), fy = Float(yy)
                    let hi = ImageOps.bilinear(p, w, h, fx + k * ux, fy + k * uy)
                    let lo = ImageOps.bilinear(p, w, h, fx - k * ux, fy - k * uy)
                    let contrast = hi - lo
                    guard contrast >= minContrast else { continue }
                    let raw = min(12, contrast / (m * root2pi))
                    let sigma = (max(0.01, raw * raw - smoothing * smoothing)).squareRoot()
                    let bin = SpreadHistogram.bin(sigma)
                    add(nTiles + 4, bin)
                    add(tileOfRow[yy] + tileOfColumn[xx], bin)
                    var ang = atan2(uy, ux)
                    if ang < 0 { ang += .pi }
                    add(nTiles + min(3, Int((ang + .pi / 8) / (.pi / 4)) % 4), bin)
                }
            }
        }
        } }
        } } }
        func histogram(_ k: Int) -> SpreadHistogram { SpreadHistogram(counts: Array(table[(k * bins)..<((k + 1) * bins)]), count: tally[k]) }
        let perTile = (0..<nTiles).map(histogram), perDir = (0..<4).map { histogram(nTiles + $0) }, all = histogram(nTiles + 4)
        guard all.count >= 10 else { return EdgeStats(width: 0, global: 0, motion: 1, count: all.count) }
        let perTileMedian: [Float?] = perTile.map { $0.count >= 12 ? $0.quantile(0.5) : nil }
        let tileMedians = perTileMedian.compactMap { $0 }
        let global = all.quantile(0.5)
        let width = tileMedians.isEmpty ? global : ImageOps.percentile(tileMedians, parameters["sharpTileQuantile"])
        let minShare = Int(Double(all.count) * parameters["motionMinShare"])
        let dirMedians = perDir.filter { $0.count >= max(20, minShare) }.map { $0.quantile(0.5) }
        // Widths under 0.5 px are below what the analysis image resolves: floor them,
        // or a ratio of two near-zero widths reads as motion blur.
        let motion = dirMedians.count >= 2 ? Double(max(0.5, dirMedians.max()!) / max(0.5, dirMedians.min()!)) : 1
        return EdgeStats(width: Double(width), global: Double(global), motion: motion, count: all.count, tileMedians: perTileMedian)
    }

    public func laplacianVariance(_ y: [Float], _ w: Int, _ h: Int) -> Double {
        guard w > 2, h > 2 else { return 0 }
        var sum = 0.0, sum2 = 0.0
        y.withUnsafeBufferPointer { p in
            for yy in 1..<(h - 1) {
                for xx in 1..<(w - 1) {
                    let i = yy * w + xx
                    let l = Double(p[i - 1] + p[i + 1] + p[i - w] + p[i + w] - 4 * p[i])
                    sum += l; sum2 += l * l
                }
            }
        }
        let n = Double((w - 2) * (h - 2))
        return sum2 / n - (sum / n) * (sum / n)
    }

    // MARK: Noise

    /// Immerkær's fast noise estimate, σ = √(π/2)/(6N) Σ|I∗M|, per tile; the mean
    /// of the flattest 10 % of unclipped tiles, where texture cannot pass for noise.
    ///
    /// The mask sees only pixel-scale noise. Grain spread over 2 px (demosaiced, or
    /// in a photo near the analysis size) is pixel-scale again at half resolution,
    /// but so is fine texture (grass, sand). The half-resolution reading is
    /// therefore believed only as far as the chroma channels (R−G, B−G), where
    /// sensor grain shows and scene texture mostly does not, confirm it:
    /// σ = max(σ_luma, min(σ_luma/2, σ_chroma)).
    public func noiseLevel(_ image: AnalysisImage) -> Double {
        let y = image.luma, w = image.width, h = image.height
        let full = Self.immerkaer(y, gate: y, w, h, tile: 32)
        let hw = w / 2, hh = h / 2
        guard hw > 20, hh > 20 else { return full }
        var half = [Float](repeating: 0, count: hw * hh)
        for yy in 0..<hh {
            for xx in 0..<hw {
                let i = 2 * yy * w + 2 * xx
                half[yy * hw + xx] = 0.25 * (y[i] + y[i + 1] + y[i + w] + y[i + w + 1])
            }
        }
        let coarse = Self.immerkaer(half, gate: half, hw, hh, tile: 16)
        guard coarse > full else { return full }
        var rg = [Float](repeating: 0, count: w * h), bg = rg
        image.rgb.withUnsafeBufferPointer { p in
            for i in 0..<(w * h) {
                let g = Float(p[3 * i + 1])
                rg[i] = Float(p[3 * i]) - g
                bg[i] = Float(p[3 * i + 2]) - g
            }
        }
        let chroma = max(Self.immerkaer(rg, gate: y, w, h, tile: 32), Self.immerkaer(bg, gate: y, w, h, tile: 32))
        return max(full, min(coarse, chroma))
    }

    /// Per-tile Immerkær estimate of `values`; tiles whose `gate` (luma) mean is
    /// near black or white are skipped, since clipping flattens noise away.
    static func immerkaer(_ values: [Float], gate: [Float], _ w: Int, _ h: Int, tile: Int) -> Double {
        guard w >= tile + 2, h >= tile + 2 else { return 0 }
        var sigmas: [Float] = []
        values.withUnsafeBufferPointer { p in
            gate.withUnsafeBufferPointer { g in
                var ty = 1
                while ty + tile <= h - 1 {
                    var tx = 1
                    while tx + tile <= w - 1 {
                        var acc: Float = 0, mean: Float = 0
                        for yy in ty..<(ty + tile) {
                            for xx in tx..<(tx + tile) {
                                let i = yy * w + xx
                                let v = 4 * p[i] - 2 * (p[i - 1] + p[i + 1] + p[i - w] + p[i + w]) + (p[i - w - 1] + p[i - w + 1] + p[i + w - 1] + p[i + w + 1])
                                acc += abs(v)
                                mean += g[i]
                            }
                        }
                        mean /= Float(tile * tile)
                        if mean > 10, mean < 245 {
                            sigmas.append(acc * Float((Double.pi / 2).squareRoot()) / (6 * Float(tile * tile)))
                        }
                        tx += tile
                    }
                    ty += tile
                }
            }
        }
        guard !sigmas.isEmpty else { return 0 }
        sigmas.sort()
        let n = max(1, sigmas.count / 10)
        return Double(sigmas.prefix(n).reduce(0, +) / Float(n))
    }

    // MARK: Exposure

    public struct ExposureStats {
        public var mean: Double; public var median: Double = 0; public var high: Double; public var low: Double; public var range: Double; public var white: Double; public var black: Double
        /// Clipped blocks on the frame's least clipped edge (each edge read as the most clipped of its
        /// three outer rows or columns of blocks), and in its centre half; the mean of the pixels under
        /// white (0–1).
        public var edgeClipped: Double = 0, centreClipped: Double = 0, unclippedMean: Double = 0
        /// Share of the frame that is a bright, flat backdrop joined to its border (`backdrop`), and
        /// share of the border's blocks that are backdrop.
        public var backdrop: Double = 0, backdropBorder: Double = 0
        /// The tones of what is not backdrop; `nil` when the whole frame is.
        public var subject: SubjectTones?
        /// A subject before a bright backdrop (`QualityAnalyzer.exposureStats`): its exposure is also
        /// read on the subject's own tones.
        public var highKey = false
        public init(mean: Double, median: Double = 0, high: Double, low: Double, range: Double, white: Double, black: Double) {
            self.mean = mean; self.median = median; self.high = high; self.low = low; self.range = range; self.white = white; self.black = black
            self.unclippedMean = mean
        }

        /// A subject on a white background: every edge of the frame at least `whiteEdges` clipped,
        /// its centre half at most `clearCentre`, and real blacks in it (1st percentile at most
        /// `darkAnchor`). A frame pushed two stops clips its centre too and lifts its blacks.
        public var whiteBackground: Bool {
            edgeClipped >= QualityAnalyzer.whiteEdges && centreClipped <= QualityAnalyzer.clearCentre && black <= QualityAnalyzer.darkAnchor
        }

        /// The statistics of a subject on white without its background: nothing of it clipped (the
        /// white between its parts, a laptop's keyboard at 22 % of the centre, is background too),
        /// and its brightness that of the pixels under white.
        var withoutBackground: ExposureStats {
            var s = self
            s.high = 0
            s.mean = unclippedMean
            return s
        }
    }

    /// The tones of a frame apart from its backdrop (`ExposureStats.subject`): its share of the
    /// frame, mean and white and black points (0–1), and its shares of clipped and crushed blocks.
    public struct SubjectTones: Sendable, Equatable {
        public var share, mean, high, low, white, black: Double
    }

    /// Thresholds of `ExposureStats.whiteBackground`. On the labelled trips (all 681 over-exposed
    /// frames, 1,020 clean ones sampled), 10 over-exposed frames had every edge clipped 0.7 or more,
    /// each with 40–100 % of its centre clipped too and a 1st percentile of 0.26–0.98, and no clean
    /// one had; a coin and a laptop photographed on white (held-out photographs) clip every edge
    /// fully, their centres 0–0.22, and keep blacks under 0.06.
    static let whiteEdges = 0.8, clearCentre = 0.3, darkAnchor = 0.15

    /// Luma histogram statistics. Clipping is counted in regions (8×8 blocks most
    /// of whose pixels are clipped), so dark or bright speckles in texture are not
    /// "clipped shadows", while a blown sky or a crushed black area is, grainy or not.
    public func exposureStats(_ y: [Float], _ w: Int, _ h: Int) -> ExposureStats {
        var hist = [Int](repeating: 0, count: 256)
        var sum = 0.0
        for v in y { hist[min(255, max(0, Int(v)))] += 1; sum += Double(v) }
        let n = Double(max(1, y.count))
        func pct(_ p: Double) -> Double { Self.percentile(hist, of: n, p) }
        // A block is clipped when most of its pixels are (its median is): grain on a
        // blown sky pulls the block's mean under white, but not its median.
        let b = min(parameters.int("clipBlock"), w, h), bw = w / b, bh = h / b
        var highBlocks = 0, lowBlocks = 0
        var clipped = [Bool](repeating: false, count: bw * bh), crushed = clipped
        var blockMean = [Float](repeating: 0, count: bw * bh), blockSD = blockMean
        y.withUnsafeBufferPointer { p in
            for by in 0..<bh {
                for bx in 0..<bw {
                    var hi = 0, lo = 0
                    var s: Float = 0, s2: Float = 0
                    for yy in (by * b)..<(by * b + b) {
                        for xx in (bx * b)..<(bx * b + b) {
                            let v = p[yy * w + xx]
                            s += v; s2 += v * v
                            if v >= 250 { hi += 1 } else if v <= 5 { lo += 1 }
                        }
                    }
                    let m = s / Float(b * b)
                    blockMean[by * bw + bx] = m
                    blockSD[by * bw + bx] = max(0, s2 / Float(b * b) - m * m).squareRoot()
                    if 4 * hi >= 3 * b * b { highBlocks += 1; clipped[by * bw + bx] = true }
                    if 4 * lo >= 3 * b * b { lowBlocks += 1; crushed[by * bw + bx] = true }
                }
            }
        }
        let blockCount = Double(max(1, bw * bh))
        let high = Double(highBlocks) / blockCount, low = Double(lowBlocks) / blockCount
        let white = pct(0.99) / 255, black = pct(0.01) / 255
        var stats = ExposureStats(mean: sum / n / 255, median: pct(0.5) / 255, high: high, low: low, range: white - black, white: white, black: black)
        // Where the clipped blocks are: each edge's outer ring, and the centre half of the frame.
        // An edge is the most clipped of its three outer rows (or columns) of blocks: a thin frame
        // line or a JPEG's last partial block does not hide a white background.
        if bw >= 8, bh >= 8 {
            func row(_ by: Int) -> Double { Double((0..<bw).count { clipped[by * bw + $0] }) / Double(bw) }
            func column(_ bx: Int) -> Double { Double((0..<bh).count { clipped[$0 * bw + bx] }) / Double(bh) }
            let rings = 0..<3
            stats.edgeClipped = [rings.map { row($0) }.max()!, rings.map { row(bh - 1 - $0) }.max()!,
                                 rings.map { column($0) }.max()!, rings.map { column(bw - 1 - $0) }.max()!].min()!
            var centre = 0, centreCount = 0
            for by in (bh / 4)..<(bh - bh / 4) {
                for bx in (bw / 4)..<(bw - bw / 4) {
                    centreCount += 1
                    if clipped[by * bw + bx] { centre += 1 }
                }
            }
            stats.centreClipped = Double(centre) / Double(max(1, centreCount))
        }
        var underSum = 0.0, underCount = 0
        for (v, c) in hist.enumerated() where v < 250 { underSum += Double(v * c); underCount += c }
        if underCount > 0 { stats.unclippedMean = underSum / Double(underCount) / 255 }
        if bw >= 8, bh >= 8 {
            let backdrop = Self.backdrop(blockMean: blockMean, blockSD: blockSD, bw, bh, level: Float(255 * parameters["backdropLevel"]), flat: Float(parameters["backdropFlat"]))
            stats.backdrop = Double(backdrop.count { $0 }) / blockCount
            let ring = Self.borderBlocks(bw, bh)
            stats.backdropBorder = Double(ring.count { backdrop[$0] }) / Double(max(1, ring.count))
            // The subject's own tones: the pixels of every block that is not backdrop.
            var sub = [Int](repeating: 0, count: 256), subSum = 0.0, subBlocks = 0, subHigh = 0, subLow = 0
            y.withUnsafeBufferPointer { p in
                for by in 0..<bh {
                    for bx in 0..<bw where !backdrop[by * bw + bx] {
                        subBlocks += 1
                        if clipped[by * bw + bx] { subHigh += 1 }
                        if crushed[by * bw + bx] { subLow += 1 }
                        for yy in (by * b)..<(by * b + b) {
                            for xx in (bx * b)..<(bx * b + b) {
                                let v = p[yy * w + xx]
                                sub[min(255, max(0, Int(v)))] += 1; subSum += Double(v)
                            }
                        }
                    }
                }
            }
            let count = Double(subBlocks * b * b)
            if count > 0 {
                let tones = SubjectTones(share: Double(subBlocks) / blockCount, mean: subSum / count / 255,
                                         high: Double(subHigh) / Double(subBlocks), low: Double(subLow) / Double(subBlocks),
                                         white: Self.percentile(sub, of: count, 0.99) / 255, black: Self.percentile(sub, of: count, 0.01) / 255)
                stats.subject = tones
                stats.highKey = stats.backdrop >= parameters["highKeyBackdrop"] && stats.backdropBorder >= parameters["highKeyBorder"] && tones.share >= 0.05
            }
        }
        return stats
    }

    /// The blocks of a bright, flat backdrop joined to the frame's border: a studio sweep, a white
    /// table, a grey card behind a product. Each is at least `level` bright and flat (σ at most
    /// `flat` levels: grain averages out, texture does not), and reached from a border block
    /// through such blocks whose means step by at most `backdropStep` levels, so a gradient
    /// sweep is one backdrop while a bright object in front of it is not.
    static func backdrop(blockMean m: [Float], blockSD sd: [Float], _ bw: Int, _ bh: Int, level: Float, flat: Float) -> [Bool] {
        var fill = [Bool](repeating: false, count: bw * bh)
        func candidate(_ k: Int) -> Bool { m[k] >= level && sd[k] <= flat }
        var queue = borderBlocks(bw, bh).filter(candidate)
        for k in queue { fill[k] = true }
        var head = 0
        while head < queue.count {
            let k = queue[head]; head += 1
            let bx = k % bw
            func visit(_ n: Int) {
                if !fill[n] && candidate(n) && abs(m[n] - m[k]) <= backdropStep { fill[n] = true; queue.append(n) }
            }
            if bx + 1 < bw { visit(k + 1) }
            if bx > 0 { visit(k - 1) }
            if k + bw < bw * bh { visit(k + bw) }
            if k >= bw { visit(k - bw) }
        }
        return fill
    }

    /// Indices of a bw×bh grid's outer ring of blocks, row by row.
    static func borderBlocks(_ bw: Int, _ bh: Int) -> [Int] {
        (0..<(bw * bh)).filter { k in k < bw || k >= bw * (bh - 1) || k % bw == 0 || k % bw == bw - 1 }
    }

    /// The value (0–255) under which a share `p` of a 256-bin histogram holding `count` values lies.
    static func percentile(_ hist: [Int], of count: Double, _ p: Double) -> Double {
        var acc = 0
        let target = Int(p * count)
        for (i, c) in hist.enumerated() { acc += c; if acc > target { return Double(i) } }
        return 255
    }

    /// Largest step (levels) between neighbouring blocks' means inside one backdrop.
    static let backdropStep: Float = 8

    /// Fraction of `clipBlock` blocks most of whose pixels have some channel at
    /// white (≥ 250). A blown yellow petal keeps its luma near 0.89 (blue is low),
    /// so luma clipping misses what a person sees at once: the petal has no texture.
    /// A vivid colour can touch 255 in a well-exposed frame too, so this is not
    /// scored on its own; selection compares it with the burst (`GroupExposure`).
    public func colourClipping(_ image: AnalysisImage) -> Double {
        let w = image.width, h = image.height
        let b = min(parameters.int("clipBlock"), w, h), bw = w / b, bh = h / b
        guard bw > 0, bh > 0 else { return 0 }
        var clipped = 0
        image.rgb.withUnsafeBufferPointer { p in
            for by in 0..<bh {
                for bx in 0..<bw {
                    var n = 0
                    for yy in (by * b)..<(by * b + b) {
                        var i = 3 * (yy * w + bx * b)
                        for _ in 0..<b {
                            if max(p[i], p[i + 1], p[i + 2]) >= 250 { n += 1 }
                            i += 3
                        }
                    }
                    if 4 * n >= 3 * b * b { clipped += 1 }
                }
            }
        }
        return Double(clipped) / Double(bw * bh)
    }

    /// The 10th…90th percentiles of each pixel's brightest and of its darkest channel, 0–1. A gain
    /// in linear light scales every channel: between two frames of a scene, the deciles that
    /// neither has clipped or crushed give the exposure difference even when half of one frame
    /// is blown (`GroupExposure`). The darkest channel still reads a frame whose brightest one
    /// is blown everywhere: a cyan sky pushed 2.5 stops has blue and green at white over 99 %
    /// of the frame, and only red moved with the gain.
    static func channelDeciles(_ image: AnalysisImage) -> (brightest: [Double], darkest: [Double]) {
        var high = [Int](repeating: 0, count: 256), low = high
        image.rgb.withUnsafeBufferPointer { p in
            high.withUnsafeMutableBufferPointer { hi in
                low.withUnsafeMutableBufferPointer { lo in
                    var i = 0
                    while i + 2 < p.count {
                        let r = p[i], g = p[i + 1], b = p[i + 2]
                        hi[Int(max(r, g, b))] += 1
                        lo[Int(min(r, g, b))] += 1
                        i += 3
                    }
                }
            }
        }
        let n = max(1, image.width * image.height)
        func deciles(_ hist: [Int]) -> [Double] {
            (1...9).map { d in
                let target = n * d / 10
                var acc = 0
                for (v, c) in hist.enumerated() { acc += c; if acc > target { return Double(v) / 255 } }
                return 1
            }
        }
        return (deciles(high), deciles(low))
    }

    /// Clipped highlights and shadows, a missing bright end (under-exposure leaves
    /// no highlights even in a dark scene), and a mean far from mid-grey.
    ///
    /// A blown overcast sky or snow field is normal in a well-exposed photo, so a
    /// frame of normal brightness may clip up to 12 % before it loses (the allowance
    /// shrinks to 1 % as the mean rises to 0.65, where clipping is over-exposure);
    /// likewise 8 % of crushed shadows. On the real camera files, a 1 % allowance
    /// called 7 of 22 full-size photos faulty, most for a white sky.
    ///
    /// A dark frame whose highlights still reach the top (white point ≥ 0.75: a stage,
    /// a night street, a window in a dark room) is low key, not under-exposed: taking
    /// light away lowers the white point first. Its crushed shadows and dark mean are
    /// forgiven in proportion; under-exposed trip frames have white points of 0.40–0.48,
    /// clean ones 0.53 and up.
    /// Factor on the exposure score for the fraction of the frame blown in some colour: 1 up
    /// to a third (the most among the real camera files and corpus photos is 29 %: saturated
    /// colours and a blown sky), ½ at 48 %, 0.04 at 97 %. Luma misses a channel blown everywhere.
    public static func colourBlown(_ fraction: Double) -> Double { exp(-max(0, fraction - 0.34) * 5) }

    /// The exposure score of the whole frame (a subject on white without its background); a
    /// high-key subject's own reading is `subjectScore`.
    public func exposureScore(_ stats: ExposureStats) -> Double {
        let e = stats.whiteBackground ? stats.withoutBackground : stats
        return Self.toneScore(mean: e.mean, high: e.high, low: e.low, white: e.white)
    }

    /// Subject exposure score from which a high-key frame is judged on its subject: one that
    /// looks right on its own. A pushed frame is not let off by this when its subject is
    /// washed out too; when it is not, its burst still reads it stops over (`GroupExposure`), and
    /// selection then judges it on the whole frame (`unliftedExposure`).
    static let highKeySubject = 0.5

    /// The exposure score of a subject before a backdrop, stricter than a whole frame's in two
    /// ways that tell a pushed frame from a clean one. The subject may clip nothing (a whole
    /// frame may clip a sky; here the sky is the backdrop), and its blacks must stay down: two
    /// stops lift a 0.05 black to 0.13, a 0.1 one to 0.2. On the labelled trips the subjects of
    /// over-exposed frames before a backdrop had blacks at 0.17 and 5 % clipped (medians), clean
    /// ones 0.06 and none; white devices on white (held-out product shots) reach 0.20–0.22.
    static func subjectScore(_ s: SubjectTones) -> Double {
        toneScore(mean: s.mean, high: s.high, low: s.low, white: s.white, allowance: 0, clipSteepness: 30)
            * exp(-pow(max(0, s.black - 0.2) / 0.1, 2))
    }

    /// The exposure score of a set of tones: mean (0–1), share of clipped and crushed blocks,
    /// white point (99th percentile, 0–1).
    static func toneScore(mean: Double, high: Double, low: Double, white: Double, allowance: Double? = nil, clipSteepness: Double = 15) -> Double {
        let allowance = allowance ?? (0.01 + 0.11 * min(1, max(0, (0.65 - mean) / 0.15)))
        let highlight = exp(-max(0, high - allowance) * clipSteepness)
        let lowKey = min(1, max(0, (white - 0.6) / 0.15))
        let shadow = pow(exp(-max(0, low - 0.08) * 8), 1 - lowKey)
        let brightEnd = pow(min(1, white / 0.7), 2)
        let mid = pow(exp(-pow((mean - 0.45) / 0.36, 2)), mean < 0.45 ? 1 - lowKey : 1)
        return highlight * shadow * brightEnd * mid
    }

    // MARK: Composition

    private static let saliencyFFT = FFT.Plan(n: 64)

    /// Spectral-residual saliency (Hou & Zhang 2007) on a 64×64 luma map.
    public func saliency(_ y: [Float], _ w: Int, _ h: Int) -> (x: Double, y: Double, size: Double, map: [Float]) {
        let n = 64
        var re = ImageOps.resample(y, w, h, to: n, n)
        var im = [Float](repeating: 0, count: n * n)
        Self.saliencyFFT.transform2D(&re, &im, inverse: false)
        var logA = [Float](repeating: 0, count: n * n), phase = logA
        for i in 0..<(n * n) {
            logA[i] = log(max(1e-6, (re[i] * re[i] + im[i] * im[i]).squareRoot()))
            phase[i] = atan2(im[i], re[i])
        }
        var avg = logA
        for yy in 0..<n {
            for xx in 0..<n {
                var s: Float = 0
                for dy in -1...1 { for dx in -1...1 { s += logA[((yy + dy + n) % n) * n + (xx + dx + n) % n] } }
                avg[yy * n + xx] = s / 9
            }
        }
        for i in 0..<(n * n) {
            let a = exp(logA[i] - avg[i])
            re[i] = a * cos(phase[i]); im[i] = a * sin(phase[i])
        }
        Self.saliencyFFT.transform2D(&re, &im, inverse: true)
        var sal = (0..<(n * n)).map { re[$0] * re[$0] + im[$0] * im[$0] }
        sal = ImageOps.gaussian(sal, n, n, sigma: 2.5)
        let mean = sal.reduce(0, +) / Float(n * n)
        guard mean > 0 else { return (0.5, 0.5, 0, sal) }
        var cx = 0.0, cy = 0.0, mass = 0.0, salient = 0
        for yy in 0..<n {
            for xx in 0..<n {
                let v = sal[yy * n + xx]
                guard v > 2 * mean else { continue }
                salient += 1
                mass += Double(v); cx += Double(v) * (Double(xx) + 0.5) / Double(n); cy += Double(v) * (Double(yy) + 0.5) / Double(n)
            }
        }
        guard mass > 0 else { return (0.5, 0.5, 0, sal) }
        return (cx / mass, cy / mass, Double(salient) / Double(n * n), sal)
    }

    /// 1 when the subject sits on a rule-of-thirds point, falling linearly with distance;
    /// a centred subject keeps 0.6, since centred compositions are common and fine.
    static func thirdsAlignment(_ x: Double, _ y: Double) -> Double {
        var best = Double.infinity
        for px in [1.0 / 3, 2.0 / 3] { for py in [1.0 / 3, 2.0 / 3] { best = min(best, hypot(x - px, y - py)) } }
        let thirds = max(0, 1 - best / 0.35)
        let centred = 0.6 * max(0, 1 - hypot(x - 0.5, y - 0.5) / 0.35)
        return max(thirds, centred)
    }
}

extension QualityAnalyzer {
    /// Median of the tile edge widths weighted by how much of the saliency map
    /// falls in each tile: sharpness where the subject is, not in the bokeh.
    static func subjectWidth(_ tileMedians: [Float?], tiles: Int, saliency: [Float], mapSize n: Int) -> Double? {
        guard tileMedians.count == tiles * tiles, saliency.count == n * n else { return nil }
        var weights = [Double](repeating: 0, count: tiles * tiles)
        for yy in 0..<n {
            let row: Int = min(tiles - 1, yy * tiles / n) * tiles
            for xx in 0..<n {
                let col: Int = min(tiles - 1, xx * tiles / n)
                weights[row + col] += Double(saliency[yy * n + xx])
            }
        }
        let items = (0..<(tiles * tiles)).compactMap { t in tileMedians[t].map { (Double($0), weights[t]) } }.sorted { $0.0 < $1.0 }
        let total = items.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return nil }
        var acc = 0.0
        for (v, wt) in items { acc += wt; if acc >= total / 2 { return v } }
        return items.last?.0
    }
}

/// Counts of edge widths in 0.01 px bins from 0 to 12 px; quantiles by a cumulative scan.
struct SpreadHistogram {
    static let bins = 1201
    let counts: [UInt32]
    let count: Int

    /// The bin a width falls in: 0.01 px each, the last one holding everything from 12 px.
    @inline(__always)
    static func bin(_ sigma: Float) -> Int { min(bins - 1, max(0, Int((sigma * 100).rounded()))) }

    /// The value at rank round((count − 1) · p), as a sorted array would give it (to 0.01 px).
    func quantile(_ p: Double) -> Float {
        guard count > 0 else { return .nan }
        let rank = min(count - 1, max(0, Int((Double(count - 1) * p).rounded())))
        var acc = 0
        for (b, c) in counts.enumerated() {
            acc += Int(c)
            if acc > rank { return Float(b) / 100 }
        }
        return Float(Self.bins - 1) / 100
    }
}
