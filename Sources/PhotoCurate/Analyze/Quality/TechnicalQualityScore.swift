import Foundation

/// Technical quality of one photo: each score in 0–1 (1 is best), plus the raw
/// measurements they come from. See ARCHITECTURE.md, "Quality scores".
public struct TechnicalQualityScore: Codable, Sendable, Equatable {
    public var sharpness: Double
    public var exposure: Double
    public var noise: Double
    public var composition: Double
    public var overall: Double
    public var measurements: Measurements

    public init(sharpness: Double, exposure: Double, noise: Double, composition: Double, overall: Double, measurements: Measurements) {
        self.sharpness = sharpness
        self.exposure = exposure
        self.noise = noise
        self.composition = composition
        self.overall = overall
        self.measurements = measurements
    }

    public struct Measurements: Codable, Sendable, Equatable {
        /// Edge spread σ in analysis pixels, in the sharpest tiles (lower is sharper).
        public var edgeWidth: Double
        /// Edge spread σ over the whole frame.
        public var edgeWidthGlobal: Double
        /// Widest over narrowest edge spread across edge directions (1 = isotropic; motion blur is > 1.5).
        public var motionRatio: Double
        /// Strong edges found (a featureless frame has few and its sharpness is uncertain).
        public var edgeCount: Int
        /// Variance of the 4-neighbour Laplacian of luma at the analysis size (the classic measure; reported, not scored).
        public var laplacianVariance: Double
        /// Estimated noise σ in 8-bit levels (Immerkær, flattest tiles).
        public var noiseSigma: Double
        public var meanLuma: Double
        /// Median luma, 0–1: brightness that clipping at either end does not pull.
        public var medianLuma: Double
        public var clippedHighlights: Double
        public var clippedShadows: Double
        public var dynamicRange: Double
        /// 99th and 1st percentiles of luma, 0–1.
        public var whitePoint: Double
        public var blackPoint: Double
        /// Edge spread in the salient region (tile medians weighted by saliency).
        public var subjectEdgeWidth: Double
        /// Centre of saliency, 0–1 in x and y.
        public var saliencyX: Double
        public var saliencyY: Double
        /// Fraction of the frame that is salient.
        public var subjectSize: Double
        /// Per-pixel luma grain σ at 100 % (levels), from the JPEG's DCT blocks; `nil` for other formats.
        public var grainNative: Double?
        /// Fraction of 8×8 blocks where most pixels have some channel at white: blown colour, which luma clipping misses.
        public var clippedColour: Double
        /// 10th…90th percentiles of each pixel's brightest channel, 0–1 (exposure against the burst).
        public var brightestDeciles: [Double]
        /// 10th…90th percentiles of each pixel's darkest channel, 0–1; `nil` in results of quality v15 and before.
        public var darkestDeciles: [Double]?
        /// Why noise was not judged (a thumbnail); nil when it was.
        public var noiseNote: String?
        /// How much the frame's brightness varies across it: σ of the luma means of a 16×16 grid
        /// of blocks (levels). Grain averages out in a block; a blank frame (a lens cap, a grey
        /// card, a test file) stays near 0, the dullest real photo of the samples is at 13.
        /// `nil` in results of quality v14 and before.
        public var coarseSpread: Double?
        /// Whether the frame is a subject on a white background (high key): every edge of the frame
        /// clipped, its centre mostly not, and real blacks in it (`QualityAnalyzer.whiteBackground`).
        /// `nil` in results of quality v16 and before.
        public var whiteBackground: Bool?
        /// Share of the frame that is a bright, flat backdrop joined to its border, whether the frame
        /// is high key for it (`QualityAnalyzer.ExposureStats.highKey`), and the exposure score of
        /// the subject's own tones. `nil` in results of quality v17 and before.
        public var backdrop: Double?
        public var highKey: Bool?
        public var subjectExposure: Double?
        /// The whole frame's exposure score when the subject's stands in its place (a high-key frame
        /// judged on its subject); `nil` otherwise. Selection uses it for a frame its burst reads a
        /// stop or more brighter than the rest.
        public var unliftedExposure: Double?

        public init(edgeWidth: Double, edgeWidthGlobal: Double, motionRatio: Double, edgeCount: Int, laplacianVariance: Double,
                    noiseSigma: Double, meanLuma: Double, clippedHighlights: Double, clippedShadows: Double, dynamicRange: Double,
                    whitePoint: Double, blackPoint: Double, subjectEdgeWidth: Double = 0, saliencyX: Double, saliencyY: Double, subjectSize: Double,
                    medianLuma: Double? = nil, grainNative: Double? = nil, clippedColour: Double = 0, brightestDeciles: [Double] = [], darkestDeciles: [Double]? = nil, noiseNote: String? = nil, coarseSpread: Double? = nil,
                    whiteBackground: Bool? = nil, backdrop: Double? = nil, highKey: Bool? = nil, subjectExposure: Double? = nil, unliftedExposure: Double? = nil) {
            self.whiteBackground = whiteBackground; self.backdrop = backdrop; self.highKey = highKey; self.subjectExposure = subjectExposure
            self.unliftedExposure = unliftedExposure
            self.darkestDeciles = darkestDeciles; self.coarseSpread = coarseSpread; self.noiseNote = noiseNote; self.grainNative = grainNative; self.clippedColour = clippedColour; self.brightestDeciles = brightestDeciles
            self.edgeWidth = edgeWidth; self.edgeWidthGlobal = edgeWidthGlobal; self.motionRatio = motionRatio; self.edgeCount = edgeCount
            self.laplacianVariance = laplacianVariance; self.noiseSigma = noiseSigma; self.meanLuma = meanLuma
            self.medianLuma = medianLuma ?? meanLuma
            self.clippedHighlights = clippedHighlights; self.clippedShadows = clippedShadows; self.dynamicRange = dynamicRange
            self.whitePoint = whitePoint; self.blackPoint = blackPoint; self.subjectEdgeWidth = subjectEdgeWidth; self.saliencyX = saliencyX; self.saliencyY = saliencyY; self.subjectSize = subjectSize
        }
    }

    /// One line per score, for `photocurate inspect`.
    public var explanations: [(String, Double, String)] {
        let m = measurements
        return [
            ("sharpness", sharpness, String(format: "edges spread σ=%.2f px on the subject, %.2f in the sharpest tiles, %.2f overall (direction ratio %.2f, %d edges)", m.subjectEdgeWidth, m.edgeWidth, m.edgeWidthGlobal, m.motionRatio, m.edgeCount)),
            ("exposure", exposure, String(format: "median luma %.2f, mean %.2f, white point %.2f, %.1f%% highlights and %.1f%% shadows clipped, %.1f%% blown in some colour", m.medianLuma, m.meanLuma, m.whitePoint, 100 * m.clippedHighlights, 100 * m.clippedShadows, 100 * m.clippedColour)
                + (m.highKey == true ? String(format: "; high key: %.0f%% of the frame is a bright backdrop, the subject alone scores %.2f", 100 * (m.backdrop ?? 0), m.subjectExposure ?? 0)
                   + (m.unliftedExposure.map { String(format: " and stands for the frame (%.2f as a whole)", $0) } ?? "") : "")),
            ("noise", noise, m.noiseNote ?? String(format: "noise σ≈%.2f levels in the flattest areas", m.noiseSigma)
                + (m.grainNative.map { String(format: "; grain σ %.2f levels per pixel at 100 %%", $0) } ?? "")),
            ("composition", composition, String(format: "subject at (%.2f, %.2f), %.0f%% of the frame", m.saliencyX, m.saliencyY, 100 * m.subjectSize)
                + (m.coarseSpread.map { String(format: "; brightness varies by σ %.1f levels across the frame", $0) } ?? "")),
            ("overall", overall, "weighted geometric mean of the four"),
        ]
    }
}
