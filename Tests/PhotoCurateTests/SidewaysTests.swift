import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// A photo stored on its side with no EXIF orientation (a camera without the sensor, an app
/// that dropped the tag) is found by how it looks turned, and grouped with its burst.
final class SidewaysTests: XCTestCase {
    func photo(scene: Int, shiftX: Double = 0, storedTurned: Int = 0) throws -> FeaturePrint {
        let dir = try temporaryDirectory()
        let path = dir + "/f.jpg"
        // Portrait, as shown.
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: scene, width: 480, height: 640, shiftX: shiftX, storedTurned: storedTurned), to: path)
        return FeaturePrintAnalyzer().analyze(try Decoder(longEdge: 320).decode(path))
    }

    func testAPrintTurnedIsThePrintOfThePhotoTurned() throws {
        let upright = try photo(scene: 5)
        let stored = try photo(scene: 5, storedTurned: 3)  // 90° counter-clockwise: shown right by 90° clockwise
        XCTAssertLessThan(stored.cosine(upright), 0.75, "on its side it looks like another photo")
        XCTAssertGreaterThan(FeaturePrintAnalyzer.turned(stored, quarterTurns: 1).cosine(upright), 0.95)
        XCTAssertLessThan(FeaturePrintAnalyzer.turned(stored, quarterTurns: 3).cosine(upright), 0.75, "the wrong way up is not it")
        XCTAssertEqual(FeaturePrintAnalyzer.turned(FeaturePrintAnalyzer.turned(stored, quarterTurns: 1), quarterTurns: 3), stored)
    }

    func testAFrameStoredOnItsSideWithoutATagJoinsItsBurst() throws {
        let burst = try (0..<3).map { try photo(scene: 5, shiftX: 0.01 * Double($0)) }
        let sideways = try photo(scene: 5, shiftX: 0.015, storedTurned: 3)
        let other = try photo(scene: 9, storedTurned: 3)
        func inputs(unknown: Bool) -> [ClusterInput] {
            burst.enumerated().map { k, p in
                ClusterInput(epoch: 1_700_000_000 + Double(k), latitude: nil, longitude: nil, print: p, quality: 0.8, path: "b\(k).jpg",
                             aspect: 0.75, orientationUnknown: false)
            } + [ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: sideways, quality: 0.8, path: "s.jpg", aspect: 4.0 / 3, orientationUnknown: unknown),
                 ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: other, quality: 0.8, path: "o.jpg", aspect: 4.0 / 3, orientationUnknown: true)]
        }
        let stage = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs))
        let c = try stage.run(inputs(unknown: true))
        XCTAssertEqual(c.clusterOf[3], c.clusterOf[0], "the sideways frame is its burst's")
        XCTAssertEqual(c.sideways, [3: 90])
        XCTAssertNotEqual(c.clusterOf[4], c.clusterOf[0], "another scene on its side stays apart")
        XCTAssertEqual(c.momentOf[3], c.momentOf[0], "and it joins its burst's moment")
        let tagged = try stage.run(inputs(unknown: false))
        XCTAssertNotEqual(tagged.clusterOf[3], tagged.clusterOf[0], "a photo whose EXIF says which way is up is taken as it says")
        XCTAssertTrue(tagged.sideways.isEmpty)
    }

    /// Two untagged frames of one burst, both on their side, look alike as stored: each must
    /// still be judged against the burst that is oriented, not kept sideways by the other (og21).
    func testTwoFramesOnTheirSideBothJoinTheirBurst() throws {
        // The burst's frames are reframed more than the two untagged ones are against each other.
        let burst = try (0..<3).map { try photo(scene: 5, shiftX: 0.03 * Double($0)) }
        let twins = try [0.040, 0.042].map { try photo(scene: 5, shiftX: $0, storedTurned: 3) }
        let turnedToBurst = burst.map { FeaturePrintAnalyzer.turned(twins[0], quarterTurns: 1).cosine($0) }.max()!
        XCTAssertGreaterThan(twins[0].cosine(twins[1]), turnedToBurst, "as stored, they look more like each other than like their burst")
        let inputs = burst.enumerated().map { k, p in
            ClusterInput(epoch: 1_700_000_000 + Double(k), latitude: nil, longitude: nil, print: p, quality: 0.8, path: "b\(k).jpg",
                         aspect: 0.75, orientationUnknown: false)
        } + twins.enumerated().map { k, p in
            ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: p, quality: 0.8, path: "s\(k).jpg", aspect: 4.0 / 3, orientationUnknown: true)
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.sideways, [3: 90, 4: 90])
        XCTAssertEqual(c.clusterOf[3], c.clusterOf[0])
        XCTAssertEqual(c.clusterOf[4], c.clusterOf[0])
    }

    /// A black-and-white burst: its colour layout is JPEG rounding and sensor noise, which
    /// differ from frame to frame at random. It must weigh nothing, or two frames of one grey
    /// scene disagree on it, and a frame on its side, turned, misses its burst (og51).
    func testAGreyPhotosColourLayoutWeighsNothing() throws {
        func grey(shiftX: Double, seed: Int, storedTurned: Int = 0, whiteBalance: (Double, Double) = (1, 1)) throws -> FeaturePrint {
            let path = try temporaryDirectory() + "/g.jpg"
            try FixtureFactory.write(try FixtureFactory.jpeg(scene: 5, width: 480, height: 640, shiftX: shiftX, noise: 1.5,
                                                             storedTurned: storedTurned, grey: true, noiseSeed: seed, whiteBalance: whiteBalance), to: path)
            return FeaturePrintAnalyzer().analyze(try Decoder(longEdge: 320).decode(path))
        }
        let a = try grey(shiftX: 0, seed: 1), b = try grey(shiftX: 0.01, seed: 2)
        let colourShare = a.vector[256..<288].reduce(0) { $0 + $1 * $1 }
        XCTAssertLessThan(colourShare, 0.01, "a grey photo's colour layout has (next to) no weight")
        XCTAssertGreaterThan(a.vector[FeaturePrintAnalyzer.dimension - 1], 0.45, "it is colourless instead")
        let colourful = try photo(scene: 5)
        XCTAssertGreaterThan(colourful.vector[256..<288].reduce(0) { $0 + $1 * $1 }, 0.2, "a colour photo's keeps its share")
        XCTAssertGreaterThan(a.cosine(b), 0.95, "two frames of one grey scene")
        let side = try grey(shiftX: 0.005, seed: 3, storedTurned: 3)
        let turnedBack = FeaturePrintAnalyzer.turned(side, quarterTurns: 1)
        let sideways = try Parameters(ClusterStage.parameterSpecs)["sidewaysSimilarity"]
        XCTAssertGreaterThan(Double(turnedBack.cosine(a)), sideways, "turned back, it is its burst's")
        // Frames of a grey scene whose white balance differs (as `bench make-trip` shifts it, in
        // linear light): clipping and the sRGB toe leave a tint that grey world does not cancel.
        for wb in [(1.08, 0.92), (0.92, 1.08)] {
            let tinted = try grey(shiftX: 0.005, seed: 4, whiteBalance: wb)
            XCTAssertGreaterThan(tinted.vector[FeaturePrintAnalyzer.dimension - 1], 0.45, "a white balance's residue is no colour layout")
        }
    }

    /// A quarter turn moves every orientation by 90°: a smear along x, stored on its side,
    /// reads along y until its spectrum is turned back.
    func testASpectrumTurnedIsTheSpectrumOfThePhotoTurned() throws {
        func spectrum(storedTurned: Int) throws -> PowerSpectrum {
            let path = try temporaryDirectory() + "/f.jpg"
            try FixtureFactory.write(try FixtureFactory.jpeg(scene: 5, width: 640, height: 480, smear: 9, storedTurned: storedTurned), to: path)
            return SpectrumAnalyzer().analyze(try Decoder(longEdge: 640).decode(path))
        }
        let upright = try spectrum(storedTurned: 0), stored = try spectrum(storedTurned: 3)
        let sectorsApart = stored.sectorBlur(comparedWith: upright).compactMap { $0 }
        XCTAssertGreaterThan(sectorsApart.map(abs).max() ?? 0, 1, "as stored, the smear lies in another orientation")
        let turned = stored.turned(quarterTurns: 1).sectorBlur(comparedWith: upright).compactMap { $0 }
        XCTAssertLessThan(turned.map(abs).max() ?? 9, 0.35, "turned back, every orientation matches")
        XCTAssertEqual(stored.turned(quarterTurns: 2), stored)
    }
}
