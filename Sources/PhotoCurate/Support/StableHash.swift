import Foundation

/// A 64-bit, platform-independent hash (FNV-1a over bytes, finished with a
/// SplitMix64 avalanche). Used for cache keys and content identity, so it must
/// never depend on Swift's per-process seeded `Hasher`.
///
/// ```swift
/// var h = StableHash(); h.combine("sharpness=0.5"); let key = h.hex
/// ```
public struct StableHash: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x85EB_CA77_C2B2_AE63)
    private var count: UInt64 = 0

    public init() {}

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        // Four independent multiply-xorshift lanes over 8-byte words keep the
        // whole-file hash close to memory bandwidth; the tail goes through FNV.
        var i = 0
        let n = bytes.count
        while i + 32 <= n {
            let a = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            let c = bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
            let d = bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
            lanes.0 = StableHash.round(lanes.0, a)
            lanes.1 = StableHash.round(lanes.1, b)
            lanes.2 = StableHash.round(lanes.2, c)
            lanes.3 = StableHash.round(lanes.3, d)
            i += 32
        }
        while i < n {
            state = (state ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        count &+= UInt64(n)
    }

    public mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine($0) } }
    public mutating func combine(_ s: String) { combine(Array(s.utf8)); combine([0]) }
    public mutating func combine(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { combine($0) } }

    @inline(__always)
    private static func round(_ acc: UInt64, _ x: UInt64) -> UInt64 {
        var a = acc &+ x &* 0xC2B2_AE3D_27D4_EB4F
        a = (a << 31) | (a >> 33)
        return a &* 0x9E37_79B9_7F4A_7C15
    }

    @inline(__always)
    private static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public var value: UInt64 {
        var z = state ^ count
        z = StableHash.mix(z ^ lanes.0)
        z = StableHash.mix(z ^ lanes.1)
        z = StableHash.mix(z ^ lanes.2)
        z = StableHash.mix(z ^ lanes.3)
        return z
    }

    public var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Hash of a whole file, read in 1 MiB chunks so memory stays flat.
    public static func file(at path: String) throws -> String {
        guard let fh = RawPath.reading(path) else {
            // The system's reason (permission denied, no such file…), read before anything resets errno.
            throw PhotoError.unreadable(path: path, reason: "cannot open for reading: \(String(cString: strerror(errno)).lowercased())")
        }
        defer { try? fh.close() }
        var h = StableHash()
        while true {
            let chunk = try fh.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { h.combine($0) }
        }
        return h.hex
    }
}
