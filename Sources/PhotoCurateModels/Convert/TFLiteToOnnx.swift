import Foundation

/// Rewrites a small convolutional `.tflite` model as an ONNX model, once, at install,
/// so the one runtime photocurate ships (ONNX Runtime) runs it.
///
/// ```swift
/// let onnx = try TFLiteToOnnx.convert(tfliteBytes)   // MediaPipe's face_landmark.tflite
/// ```
/// It knows the operators of MediaPipe's face-landmark network: CONV_2D,
/// DEPTHWISE_CONV_2D, PRELU, ADD, MAX_POOL_2D, PAD, RESHAPE (of 1×1 maps) and DEQUANTIZE
/// (float16 weights become float32 initializers), which its iris model uses too.
/// TFLite computes in NHWC, the ONNX graph in NCHW: the model's image input becomes
/// 1×3×H×W and each output 1×C×H×W (same values, same order, when H = W = 1). Any other operator is refused by name.
/// (The Python converter `tflite2onnx` crashes on this model's PReLU.)
enum TFLiteToOnnx {
    // TFLite builtin operator codes.
    static let add = 0, conv = 3, depthwise = 4, dequantize = 6, maxPool = 17, reshape = 22, pad = 34, prelu = 54

    struct Constant { var shape: [Int]; var values: [Float] }

    static func convert(_ data: Data) throws -> Data {
        let fb = FlatBuffer(data)
        let model = try fb.root
        let codes = try model.tables(1).map { max(try $0.int(0, size: 1), try $0.int(3)) }
        let buffers = try model.tables(4)
        guard let graph = try model.tables(2).first else { throw bad("the model has no subgraph") }
        let tensors = try graph.tables(0)
        let shapes = try tensors.map { try $0.ints(0) }

        // Constants: tensors whose buffer holds data (float32 or float16).
        var constants: [Int: Constant] = [:]
        for (i, t) in tensors.enumerated() {
            let b = try t.int(2)
            guard b > 0, b < buffers.count else { continue }
            let raw = try buffers[b].bytes(0)
            guard !raw.isEmpty else { continue }
            switch try t.uint8(1) {
            case 0: constants[i] = Constant(shape: shapes[i], values: floats32(raw))
            case 1: constants[i] = Constant(shape: shapes[i], values: floats16(raw))
            case 2: constants[i] = Constant(shape: shapes[i], values: try int32s(raw).map(Float.init))
            default: continue
            }
        }

        var g = OnnxGraph()
        func name(_ i: Int) -> String { "t\(i)" }
        func nchw(_ s: [Int]) -> [Int] { s.count == 4 ? [s[0], s[3], s[1], s[2]] : s }

        for (k, op) in try graph.tables(3).enumerated() {
            let code = codes[try op.int(0)]
            let ins = try op.ints(1), outs = try op.ints(2)
            let options = try op.table(4)
            guard let out = outs.first else { throw bad("operator \(k) has no output") }
            func const(_ j: Int) throws -> Constant {
                guard j < ins.count, ins[j] >= 0, let c = constants[ins[j]] else { throw bad("operator \(k): input \(j) is not a constant") }
                return c
            }
            // A fused activation: the operator writes `<out>_pre`, then Relu or Clip writes `out`.
            func fused(_ index: Int) throws -> Int {
                let f = try options?.int(index, size: 1) ?? 0
                guard f == 0 || f == 1 || f == 3 else { throw bad("operator \(k): fused activation \(f) is not supported") }
                return f
            }
            func target(_ f: Int) -> String { f == 0 ? name(out) : name(out) + "_pre" }
            func finish(_ f: Int) {
                if f == 1 { g.node("Relu", [target(f)], [name(out)]) }
                if f == 3 { g.node("Clip", [target(f), g.scalar(0), g.scalar(6)], [name(out)]) }
            }
            switch code {
            case dequantize:
                guard let c = constants[ins[0]] else { throw bad("operator \(k): DEQUANTIZE of a non-constant") }
                constants[out] = c
            case conv, depthwise:
                let w = try const(1)
                guard w.shape.count == 4, shapes[ins[0]].count == 4 else { throw bad("operator \(k): a convolution needs 4-D shapes") }
                let (o, kh, kw, i) = (w.shape[0], w.shape[1], w.shape[2], w.shape[3])
                var weights = [Float](repeating: 0, count: w.values.count)
                // OHWI → OIHW; a depthwise 1×H×W×C filter becomes C×1×H×W.
                let (outC, inC) = code == conv ? (o, i) : (i, 1)
                for a in 0..<outC {
                    for b in 0..<inC {
                        for y in 0..<kh {
                            for x in 0..<kw {
                                let src = code == conv ? ((a * kh + y) * kw + x) * i + b : (y * kw + x) * i + a
                                weights[((a * inC + b) * kh + y) * kw + x] = w.values[src]
                            }
                        }
                    }
                }
                let strideW = try options?.int(1) ?? 1, strideH = try options?.int(2) ?? 1
                let dilW = try options?.int(code == conv ? 4 : 5, default: 1) ?? 1, dilH = try options?.int(code == conv ? 5 : 6, default: 1) ?? 1
                let same = try options?.int(0, size: 1) == 0
                let input = shapes[ins[0]]
                let pads = same ? samePads(input[1], input[2], kh, kw, strideH, strideW, dilH, dilW) : [0, 0, 0, 0]
                var inputs = [name(ins[0]), g.initializer([outC, inC, kh, kw], weights)]
                if ins.count > 2, ins[2] >= 0, let bias = constants[ins[2]] { inputs.append(g.initializer([bias.values.count], bias.values)) }
                let f = try fused(code == conv ? 3 : 4)
                g.node("Conv", inputs, [target(f)], [
                    .ints("kernel_shape", [kh, kw]), .ints("strides", [strideH, strideW]),
                    .ints("dilations", [dilH, dilW]), .ints("pads", pads),
                    .int("group", code == conv ? 1 : input[3]),
                ])
                finish(f)
            case prelu:
                let a = try const(1)
                g.node("PRelu", [name(ins[0]), g.initializer([a.values.count, 1, 1], a.values)], [name(out)])
            case add:
                let f = try fused(0)
                var operands: [String] = []
                for j in ins { operands.append(constants[j].map { g.initializer(nchw($0.shape), $0.values) } ?? name(j)) }
                g.node("Add", operands, [target(f)])
                finish(f)
            case maxPool:
                guard let options else { throw bad("operator \(k): MAX_POOL_2D without options") }
                let sw = try options.int(1), sh = try options.int(2), fw = try options.int(3), fh = try options.int(4)
                let input = shapes[ins[0]]
                let pads = try options.int(0, size: 1) == 0 ? samePads(input[1], input[2], fh, fw, sh, sw, 1, 1) : [0, 0, 0, 0]
                let f = try fused(5)
                g.node("MaxPool", [name(ins[0])], [target(f)], [.ints("kernel_shape", [fh, fw]), .ints("strides", [sh, sw]), .ints("pads", pads)])
                finish(f)
            case pad:
                let p = try const(1).values.map { Int($0) }
                guard p.count == 8 else { throw bad("operator \(k): PAD needs 4×2 paddings") }
                // NHWC begin/end pairs → ONNX NCHW begins then ends.
                let begins = [p[0], p[6], p[2], p[4]], ends = [p[1], p[7], p[3], p[5]]
                g.node("Pad", [name(ins[0]), g.initializer64([8], begins + ends)], [name(out)])
            case reshape:
                // Only a flattening of 1×1 maps, where NHWC and NCHW hold values in the same order.
                let from = shapes[ins[0]], to = shapes[out]
                guard from.count != 4 || from[1] * from[2] == 1, to.count != 4 || to[1] * to[2] == 1 else {
                    throw bad("operator \(k): RESHAPE of a \(from) map is not supported")
                }
                g.node("Reshape", [name(ins[0]), g.initializer64([to.count], nchw(to))], [name(out)])
            default:
                throw bad("operator \(k): TFLite builtin \(code) is not supported by this converter")
            }
        }
        let inputs = try graph.ints(1).map { (name($0), nchw(shapes[$0])) }
        let outputs = try graph.ints(2).map { (name($0), nchw(shapes[$0])) }
        return g.model(inputs: inputs, outputs: outputs)
    }

    /// TensorFlow's SAME padding as explicit ONNX pads (top, left, bottom, right).
    static func samePads(_ h: Int, _ w: Int, _ kh: Int, _ kw: Int, _ sh: Int, _ sw: Int, _ dh: Int, _ dw: Int) -> [Int] {
        func total(_ n: Int, _ k: Int, _ s: Int, _ d: Int) -> Int { max(((n + s - 1) / s - 1) * s + (k - 1) * d + 1 - n, 0) }
        let th = total(h, kh, sh, dh), tw = total(w, kw, sw, dw)
        return [th / 2, tw / 2, th - th / 2, tw - tw / 2]
    }

    static func floats32(_ b: ArraySlice<UInt8>) -> [Float] {
        let a = Array(b)
        return (0..<(a.count / 4)).map { i in
            Float(bitPattern: UInt32(a[4 * i]) | UInt32(a[4 * i + 1]) << 8 | UInt32(a[4 * i + 2]) << 16 | UInt32(a[4 * i + 3]) << 24)
        }
    }

    static func floats16(_ b: ArraySlice<UInt8>) -> [Float] {
        let a = Array(b)
        return (0..<(a.count / 2)).map { i in Float(Float16(bitPattern: UInt16(a[2 * i]) | UInt16(a[2 * i + 1]) << 8)) }
    }

    static func int32s(_ b: ArraySlice<UInt8>) throws -> [Int32] {
        let a = Array(b)
        return (0..<(a.count / 4)).map { i in
            Int32(bitPattern: UInt32(a[4 * i]) | UInt32(a[4 * i + 1]) << 8 | UInt32(a[4 * i + 2]) << 16 | UInt32(a[4 * i + 3]) << 24)
        }
    }

    static func bad(_ reason: String) -> ModelError { ModelError.badArchive(path: "tflite", reason: reason) }
}

/// An ONNX graph written field by field (opset 13), in the order nodes are added.
struct OnnxGraph {
    enum Attribute {
        case int(String, Int)
        case ints(String, [Int])
    }

    private(set) var nodes: [ProtoMessage] = []
    private(set) var initializers: [ProtoMessage] = []
    private var counter = 0

    mutating func node(_ op: String, _ inputs: [String], _ outputs: [String], _ attributes: [Attribute] = []) {
        var fields = inputs.map { ProtoMessage.Field(1, .bytes(Data($0.utf8))) }
        fields += outputs.map { ProtoMessage.Field(2, .bytes(Data($0.utf8))) }
        fields.append(.init(3, .bytes(Data("n\(nodes.count)".utf8))))
        fields.append(.init(4, .bytes(Data(op.utf8))))
        for a in attributes {
            var af: [ProtoMessage.Field]
            switch a {
            case .int(let n, let v): af = [.init(1, .bytes(Data(n.utf8))), .init(3, .varint(UInt64(bitPattern: Int64(v)))), .init(20, .varint(2))]
            case .ints(let n, let vs): af = [.init(1, .bytes(Data(n.utf8)))] + vs.map { .init(8, .varint(UInt64(bitPattern: Int64($0)))) } + [.init(20, .varint(7))]
            }
            fields.append(.init(5, .bytes(ProtoMessage(fields: af).data)))
        }
        nodes.append(ProtoMessage(fields: fields))
    }

    /// A float32 initializer; returns its name.
    mutating func initializer(_ dims: [Int], _ values: [Float]) -> String {
        var raw = Data(capacity: values.count * 4)
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { raw.append(contentsOf: $0) } }
        return tensor(dims, type: 1, raw)
    }

    mutating func initializer64(_ dims: [Int], _ values: [Int]) -> String {
        var raw = Data(capacity: values.count * 8)
        for v in values { withUnsafeBytes(of: Int64(v).littleEndian) { raw.append(contentsOf: $0) } }
        return tensor(dims, type: 7, raw)
    }

    mutating func scalar(_ v: Float) -> String { initializer([], [v]) }

    private mutating func tensor(_ dims: [Int], type: UInt64, _ raw: Data) -> String {
        counter += 1
        let n = "c\(counter)"
        var fields = dims.map { ProtoMessage.Field(1, .varint(UInt64($0))) }
        fields += [.init(2, .varint(type)), .init(8, .bytes(Data(n.utf8))), .init(9, .bytes(raw))]
        initializers.append(ProtoMessage(fields: fields))
        return n
    }

    func model(inputs: [(String, [Int])], outputs: [(String, [Int])]) -> Data {
        func info(_ name: String, _ dims: [Int]) -> ProtoMessage.Field {
            let shape = ProtoMessage(fields: dims.map { .init(1, .bytes(ProtoMessage(fields: [.init(1, .varint(UInt64($0)))]).data)) })
            let tensor = ProtoMessage(fields: [.init(1, .varint(1)), .init(2, .bytes(shape.data))])
            let type = ProtoMessage(fields: [.init(1, .bytes(tensor.data))])
            return .init(0, .bytes(ProtoMessage(fields: [.init(1, .bytes(Data(name.utf8))), .init(2, .bytes(type.data))]).data))
        }
        var graph = nodes.map { ProtoMessage.Field(1, .bytes($0.data)) }
        graph.append(.init(2, .bytes(Data("converted".utf8))))
        graph += initializers.map { .init(5, .bytes($0.data)) }
        graph += inputs.map { var f = info($0.0, $0.1); f.number = 11; return f }
        graph += outputs.map { var f = info($0.0, $0.1); f.number = 12; return f }
        let opset = ProtoMessage(fields: [.init(1, .bytes(Data())), .init(2, .varint(13))])
        return ProtoMessage(fields: [
            .init(1, .varint(7)),                                  // ir_version
            .init(2, .bytes(Data("photocurate".utf8))),           // producer_name
            .init(7, .bytes(ProtoMessage(fields: graph).data)),   // graph
            .init(8, .bytes(opset.data)),                          // opset_import
        ]).data
    }
}
