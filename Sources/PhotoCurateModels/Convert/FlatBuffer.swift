import Foundation

/// A FlatBuffers table read without generated code: enough to walk a `.tflite` model
/// (its tensors, buffers and operators) once, at install.
///
/// ```swift
/// let model = try FlatBuffer(data).root            // tflite Model
/// let subgraph = try model.tables(2)[0]            // Model.subgraphs
/// let shape = try tensor.ints(0)                   // Tensor.shape
/// ```
/// Every offset is checked against the buffer: a damaged file throws, it never traps.
struct FlatBuffer {
    let bytes: [UInt8]

    init(_ data: Data) { bytes = [UInt8](data) }

    var root: Table {
        get throws { Table(buffer: self, position: try offset(at: 0)) }
    }

    func check(_ position: Int, _ count: Int) throws {
        guard position >= 0, count >= 0, position + count <= bytes.count else {
            throw ModelError.badArchive(path: "tflite", reason: "offset \(position) runs past the end (\(bytes.count) bytes)")
        }
    }

    func u8(_ p: Int) throws -> UInt8 { try check(p, 1); return bytes[p] }
    func u16(_ p: Int) throws -> UInt16 { try check(p, 2); return UInt16(bytes[p]) | UInt16(bytes[p + 1]) << 8 }
    func u32(_ p: Int) throws -> UInt32 {
        try check(p, 4)
        return UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24
    }
    func i32(_ p: Int) throws -> Int32 { Int32(bitPattern: try u32(p)) }
    /// The position a uoffset at `p` points to.
    func offset(at p: Int) throws -> Int { p + Int(try u32(p)) }

    struct Table {
        let buffer: FlatBuffer
        let position: Int

        /// Where field `index` is stored, or nil when the table leaves it at its default.
        func field(_ index: Int) throws -> Int? {
            let vtable = position - Int(try buffer.i32(position))
            let size = Int(try buffer.u16(vtable))
            let slot = 4 + 2 * index
            guard slot + 2 <= size else { return nil }
            let o = Int(try buffer.u16(vtable + slot))
            return o == 0 ? nil : position + o
        }

        func int(_ index: Int, size: Int = 4, default value: Int = 0) throws -> Int {
            guard let p = try field(index) else { return value }
            switch size {
            case 1: return Int(Int8(bitPattern: try buffer.u8(p)))
            case 2: return Int(Int16(bitPattern: try buffer.u16(p)))
            default: return Int(try buffer.i32(p))
            }
        }

        func uint8(_ index: Int, default value: Int = 0) throws -> Int {
            guard let p = try field(index) else { return value }
            return Int(try buffer.u8(p))
        }

        func table(_ index: Int) throws -> Table? {
            guard let p = try field(index) else { return nil }
            return Table(buffer: buffer, position: try buffer.offset(at: p))
        }

        /// A vector's first element position and count.
        func vector(_ index: Int) throws -> (start: Int, count: Int)? {
            guard let p = try field(index) else { return nil }
            let v = try buffer.offset(at: p)
            let n = Int(try buffer.u32(v))
            try buffer.check(v + 4, n)
            return (v + 4, n)
        }

        func tables(_ index: Int) throws -> [Table] {
            guard let (start, n) = try vector(index) else { return [] }
            return try (0..<n).map { Table(buffer: buffer, position: try buffer.offset(at: start + 4 * $0)) }
        }

        func ints(_ index: Int) throws -> [Int] {
            guard let (start, n) = try vector(index) else { return [] }
            return try (0..<n).map { Int(try buffer.i32(start + 4 * $0)) }
        }

        func bytes(_ index: Int) throws -> ArraySlice<UInt8> {
            guard let (start, n) = try vector(index) else { return [] }
            try buffer.check(start, n)
            return buffer.bytes[start..<(start + n)]
        }

        func string(_ index: Int) throws -> String? {
            guard let (start, n) = try vector(index) else { return nil }
            return String(decoding: buffer.bytes[start..<(start + n)], as: UTF8.self)
        }
    }
}
