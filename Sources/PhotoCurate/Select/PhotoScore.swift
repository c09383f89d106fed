import Foundation

/// The score selection ranks by. `overall` is weighted by the photo's type.
public struct PhotoScore: Codable, Sendable, Equatable {
    /// `quality.overall` × the factors for blur and exposure relative to the visual group (1 for a photo alone).
    public var technical: Double
    /// Face quality (`FaceQualityScore.score`; 0.5 for a photo without main faces); `nil` when
    /// faces were not analysed (then counted as a neutral 0.5).
    public var faces: Double?
    /// The people in it: count, eyes, expressions, sizes; `nil` when faces were not analysed.
    public var faceQuality: FaceQualityScore?
    public var context: Double
    public var overall: Double
    /// Technical quality divided by the best in the photo's visual group (1 = best of its burst).
    public var relative: Double
    public var type: PhotoType
    /// Extra blur (px σ at the analysis scale) against the comparable photos of its
    /// visual group; `nil` for a photo with no comparable sibling.
    public var blurVsGroup: Double?
    /// Stops from the exposure its visual group agrees on (+ brighter); `nil` for a photo alone,
    /// or the better exposed of a pair.
    public var exposureVsGroup: Double?
    /// Extra per-pixel grain σ at 100 % (levels) over the median of its visual group; `nil`
    /// without native detail (not a JPEG) or a comparable sibling.
    public var grainVsGroup: Double?
    /// Blur along one orientation beyond across it, in excess of its visual group's (px² at the
    /// analysis scale; `GroupSmear`); `nil` with fewer than two comparable siblings.
    public var smearVsGroup: Double? = nil
}

/// What kind of photo it is, which sets the weights of `PhotoScore.overall`.
public enum PhotoType: String, Codable, Sendable, CaseIterable {
    case landscape, portrait, multipleFaces

    /// (technical, faces, context)
    public var weights: (Double, Double, Double) {
        switch self {
        case .multipleFaces: return (0.3, 0.5, 0.2)
        case .landscape: return (0.5, 0.1, 0.4)
        case .portrait: return (0.4, 0.4, 0.2)
        }
    }
}
