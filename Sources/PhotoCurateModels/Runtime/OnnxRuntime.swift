import COnnxRuntime
import Foundation
import Logging

/// A float tensor: what goes into a model and comes out of it.
public struct Tensor: Equatable, Sendable {
    public var shape: [Int]
    public var data: [Float]
    public init(shape: [Int], data: [Float]) { self.shape = shape; self.data = data }
}

/// ONNX Runtime's C library, loaded from a file.
///
/// ```swift
/// let rt = try OnnxRuntime(libraryPath: store.installedPath("onnxruntime")!)
/// let s = try rt.session(model: path, threads: 2)
/// let y = try s.run([Tensor(shape: [3], data: [-1, 0.5, 2])])
/// ```
/// The program keeps one, through its one `ModelSessions`; sessions are shared by
/// every task, since a session's `run` may be called concurrently.
public final class OnnxRuntime: @unchecked Sendable {
    let handle: OpaquePointer
    public let version: String
    public let libraryPath: String

    public init(libraryPath: String) throws {
        let started = Date()
        var err = [CChar](repeating: 0, count: 512)
        guard let h = pco_load(libraryPath, &err, err.count) else {
            throw ModelError.io(path: libraryPath, reason: String(cString: err))
        }
        handle = h
        version = String(cString: pco_version(h))
        self.libraryPath = libraryPath
        Logger(label: "runtime").info("runtime loaded", metadata: [
            "event": "load", "library": .string(libraryPath), "version": .string(version),
            "seconds": .stringConvertible(ModelStore.seconds(since: started))])
    }

    /// Opens a model file. `threads` 0 lets the runtime choose; photocurate passes its `--jobs`.
    public func session(model path: String, threads: Int) throws -> OnnxSession {
        let started = Date()
        var err = [CChar](repeating: 0, count: 1024)
        guard let s = pco_session_open(handle, path, Int32(threads), &err, err.count) else {
            throw ModelError.io(path: path, reason: "the runtime cannot load it: \(String(cString: err))")
        }
        let session = OnnxSession(s)
        Logger(label: "runtime").info("model loaded", metadata: [
            "event": "session", "model": .string(path), "threads": .stringConvertible(threads),
            "inputs": .array(session.inputs.map { .string($0) }), "outputs": .array(session.outputs.map { .string($0) }),
            "seconds": .stringConvertible(ModelStore.seconds(since: started))])
        return session
    }
}

/// One loaded model.
public final class OnnxSession: @unchecked Sendable {
    let handle: OpaquePointer
    public let inputs: [String]
    public let outputs: [String]

    init(_ h: OpaquePointer) {
        handle = h
        inputs = (0..<pco_session_inputs(h)).map { String(cString: pco_session_input_name(h, $0)) }
        outputs = (0..<pco_session_outputs(h)).map { String(cString: pco_session_output_name(h, $0)) }
    }

    deinit { pco_session_close(handle) }

    /// Runs the model on one tensor per input, in the model's input order.
    public func run(_ feeds: [Tensor]) throws -> [Tensor] {
        for (i, t) in feeds.enumerated() where t.shape.reduce(1, *) != t.data.count {
            throw ModelError.io(path: inputs.indices.contains(i) ? inputs[i] : "input \(i)", reason: "shape \(t.shape) does not hold \(t.data.count) values")
        }
        var err = [CChar](repeating: 0, count: 1024)
        let n = outputs.count
        var outData = [UnsafeMutablePointer<Float>?](repeating: nil, count: max(1, n))
        var outShape = [Int64](repeating: 0, count: 8 * max(1, n))
        var outRank = [Int](repeating: 0, count: max(1, n))
        let shapes = feeds.map { $0.shape.map(Int64.init) }
        let status: Int32 = withArrays(feeds.map(\.data)) { dataPtrs in
            withArrays(shapes) { shapePtrs in
                let ranks = feeds.map(\.shape.count)
                return pco_run(handle, feeds.count, dataPtrs, shapePtrs, ranks, n, &outData, &outShape, &outRank, &err, err.count)
            }
        }
        defer { for p in outData { pco_free(p) } }
        guard status == 0 else { throw ModelError.io(path: "model run", reason: String(cString: err)) }
        return (0..<n).map { i in
            let shape = (0..<outRank[i]).map { Int(outShape[8 * i + $0]) }
            let count = shape.reduce(1, *)
            return Tensor(shape: shape, data: Array(UnsafeBufferPointer(start: outData[i], count: count)))
        }
    }
}

/// Hands C a `const T *const *` over Swift arrays, for the length of `body`.
func withArrays<T, R>(_ arrays: [[T]], _ body: ([UnsafePointer<T>?]) -> R) -> R {
    var pointers: [UnsafePointer<T>?] = []
    func nest(_ i: Int) -> R {
        guard i < arrays.count else { return body(pointers) }
        return arrays[i].withUnsafeBufferPointer { buf in
            pointers.append(buf.baseAddress)
            return nest(i + 1)
        }
    }
    return nest(0)
}
