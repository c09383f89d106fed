import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// A blank frame (a lens cap, a grey card, a test file) is never offered, however clean.
final class BlankFrameTests: XCTestCase {
    func grey(noise: Double = 0) throws -> AnalysisImage {
        try Vips.start()
        var img = try VImage.from(pixels: [UInt8](repeating: 137, count: 480 * 320 * 3), width: 480, height: 320, bands: 3)
        if noise > 0 {
            let n = try (0..<3).map { try VImage.noise(width: 480, height: 320, sigma: noise, seed: 7 + $0) }
            img = try img.adding(VImage.bandjoin(n[0], n[1], n[2])).castUChar()
        }
        return try decoded(try img.jpeg(quality: 92))
    }

    func testABlankFrameIsToldFromADullOrDarkPhotoAndNeverOffered() throws {
        let q = QualityAnalyzer(), f = FeaturePrintAnalyzer()
        let images = [try grey(), try grey(noise: 12), try decoded(try FixtureFactory.jpeg(scene: 3, width: 480, height: 320)),
                      try decoded(try FixtureFactory.jpeg(scene: 8, width: 480, height: 320, gain: 0.15))]
        let spreads = images.map { q.analyze($0).measurements.coarseSpread ?? -1 }
        XCTAssertLessThan(spreads[0], 0.2)
        XCTAssertLessThan(spreads[1], 1, "grain averages out in the blocks: a grainy blank frame is still blank")
        XCTAssertGreaterThan(spreads[2], 5)
        XCTAssertGreaterThan(spreads[3], 1, "a photo 2.7 stops under is dark, not blank")

        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "p\(k).jpg", technical: q.analyze(img), localHour: nil, timeLabel: nil, print: f.analyze(img), timeTrusted: false)
        }
        let clustering = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs.map {
            ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: $0.print, quality: $0.technical.overall, path: $0.path)
        })
        XCTAssertNotEqual(clustering.clusterOf[2], clustering.clusterOf[3])
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 4, "minQuality": 0])).run((inputs, clustering))
        XCTAssertEqual(Set(s.picks), [2, 3], "the top 4 stops short rather than show a blank frame")
        for i in 0...1 { XCTAssertTrue(s.reasons[i].contains { $0.hasPrefix("not offered: a blank frame") }, "\(s.reasons[i])") }
        let off = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 4, "minQuality": 0, "blankContrast": 0])).run((inputs, clustering))
        XCTAssertEqual(off.picks.count, 4, "blankContrast 0 turns it off")
    }
}
