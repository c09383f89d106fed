import Foundation

/// Ground truth of a generated trip (`labels.json`, kept outside the photo folder).
public struct TripLabels: Codable, Sendable {
    public struct Degradation: Codable, Sendable, Equatable {
        /// "blur", "motion", "under", "over" or "noise".
        public var kind: String
        /// blur: gaussian σ per 1000 px of long edge; motion: smear length per 1000 px;
        /// under/over: EV (nominal: an "over" frame is pushed further when needed
        /// until its brightest 5 % clip); noise: luma σ in 8-bit levels, per pixel.
        public var strength: Double
        /// noise only: the independent per-channel (colour) noise σ, in levels.
        public var chroma: Double?
        public init(kind: String, strength: Double, chroma: Double? = nil) { self.kind = kind; self.strength = strength; self.chroma = chroma }
    }

    public struct File: Codable, Sendable {
        public var scene: Int?
        public var burst: Int?
        public var shot: Int?
        public var source: String?
        public var degradation: Degradation?
        public var has_exif: Bool
        public var has_gps: Bool
        public var orientation: Int
        public var corrupt: Bool
        public var corruption: String?
        public var capture_time: String?
    }

    public var seed: UInt64
    public var mode: String
    /// "mild" or "strong" (`TripGenerator.FaultRange`); absent in trips made before the range existed (strong).
    public var range: String?
    /// JPEG quality the files were written at; absent in trips made before it was an option (90).
    public var quality: Int?
    /// "scene": an under/over frame is that many stops from its scene's exposure; "frame": from its own
    /// handheld exposure (±0.7 EV), as in trips made before the thirteenth session (absent there).
    public var exposureFaults: String?
    public var size: String
    public var scenes: Int
    public var files: [String: File]

    public static func read(_ path: String) throws -> TripLabels {
        try JSONDecoder().decode(TripLabels.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
