import Foundation

/// What the art stage measured in one artwork image, in the product's
/// `AIAnalysisData` shape plus the numbers behind every word.
///
/// ```json
/// {"basicVisualProperties": {"dominantColors": ["cobalt blue", "white"], "colorTemperature": "cool", …},
///  "styleAndGenre": {"style": "abstract", "genre": "abstract", …},
///  "measured": {"colours": [{"name": "cobalt blue", "share": 0.38, …}], "brightness": 0.61, …},
///  "evidence": {"style": ["62 % of the surface is flat colour", …]}}
/// ```
/// The product's sections are filled only from measurements, the catalog's own
/// fields and the documented rules in `ArtAnalyzer`; what cannot be measured
/// (a subject, without an image model) is "unknown", never guessed.
public struct ArtAnalysis: Codable, Sendable, Equatable {
    public var basicVisualProperties: BasicVisualProperties
    public var textureAnalysis: TextureAnalysis
    public var styleAndGenre: StyleAndGenre
    public var subjectMatter: SubjectMatter
    public var mediumAndTechnique: MediumAndTechnique
    public var composition: Composition
    public var spaceAndDisplay: SpaceAndDisplay
    public var psychologicalImpact: PsychologicalImpact
    public var marketAnalysis: MarketAnalysis
    public var tags: [String]
    public var measured: Measured
    /// For each judgement (style, mood, rooms), the measured facts it rests on.
    public var evidence: [String: [String]]
    /// Analyzer id and version, so a cached analysis from another version is not reused.
    public var analyzer: String

    public struct BasicVisualProperties: Codable, Sendable, Equatable {
        public var dominantColors: [String]
        public var secondaryColors: [String]
        public var colorTemperature: String
        public var colorPalette: [String]
    }
    public struct TextureAnalysis: Codable, Sendable, Equatable {
        public var textureType: String
        public var textureDescription: String
        public var surfaceQuality: String
    }
    public struct StyleAndGenre: Codable, Sendable, Equatable {
        public var style: String
        public var genre: String
        public var movement: String?
        public var period: String?
        /// Every style the measurements support, primary first ("abstract", "geometric", "minimalist", …).
        public var styles: [String]
    }
    public struct SubjectMatter: Codable, Sendable, Equatable {
        public var primarySubject: String
        public var secondarySubjects: [String]
        public var themes: [String]
        public var narrative: String?
    }
    public struct MediumAndTechnique: Codable, Sendable, Equatable {
        public var medium: String
        public var technique: String
        public var materials: [String]?
    }
    public struct Composition: Codable, Sendable, Equatable {
        public var layout: String
        public var focalPoint: String
        public var balance: String
        public var perspective: String?
    }
    public struct SpaceAndDisplay: Codable, Sendable, Equatable {
        public var recommendedRoomTypes: [String]
        public var recommendedWallColor: [String]
        public var lightingRecommendations: [String]
        public var sizeRecommendations: String
    }
    public struct PsychologicalImpact: Codable, Sendable, Equatable {
        public var mood: [String]
        public var energyLevel: String
        public var emotionalTone: String
    }
    public struct MarketAnalysis: Codable, Sendable, Equatable {
        public var targetAudience: [String]
        public var priceRange: String?
        public var collectibility: String
    }

    /// The measurements, in plain numbers (0–1 unless said otherwise).
    public struct Measured: Codable, Sendable, Equatable {
        public struct ColourShare: Codable, Sendable, Equatable {
            public var name: String
            public var family: String
            public var hex: String
            /// Fraction of the image's pixels nearest this named colour.
            public var share: Double
        }
        /// Named colours covering at least 1 % of the image, largest first.
        public var colours: [ColourShare]
        /// Mean CIELAB lightness / 100.
        public var brightness: Double
        /// Mean CIELAB chroma / 70, at most 1: how colourful.
        public var saturation: Double
        /// −1 (all cool hues) … +1 (all warm hues), weighted by chroma; neutral pixels count as neither.
        public var warmth: Double
        /// Spread of lightness: (95th − 5th percentile) / 100.
        public var contrast: Double
        /// Fraction of pixels on a strong edge.
        public var edgeDensity: Double
        /// Fraction of pixels in flat colour (no visible gradient).
        public var flatShare: Double
        /// Mean gradient magnitude (levels per pixel at 256 px): how busy.
        public var busyness: Double
        /// Fraction of strong edges within 10° of horizontal or vertical.
        public var axisAlignedEdges: Double
        /// Named colours needed to cover 90 % of the image.
        public var coloursFor90: Int
        /// Share of pixels in the 8 most common cells of a 16-level RGB grid (painted fills → near 1).
        public var paletteConcentration: Double
        /// Abstract (1) vs representational (0), from the palette concentration.
        public var abstractScore: Double
        /// Centre of the strong edges, 0–1 (where the eye goes).
        public var focusX: Double, focusY: Double
        /// |left − right| / all strong edges: 0 balanced, 1 all on one side.
        public var imbalance: Double
        /// "landscape", "portrait" or "square", from the catalog's dimensions (else the image).
        public var orientation: String
        /// Width / height.
        public var aspect: Double
        /// "small" (< 40 cm), "medium" (< 100), "large" (< 160), "oversized", or "unknown" without dimensions.
        public var sizeClass: String
        /// Longest side in cm, when the catalog gives dimensions.
        public var longestSideCm: Double?
        /// Analysed image size (px).
        public var width: Int, height: Int
    }
}
