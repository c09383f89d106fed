import Foundation

/// A float ONNX model rewritten with 8-bit convolutions (QDQ form), at install.
///
/// ```swift
/// let int8 = try OnnxQuantization.quantize(float, ranges: OnnxQuantization.centerFaceRanges)
/// ```
/// Each activation that a `Conv`, `Add` or `Relu` writes (and the graph input) is followed by
/// `QuantizeLinear` → `DequantizeLinear` with the scale its measured range gives (uint8,
/// asymmetric); each `Conv`'s weights are stored as int8, one symmetric scale per output
/// channel, and its bias as int32 at the input's scale times the weight's. ONNX Runtime
/// fuses DQ → Conv → Q into one 8-bit convolution at load. A `Relu` that alone reads a
/// `Conv` is folded into it: its range (from 0) is the convolution's output range. Graph
/// outputs stay float, and so do ops other than these (`ConvTranspose`, `BatchNormalization`,
/// `Sigmoid` read dequantized values). The opset is raised to 13 for per-channel scales
/// (`Conv`, `Relu`, `Add`, `BatchNormalization`, `ConvTranspose` and `Sigmoid` mean the
/// same there as at 9). Same input, same bytes out: the result is checked by its sha256.
public enum OnnxQuantization {
    // ONNX field numbers. ModelProto: ir_version 1, graph 7, opset_import 8 (domain 1, version 2).
    // GraphProto: node 1, initializer 5, input 11, output 12. NodeProto: input 1, output 2, name 3,
    // op_type 4, attribute 5. AttributeProto: name 1, i 3, type 20 (INT 2). TensorProto: dims 1,
    // data_type 2 (FLOAT 1, UINT8 2, INT8 3, INT32 6), float_data 4, name 8, raw_data 9.

    public static func quantize(_ model: Data, ranges: [String: (Float, Float)]) throws -> Data {
        var top = try ProtoMessage(model)
        guard let graphIndex = top.fields.firstIndex(where: { $0.number == 7 }), let graphData = top.bytes(7) else {
            throw ModelError.badArchive(path: "model", reason: "no graph: not an ONNX model")
        }
        let graph = try ProtoMessage(graphData)
        var nodes = try graph.all(1).map { try Node(ProtoMessage($0)) }
        var initializers: [String: ProtoMessage] = [:]
        for d in graph.all(5) { let t = try ProtoMessage(d); if let n = t.string(8) { initializers[n] = t } }
        let outputs = Set(try graph.all(12).compactMap { try ProtoMessage($0).string(1) })
        let inputs = try graph.all(11).compactMap { try ProtoMessage($0).string(1) }.filter { initializers[$0] == nil }

        // A Relu that alone reads a Conv's output is folded into the Conv.
        var readers: [String: Int] = [:]
        for n in nodes { for i in n.inputs { readers[i, default: 0] += 1 } }
        var producer: [String: Int] = [:]
        for (k, n) in nodes.enumerated() { for o in n.outputs { producer[o] = k } }
        var dropped = Set<Int>()
        for (k, n) in nodes.enumerated() where n.op == "Relu" {
            guard let x = n.inputs.first, readers[x] == 1, !outputs.contains(x), let p = producer[x], nodes[p].op == "Conv" else { continue }
            nodes[p].outputs[0] = n.outputs[0]
            dropped.insert(k)
        }
        nodes = nodes.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)

        // The activations quantized, and their uint8 scale and zero point.
        var quantized: [String: (scale: Float, zero: UInt8)] = [:]
        var wanted = inputs
        for n in nodes where ["Conv", "Add", "Relu"].contains(n.op) { wanted += n.outputs.filter { !outputs.contains($0) } }
        for t in wanted {
            guard let (lo, hi) = ranges[t] else { throw ModelError.badArchive(path: "model", reason: "no measured range for tensor \(t)") }
            quantized[t] = activationScale(lo, hi)
        }

        var added: [String: ProtoMessage] = [:]
        var front: [Node] = []
        // Weights and biases of each Conv whose input is quantized.
        for k in nodes.indices where nodes[k].op == "Conv" && nodes[k].inputs.count >= 2 {
            guard let x = quantized[nodes[k].inputs[0]], let w = initializers[nodes[k].inputs[1]] else { continue }
            let wName = nodes[k].inputs[1]
            let (dims, values) = try floats(w, wName)
            guard let m = dims.first, m > 0, values.count % m == 0 else { throw ModelError.badArchive(path: "model", reason: "weight \(wName) has no output channels") }
            let per = values.count / m
            var scales = [Float](repeating: 1, count: m)
            var q = [Int8](repeating: 0, count: values.count)
            for c in 0..<m {
                let slice = values[(c * per)..<((c + 1) * per)]
                let absmax = slice.map(abs).max() ?? 0
                if absmax > 0 { scales[c] = absmax / 127 }
                for i in slice.indices { q[i] = Int8(max(-127, min(127, (values[i] / scales[c]).rounded()))) }
            }
            added[wName + "_q"] = tensor(wName + "_q", dims: dims, type: 3, raw: q.withUnsafeBytes { Data($0) })
            added[wName + "_scale"] = tensor(wName + "_scale", dims: [m], type: 1, raw: scales.withUnsafeBytes { Data($0) })
            added[wName + "_zero"] = tensor(wName + "_zero", dims: [m], type: 3, raw: Data(count: m))
            front.append(Node(op: "DequantizeLinear", name: wName + "_dq", inputs: [wName + "_q", wName + "_scale", wName + "_zero"], outputs: [wName + "_dq"], axis: 0))
            nodes[k].inputs[1] = wName + "_dq"
            if nodes[k].inputs.count >= 3, let b = initializers[nodes[k].inputs[2]] {
                let bName = nodes[k].inputs[2]
                let (bDims, bias) = try floats(b, bName)
                guard bias.count == m else { throw ModelError.badArchive(path: "model", reason: "bias \(bName) has \(bias.count) values for \(m) channels") }
                let bScales = scales.map { $0 * x.scale }
                let bq = zip(bias, bScales).map { Int32(max(-2_147_483_647, min(2_147_483_647, Double($0 / $1).rounded()))) }
                added[bName + "_q"] = tensor(bName + "_q", dims: bDims, type: 6, raw: bq.withUnsafeBytes { Data($0) })
                added[bName + "_scale"] = tensor(bName + "_scale", dims: [m], type: 1, raw: bScales.withUnsafeBytes { Data($0) })
                added[bName + "_zero"] = tensor(bName + "_zero", dims: [m], type: 6, raw: Data(count: 4 * m))
                front.append(Node(op: "DequantizeLinear", name: bName + "_dq", inputs: [bName + "_q", bName + "_scale", bName + "_zero"], outputs: [bName + "_dq"], axis: 0))
                nodes[k].inputs[2] = bName + "_dq"
            }
        }

        // Q → DQ after each quantized activation; its readers take the dequantized copy.
        func pair(_ t: String) -> [Node] {
            let (scale, zero) = quantized[t]!
            added[t + "_act_scale"] = tensor(t + "_act_scale", dims: [], type: 1, raw: withUnsafeBytes(of: scale) { Data($0) })
            added[t + "_act_zero"] = tensor(t + "_act_zero", dims: [], type: 2, raw: Data([zero]))
            return [Node(op: "QuantizeLinear", name: t + "_q", inputs: [t, t + "_act_scale", t + "_act_zero"], outputs: [t + "_q"]),
                    Node(op: "DequantizeLinear", name: t + "_dq", inputs: [t + "_q", t + "_act_scale", t + "_act_zero"], outputs: [t + "_dqa"])]
        }
        var ordered = front
        for t in inputs where quantized[t] != nil { ordered += pair(t) }
        for var n in nodes {
            n.inputs = n.inputs.map { quantized[$0] != nil ? $0 + "_dqa" : $0 }
            ordered.append(n)
            for o in n.outputs where quantized[o] != nil { ordered += pair(o) }
        }

        // The graph: nodes replaced, float weights that only quantized convolutions read dropped.
        let stillRead = Set(ordered.flatMap(\.inputs))
        var fields: [ProtoMessage.Field] = []
        var nodesWritten = false
        for f in graph.fields {
            switch f.number {
            case 1:
                if !nodesWritten { fields += ordered.map { .init(1, .bytes($0.message.data)) }; nodesWritten = true }
            case 5:
                guard case .bytes(let d) = f.value, let name = try ProtoMessage(d).string(8), stillRead.contains(name) else { continue }
                fields.append(f)
            default: fields.append(f)
            }
        }
        if let at = fields.lastIndex(where: { $0.number == 5 }) {
            fields.insert(contentsOf: added.keys.sorted().map { .init(5, .bytes(added[$0]!.data)) }, at: at + 1)
        } else {
            fields += added.keys.sorted().map { .init(5, .bytes(added[$0]!.data)) }
        }
        top.fields[graphIndex] = .init(7, .bytes(ProtoMessage(fields: fields).data))
        // Per-channel DequantizeLinear is opset 13 (IR version 7).
        top.fields = top.fields.map { f in
            if f.number == 1, case .varint(let v) = f.value, v < 7 { return .init(1, .varint(7)) }
            guard f.number == 8, case .bytes(let d) = f.value, let set = try? ProtoMessage(d), (set.string(1) ?? "").isEmpty else { return f }
            return .init(8, .bytes(ProtoMessage(fields: [.init(1, .bytes(Data())), .init(2, .varint(13))]).data))
        }
        return top.data
    }

    /// uint8 scale and zero point for values in lo…hi (the range widened to hold 0).
    static func activationScale(_ lo: Float, _ hi: Float) -> (scale: Float, zero: UInt8) {
        let lo = min(lo, 0), hi = max(hi, 0)
        guard hi > lo else { return (1, 0) }
        let scale = (hi - lo) / 255
        return (scale, UInt8(max(0, min(255, (-lo / scale).rounded()))))
    }

    /// A node as the rewrite needs it; other fields (attributes) are kept as they were.
    struct Node {
        var op: String
        var inputs: [String]
        var outputs: [String]
        var rest: [ProtoMessage.Field]

        init(_ m: ProtoMessage) throws {
            op = m.string(4) ?? ""
            inputs = m.all(1).map { String(decoding: $0, as: UTF8.self) }
            outputs = m.all(2).map { String(decoding: $0, as: UTF8.self) }
            rest = m.fields.filter { $0.number != 1 && $0.number != 2 && $0.number != 4 }
        }

        init(op: String, name: String, inputs: [String], outputs: [String], axis: Int? = nil) {
            self.op = op; self.inputs = inputs; self.outputs = outputs
            rest = [.init(3, .bytes(Data(name.utf8)))]
            if let axis {
                rest.append(.init(5, .bytes(ProtoMessage(fields: [.init(1, .bytes(Data("axis".utf8))), .init(3, .varint(UInt64(axis))), .init(20, .varint(2))]).data)))
            }
        }

        var message: ProtoMessage {
            ProtoMessage(fields: inputs.map { .init(1, .bytes(Data($0.utf8))) } + outputs.map { .init(2, .bytes(Data($0.utf8))) }
                         + [.init(4, .bytes(Data(op.utf8)))] + rest)
        }
    }

    static func tensor(_ name: String, dims: [Int], type: UInt64, raw: Data) -> ProtoMessage {
        ProtoMessage(fields: dims.map { .init(1, .varint(UInt64($0))) } + [.init(2, .varint(type)), .init(8, .bytes(Data(name.utf8))), .init(9, .bytes(raw))])
    }

    /// A float initializer's dims and values (raw_data or float_data, little-endian).
    static func floats(_ t: ProtoMessage, _ name: String) throws -> (dims: [Int], values: [Float]) {
        let dims = try t.varints(1).map { Int($0) }
        let type = try t.varints(2).last ?? 1
        guard type == 1 else { throw ModelError.badArchive(path: "model", reason: "weight \(name) is not float (type \(type))") }
        let data = t.bytes(9) ?? t.bytes(4) ?? Data()
        let count = dims.reduce(1, *)
        guard data.count == 4 * count else { throw ModelError.badArchive(path: "model", reason: "weight \(name) holds \(data.count) bytes for \(count) floats") }
        let values = data.withUnsafeBytes { raw in (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) } }
        return (dims, values)
    }
}
