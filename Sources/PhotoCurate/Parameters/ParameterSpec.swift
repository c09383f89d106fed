import Foundation

/// One declared, tunable parameter of a stage or analyzer: name, meaning,
/// default and allowed range, declared once. The CLI, the pipeline files, the
/// docs and the cache keys all come from these declarations.
///
/// ```swift
/// static let parameters = [
///     ParameterSpec("threshold", 0.75, in: 0...1, "cosine similarity that makes two photos one visual group"),
/// ]
/// ```
public struct ParameterSpec: Sendable, Equatable {
    public let name: String
    public let defaultValue: Double
    public let range: ClosedRange<Double>
    public let doc: String
    /// Whole numbers only (counts, sizes).
    public let integer: Bool

    public init(_ name: String, _ defaultValue: Double, in range: ClosedRange<Double>, integer: Bool = false, _ doc: String) {
        precondition(range.contains(defaultValue), "default of \(name) outside its range")
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.doc = doc
        self.integer = integer
    }

    public var rangeText: String {
        integer ? "\(Int(range.lowerBound))…\(Int(range.upperBound))" : "\(Self.format(range.lowerBound))…\(Self.format(range.upperBound))"
    }

    public static func formatted(_ v: Double) -> String { format(v) }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// Values for a set of declared parameters; every lookup is of a declared name.
public struct Parameters: Sendable, Equatable {
    public let specs: [ParameterSpec]
    private var values: [String: Double]

    public init(_ specs: [ParameterSpec], overrides: [String: Double] = [:]) throws {
        self.specs = specs
        self.values = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0.defaultValue) })
        for (k, v) in overrides { try set(k, v) }
    }

    public mutating func set(_ name: String, _ value: Double) throws {
        guard let spec = specs.first(where: { $0.name == name }) else {
            throw ParameterError.unknown(name: name, allowed: specs.map(\.name))
        }
        guard spec.range.contains(value), !spec.integer || value == value.rounded() else {
            throw ParameterError.outOfRange(name: name, value: value, allowed: spec.rangeText)
        }
        values[name] = value
    }

    public subscript(_ name: String) -> Double {
        guard let v = values[name] else { preconditionFailure("undeclared parameter \(name)") }
        return v
    }

    public func int(_ name: String) -> Int { Int(self[name]) }

    /// Sorted "name=value" pairs; the input of the cache's parameter hash.
    public var canonical: String {
        specs.map(\.name).sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: ";")
    }

    public var hash: String {
        var h = StableHash()
        h.combine(canonical)
        return h.hex
    }

    public var dictionary: [String: Double] { values }
}

public enum ParameterError: Error, CustomStringConvertible, Equatable {
    case unknown(name: String, allowed: [String])
    case outOfRange(name: String, value: Double, allowed: String)

    public var description: String {
        switch self {
        case .unknown(let n, let allowed): return "unknown parameter '\(n)'; allowed: \(allowed.sorted().joined(separator: ", "))"
        case .outOfRange(let n, let v, let allowed): return "parameter '\(n)' = \(ParameterSpec.format(v)) is outside its range \(allowed)"
        }
    }
}
