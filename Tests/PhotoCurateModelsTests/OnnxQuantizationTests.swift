import Foundation
@testable import PhotoCurateModels
import XCTest

/// 8-bit convolutions at install: the rewrite's structure, and that it computes what the float model does.
final class OnnxQuantizationTests: XCTestCase {
    typealias P = OnnxRuntimeTests.Proto

    /// opset 9: X float[1,2,4,4] → Conv(W1 2×2×3×3, B1, pad 1) → Relu → A; Conv(A, W2 2×2×1×1) → C;
    /// Add(A, C) → Y (a graph output, left float).
    static func convModel() -> Data {
        func floats(_ v: [Float]) -> Data { Data(v.flatMap { withUnsafeBytes(of: $0) { Array($0) } }) }
        func info(_ name: String) -> Data {
            P.build { v in
                v.string(1, name)
                v.message(2, P.build { t in t.message(1, P.build { tt in
                    tt.int(1, 1)
                    tt.message(2, P.build { s in for d in [1, 2, 4, 4] { s.message(1, P.build { $0.int(1, d) }) } })
                }) })
            }
        }
        func initializer(_ name: String, _ dims: [Int], _ v: [Float]) -> Data {
            P.build { t in for d in dims { t.int(1, d) }; t.int(2, 1); t.string(8, name); t.message(9, floats(v)) }
        }
        let w1 = (0..<36).map { Float(($0 * 7) % 11 - 5) / 10 }
        let graph = P.build { g in
            g.message(1, P.build { n in
                n.string(1, "X"); n.string(1, "W1"); n.string(1, "B1"); n.string(2, "c1"); n.string(3, "conv1"); n.string(4, "Conv")
                n.message(5, P.build { a in a.string(1, "pads"); for _ in 0..<4 { a.int(8, 1) }; a.int(20, 7) })
            })
            g.message(1, P.build { n in n.string(1, "c1"); n.string(2, "A"); n.string(3, "relu1"); n.string(4, "Relu") })
            g.message(1, P.build { n in n.string(1, "A"); n.string(1, "W2"); n.string(2, "C"); n.string(3, "conv2"); n.string(4, "Conv") })
            g.message(1, P.build { n in n.string(1, "A"); n.string(1, "C"); n.string(2, "Y"); n.string(3, "add"); n.string(4, "Add") })
            g.string(2, "convs")
            g.message(5, initializer("W1", [2, 2, 3, 3], w1))
            g.message(5, initializer("B1", [2], [0.25, -0.5]))
            g.message(5, initializer("W2", [2, 2, 1, 1], [0.5, -0.25, 1, 0.75]))
            g.message(11, info("X"))
            g.message(12, info("Y"))
        }
        return OnnxRuntimeTests.model(graph, ir: 4, opset: 9)
    }

    static let ranges: [String: (Float, Float)] = ["X": (0, 1), "A": (0, 2.5), "C": (-2, 3)]

    func testConvolutionsGoToEightBitsAndTheirReluIsFolded() throws {
        let q = try OnnxQuantization.quantize(Self.convModel(), ranges: Self.ranges)
        XCTAssertEqual(q, try OnnxQuantization.quantize(Self.convModel(), ranges: Self.ranges), "same input, same bytes")
        let top = try ProtoMessage(q)
        let graph = try ProtoMessage(try XCTUnwrap(top.bytes(7)))
        let ops = try graph.all(1).map { try XCTUnwrap(try ProtoMessage($0).string(4)) }
        XCTAssertFalse(ops.contains("Relu"), "the Relu that alone read conv1 is folded into it")
        // Activations X, A (conv1 with its Relu), C: a Q and a DQ each; W1, B1, W2: a DQ each. Y stays float.
        XCTAssertEqual(ops.filter { $0 == "QuantizeLinear" }.count, 3)
        XCTAssertEqual(ops.filter { $0 == "DequantizeLinear" }.count, 6)
        XCTAssertEqual(ops.filter { $0 == "Conv" }.count, 2)
        let names = Set(try graph.all(5).compactMap { try ProtoMessage($0).string(8) })
        XCTAssertFalse(names.contains("W1") || names.contains("W2") || names.contains("B1"), "the float weights are gone")
        XCTAssertTrue(names.isSuperset(of: ["W1_q", "W1_scale", "B1_q", "A_act_scale"]))
        let opset = try top.all(8).map { try ProtoMessage($0) }
        XCTAssertEqual(opset.first?.fields.last, .init(2, .varint(13)), "per-channel scales need opset 13")
        XCTAssertThrowsError(try OnnxQuantization.quantize(Self.convModel(), ranges: ["X": (0, 1), "A": (0, 2)])) {
            XCTAssertTrue("\($0)".contains("no measured range for tensor C"), "\($0)")
        }
    }

    func testTheEightBitModelComputesWhatTheFloatOneDoes() throws {
        let env = ProcessInfo.processInfo.environment
        guard let lib = env["PHOTOCURATE_ORT_LIBRARY"] ?? ModelStore().installedPath("onnxruntime") else {
            throw XCTSkip("ONNX Runtime is not installed (scripts/setup --models; CI installs it)")
        }
        let dir = NSTemporaryDirectory() + "pc-quant-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.convModel().write(to: URL(fileURLWithPath: dir + "/f.onnx"))
        try OnnxQuantization.quantize(Self.convModel(), ranges: Self.ranges).write(to: URL(fileURLWithPath: dir + "/q.onnx"))
        let rt = try OnnxRuntime(libraryPath: lib)
        let x = Tensor(shape: [1, 2, 4, 4], data: (0..<32).map { Float(($0 * 5) % 17) / 16 })
        let f = try rt.session(model: dir + "/f.onnx", threads: 1).run([x])[0].data
        let q = try rt.session(model: dir + "/q.onnx", threads: 1).run([x])[0].data
        XCTAssertEqual(f.count, q.count)
        // A few steps of A's and C's scales (0.01 and 0.02) at most.
        let worst = zip(f, q).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThan(worst, 0.08, "float \(f) vs 8-bit \(q)")
        XCTAssertGreaterThan(f.map(abs).max() ?? 0, 1, "the model is not trivially zero")
    }

    /// The catalog's two CenterFaces, when installed, agree on a photo-like image.
    func testCenterFaceInEightBitsAgreesWithTheFloatModel() throws {
        let store = ModelStore()
        guard let lib = store.installedPath("onnxruntime"), let f = store.installedPath("centerface"), let q = store.installedPath("centerface-int8") else {
            throw XCTSkip("onnxruntime, centerface and centerface-int8 are not installed (scripts/setup --models; CI installs them)")
        }
        let rt = try OnnxRuntime(libraryPath: lib)
        let w = 128, h = 96
        // Smooth gradients and a few hard edges: values where the model's features are not all zero.
        var data = [Float](repeating: 0, count: 3 * w * h)
        for c in 0..<3 { for y in 0..<h { for x in 0..<w {
            data[c * w * h + y * w + x] = Float((x * (c + 1) + y * 2 + ((x / 16 + y / 16) % 2) * 60) % 256)
        } } }
        let input = [Tensor(shape: [1, 3, h, w], data: data)]
        let a = try rt.session(model: f, threads: 1).run(input), b = try rt.session(model: q, threads: 1).run(input)
        XCTAssertEqual(a.map(\.shape), b.map(\.shape))
        let heat = zip(a[0].data, b[0].data).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThan(heat, 0.1, "face heatmaps (0–1) differ by \(heat)")
    }
}
