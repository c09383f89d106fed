import Foundation

/// A safetensors file: a little-endian u64 header length, a JSON header naming each
/// tensor's dtype, shape and byte range, then the raw data.
///
/// ```swift
/// let st = try SafeTensors(path: "model.safetensors")
/// let w = try st.floats("encoder.layer.0.attention.self.query.weight", shape: [384, 384])
/// ```
/// Every range is checked against the file before it is read, so a truncated or
/// hostile file is an error that names the file and the tensor, never a crash.
public struct SafeTensors {
    public struct Tensor: Equatable, Sendable {
        public var dtype: String
        public var shape: [Int]
        public var range: Range<Int>
    }

    public let path: String
    public let tensors: [String: Tensor]
    let data: Data
    let base: Int

    public init(path: String) throws {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw ModelError.io(path: path, reason: "cannot be read")
        }
        try self.init(data: data, path: path)
    }

    public init(data: Data, path: String = "safetensors") throws {
        self.path = path
        self.data = data
        func bad(_ why: String) -> ModelError { .badArchive(path: path, reason: "not a safetensors file: \(why)") }
        guard data.count >= 8 else { throw bad("shorter than its 8-byte header length") }
        let n = data.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard n >= 2, n <= 100_000_000, Int(n) <= data.count - 8 else { throw bad("header length \(n) does not fit a \(data.count)-byte file") }
        base = 8 + Int(n)
        guard let json = try? JSONSerialization.jsonObject(with: data.subdata(in: 8..<base)) as? [String: Any] else { throw bad("its header is not a JSON object") }
        var tensors: [String: Tensor] = [:]
        for (name, value) in json where name != "__metadata__" {
            guard let t = value as? [String: Any], let dtype = t["dtype"] as? String, let shape = t["shape"] as? [Int],
                  let offsets = t["data_offsets"] as? [Int], offsets.count == 2 else { throw bad("tensor \(name) has no dtype, shape or data_offsets") }
            let (a, b) = (offsets[0], offsets[1])
            guard a >= 0, a <= b, b <= data.count - base, shape.allSatisfy({ $0 >= 0 }) else { throw bad("tensor \(name)'s bytes \(a)..<\(b) lie outside the file") }
            tensors[name] = Tensor(dtype: dtype, shape: shape, range: a..<b)
        }
        self.tensors = tensors
    }

    /// The tensor's values, checked to be float32 of exactly this shape.
    public func floats(_ name: String, shape: [Int]) throws -> [Float] {
        guard let t = tensors[name] else { throw ModelError.badArchive(path: path, reason: "no tensor \(name)") }
        guard t.dtype == "F32" else { throw ModelError.badArchive(path: path, reason: "tensor \(name) is \(t.dtype), not F32") }
        guard t.shape == shape else { throw ModelError.badArchive(path: path, reason: "tensor \(name) has shape \(t.shape), not \(shape)") }
        let count = shape.reduce(1, *)
        guard t.range.count == count * 4 else { throw ModelError.badArchive(path: path, reason: "tensor \(name) holds \(t.range.count) bytes for \(count) floats") }
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBytes { dst in
            data.withUnsafeBytes { src in
                dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[(base + t.range.lowerBound)..<(base + t.range.upperBound)]))
            }
        }
        // safetensors is little-endian, as is every machine Swift on Linux runs on.
        return out
    }

    /// Writes a safetensors file of float32 tensors (for tests and conversions).
    public static func encode(_ tensors: [(name: String, shape: [Int], values: [Float])]) -> Data {
        var header: [String: Any] = [:], body = Data(), offset = 0
        for t in tensors {
            let bytes = t.values.withUnsafeBytes { Data($0) }
            header[t.name] = ["dtype": "F32", "shape": t.shape, "data_offsets": [offset, offset + bytes.count]]
            body.append(bytes); offset += bytes.count
        }
        var json = try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        while json.count % 8 != 0 { json.append(0x20) }
        var out = Data((0..<8).map { UInt8(truncatingIfNeeded: UInt64(json.count) >> (8 * UInt64($0))) })
        out.append(json); out.append(body)
        return out
    }
}
