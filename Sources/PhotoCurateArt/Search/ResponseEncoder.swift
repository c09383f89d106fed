import Foundation

/// Encodes `SearchResponse` as JSON fast, by reusing each artwork's encoded record and analysis.
///
/// ```swift
/// let encoder = ResponseEncoder()
/// let data = encoder.encode(response)   // the same bytes as JSONEncoder with sorted keys, without escaped slashes
/// ```
/// An artwork's record and analysis are most of a response and never change
/// while a library is served; encoding them on every search cost more than the
/// search itself (300 req/s at 50 connections). They are encoded once, and each
/// response splices them in around the small per-search parts.
public final class ResponseEncoder: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String: [UInt8]] = [:]

    public init() {}

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    struct Envelope: Encodable { let count: Int; let criteria: SearchCriteria; let message: String?; let success: Bool; let total: Int }
    struct Heavy: Encodable { let analysis: ArtAnalysis?; let artwork: Artwork }

    /// `"analysis":{…},"artwork":{…},` for one result, cached per artwork id.
    func heavy(_ r: MatchResult, _ e: JSONEncoder) throws -> [UInt8] {
        if let p = lock.withLock({ parts[r.artworkId] }) { return p }
        let whole = Array(try e.encode(Heavy(analysis: r.analysis, artwork: r.artwork)))
        // Drop the braces and add the separator: the light part's keys sort after these two.
        var p = Array(whole.dropFirst().dropLast())
        p.append(UInt8(ascii: ","))
        lock.withLock { parts[r.artworkId] = p }
        return p
    }

    /// A JSON string as JSONEncoder writes it without escaped slashes.
    static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [92, 34]
            case 92: out += [92, 92]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 8: out += [92, UInt8(ascii: "b")]
            case 12: out += [92, UInt8(ascii: "f")]
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A number as JSONEncoder writes it: whole numbers without ".0".
    static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    public func encode(_ response: SearchResponse) throws -> Data {
        let e = Self.encoder()
        var results: [UInt8] = Array(#","results":["#.utf8)
        for (k, r) in response.results.enumerated() {
            if k > 0 { results.append(UInt8(ascii: ",")) }
            results.append(UInt8(ascii: "{"))
            results += try heavy(r, e)
            // The small per-search part, written directly (JSONEncoder's bytes; a third of the cost when encoded).
            results += Array(#""artworkId":"#.utf8); Self.string(r.artworkId, into: &results)
            results += Array(#","confidence":"#.utf8); Self.string(r.confidence, into: &results)
            results += Array(#","reasons":["#.utf8)
            for (j, reason) in r.reasons.enumerated() {
                if j > 0 { results.append(UInt8(ascii: ",")) }
                Self.string(reason, into: &results)
            }
            results += Array(#"],"score":"#.utf8); results += Array(Self.number(r.score).utf8)
            results.append(UInt8(ascii: "}"))
        }
        results.append(UInt8(ascii: "]"))
        let env = Array(try e.encode(Envelope(count: response.count, criteria: response.criteria, message: response.message,
                                              success: response.success, total: response.total)))
        // Keys are sorted: results goes just before the top level's "success" (the envelope's last keys, so the last match).
        let key = Array(#","success":"#.utf8)
        var at = env.count - key.count
        while at >= 0 && Array(env[at..<(at + key.count)]) != key { at -= 1 }
        guard at >= 0 else { return try e.encode(response) }
        return Data(env[..<at] + results + env[at...])
    }
}
