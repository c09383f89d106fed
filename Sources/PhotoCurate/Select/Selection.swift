import Foundation

/// The outcome of selection: scores, picks with reasons, and recommendations.
public struct Selection: Codable, Sendable {
    public var scores: [PhotoScore]
    /// Indices of the picks, best first (the `--top N` answer).
    public var picks: [Int]
    /// Per photo: why it was picked, or what beat it.
    public var reasons: [[String]]
    /// Per visual group (in `Clustering.clusters` order): its best photo by `PhotoScore.technical`.
    public var bestOfGroup: [Int]
    public var recommendations: Recommendations
    /// People found across the trip (faces with descriptors), most photographed first.
    public var people: [Person] = []
}

/// Ready-made lists for other tools, all as photo indices.
public struct Recommendations: Codable, Sendable {
    public var overall: [Int]
    public var diverse: [Int]
    public var byTime: [String: [Int]]
    public var byLocation: [String: [Int]]
    public var byPerson: [String: [Int]]
}
