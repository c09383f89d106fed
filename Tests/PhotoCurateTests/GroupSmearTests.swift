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

    /// In a pair, the one sibling is the measure (select v46): a pair a stop or more apart that both
    /// look right has no blur witness (`GroupBlur` takes it for two renditions of the view), and its
    /// smeared frame was picked. A clean frame beside its smeared twin reads no smear; two clean
    /// frames, one 1.3 stops brighter, neither.
    func testInAPairTheOneSiblingIsTheMeasure() throws {
        let smeared = try frame(smear: 24), clean = try frame(shiftX: 0.002), brighter = try frame(gain: 2.46, shiftX: 0.004)
        let pair = GroupSmear.measure(members: [0, 1], photos: [smeared, clean])
        XCTAssertGreaterThan(pair[0] ?? 0, GroupSmear.smeared / 2, "\(pair)")
        XCTAssertLessThan(pair[1] ?? 0, GroupSmear.smeared / 2, "\(pair)")
        let twins = GroupSmear.measure(members: [0, 1], photos: [clean, brighter])
        XCTAssertLessThan(twins.values.max() ?? 0, GroupSmear.smeared / 2, "\(twins)")
        // A grainy twin is no fair reference (grain dilutes its anisotropy), nor one pushed over a
        // stop that looks wrong on its own: the clean frame gets no value against them.
        var grainy = try frame(noise: 12, shiftX: 0.004)
        grainy.technical.measurements.noiseSigma = 4
        XCTAssertNil(GroupSmear.measure(members: [0, 1], photos: [clean, grainy])[0])
        let base = [0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2, 0.25, 0.3]
        let srgb = { (l: Double) in l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055 }
        let linear = { (v: Double) in v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        var dim = clean, lit = brighter
        dim.technical.measurements.brightestDeciles = base
        lit.technical.measurements.brightestDeciles = base.map { srgb(linear($0) * pow(2, 1.3)) }
        XCTAssertNotNil(GroupSmear.measure(members: [0, 1], photos: [dim, lit])[0], "a twin 1.3 stops over that looks right")
        lit.technical.exposure = 0.3
        XCTAssertNil(GroupSmear.measure(members: [0, 1], photos: [dim, lit])[0], "a twin 1.3 stops over that looks wrong")

        // Selection: the smeared frame, 1.3 stops darker and the better on its own, loses.
        var frames = [smeared, clean]
        frames[0].technical.measurements.brightestDeciles = base
        frames[1].technical.measurements.brightestDeciles = base.map { srgb(linear($0) * pow(2, 1.3)) }
        frames[0].technical.overall = 0.95
        frames[1].technical.overall = 0.9
        for k in 0...1 { frames[k].technical.exposure = 0.95; frames[k].path = "f\(k).jpg" }
        XCTAssertNil(GroupBlur.measure(members: [0, 1], photos: frames)[0], "two renditions: no blur witness")
        let clustering = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(frames.enumerated().map { k, f in
            ClusterInput(epoch: Double(k), latitude: nil, longitude: nil, print: f.print, quality: f.technical.overall, path: f.path)
        })
        XCTAssertEqual(clustering.clusters.count, 1)
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 1])).run((frames, clustering))
        XCTAssertEqual(s.picks, [1])
    }
}
