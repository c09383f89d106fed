import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// The photo at 100 %: grain read from the JPEG's DCT blocks during the scaled decode.
final class DetailTests: XCTestCase {
    /// A 1600×1200 frame decoded at 400 px (1/4 shrink-on-load), as a 12 MP photo is at 768 px.
    func frame(scene: Int = 11, noise: Double = 0, orientation: Int? = nil, shiftX: Double = 0, blur: Double = 0, smear: Int = 0,
               smearAngle: Double = 0, decodeTo: Int = 400) throws -> AnalysisImage {
        let dir = try temporaryDirectory()
        let path = dir + "/f.jpg"
        let exif = orientation.map { FixtureFactory.exif(time: nil, orientation: $0) }
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: scene, width: 1600, height: 1200, exif: exif, shiftX: shiftX, blur: blur, noise: noise, smear: smear, smearAngle: smearAngle), to: path)
        return try Decoder(longEdge: decodeTo).decode(path)
    }

    func testGrainIsMeasuredAtFullResolutionNotAtTheAnalysisScale() throws {
        let clean = try XCTUnwrap(try frame().native)
        // σ 15 per RGB channel, independent: σ ≈ 10 in luma (Rec. 601 weights).
        let grainy = try frame(noise: 15)
        let g = try XCTUnwrap(grainy.native)
        XCTAssertEqual(g.width, 1600)
        XCTAssertEqual(g.power.count, 64)
        XCTAssertEqual(g.tiles.count, NativeDetailProbe.tiles * NativeDetailProbe.tiles)
        XCTAssertLessThan(clean.noiseLuma, 2.5, "a clean frame has no grain at 100 %")
        XCTAssertEqual(g.noiseLuma, 10, accuracy: 3, "the per-pixel grain is recovered from the coefficients")
        XCTAssertGreaterThan(try XCTUnwrap(g.noiseChroma), 3, "independent channel noise shows in Cb/Cr")
        // At the analysis scale the same grain is averaged over 4×4 pixels and all but gone.
        let atScale = QualityAnalyzer().analyze(grainy)
        XCTAssertLessThan(atScale.measurements.noiseSigma, 4)
        XCTAssertEqual(try XCTUnwrap(atScale.measurements.grainNative), g.noiseLuma, accuracy: 1e-3)
        // (libvips' gaussnoise with consecutive seeds gives channels that share shifted
        // noise, so this luma grain is not quite white and reads about 8 at the finest rings.)
        XCTAssertLessThan(atScale.noise, 0.5, "the noise score calls the grain at 100 % a fault")
    }

    /// A thumbnail has no flat patch for grain to show in: it is not judged, and says so.
    func testThumbnailsAreNotJudgedForGrain() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/thumb.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 11, width: 160, height: 120, exif: nil, shiftX: 0, noise: 15), to: path)
        let image = try Decoder(longEdge: 400).decode(path)
        let native = try XCTUnwrap(image.native)
        XCTAssertNotNil(native.grainUnmeasured, "160×120 is 300 blocks, under the 1,000 grain needs")
        let q = QualityAnalyzer().analyze(image)
        XCTAssertNil(q.measurements.grainNative)
        XCTAssertEqual(q.noise, 1)
        XCTAssertTrue(try XCTUnwrap(q.measurements.noiseNote).contains("thumbnail"))
        XCTAssertTrue(q.explanations.first { $0.0 == "noise" }!.2.contains("not judged"))
    }

    /// A dark frame whose highlights reach the top is low key; one whose highlights are gone is under-exposed.
    func testLowKeyIsNotUnderExposure() {
        let q = QualityAnalyzer()
        let stage = QualityAnalyzer.ExposureStats(mean: 0.10, high: 0, low: 0.35, range: 0.75, white: 0.78, black: 0)
        let under = QualityAnalyzer.ExposureStats(mean: 0.10, high: 0, low: 0.35, range: 0.45, white: 0.45, black: 0)
        XCTAssertGreaterThan(q.exposureScore(stage), 0.9)
        XCTAssertLessThan(q.exposureScore(under), 0.1)
    }

    func testTilesAreReportedUprightAndNonJPEGsHaveNoNativeDetail() throws {
        let turned = try XCTUnwrap(try frame(orientation: 6).native)
        // The fixture stores an orientation-6 frame turned (1200×1600), to be shown 1600×1200.
        XCTAssertEqual(turned.width, 1200, "the stored size")
        XCTAssertEqual(turned.height, 1600)
        XCTAssertEqual(turned.tiles.map { $0.x + $0.w }.max(), 1600, "tiles are boxes in the upright frame")
        XCTAssertEqual(turned.tiles.map { $0.y + $0.h }.max(), 1200)

        // Pixels that never were a JPEG (PNG, HEIC, TIFF decode through libvips) carry no native detail.
        let image = AnalysisImage(width: 4, height: 4, rgb: [UInt8](repeating: 128, count: 48))
        XCTAssertNil(image.native)
        XCTAssertNil(DetailAnalyzer().analyze(image).detail)
        XCTAssertNotNil(DetailAnalyzer().analyze(image).note)
    }

    func testGrainierFrameOfABurstLosesToItsCleanSiblings() throws {
        let q = QualityAnalyzer(), d = DetailAnalyzer()
        let images = [try frame(), try frame(shiftX: 0.01), try frame(shiftX: 0.02), try frame(noise: 15, shiftX: 0.015)]
        let f = FeaturePrintAnalyzer()
        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "f\(k)", technical: q.analyze(img), localHour: nil, timeLabel: nil,
                        print: f.analyze(img), detail: d.analyze(img).detail)
        }
        let grain = GroupNoise.measure(members: [0, 1, 2, 3], photos: inputs)
        XCTAssertGreaterThan(try XCTUnwrap(grain[3]), 8, "the grainy frame stands out by its own grain")
        for i in 0..<3 { XCTAssertLessThan(try XCTUnwrap(grain[i]), 1) }
        let clustering = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs.enumerated().map { k, i in
            ClusterInput(epoch: 1_700_000_000 + Double(k), latitude: nil, longitude: nil, print: i.print, quality: i.technical.overall, path: i.path)
        })
        XCTAssertEqual(clustering.clusters.count, 1, "one burst")
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs)).run((inputs, clustering))
        XCTAssertNotEqual(s.bestOfGroup[0], 3)
        XCTAssertTrue(s.reasons[3].contains { $0.contains("grainier at 100 %") }, "\(s.reasons[3])")
    }

    /// Mild defocus at 100 % (σ 1.2 px in a 1600 px frame: 0.3 px at 400 px) shows in the
    /// coarse DCT frequencies, whichever way each frame is stored.
    func testMildBlurShowsAt100PercentEvenInAFrameStoredOnItsSide() throws {
        let sharp = try XCTUnwrap(try frame().native), sibling = try XCTUnwrap(try frame(shiftX: 0.01).native)
        let soft = try XCTUnwrap(try frame(shiftX: 0.02, blur: 1.2).native)
        let turned = try XCTUnwrap(try frame(orientation: 6, shiftX: 0.01).native)
        XCTAssertEqual(turned.transposed, true)
        XCTAssertEqual(sharp.transposed, false)
        let blurred = try XCTUnwrap(soft.blurDifference(comparedWith: sharp))
        XCTAssertGreaterThan(blurred, 0.3, "σ² 1.44 px², read at about half")
        XCTAssertLessThan(try XCTUnwrap(sharp.blurDifference(comparedWith: soft)), -0.3, "and the sharp frame reads sharper")
        XCTAssertLessThan(abs(try XCTUnwrap(sibling.blurDifference(comparedWith: sharp))), 0.15 * blurred, "a shifted sharp sibling reads the same")
        XCTAssertLessThan(abs(try XCTUnwrap(turned.blurDifference(comparedWith: sharp))), 0.3 * blurred, "as does one stored turned")
        XCTAssertEqual(try XCTUnwrap(soft.blurDifference(comparedWith: turned)), blurred, accuracy: 0.35 * blurred)
    }

    /// In a burst, the blur at 100 % adds to the analysis scale's: the defocused frame loses.
    func testMildlyDefocusedFrameOfABurstLosesByItsBlurAt100Percent() throws {
        let q = QualityAnalyzer(), d = DetailAnalyzer(), sp = SpectrumAnalyzer(), f = FeaturePrintAnalyzer()
        let images = [try frame(), try frame(shiftX: 0.01), try frame(shiftX: 0.02), try frame(shiftX: 0.015, blur: 1.2)]
        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "f\(k)", technical: q.analyze(img), localHour: nil, timeLabel: nil,
                        print: f.analyze(img), spectrum: sp.analyze(img), detail: d.analyze(img).detail)
        }
        // The fixture is decoded at 400 px; the engine's scale is 768, so 1600 px is 2× it.
        let withNative = GroupBlur.measure(members: [0, 1, 2, 3], photos: inputs)
        let without = GroupBlur.measure(members: [0, 1, 2, 3], photos: inputs, nativeWeight: 0)
        let v = try XCTUnwrap(withNative[3])
        XCTAssertGreaterThan(try XCTUnwrap(v.native), 0.02)
        XCTAssertGreaterThan(v.sigma, try XCTUnwrap(without[3]).sigma)
        for i in 0..<3 { XCTAssertLessThan(try XCTUnwrap(withNative[i]).sigma, 0.5 * v.sigma, "clean frame \(i)") }
    }
}
