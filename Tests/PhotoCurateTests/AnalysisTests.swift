import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

final class AnalysisTests: XCTestCase {
    func image(scene: Int, shiftX: Double = 0, blur: Double = 0, gain: Double = 1, noise: Double = 0, orientation: Int? = nil) throws -> AnalysisImage {
        let dir = try temporaryDirectory()
        let path = dir + "/x.jpg"
        let exif = orientation.map { FixtureFactory.exif(time: nil, orientation: $0) }
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: scene, width: 960, height: 720, exif: exif, shiftX: shiftX, blur: blur, gain: gain, noise: noise), to: path)
        return try Decoder(longEdge: 480).decode(path)
    }

    func testQualityScoresReactToTheirFault() throws {
        let q = QualityAnalyzer()
        let clean = q.analyze(try image(scene: 7))
        let blurred = q.analyze(try image(scene: 7, blur: 5))  // σ 2.5 px at the analysis scale
        let noisy = q.analyze(try image(scene: 7, noise: 18))
        let dark = q.analyze(try image(scene: 7, gain: 0.2))
        let bright = q.analyze(try image(scene: 7, gain: 4))
        XCTAssertGreaterThan(clean.sharpness, blurred.sharpness + 0.2, "blur lowers sharpness")
        XCTAssertGreaterThan(clean.overall, blurred.overall)
        XCTAssertLessThan(noisy.noise, clean.noise - 0.3, "noise is detected")
        XCTAssertLessThan(noisy.sharpness, clean.sharpness + 0.15, "noise does not read as much sharper")
        XCTAssertGreaterThan(clean.overall, noisy.overall)
        XCTAssertLessThan(dark.exposure, clean.exposure)
        XCTAssertLessThan(bright.exposure, clean.exposure)
        XCTAssertGreaterThan(bright.measurements.meanLuma, clean.measurements.meanLuma + 0.2)
        XCTAssertLessThan(dark.measurements.whitePoint, clean.measurements.whitePoint - 0.2)
        for s in [clean, blurred, noisy, dark, bright] {
            for v in [s.sharpness, s.exposure, s.noise, s.composition, s.overall] { XCTAssert((0...1).contains(v)) }
        }
    }

    func testFeaturePrintSeparatesScenesAndIgnoresRotationAndExposure() throws {
        let f = FeaturePrintAnalyzer()
        let a = f.analyze(try image(scene: 11))
        let shifted = f.analyze(try image(scene: 11, shiftX: 0.02, gain: 1.5))
        let rotated = f.analyze(try image(scene: 11, orientation: 6))
        let other = f.analyze(try image(scene: 12))
        XCTAssertEqual(a.vector.count, FeaturePrintAnalyzer.dimension)
        XCTAssertEqual(a.cosine(a), 1, accuracy: 1e-4)
        XCTAssertGreaterThan(a.cosine(shifted), 0.75)
        XCTAssertGreaterThan(a.cosine(rotated), 0.9, "EXIF rotation is undone before the print")
        XCTAssertLessThan(a.cosine(other), 0.75)
        let m = SimilarityMatrix([a, shifted, other]).block(rows: 0..<3, cols: 0..<3)
        XCTAssertEqual(m[1], a.cosine(shifted), accuracy: 1e-4)
        XCTAssertEqual(m[2], a.cosine(other), accuracy: 1e-4)
    }

    func testParametersAreValidatedAndHashed() throws {
        var p = try Parameters(ClusterStage.parameterSpecs)
        let h0 = p.hash
        XCTAssertThrowsError(try p.set("similarity", 1.5))
        XCTAssertThrowsError(try p.set("nope", 1))
        XCTAssertThrowsError(try p.set("maxPerCluster", 2.5))
        try p.set("similarity", 0.8)
        XCTAssertNotEqual(p.hash, h0)
    }
}
