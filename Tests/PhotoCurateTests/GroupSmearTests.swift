import Foundation
@testable import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// A smear seen within each frame, so that misexposed and grainy siblings witness it too.
final class GroupSmearTests: XCTestCase {
    func frame(smear: Int = 0, gain: Double = 1, noise: Double = 0, shiftX: Double = 0) throws -> SelectInput {
        let path = try temporaryDirectory() + "/f.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 11, width: 1600, height: 1200, shiftX: shiftX, gain: gain, noise: noise,
                                                         smear: smear, smearAngle: 45), to: path)
        let spectrum = SpectrumAnalyzer().analyze(try Decoder(longEdge: SelectInput.analysisLongEdge).decode(path))
        let t = TechnicalQualityScore(sharpness: 1, exposure: 1, noise: 1, composition: 0.5, overall: 0.9,
                                      measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                          noiseSigma: 0.5, meanLuma: 0.4, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                          whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1))
        return SelectInput(path: path, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), spectrum: spectrum)
    }

    /// A scene shot badly throughout: its best frame smeared, the others two stops over, two
    /// under, grainy. None is a blur reference for it, yet each shows the scene's own
    /// anisotropy, and the best frame is smeared beyond all of them. A clean best frame is not.
    func testASmearedBestFrameIsSeenAgainstMisexposedAndGrainySiblings() throws {
        let over = try frame(gain: 4, shiftX: 0.004), under = try frame(gain: 0.25, shiftX: 0.008), grainy = try frame(noise: 12, shiftX: 0.012)
        let smeared = try frame(smear: 32), clean = try frame(shiftX: 0.002)
        let withSmear = GroupSmear.measure(members: [0, 1, 2, 3], photos: [smeared, over, under, grainy])
        let withClean = GroupSmear.measure(members: [0, 1, 2, 3], photos: [clean, over, under, grainy])
        XCTAssertGreaterThanOrEqual(withSmear[0] ?? 0, GroupSmear.smeared, "\(withSmear)")
        XCTAssertLessThan(withClean[0] ?? 0, GroupSmear.smeared / 2, "\(withClean)")
        // A clean frame among siblings smeared at 45° is more anisotropic than each of them (its
        // 135° holds the detail theirs lost), but it is no blurrier than they are anywhere.
        let shaken = try frame(smear: 16, shiftX: 0.006), shaken2 = try frame(smear: 18, shiftX: 0.01)
        let amongShaken = GroupSmear.measure(members: [0, 1, 2], photos: [clean, shaken, shaken2])
        XCTAssertLessThan(amongShaken[0] ?? 0, GroupSmear.smeared / 2, "\(amongShaken)")
        // Its anisotropy alone exceeds theirs: what the second condition is for.
        let own = clean.spectrum!.anisotropy, theirs = [shaken, shaken2].map { $0.spectrum!.anisotropy }
        let excess = own.indices.compactMap { k in own[k].flatMap { v in theirs.compactMap { $0[k] }.max().map { v - $0 } } }.max() ?? 0
        XCTAssertGreaterThanOrEqual(excess, GroupSmear.smeared)

        // Its siblings count as clean to the other measures here (as a second smear did on a held-out
        // trip): only the smear within the frame leaves the group unconfirmed.
        func unconfirmed(_ smear: [Int: Double]) -> Set<Int> {
            SelectStage.uncorroborated(groups: [[0, 1, 2, 3]], tech: [0.9, 0.5, 0.5, 0.5], blur: [:], exposure: [:], grain: [:],
                                       blurRef: 0.45, grainRef: 5, smear: smear)
        }
        XCTAssertEqual(unconfirmed(withSmear), [0])
        XCTAssertTrue(unconfirmed(withClean).isEmpty)
        XCTAssertTrue(unconfirmed([:]).isEmpty, "without it, nothing doubted the smeared frame")
        XCTAssertEqual(unconfirmed([1: 1, 2: 1, 3: 1]), [0], "smeared siblings confirm nothing")
        XCTAssertTrue(unconfirmed([1: 1, 2: 1, 3: 0.3]).isEmpty, "one sibling that is not smeared does")
    }

    /// A mild smear in a scene shot badly throughout reads under the line but over half of it,
    /// where no clean best frame reads (selection v38 lets such a group fill a short top N only
    /// after the doubted groups that nothing reads as faulty). A clean best frame among the same
    /// siblings stays under half.
    func testAMildSmearAmongFaultySiblingsReadsPartlySmeared() throws {
        let over = try frame(gain: 4, shiftX: 0.004), under = try frame(gain: 0.25, shiftX: 0.008), grainy = try frame(noise: 12, shiftX: 0.012)
        let mild = try frame(smear: 6), clean = try frame(shiftX: 0.002)
        let withMild = GroupSmear.measure(members: [0, 1, 2, 3], photos: [mild, over, under, grainy])[0]
        let withClean = GroupSmear.measure(members: [0, 1, 2, 3], photos: [clean, over, under, grainy])[0]
        XCTAssertTrue(GroupSmear.isPartlySmeared(withMild), "\(String(describing: withMild))")
        XCTAssertFalse(GroupSmear.isSmeared(withMild), "\(String(describing: withMild))")
        XCTAssertFalse(GroupSmear.isPartlySmeared(withClean), "\(String(describing: withClean))")
    }
}
