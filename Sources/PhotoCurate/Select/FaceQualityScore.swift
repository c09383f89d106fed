import Foundation

/// How good the people in a photo look: eyes, expression, size and pose of its main
/// faces. It sets the photo's type (portrait, multipleFaces, landscape) and the faces
/// part of `PhotoScore.overall`.
///
/// ```swift
/// let q = FaceQualityScore(faces: result.faces, mainSize: 0.05)
/// q.faceCount      // 3 main faces (background faces under 5 % of the frame do not count)
/// q.eyesOpen       // false: someone's eyes are closed
/// q.type           // .multipleFaces
/// ```
public struct FaceQualityScore: Codable, Sendable, Equatable {
    /// Main faces: at least `mainSize` of the frame (sqrt of box area over frame area).
    public var faceCount: Int
    /// Mean of the main faces' own scores, 0–1 (0 with no main face).
    public var averageScore: Double
    /// No main face has its eyes closed.
    public var eyesOpen: Bool
    /// Main faces that smile.
    public var goodExpressions: Int
    /// Main faces between 8 % and 45 % of the frame: big enough to see, not cut by the frame.
    public var optimalSizes: Int
    /// Main faces whose eyes are closed, and whose eyes could be read at all.
    public var eyesClosed: Int
    public var eyesRead: Int
    /// 0–1: `averageScore`, halved when anyone's eyes are closed.
    public var score: Double

    public var type: PhotoType { faceCount == 0 ? .landscape : faceCount == 1 ? .portrait : .multipleFaces }

    public init(faces all: [Face], mainSize: Double) {
        let faces = Self.main(all, mainSize: mainSize)
        faceCount = faces.count
        let scores = faces.map(Self.faceScore)
        averageScore = scores.isEmpty ? 0 : r4(scores.reduce(0, +) / Double(scores.count))
        eyesClosed = faces.filter { $0.eyes == .closed }.count
        eyesRead = faces.filter { $0.eyes == .open || $0.eyes == .closed }.count
        eyesOpen = eyesClosed == 0
        goodExpressions = faces.filter { $0.smile == .yes }.count
        optimalSizes = faces.filter { (0.08...0.45).contains($0.size ?? 0) }.count
        score = r4(averageScore * (eyesOpen ? 1 : 0.5))
    }

    /// The faces that make the photo a photo of people.
    public static func main(_ faces: [Face], mainSize: Double) -> [Face] {
        faces.filter { ($0.size ?? sqrt($0.box[2] * $0.box[3])) >= mainSize }
    }

    /// One face, 0–1: eyes × expression × size × pose.
    public static func faceScore(_ f: Face) -> Double {
        let eyes: Double = f.eyes == .open ? 1 : f.eyes == .closed ? 0.2 : 0.75
        let smile: Double = f.smile == .yes ? 1 : f.smile == .no ? 0.85 : 0.8
        let s = f.size ?? 0
        let size = s < 0.08 ? max(0.4, s / 0.08) : s > 0.45 ? 0.85 : 1
        let pose = max(0.4, cos((f.yaw ?? 0) * .pi / 180))
        return eyes * smile * size * pose
    }
}

@inline(__always) private func r4(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }
