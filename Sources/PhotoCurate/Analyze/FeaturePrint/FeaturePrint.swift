import Foundation

/// A fixed-length, L2-normalised descriptor of a photo's content; cosine
/// similarity (a dot product) measures how alike two photos look.
public struct FeaturePrint: Codable, Sendable, Equatable {
    public var vector: [Float]

    public init(vector: [Float]) { self.vector = vector }

    public func cosine(_ other: FeaturePrint) -> Float {
        precondition(vector.count == other.vector.count, "feature prints of different versions")
        var s: Float = 0
        for i in 0..<vector.count { s += vector[i] * other.vector[i] }
        return s
    }
}
