import Foundation
@testable import PhotoCurate
import XCTest

/// A product on a bright sweep is high key, judged on its own tones (quality v18); the same
/// frame pushed two stops is its burst's misfire, and a bright sky along one edge is no backdrop.
final class HighKeyTests: XCTestCase {
    /// A 256×192 frame: a bright backdrop (a gradient of 236–248 levels with ±2 levels of grain,
    /// unclipped, as a studio sweep often is) and a banded subject (20–202 levels, a black
    /// detail) that stands on the bottom edge, as a device on a table does; `gain` multiplies
    /// linear light, `skyRows` replaces the backdrop by textured ground under that many rows of sky.
    func frame(gain: Double = 1, skyRows: Int? = nil) -> AnalysisImage {
        let w = 256, h = 192
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt64 = 7
        func grain() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int(seed >> 61)) - 3.5  // −3.5…3.5
        }
        for y in 0..<h {
            for x in 0..<w {
                var v = 236 + 12 * Double(y) / Double(h) + grain() / 1.75
                let inSubject = x >= 72 && x < 184 && y >= 64
                if inSubject {
                    v = 20 + Double((x / 24 + y / 24) % 8) * 26
                    if x < 84, y < 76 { v = 4 }
                } else if let sky = skyRows, y >= sky {
                    v = 60 + Double((x * 7 + y * 13) % 90)  // ground: texture, not a backdrop
                }
                let linear = pow(max(0, v) / 255, 2.2) * gain
                let out = UInt8(min(255, (pow(min(1, linear), 1 / 2.2) * 255).rounded()))
                let i = 3 * (y * w + x)
                rgb[i] = out; rgb[i + 1] = out; rgb[i + 2] = out
            }
        }
        return AnalysisImage(width: w, height: h, rgb: rgb)
    }

    func testAProductOnABrightSweepIsHighKey() throws {
        let q = QualityAnalyzer()
        let clean = frame()
        let stats = q.exposureStats(clean.luma, clean.width, clean.height)
        XCTAssertFalse(stats.whiteBackground, "nothing is clipped: the white-background rule does not see it")
        XCTAssertTrue(stats.highKey)
        XCTAssertGreaterThan(stats.backdrop, 0.5)
        let score = q.analyze(clean)
        XCTAssertEqual(score.measurements.highKey, true)
        XCTAssertGreaterThan(score.exposure, 0.7, "\(score.exposure)")

        // With high key turned off the frame reads over-exposed (mean 0.75): the false alarm
        // that held-out product shots raised in 15 of 26 photographs.
        var off = try Parameters(QualityAnalyzer.parameterSpecs)
        try off.set("highKeyBackdrop", 1)
        XCTAssertLessThan(QualityAnalyzer(parameters: off).analyze(clean).exposure, 0.5)
    }

    /// Judged alone, a product whose light parts a push has blown into the sweep can look like a
    /// darker product on white: the blown parts join the backdrop. Its burst still tells: the
    /// subject's deciles read two stops over its clean siblings', and that ranks it under them.
    func testAPushedFrameBeforeABackdropIsTheMisfireOfItsBurst() {
        let q = QualityAnalyzer()
        let clean = q.analyze(frame()), pushed = q.analyze(frame(gain: 4))
        let photos = [clean, clean, pushed].enumerated().map { k, t in
            SelectInput(path: "\(k).jpg", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        let ev = GroupExposure.measure(members: [0, 1, 2], photos: photos)
        XCTAssertGreaterThan(ev[2] ?? 0, 1.7, "\(ev)")
        XCTAssertLessThan(abs(ev[0] ?? 9), 0.3, "\(ev)")
        let factor = 1 / (1 + pow((ev[2] ?? 0) / SelectStage.parameterSpecs.first { $0.name == "exposureRef" }!.defaultValue, 4))
        XCTAssertLessThan(pushed.overall * factor, clean.overall, "the pushed frame ranks under its clean siblings")
    }

    func testABrightSkyAlongOneEdgeIsNoBackdrop() {
        let q = QualityAnalyzer()
        let landscape = frame(skyRows: 48)
        let stats = q.exposureStats(landscape.luma, landscape.width, landscape.height)
        XCTAssertGreaterThan(stats.backdrop, 0.1, "the sky is bright and flat and on the border")
        XCTAssertFalse(stats.highKey, "but along one edge only: border \(stats.backdropBorder)")
    }
}
