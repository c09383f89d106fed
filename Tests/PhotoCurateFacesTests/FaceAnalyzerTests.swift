import Foundation
import PhotoCurate
@testable import PhotoCurateFaces
import PhotoCurateModels
import XCTest

final class FaceAnalyzerTests: XCTestCase {
    /// Four maps of 8×8 cells (a 32×32 input) with one face centred on cell (3, 4), and a weaker duplicate beside it.
    func maps() -> [Tensor] {
        let plane = 64
        var heat = [Float](repeating: 0.01, count: plane)
        heat[3 * 8 + 4] = 0.9
        heat[3 * 8 + 5] = 0.6
        var scale = [Float](repeating: 0, count: 2 * plane)
        for i in 0..<plane { scale[i] = log(16 / 4); scale[plane + i] = log(12 / 4) }  // 16 px tall, 12 wide
        let offset = [Float](repeating: 0, count: 2 * plane)
        var marks = [Float](repeating: 0, count: 10 * plane)
        for j in 0..<5 { for i in 0..<plane { marks[(2 * j) * plane + i] = 0.5; marks[(2 * j + 1) * plane + i] = 0.25 } }
        return [Tensor(shape: [1, 1, 8, 8], data: heat), Tensor(shape: [1, 2, 8, 8], data: scale),
                Tensor(shape: [1, 2, 8, 8], data: offset), Tensor(shape: [1, 10, 8, 8], data: marks)]
    }

    func testPeaksBecomeBoxesAndDuplicatesMerge() {
        let faces = CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 4).faces(maps(), width: 32, height: 32)
        XCTAssertEqual(faces.count, 1, "the weaker overlapping peak is the same face")
        let f = faces[0]
        // Centre (4 + 0.5) · 4 = 18 px across, (3 + 0.5) · 4 = 14 px down; 12 × 16 px.
        XCTAssertEqual(f.box[0] * 32, 12, accuracy: 0.01)
        XCTAssertEqual(f.box[1] * 32, 6, accuracy: 0.01)
        XCTAssertEqual(f.box[2] * 32, 12, accuracy: 0.01)
        XCTAssertEqual(f.box[3] * 32, 16, accuracy: 0.01)
        XCTAssertEqual(f.confidence, 0.9, accuracy: 1e-4)
        // Landmarks are relative to the box: x = 0.25 of its width, y = 0.5 of its height.
        XCTAssertEqual(f.landmarks[0] * 32, 12 + 3, accuracy: 0.01)
        XCTAssertEqual(f.landmarks[1] * 32, 6 + 8, accuracy: 0.01)
        XCTAssertTrue(CenterFaceDecoder(threshold: 0.95, overlap: 0.3, minSize: 4).faces(maps(), width: 32, height: 32).isEmpty)
        XCTAssertTrue(CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 20).faces(maps(), width: 32, height: 32).isEmpty, "too small")
    }

    func testWithoutTheModelFacesSayWhyOnceAndTheKeyChangesWhenItArrives() throws {
        let dir = NSTemporaryDirectory() + "pc-faces-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FacesFeature.register(sessions: ModelSessions(store: ModelStore(root: dir), threads: 1))
        XCTAssertNotNil(AnalyzerRegistry.plugin("faces"))
        XCTAssertFalse(PipelineDefinition.defaults().analyzers.contains("faces"), "optional: off unless the pipeline names it")
        var p = PipelineDefinition.defaults()
        try p.set("faces", "threshold", 0.6)
        XCTAssertTrue(p.analyzers.contains("faces"))
        let analyzer = FaceAnalyzer()
        XCTAssertEqual(analyzer.fingerprint, "centerface:none")
        let r = analyzer.analyze(AnalysisImage(width: 64, height: 48, rgb: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        XCTAssertEqual(r.faces, [])
        XCTAssertTrue(r.note?.contains("photocurate models install centerface") == true, r.note ?? "")
        let none = analyzer.key(upstream: "u")
        // Installed models change the key, so photos analysed without them are analysed again.
        XCTAssertNotEqual(none, QualityAnalyzer().key(upstream: "u"))
        XCTAssertNotEqual(none.parametersHash, FaceAnalyzerTests.keyWithoutFingerprint(analyzer))
    }

    static func keyWithoutFingerprint(_ a: FaceAnalyzer) -> String {
        var h = StableHash()
        h.combine(a.parameters.canonical)
        h.combine("u")
        return h.hex
    }
}
