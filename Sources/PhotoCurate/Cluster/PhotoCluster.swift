import Foundation

/// A visual group: a burst or a set of near-duplicates of one scene.
public struct PhotoCluster: Codable, Sendable, Equatable {
    public var id: Int
    /// Indices into the run's photo list, sorted.
    public var photos: [Int]
    /// The member most similar to the others (medoid).
    public var representative: Int
    /// Highest technical quality; ties to the first path.
    public var best: Int
    public var moment: Int
    public var medianTime: String?
    public var latitude: Double?
    public var longitude: Double?
}

/// A moment: photos close in time (and place, when known).
public struct Moment: Codable, Sendable, Equatable {
    public var id: Int
    public var photos: [Int]
    public var start: String?
    public var end: String?
    public var latitude: Double?
    public var longitude: Double?
}

/// The output of clustering, per photo and per group.
public struct Clustering: Codable, Sendable {
    public var moments: [Moment]
    public var clusters: [PhotoCluster]
    /// Per photo (same indexing as the input): moment id and visual group id.
    public var momentOf: [Int]
    public var clusterOf: [Int]
    /// Photos found stored on their side without saying so (`ClusterStage`'s `sidewaysSimilarity`):
    /// photo index → degrees clockwise that show it upright, as its group looks.
    public var sideways: [Int: Int] = [:]
}
