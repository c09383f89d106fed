import Foundation
@testable import PhotoCurate
import XCTest

/// A subject photographed on white is high key, not over-exposed (quality v17); a frame pushed
/// three stops that blows its edges blows its centre too, or lifts its blacks (select v47 for pairs).
final class WhiteBackgroundTests: XCTestCase {
    /// A 256×192 frame: a textured subject (dark to mid grey, with a black detail) over the centre
    /// `subject` share of each side, on a white background; `gain` multiplies linear light.
    func frame(subject: Double = 0.5, gain: Double = 1) -> AnalysisImage {
        let w = 256, h = 192
        var rgb = [UInt8](repeating: 255, count: w * h * 3)
        let x0 = Int(Double(w) * (1 - subject) / 2), y0 = Int(Double(h) * (1 - subject) / 2)
        for y in y0..<(h - y0) {
            for x in x0..<(w - x0) {
                // Bands of 20–146 levels, wider than a clipping block, and a black patch: a real
                // subject has depth.
                var v = 20.0 + Double((x / 24 + y / 24) % 8) * 18
                if x < x0 + 12, y < y0 + 12 { v = 4 }
                let linear = pow(v / 255, 2.2) * gain
                let out = UInt8(min(255, (pow(min(1, linear), 1 / 2.2) * 255).rounded()))
                let i = 3 * (y * w + x)
                rgb[i] = out; rgb[i + 1] = out; rgb[i + 2] = out
            }
        }
        return AnalysisImage(width: w, height: h, rgb: rgb)
    }

    func testASubjectOnWhiteIsHighKeyAndAPushedFrameIsNot() {
        let q = QualityAnalyzer()
        let onWhite = frame()
        let stats = q.exposureStats(onWhite.luma, onWhite.width, onWhite.height)
        XCTAssertGreaterThan(stats.high, 0.5, "three quarters of the frame is white")
        XCTAssertTrue(stats.whiteBackground)
        let score = q.analyze(onWhite)
        XCTAssertEqual(score.measurements.whiteBackground, true)
        XCTAssertGreaterThan(score.exposure, 0.8, "\(score.exposure)")

        // The subject filling the frame, pushed three stops: its bands over 98 levels blow, at the
        // edges as in the centre.
        let pushed = frame(subject: 1.0, gain: 8)
        let p = q.exposureStats(pushed.luma, pushed.width, pushed.height)
        XCTAssertFalse(p.whiteBackground)
        XCTAssertLessThan(q.analyze(pushed).exposure, 0.5)
        // A subject on white pushed three stops: its blacks lift (20 levels to 50).
        let pushedOnWhite = frame(gain: 8)
        XCTAssertFalse(q.exposureStats(pushedOnWhite.luma, pushedOnWhite.width, pushedOnWhite.height).whiteBackground)
    }

    /// A pair: the clean frame on white (blown, median white) and its twin two stops under, white
    /// point short of white. The twin is the misfire; before select v47 the white frame was.
    func testTheTwinOfASubjectOnWhiteThatStopsShortOfWhiteIsTheMisfire() throws {
        let q = QualityAnalyzer()
        let clean = q.analyze(frame())
        var under = clean
        under.measurements.whiteBackground = false
        under.measurements.whitePoint = 0.5
        under.measurements.medianLuma = 0.5
        under.measurements.clippedColour = 0
        under.measurements.clippedHighlights = 0
        under.measurements.brightestDeciles = clean.measurements.brightestDeciles.map { $0 * 0.5 }
        XCTAssertGreaterThan(clean.measurements.clippedColour, GroupExposure.pushedBlown)
        let photos = [SelectInput(path: "a.jpg", technical: clean, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1])),
                      SelectInput(path: "b.jpg", technical: under, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))]
        let d = GroupExposure.difference(clean.measurements, under.measurements)
        XCTAssertGreaterThan(d, 1)
        XCTAssertEqual(GroupExposure.shortOfPair(0, 1, d, photos), 1)
        XCTAssertNil(GroupExposure.blownOfPair(0, 1, d, photos))
        var notWhite = photos
        notWhite[0].technical.measurements.whiteBackground = false
        XCTAssertEqual(GroupExposure.blownOfPair(0, 1, d, notWhite), 0, "without it, the blown frame is the misfire")
        // A high-key frame judged on its subject (quality v18) is bright by design as well (select v49).
        var highKey = notWhite
        highKey[0].technical.measurements.highKey = true
        highKey[0].technical.measurements.unliftedExposure = 0.0
        XCTAssertNil(GroupExposure.blownOfPair(0, 1, d, highKey))
        XCTAssertEqual(GroupExposure.shortOfPair(0, 1, d, highKey), 1)
        XCTAssertNotNil(GroupExposure.measure(members: [0, 1], photos: highKey)[1], "the twin short of white reads as the misfire")
        XCTAssertNil(GroupExposure.measure(members: [0, 1], photos: highKey)[0])
        // Its backdrop reached but its subject too poor to stand for the frame: no lift, so a blown misfire.
        highKey[0].technical.measurements.unliftedExposure = nil
        XCTAssertEqual(GroupExposure.blownOfPair(0, 1, d, highKey), 0)
    }
}
