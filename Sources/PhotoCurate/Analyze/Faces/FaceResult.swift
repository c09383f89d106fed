import Foundation

/// What face analysis finds in one photo (`FaceAnalyzer` in PhotoCurateFaces runs the
/// models; selection reads this). Declared in the core so selection can weigh faces
/// without depending on the model runtime.
///
/// ```swift
/// let r = try JSONDecoder().decode(FaceResult.self, from: record.results["faces"]!)
/// r.faces.filter { $0.eyes == .closed }.count
/// ```
public struct FaceResult: Codable, Sendable, Equatable {
    public var faces: [Face]
    /// Why there are no faces to trust (the model is missing), or nil.
    public var note: String?
    /// Degrees clockwise (90, 180, 270) that show the photo upright, when it is stored
    /// on its side without saying so; the faces are then in the turned frame.
    public var suggestedRotation: Int?
    public init(faces: [Face], note: String?, suggestedRotation: Int? = nil) {
        self.faces = faces; self.note = note; self.suggestedRotation = suggestedRotation
    }
}

/// One face, in fractions of the upright frame.
public struct Face: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case open, closed, unknown }
    public enum Smile: String, Codable, Sendable { case yes, no, unknown }

    /// x, y, width, height.
    public var box: [Double]
    public var confidence: Double
    /// Eyes (right, left from the viewer's side as CenterFace orders them), nose, mouth corners: x, y pairs.
    public var landmarks: [Double]
    /// sqrt(box area / frame area): 0.1 is a face a tenth of the frame's size.
    public var size: Double?
    /// Degrees; yaw 0 is frontal, roll 0 is upright.
    public var yaw: Double?
    public var roll: Double?
    /// Both eyes open, either closed, or not readable (small, turned away, no mesh model).
    public var eyes: State?
    /// 0–1: how far the openness is from the threshold it passed.
    public var eyesConfidence: Double?
    public var smile: Smile?
    /// Detail on the face itself (Laplacian over gradient on the analysis image; compare within a burst).
    public var sharpness: Double?
    /// The mesh's raw measures, so a verdict can be checked and thresholds tuned.
    public var mesh: MeshMeasures?
    /// dlib's 128-d descriptor (4 decimals): the same person within 0.6 (Euclidean) across photos.
    public var embedding: [Double]?

    public struct MeshMeasures: Codable, Sendable, Equatable {
        public var presence: Double
        /// Lid gap / eye width, the subject's right eye then left.
        public var eyeOpenness: [Double]
        public var mouthWidth: Double
        public var cornerLift: Double
        public var mouthOpen: Double
        /// Lid gap / iris diameter per eye (right, left), from the iris model.
        public var eyeIris: [Double]?
        /// Eye widths in analysis-image pixels (right, left).
        public var eyeWidth: [Double]?
        /// Eye corners and mid-lids, mouth corners and lips, nose tip: x, y pairs in fractions of the frame.
        public var points: [Double]

        public init(presence: Double, eyeOpenness: [Double], mouthWidth: Double, cornerLift: Double, mouthOpen: Double,
                    eyeIris: [Double]?, eyeWidth: [Double]?, points: [Double]) {
            self.presence = presence; self.eyeOpenness = eyeOpenness; self.mouthWidth = mouthWidth; self.cornerLift = cornerLift
            self.mouthOpen = mouthOpen; self.eyeIris = eyeIris; self.eyeWidth = eyeWidth; self.points = points
        }
    }

    public init(box: [Double], confidence: Double, landmarks: [Double]) {
        self.box = box; self.confidence = confidence; self.landmarks = landmarks
    }
}
