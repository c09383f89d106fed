import Foundation

/// A per-photo analysis over the decoded `AnalysisImage`, cached by
/// (id, version, parameter hash).
///
/// ```swift
/// struct MyAnalyzer: Analyzer {
///     static let id = "quality"; static let version = 1
///     static let parameterSpecs = [ParameterSpec("tiles", 6, in: 2...16, integer: true, "grid size")]
///     ...
/// }
/// ```
/// Bump `version` whenever the output for the same image and parameters changes.
public protocol Analyzer: Sendable {
    associatedtype Output: Codable & Sendable
    static var id: String { get }
    static var version: Int { get }
    static var parameterSpecs: [ParameterSpec] { get }
    var parameters: Parameters { get }
    /// What else decides the output besides the parameters and the image: the
    /// models an analyzer runs (ids and sha256), or "" for none. Part of the cache key.
    var fingerprint: String { get }
    init(parameters: Parameters)
    func analyze(_ image: AnalysisImage) -> Output
}

extension Analyzer {
    public init() { try! self.init(parameters: Parameters(Self.parameterSpecs)) }

    public var fingerprint: String { "" }

    /// The cache key; `upstream` is the hash of what produced the input image (decode size).
    public func key(upstream: String) -> ResultKey {
        var h = StableHash()
        h.combine(parameters.canonical)
        h.combine(upstream)
        // Only analyzers that run models have a fingerprint; the others keep their keys.
        if !fingerprint.isEmpty { h.combine(fingerprint) }
        return ResultKey(analyzer: Self.id, version: Self.version, parametersHash: h.hex)
    }
}
