import Foundation

/// A protocol-buffer message as a list of fields, read and written back without a
/// schema: enough to edit an ONNX model's graph (its inputs and their shapes) once,
/// at install.
///
/// ```swift
/// var model = try ProtoMessage(data)
/// let graph = try ProtoMessage(model.bytes(7)!)   // ModelProto.graph
/// ```
/// Fields keep their order and their bytes; only what is replaced changes.
public struct ProtoMessage: Equatable {
    public enum Value: Equatable {
        case varint(UInt64)
        case fixed64(Data)
        case bytes(Data)
        case fixed32(Data)
    }
    public struct Field: Equatable {
        public var number: Int
        public var value: Value
        public init(_ number: Int, _ value: Value) { self.number = number; self.value = value }
    }

    public var fields: [Field]

    public init(fields: [Field] = []) { self.fields = fields }

    public init(_ data: Data) throws {
        var fields: [Field] = []
        let b = [UInt8](data)
        var i = 0
        func varint() throws -> UInt64 { try Self.varint(b, &i) }
        func take(_ n: Int) throws -> Data {
            guard n >= 0, i + n <= b.count else { throw ModelError.badArchive(path: "protobuf", reason: "field runs past the end") }
            defer { i += n }
            return Data(b[i..<(i + n)])
        }
        while i < b.count {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append(Field(number, .varint(try varint())))
            case 1: fields.append(Field(number, .fixed64(try take(8))))
            case 2: fields.append(Field(number, .bytes(try take(Int(try varint())))))
            case 5: fields.append(Field(number, .fixed32(try take(4))))
            default: throw ModelError.badArchive(path: "protobuf", reason: "wire type \(key & 7) is not supported")
            }
        }
        self.fields = fields
    }

    public func bytes(_ number: Int) -> Data? {
        for f in fields where f.number == number { if case .bytes(let d) = f.value { return d } }
        return nil
    }

    public func all(_ number: Int) -> [Data] {
        fields.compactMap { f in
            guard f.number == number, case .bytes(let d) = f.value else { return nil }
            return d
        }
    }

    public func string(_ number: Int) -> String? { bytes(number).map { String(decoding: $0, as: UTF8.self) } }

    /// Every value of a repeated integer field, written one by one or packed.
    public func varints(_ number: Int) throws -> [UInt64] {
        var out: [UInt64] = []
        for f in fields where f.number == number {
            switch f.value {
            case .varint(let v): out.append(v)
            case .bytes(let packed):
                let b = [UInt8](packed)
                var i = 0
                while i < b.count { out.append(try Self.varint(b, &i)) }
            default: break
            }
        }
        return out
    }

    /// The varint at `b[i]`, `i` moved past it.
    static func varint(_ b: [UInt8], _ i: inout Int) throws -> UInt64 {
        var r: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard i < b.count, shift < 64 else { throw ModelError.badArchive(path: "protobuf", reason: "truncated varint") }
            let c = b[i]; i += 1
            r |= UInt64(c & 0x7f) << shift
            if c < 0x80 { return r }
            shift += 7
        }
    }

    public var data: Data {
        var out = Data()
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        for f in fields {
            switch f.value {
            case .varint(let v): varint(UInt64(f.number) << 3); varint(v)
            case .fixed64(let d): varint(UInt64(f.number) << 3 | 1); out.append(d)
            case .bytes(let d): varint(UInt64(f.number) << 3 | 2); varint(UInt64(d.count)); out.append(d)
            case .fixed32(let d): varint(UInt64(f.number) << 3 | 5); out.append(d)
            }
        }
        return out
    }
}
