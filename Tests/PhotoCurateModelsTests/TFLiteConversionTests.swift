import Foundation
@testable import PhotoCurateModels
import XCTest

/// The TFLite → ONNX converter on a model the test writes itself: one CONV_2D with
/// SAME padding and a fused RELU, its filter in float16 behind a DEQUANTIZE.
final class TFLiteConversionTests: XCTestCase {
    /// A FlatBuffers writer, just enough for a tflite Model: each table's vtable sits
    /// before it and its children after it, so every offset points the way the format wants.
    indirect enum Value {
        case i32(Int32), u8(UInt8), table([Int: Value]), tables([[Int: Value]]), ints([Int32]), bytes([UInt8]), string(String)
    }

    struct Writer {
        var b: [UInt8] = []
        mutating func u16(_ v: Int) { b += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        mutating func u32(_ v: Int) { let u = UInt32(truncatingIfNeeded: v); b += [UInt8(u & 0xff), UInt8((u >> 8) & 0xff), UInt8((u >> 16) & 0xff), UInt8(u >> 24)] }
        mutating func align() { while b.count % 4 != 0 { b.append(0) } }
        mutating func patch(_ at: Int, _ v: Int) {
            let u = UInt32(truncatingIfNeeded: v)
            b[at] = UInt8(u & 0xff); b[at + 1] = UInt8((u >> 8) & 0xff); b[at + 2] = UInt8((u >> 16) & 0xff); b[at + 3] = UInt8(u >> 24)
        }

        /// Writes a table; returns its position.
        mutating func table(_ fields: [Int: Value]) -> Int {
            align()
            let count = (fields.keys.max() ?? -1) + 1
            let vtable = b.count
            u16(4 + 2 * count); u16(4 + 4 * fields.count)
            let order = fields.keys.sorted()
            for i in 0..<count { u16(order.firstIndex(of: i).map { 4 + 4 * $0 } ?? 0) }
            align()
            let start = b.count
            u32(start - vtable)
            var children: [(slot: Int, value: Value)] = []
            for k in order {
                let slot = b.count
                switch fields[k]! {
                case .i32(let v): u32(Int(v))
                case .u8(let v): b += [v, 0, 0, 0]
                default: u32(0); children.append((slot, fields[k]!))
                }
            }
            for (slot, v) in children { patch(slot, write(v) - slot) }
            return start
        }

        mutating func write(_ v: Value) -> Int {
            align()
            let at = b.count
            switch v {
            case .table(let f): return table(f)
            case .ints(let xs): u32(xs.count); for x in xs { u32(Int(x)) }
            case .bytes(let xs): u32(xs.count); b += xs
            case .string(let s): u32(s.utf8.count); b += Array(s.utf8); b.append(0)
            case .tables(let ts):
                u32(ts.count)
                let slots = (0..<ts.count).map { at + 4 + 4 * $0 }
                for _ in ts { u32(0) }
                for (slot, t) in zip(slots, ts) { patch(slot, table(t) - slot) }
            default: XCTFail("not an offset value")
            }
            return at
        }

        static func model(_ root: [Int: Value]) -> Data {
            var w = Writer()
            w.u32(0)
            let r = w.table(root)
            w.patch(0, r)
            return Data(w.b)
        }
    }

    static let (h, w, cin, cout, k) = (4, 5, 2, 3, 3)

    static func filter() -> [Float] { (0..<(cout * k * k * cin)).map { Float(($0 * 7) % 11) / 10 - 0.5 } }
    static func bias() -> [Float] { [0.1, -0.2, 0.05] }

    /// input [1,4,5,2] → CONV_2D(filter: DEQUANTIZE(fp16 [3,3,3,2]), bias [3]; SAME, stride 1, RELU) → [1,4,5,3]
    static func tinyTFLite() -> Data {
        func le32(_ xs: [Float]) -> [UInt8] { xs.flatMap { f in withUnsafeBytes(of: f.bitPattern.littleEndian) { Array($0) } } }
        func le16(_ xs: [Float]) -> [UInt8] { xs.flatMap { f in withUnsafeBytes(of: Float16(f).bitPattern.littleEndian) { Array($0) } } }
        func tensor(_ shape: [Int32], type: UInt8, buffer: Int32, _ name: String) -> [Int: Value] {
            [0: .ints(shape), 1: .u8(type), 2: .i32(buffer), 3: .string(name)]
        }
        let tensors: [[Int: Value]] = [
            tensor([1, Int32(h), Int32(w), Int32(cin)], type: 0, buffer: 0, "input"),
            tensor([Int32(cout), Int32(k), Int32(k), Int32(cin)], type: 1, buffer: 1, "filter16"),
            tensor([Int32(cout), Int32(k), Int32(k), Int32(cin)], type: 0, buffer: 0, "filter"),
            tensor([Int32(cout)], type: 0, buffer: 2, "bias"),
            tensor([1, Int32(h), Int32(w), Int32(cout)], type: 0, buffer: 0, "output"),
        ]
        let operators: [[Int: Value]] = [
            [0: .i32(0), 1: .ints([1]), 2: .ints([2])],
            [0: .i32(1), 1: .ints([0, 2, 3]), 2: .ints([4]), 3: .u8(1), 4: .table([0: .u8(0), 1: .i32(1), 2: .i32(1), 3: .u8(1)])],
        ]
        return Writer.model([
            0: .i32(3),
            1: .tables([[0: .u8(6), 3: .i32(6)], [0: .u8(3), 3: .i32(3)]]),
            2: .tables([[0: .tables(tensors), 1: .ints([0]), 2: .ints([4]), 3: .tables(operators)]]),
            4: .tables([[:], [0: .bytes(le16(filter()))], [0: .bytes(le32(bias()))]]),
        ])
    }

    func testAConvolutionBecomesAnOnnxGraphThatComputesTheSame() throws {
        let onnx = try TFLiteToOnnx.convert(Self.tinyTFLite())
        let graph = try ProtoMessage(try XCTUnwrap(try ProtoMessage(onnx).bytes(7)))
        let ops = try graph.all(1).compactMap { try ProtoMessage($0).string(4) }
        XCTAssertEqual(ops, ["Conv", "Relu"], "DEQUANTIZE folds into the initializer; RELU follows the convolution")
        XCTAssertEqual(try TFLiteToOnnx.convert(Self.tinyTFLite()), onnx, "the same bytes every time: the catalog checks their sha256")

        let env = ProcessInfo.processInfo.environment
        guard let lib = env["PHOTOCURATE_ORT_LIBRARY"] ?? ModelStore().installedPath("onnxruntime") else {
            throw XCTSkip("ONNX Runtime is not installed: the graph was checked, not run")
        }
        let path = NSTemporaryDirectory() + "pc-tflite-\(getpid()).onnx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try onnx.write(to: URL(fileURLWithPath: path))
        let session = try OnnxRuntime(libraryPath: lib).session(model: path, threads: 1)
        let (h, w, cin, cout, k) = (Self.h, Self.w, Self.cin, Self.cout, Self.k)
        let x = (0..<(h * w * cin)).map { Float(($0 * 5) % 13) / 13 }   // NHWC
        var nchw = [Float](repeating: 0, count: x.count)
        for y in 0..<h { for xx in 0..<w { for c in 0..<cin { nchw[(c * h + y) * w + xx] = x[(y * w + xx) * cin + c] } } }
        let out = try session.run([Tensor(shape: [1, cin, h, w], data: nchw)])
        XCTAssertEqual(out.first?.shape, [1, cout, h, w])
        // The convolution by hand, in TFLite's layout: SAME padding is 1 on each side here.
        let f = Self.filter().map { Float(Float16($0)) }, b = Self.bias()
        for o in 0..<cout { for y in 0..<h { for xx in 0..<w {
            var s = b[o]
            for dy in 0..<k { for dx in 0..<k { for c in 0..<cin {
                let iy = y + dy - 1, ix = xx + dx - 1
                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                s += x[(iy * w + ix) * cin + c] * f[((o * k + dy) * k + dx) * cin + c]
            } } }
            XCTAssertEqual(out[0].data[(o * h + y) * w + xx], max(0, s), accuracy: 1e-4)
        } } }
    }

    /// The catalog's MediaPipe models, when installed: converted at install, they run and give their outputs.
    func testFaceMeshAndIrisAsInstalledRun() throws {
        let store = ModelStore()
        guard let lib = store.installedPath("onnxruntime"), let mesh = store.installedPath("face-landmarks"),
              let iris = store.installedPath("iris-landmarks") else {
            throw XCTSkip("onnxruntime, face-landmarks and iris-landmarks are not installed (scripts/setup --models; CI installs them)")
        }
        let rt = try OnnxRuntime(libraryPath: lib)
        let m = try rt.session(model: mesh, threads: 1).run([Tensor(shape: [1, 3, 192, 192], data: [Float](repeating: 0.5, count: 3 * 192 * 192))])
        XCTAssertEqual(m.map { $0.data.count }, [1404, 1], "468 points × 3 and a face-presence logit")
        XCTAssertLessThan(m[1].data[0], 0, "a grey square is not a face")
        let i = try rt.session(model: iris, threads: 1).run([Tensor(shape: [1, 3, 64, 64], data: [Float](repeating: 0.5, count: 3 * 64 * 64))])
        XCTAssertEqual(i.map { $0.data.count }, [213, 15], "71 eye-contour points and 5 iris points, × 3")
    }

    func testSamePaddingIsTensorFlows() {
        XCTAssertEqual(TFLiteToOnnx.samePads(192, 192, 3, 3, 2, 2, 1, 1), [0, 0, 1, 1], "stride 2: the extra row and column go after")
        XCTAssertEqual(TFLiteToOnnx.samePads(5, 5, 3, 3, 1, 1, 1, 1), [1, 1, 1, 1])
        XCTAssertEqual(TFLiteToOnnx.samePads(4, 4, 2, 2, 2, 2, 1, 1), [0, 0, 0, 0])
    }

    func testDamagedOrForeignFilesAreRefusedWithAReason() {
        var truncated = Self.tinyTFLite()
        truncated = truncated.prefix(truncated.count / 2)
        XCTAssertThrowsError(try TFLiteToOnnx.convert(truncated))
        XCTAssertThrowsError(try TFLiteToOnnx.convert(Data([1, 2, 3])))
        XCTAssertThrowsError(try TFLiteToOnnx.convert(Data(repeating: 0xff, count: 64)))
    }
}
