/// What a cached result is stored under, besides the photo's content hash:
/// the analyzer that made it, its version and the hash of its parameters.
/// Change any of the three and the old result is simply not found.
public struct ResultKey: Hashable, Sendable, CustomStringConvertible {
    public let analyzer: String
    public let version: Int
    public let parametersHash: String

    public init(analyzer: String, version: Int, parametersHash: String) {
        self.analyzer = analyzer
        self.version = version
        self.parametersHash = parametersHash
    }

    public var description: String { "\(analyzer)@\(version)#\(parametersHash.prefix(8))" }
}
