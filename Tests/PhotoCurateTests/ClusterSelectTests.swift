import Foundation
import PhotoCurate
import PhotoCurateBench
import XCTest

final class ClusterSelectTests: XCTestCase {
    /// `v` scaled to unit length, as a print.
    func unit(_ v: [Float]) -> FeaturePrint { let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot(); return FeaturePrint(vector: v.map { $0 / n }) }

    /// `w` of `a` and `1 − w` of `b`, as a print.
    func mix(_ a: FeaturePrint, _ b: FeaturePrint, _ w: Float) -> FeaturePrint { unit(zip(a.vector, b.vector).map { w * $0 + (1 - w) * $1 }) }

    /// Two untimed scenes of one look, four frames each ("a0"…"a3", then "b0"…"b3"): the
    /// frames of each agree at 0.999, the two scenes at 0.78.
    func twoScenesOfOneLook() -> [(path: String, print: FeaturePrint)] {
        let a = print(scene: 4, jitter: 50), b = mix(a, print(scene: 5, jitter: 50), 0.55)
        return (0..<4).map { ("a\($0)", mix(a, print(scene: 4, jitter: $0), 0.93)) } + (0..<4).map { ("b\($0)", mix(b, print(scene: 5, jitter: $0), 0.93)) }
    }

    /// A unit vector near `base` (scene), with a small deterministic perturbation.
    func print(scene: Int, jitter: Int) -> FeaturePrint {
        var rng = SeededRandom(seed: UInt64(scene) * 1000 + 1)
        var v = (0..<32).map { _ in Float(rng.uniform(-1, 1)) }
        var j = SeededRandom(seed: UInt64(scene * 100 + jitter + 7))
        v = v.map { $0 + Float(j.uniform(-0.15, 0.15)) }
        return unit(v)
    }

    /// Photos with a trusted time (seconds after a fixed start) whose quality is their sharpness
    /// alone, as clustering and selection see them.
    func timed(_ photos: [(path: String, print: FeaturePrint, seconds: Double, quality: Double)]) -> ([ClusterInput], [SelectInput]) {
        var inputs: [ClusterInput] = [], sel: [SelectInput] = []
        for (path, p, t, q) in photos {
            inputs.append(ClusterInput(epoch: 1_000_000 + t, latitude: nil, longitude: nil, print: p, quality: q, path: path))
            let m = TechnicalQualityScore.Measurements(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                       noiseSigma: 0.5, meanLuma: 0.5, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                       whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1)
            let tq = TechnicalQualityScore(sharpness: q, exposure: 1, noise: 1, composition: 0.5, overall: q, measurements: m)
            sel.append(SelectInput(path: path, technical: tq, localHour: 12, timeLabel: "12:00", print: p, epoch: 1_000_000 + t))
        }
        return (inputs, sel)
    }

    func testMomentsVisualGroupsAndUntrustedTimes() throws {
        var inputs: [ClusterInput] = []
        // Scene 0: burst at t=0..4 s; scene 1: 2 minutes later, 500 m away; scene 2: 3 hours later.
        for k in 0..<3 { inputs.append(ClusterInput(epoch: Double(k * 2), latitude: 45, longitude: 12, print: print(scene: 0, jitter: k), quality: 0.5, path: "a\(k)")) }
        for k in 0..<3 { inputs.append(ClusterInput(epoch: 120 + Double(k), latitude: 45.0045, longitude: 12, print: print(scene: 1, jitter: k), quality: 0.5, path: "b\(k)")) }
        for k in 0..<2 { inputs.append(ClusterInput(epoch: 3 * 3600 + Double(k), latitude: nil, longitude: nil, print: print(scene: 2, jitter: k), quality: 0.5, path: "c\(k)")) }
        // No trusted time and no GPS: must still join scene 1's group.
        inputs.append(ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: print(scene: 1, jitter: 9), quality: 0.5, path: "z"))
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 3)
        XCTAssertEqual(Set(c.clusterOf[0..<3]).count, 1)
        XCTAssertEqual(c.clusterOf[8], c.clusterOf[3])
        XCTAssertEqual(c.momentOf[8], c.momentOf[3], "the untrusted photo adopts its group's moment")
        XCTAssertNotEqual(c.momentOf[0], c.momentOf[3], "500 m apart is another moment, even 2 minutes later")
        XCTAssertEqual(Metrics.adjustedRand(truth: [0, 0, 0, 1, 1, 1, 2, 2, 1], predicted: c.clusterOf), 1, accuracy: 1e-9)
    }

    /// Untimed frames alike among themselves that look less like a timed scene than each looks
    /// like itself are another scene (a second crop of the photograph, another foggy picture),
    /// and keep their own group (cluster v4); untimed frames of the timed scene itself join it.
    func testAnUntimedSceneOfTheSameLookKeepsItsOwnGroup() throws {
        var inputs: [ClusterInput] = []
        for k in 0..<4 { inputs.append(ClusterInput(epoch: Double(k), latitude: nil, longitude: nil, print: print(scene: 0, jitter: k), quality: 0.5, path: "a\(k)")) }
        // Another scene, untimed, halfway to scene 0's look: alike among themselves, less like scene 0.
        let other = mix(print(scene: 0, jitter: 50), print(scene: 3, jitter: 50), 0.6)
        for k in 0..<3 { inputs.append(ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: mix(other, print(scene: 3, jitter: k), 0.97), quality: 0.5, path: "u\(k)")) }
        // Scene 0's own frames, stripped of their time.
        for k in 0..<2 { inputs.append(ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: print(scene: 0, jitter: 20 + k), quality: 0.5, path: "s\(k)")) }
        XCTAssertGreaterThan(inputs[0].print.cosine(inputs[4].print), 0.75, "the untimed scene looks like scene 0 by the similarity threshold")
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertNotEqual(c.clusterOf[4], c.clusterOf[0], "the untimed scene keeps its own group")
        XCTAssertEqual(Set(c.clusterOf[4..<7]).count, 1)
        XCTAssertEqual(c.clusterOf[7], c.clusterOf[0], "scene 0's untimed frames join it")
        XCTAssertEqual(c.clusterOf[8], c.clusterOf[0])
        let off = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs, overrides: ["untimedGap": 1])).run(inputs)
        XCTAssertEqual(off.clusterOf[4], off.clusterOf[0], "without the rule they merge")
    }

    /// Two untimed scenes of one look (two foggy pictures) stay two groups (cluster v5), while
    /// the halves of one untimed burst, split by its faults, are one.
    func testTwoUntimedScenesOfOneLookStayApart() throws {
        func untimed(_ p: FeaturePrint, _ path: String) -> ClusterInput { ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: p, quality: 0.5, path: path) }
        func mean(_ x: ArraySlice<ClusterInput>, _ y: ArraySlice<ClusterInput>) -> Float {
            let c = x.flatMap { a in y.map { a.print.cosine($0.print) } }
            return c.reduce(0, +) / Float(c.count)
        }
        // Scenes A and B: one look, two pictures.
        var inputs = twoScenesOfOneLook().map { untimed($0.print, $0.path) }
        // Scene C: sharp frames, and frames its faults moved a little away from them.
        let c = print(scene: 6, jitter: 50), blurred = mix(c, print(scene: 7, jitter: 50), 0.8)
        inputs += (0..<3).map { untimed(mix(c, print(scene: 6, jitter: $0), 0.93), "c\($0)") }
        inputs += (0..<3).map { untimed(mix(blurred, print(scene: 7, jitter: $0), 0.93), "d\($0)") }
        XCTAssertGreaterThan(mean(inputs[0..<4], inputs[4..<8]), 0.75, "A and B look alike by the similarity threshold")
        XCTAssertGreaterThan(mean(inputs[0..<4], inputs[0..<4]) - mean(inputs[0..<4], inputs[4..<8]), 0.12, "\(mean(inputs[0..<4], inputs[0..<4])) \(mean(inputs[0..<4], inputs[4..<8]))")
        XCTAssertLessThan(mean(inputs[8..<11], inputs[8..<11]) - mean(inputs[8..<11], inputs[11..<14]), 0.12, "\(mean(inputs[8..<11], inputs[8..<11])) \(mean(inputs[8..<11], inputs[11..<14]))")
        let cl = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(Set(cl.clusterOf[0..<4]).count, 1)
        XCTAssertEqual(Set(cl.clusterOf[4..<8]).count, 1)
        XCTAssertNotEqual(cl.clusterOf[0], cl.clusterOf[4], "two untimed scenes of one look keep their groups")
        XCTAssertEqual(Set(cl.clusterOf[8..<14]).count, 1, "the halves of one untimed burst are one group")
        let off = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs, overrides: ["untimedPairGap": 1])).run(inputs)
        XCTAssertEqual(off.clusterOf[0], off.clusterOf[4], "without the rule they merge")
    }

    func testSelectionPicksBestPerGroupAndNeverNearDuplicates() throws {
        var inputs: [ClusterInput] = [], sel: [SelectInput] = []
        let qualities: [[Double]] = [[0.9, 0.3, 0.5], [0.4, 0.8], [0.7]]
        for (s, qs) in qualities.enumerated() {
            for (k, q) in qs.enumerated() {
                let p = print(scene: s, jitter: k)
                inputs.append(ClusterInput(epoch: Double(s * 10_000 + k), latitude: nil, longitude: nil, print: p, quality: q, path: "s\(s)-\(k)"))
                var t = TechnicalQualityScore(sharpness: q, exposure: 1, noise: 1, composition: 0.5, overall: q,
                                              measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                                  noiseSigma: 0.5, meanLuma: 0.5, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                                  whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1))
                t.overall = q
                sel.append(SelectInput(path: "s\(s)-\(k)", technical: t, localHour: 12, timeLabel: "12:00", print: p))
            }
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        let p = try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10])
        let s = try SelectStage(parameters: p).run((sel, c))
        XCTAssertEqual(s.picks.map { sel[$0].path }, ["s0-0", "s1-1", "s2-0"], "one per group, best first, no near-duplicates")
        XCTAssertTrue(s.reasons[1].contains { $0.contains("beaten by s0-0") })
        XCTAssertTrue(s.reasons[0].first!.contains("of 3 in burst"))
        let again = try SelectStage(parameters: p).run((sel, c))
        XCTAssertEqual(again.picks, s.picks)
    }

    /// A blown-out frame of a burst looks too different to join its visual group, but it was
    /// shot during the burst: it is that scene again, not a second scene of the moment.
    func testAFrameShotDuringAPickedBurstIsNotASecondPick() throws {
        // Scene 0: frames at 0, 2, 4 s; its misfire (another look: scene 9's print) at 3 s.
        // Scene 1 in the same moment 20 s later, a real second scene.
        let frames: [(String, Int, Int, Double, Double)] = [("s0-0", 0, 0, 0, 0.9), ("s0-1", 0, 1, 2, 0.8), ("s0-2", 0, 2, 4, 0.7),
                                                            ("misfire", 9, 0, 3, 0.5), ("s1-0", 1, 0, 24, 0.6)]
        let (inputs, sel) = timed(frames.map { ($0.0, print(scene: $0.1, jitter: $0.2), $0.3, $0.4) })
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(Set(c.momentOf).count, 1, "one moment")
        XCTAssertNotEqual(c.clusterOf[3], c.clusterOf[0], "the misfire is a visual group of its own")
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10])).run((sel, c))
        XCTAssertEqual(s.picks.map { sel[$0].path }, ["s0-0", "s1-0"])
        XCTAssertTrue(s.reasons[3].contains { $0.contains("taken while the burst of s0-0") }, "\(s.reasons[3])")
        // Either rule alone keeps it out (the shooting burst: 2 s gaps; the group's span ± 1 s).
        for one in ["sameBurstSeconds", "burstGap"] {
            let p = try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10, one: 0])
            XCTAssertFalse(try SelectStage(parameters: p).run((sel, c)).picks.contains(3), "\(one) off")
        }
        // Both turned off, it comes back as a second pick.
        let off = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10, "sameBurstSeconds": 0, "burstGap": 0])).run((sel, c))
        XCTAssertTrue(off.picks.contains(3))
    }

    /// A top N that look-alikes would leave short is filled: first with a look-alike of a pick
    /// from another moment, then with a scene under the quality floor; never with a frame shot
    /// seconds after a pick (a pair's misfire that did not join its clean frame).
    func testAShortTopIsFilledWithLookAlikesOfOtherMomentsThenScenesUnderTheFloor() throws {
        let a = unit([1, 0, 0, 0]), alike = unit([0.85, 0.5268, 0, 0]), misfire = unit([0, 0, 1, 0]), dark = unit([0, 0, 0, 1])
        // (path, print, seconds, quality): a at 0 s, its misfire at 2 s, a look-alike 5 h later, a dark scene 10 h later.
        let photos: [(String, FeaturePrint, Double, Double)] = [("a", a, 0, 0.9), ("a-misfire", misfire, 2, 0.2),
                                                                ("alike", alike, 5 * 3600, 0.8), ("dark", dark, 10 * 3600, 0.25)]
        let (inputs, sel) = timed(photos)
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 4)
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10])).run((sel, c))
        XCTAssertEqual(s.picks.map { sel[$0].path }, ["a", "alike", "dark"])
        XCTAssertTrue(s.reasons[2].contains { $0.contains("fills the top 10: looks like a (similarity 0.85), a pick from another moment") }, "\(s.reasons[2])")
        XCTAssertTrue(s.reasons[3].contains { $0.contains("fills the top 10: quality") && $0.contains("is under 35% of the trip's best") && $0.contains("but no other scene is left") }, "\(s.reasons[3])")
        XCTAssertTrue(s.reasons[1].contains { $0.hasPrefix("not offered: quality 0.20") }, "\(s.reasons[1])")
        // A top 2 is full before any filling; with filling off, the list stops short.
        let two = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 2])).run((sel, c))
        XCTAssertEqual(two.picks.map { sel[$0].path }, ["a", "alike"])
        let off = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10, "fillSimilarity": 0.75])).run((sel, c))
        XCTAssertEqual(off.picks.map { sel[$0].path }, ["a"])
        XCTAssertTrue(off.reasons[2].contains { $0.contains("not picked: looks like a") })
    }

    /// Two groups without a trusted time that look alike give one pick, even to fill a short
    /// top N: their moments are their own, not ones a clock told apart, so the second may be
    /// the same scene (an untimed burst split in two by its faults).
    func testTwoUntimedGroupsThatLookAlikeGiveOnePick() throws {
        var prints: [(String, FeaturePrint, Double)] = twoScenesOfOneLook().enumerated().map { k, f in
            (f.path, f.print, (k < 4 ? 0.9 : 0.8) - 0.1 * Double(k % 4))
        }
        prints += (0..<2).map { ("c\($0)", print(scene: 8, jitter: $0), 0.7 - 0.1 * Double($0)) }
        var (inputs, sel) = timed(prints.map { ($0.0, $0.1, 0, $0.2) })
        for i in inputs.indices {
            inputs[i] = ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: inputs[i].print, quality: inputs[i].quality, path: inputs[i].path)
            sel[i] = SelectInput(path: sel[i].path, technical: sel[i].technical, localHour: nil, timeLabel: nil, print: sel[i].print, timeTrusted: false)
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertNotEqual(c.clusterOf[0], c.clusterOf[4], "two groups")
        XCTAssertNotEqual(c.momentOf[0], c.momentOf[4], "each with a moment of its own")
        XCTAssertGreaterThanOrEqual(sel[0].print.cosine(sel[4].print), 0.75, "whose best frames look alike")
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10])).run((sel, c))
        XCTAssertEqual(s.picks.map { sel[$0].path }, ["a0", "c0"])
        XCTAssertTrue(s.reasons[4].contains { $0.contains("not picked: looks like a0") }, "\(s.reasons[4])")
    }

    /// A clean photo of the same view shot again at another moment (cosine 0.99 with a pick)
    /// fills a short top N after the less alike ones but before a scene under the quality
    /// floor; a copy of a picked picture never fills.
    func testARepeatedViewFillsBeforeAWeakSceneButACopyNever() throws {
        let a = unit([1, 0, 0, 0, 0]), alike = unit([0.85, 0.5268, 0, 0, 0]), dark = unit([0, 0, 0, 1, 0])
        let again = unit([0.99, 0, 0, 0, 0.1411]), copy = unit([0.9999, 0, 0, 0, -0.0141])
        // Hours apart, each its own moment; the repeated view scores over the less alike one.
        let photos: [(String, FeaturePrint, Double, Double)] = [("a", a, 0, 0.9), ("alike", alike, 5 * 3600, 0.7), ("again", again, 10 * 3600, 0.85),
                                                                ("copy", copy, 15 * 3600, 0.9), ("dark", dark, 20 * 3600, 0.25)]
        let (inputs, sel) = timed(photos)
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 5)
        let all = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 10])).run((sel, c))
        XCTAssertEqual(Set(all.picks.map { sel[$0].path }), ["a", "alike", "again", "dark"])
        XCTAssertTrue(all.reasons[2].contains { $0.contains("fills the top 10: looks like a (similarity 0.99), a pick from another moment") }, "\(all.reasons[2])")
        XCTAssertFalse(all.picks.contains(3), "a copy of a pick: \(all.reasons[3])")
        // With one place left after the less alike fill, the repeated view takes it, not the weak scene.
        let three = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 3])).run((sel, c))
        XCTAssertEqual(Set(three.picks.map { sel[$0].path }), ["a", "alike", "again"])
        // Two places: the less alike view first, though the repeated one scores higher.
        let two = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 2])).run((sel, c))
        XCTAssertEqual(Set(two.picks.map { sel[$0].path }), ["a", "alike"])
        // Off (at fillSimilarity), the weak scene fills instead.
        let off = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 3, "repeatSimilarity": 0.95])).run((sel, c))
        XCTAssertEqual(Set(off.picks.map { sel[$0].path }), ["a", "alike", "dark"])
    }

    /// Five photos, each with the quality given: a at 0 s; b0 and b1, a burst 5 h later that looks
    /// like a (0.85); c, unlike both, 10 h later; u, with no trusted time, which joins b's group
    /// (asserted) and looks like a, clustered.
    func untimedBestBesideAPick(a qa: Double, b0: Double, b1: Double, c qc: Double, u qu: Double) throws -> ([SelectInput], Clustering) {
        let photos: [(String, FeaturePrint, Double, Double)] = [
            ("a", unit([1, 0, 0, 0]), 0, qa), ("b0", unit([0.85, 0.5268, 0, 0]), 5 * 3600, b0), ("b1", unit([0.84, 0.54, 0, 0.01]), 5 * 3600 + 2, b1),
            ("c", unit([0, 0, 1, 0]), 10 * 3600, qc), ("u", unit([0.86, 0.51, 0, 0.02]), 0, qu)]
        var (inputs, sel) = timed(photos)
        inputs[4] = ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: inputs[4].print, quality: inputs[4].quality, path: "u")
        sel[4] = SelectInput(path: "u", technical: sel[4].technical, localHour: nil, timeLabel: nil, print: sel[4].print, timeTrusted: false)
        let cl = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(cl.clusterOf[4], cl.clusterOf[1], "the untimed frame joins the timed group it looks like")
        return (sel, cl)
    }

    /// A frame with no trusted time joins a group by its look alone, so it may be a frame of
    /// another scene cut from the same photograph. Where its group fills a short top N as a
    /// look-alike of a pick of another moment, the group's best frame with a trusted time stands
    /// in for it (og186: the untimed frame was the picked scene's own, a same-scene pair).
    func testAnUntimedBestFillsAsALookAlikeOnlyThroughItsGroupsTimedFrame() throws {
        let (sel, cl) = try untimedBestBesideAPick(a: 0.9, b0: 0.85, b1: 0.8, c: 0.7, u: 0.95)
        XCTAssertGreaterThanOrEqual(sel[4].print.cosine(sel[0].print), 0.75, "and looks like the pick of another moment")
        let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 3])).run((sel, cl))
        XCTAssertEqual(Set(s.picks.map { sel[$0].path }), ["a", "c", "b0"])
        XCTAssertTrue(s.reasons[1].contains { $0.contains("in place of u, which has none") }, "\(s.reasons[1])")
        XCTAssertFalse(s.reasons[1].contains { $0.hasPrefix("beaten by") }, "\(s.reasons[1])")
        XCTAssertTrue(s.reasons[4].contains { $0.contains("not picked: looks like") }, "\(s.reasons[4])")
    }

    /// A held-back untimed best whose timed stand-in is worth less than another held-back scene
    /// fills after that scene: the stand-in fills at its own worth, not its group's best's, and
    /// says why its group was held back (select v54).
    func testAStandInForAHeldBackBestFillsAtItsOwnWorth() throws {
        // Under the quality floor (35 % of 0.9): u (0.3) best of its group, then c (0.12), then u's timed siblings.
        let (sel, cl) = try untimedBestBesideAPick(a: 0.9, b0: 0.1, b1: 0.05, c: 0.12, u: 0.3)
        // One place after a: c takes it, not b0 standing in for u.
        let two = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 2])).run((sel, cl))
        XCTAssertGreaterThan(two.scores[4].overall, two.scores[3].overall, "u's group fills before c")
        XCTAssertGreaterThan(two.scores[3].overall, two.scores[1].overall, "c before b0")
        XCTAssertEqual(two.picks.map { sel[$0].path }, ["a", "c"])
        // Two places: b0 after c, in u's place, held back for u's reason.
        let three = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 3])).run((sel, cl))
        XCTAssertEqual(Set(three.picks.map { sel[$0].path }), ["a", "c", "b0"])
        XCTAssertTrue(three.reasons[1].contains { $0.contains("in place of u, which has none") }, "\(three.reasons[1])")
        XCTAssertTrue(three.reasons[1].contains { $0.contains("fills the top 3: quality 0.30 is under 35% of the trip's best (0.90), but no other scene is left") },
                      "\(three.reasons[1])")
    }

    /// A frame stored on its side gives way to an upright sibling that stands at least half as
    /// well, not to one that is far worse (a frame two stops under against two clean frames).
    func testAFrameOnItsSideGivesWayOnlyToAnUprightSiblingHalfAsGood() throws {
        let p = FeaturePrint(vector: [1, 0, 0, 0])
        for (upright, expected) in [(0.38, "side-1"), (0.6, "upright")] {
            let (inputs, sel) = timed([("upright", p, 0, upright), ("side-1", p, 1, 0.97), ("side-2", p, 2, 0.96)])
            var c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
            XCTAssertEqual(c.clusters.count, 1)
            c.sideways = [1: 90, 2: 90]
            let s = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 1])).run((sel, c))
            XCTAssertEqual(s.picks.map { sel[$0].path }, [expected], "upright at \(upright)")
        }
    }

    /// A pair has no majority; a frame a stop brighter and blown over a quarter more of the frame
    /// is its misfire, even where the absolute exposure score prefers it (a low-key scene).
    func testAPairsBlownFrameIsTheMisfireThoughItsAbsoluteExposureIsBetter() throws {
        func input(_ medianLuma: Double, exposure: Double, blown: Double) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: medianLuma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1,
                                                              medianLuma: medianLuma, clippedColour: blown))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        // The low-key scene: clean 0.38 (score 0.56), pushed 2.2 stops to 0.73 with 70 % blown (score 0.66).
        let lowKey = GroupExposure.measure(members: [0, 1], photos: [input(0.376, exposure: 0.557, blown: 0), input(0.733, exposure: 0.66, blown: 0.70)])
        XCTAssertNil(lowKey[0], "the clean frame is the reference")
        XCTAssertGreaterThan(try XCTUnwrap(lowKey[1]), 1.5)
        // A bright scene blows 7 % of its clean frame; its twin 2 stops under blows none: that is under-exposure.
        let bright = GroupExposure.measure(members: [0, 1], photos: [input(0.58, exposure: 0.91, blown: 0.073), input(0.25, exposure: 0.35, blown: 0)])
        XCTAssertNil(bright[0])
        XCTAssertLessThan(try XCTUnwrap(bright[1]), -1.5)
    }

    /// The darker frame of a pair that stops short of white is its misfire, even beside a twin
    /// that blows a white overcast sky and scores worse on its own, or beside a bright twin that
    /// clips nothing; a low-key frame that keeps its highlights is not, nor is one beside a frame
    /// blown like a pushed one.
    func testAPairsDarkerFrameShortOfWhiteIsTheMisfireBesideAWhiteSky() throws {
        func input(_ medianLuma: Double, exposure: Double, white: Double, clipped: Double, blown: Double) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: medianLuma, clippedHighlights: clipped, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: white, blackPoint: 0.05, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1,
                                                              medianLuma: medianLuma, clippedColour: blown))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        // x30c's street: clean median 0.49 under a white sky (14.5 % clipped, 46 % blown, exposure 0.09),
        // its twin 2.1 stops under stops at white point 0.49 (exposure 0.37).
        let street = GroupExposure.measure(members: [0, 1], photos: [input(0.49, exposure: 0.09, white: 1, clipped: 0.145, blown: 0.46),
                                                                      input(0.25, exposure: 0.37, white: 0.49, clipped: 0, blown: 0)])
        XCTAssertNil(street[0], "the clean frame is the reference")
        XCTAssertLessThan(try XCTUnwrap(street[1]), -1.5)
        // The same dark frame keeping its highlights (white point 0.8) is low key: the blown twin is the misfire.
        let lowKey = GroupExposure.measure(members: [0, 1], photos: [input(0.49, exposure: 0.09, white: 1, clipped: 0.145, blown: 0.46),
                                                                      input(0.25, exposure: 0.37, white: 0.8, clipped: 0, blown: 0)])
        XCTAssertNil(lowKey[1])
        XCTAssertGreaterThan(try XCTUnwrap(lowKey[0]), 1.5)
        // Beside a twin blown like a pushed frame (70 %), the dark frame short of white is not called the misfire.
        let pushed = GroupExposure.measure(members: [0, 1], photos: [input(0.6, exposure: 0.3, white: 1, clipped: 0.3, blown: 0.7),
                                                                      input(0.25, exposure: 0.37, white: 0.49, clipped: 0, blown: 0)])
        XCTAssertNil(pushed[1])
        XCTAssertGreaterThan(try XCTUnwrap(pushed[0]), 1.5)
        // x46a's pier, washed out on purpose: median 0.77 and nothing clipped in any channel (exposure
        // 0.41), its twin 1.9 stops under stopping at 0.549 (exposure 0.84). Over-exposure clips, so
        // the bright frame is the scene's exposure.
        let washed = GroupExposure.measure(members: [0, 1], photos: [input(0.77, exposure: 0.41, white: 0.83, clipped: 0, blown: 0),
                                                                      input(0.51, exposure: 0.84, white: 0.549, clipped: 0, blown: 0)])
        XCTAssertNil(washed[0], "the washed-out frame is the reference")
        XCTAssertLessThan(try XCTUnwrap(washed[1]), -1)
        // The same bright frame blowing a colour over 5 % of it may be pushed: the better look decides.
        let blowing = GroupExposure.measure(members: [0, 1], photos: [input(0.77, exposure: 0.41, white: 0.83, clipped: 0, blown: 0.05),
                                                                       input(0.51, exposure: 0.84, white: 0.549, clipped: 0, blown: 0)])
        XCTAssertNil(blowing[1])
        XCTAssertGreaterThan(try XCTUnwrap(blowing[0]), 1)
    }

    /// Both frames of a pair look right on their own; the darker clips nothing and is not short
    /// of white, so the brighter one, 1.8 stops over and clipping, is the misfire. An HDR
    /// pair, whose darker rendition clips itself, stays a matter of taste, and so does a pair whose
    /// darker frame crushes its shadows without nearing white.
    func testAPairsBrighterFrameThatClipsOverAFullRangeTwinIsTheMisfire() throws {
        func input(_ medianLuma: Double, clipped: Double, white: Double, crushed: Double) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: 1, noise: 1, composition: 0.5, overall: 0.9,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: medianLuma, clippedHighlights: clipped, clippedShadows: crushed, dynamicRange: 0.8,
                                                              whitePoint: white, blackPoint: 0.05, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1,
                                                              medianLuma: medianLuma, clippedColour: clipped))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        // e12cw's night sign: clean median 0.09 (white point 0.94), pushed 1.8 stops to 0.20 with 3.8 % clipped.
        let night = GroupExposure.measure(members: [0, 1], photos: [input(0.09, clipped: 0, white: 0.94, crushed: 0.003),
                                                                     input(0.20, clipped: 0.038, white: 1, crushed: 0)])
        XCTAssertNil(night[0], "the clean frame is the reference")
        XCTAssertGreaterThan(try XCTUnwrap(night[1]), 1.5)
        // x30f's moon: the clean frame stops at 0.62 with nothing clipped (not short of white);
        // its twin 2 stops over clips 7.9 %.
        let moon = GroupExposure.measure(members: [0, 1], photos: [input(0.20, clipped: 0, white: 0.62, crushed: 0),
                                                                    input(0.48, clipped: 0.079, white: 1, crushed: 0)])
        XCTAssertNil(moon[0], "the clean frame is the reference")
        XCTAssertGreaterThan(try XCTUnwrap(moon[1]), 1.5)
        // A darker frame that nears white may crush its shadows (a low-key scene's black): two men
        // in dark suits (15.5 % crushed, white point 0.78) beside their twin 2.2 stops over, clipping
        // 4.4 % (x35b, select v41). An old trip's HDR pair of that shape (the plain rendition crushing
        // 15 %, white point 0.89) now reads the same way.
        let suits = GroupExposure.measure(members: [0, 1], photos: [input(0.20, clipped: 0, white: 0.78, crushed: 0.155),
                                                                     input(0.44, clipped: 0.044, white: 1, crushed: 0.063)])
        XCTAssertNil(suits[0], "the clean frame is the reference")
        XCTAssertGreaterThan(try XCTUnwrap(suits[1]), 1.5)
        // Crushed and dimmer than that, the darker frame may be the one missing light: a matter of taste.
        let dim = GroupExposure.measure(members: [0, 1], photos: [input(0.12, clipped: 0, white: 0.62, crushed: 0.146),
                                                                   input(0.25, clipped: 0.076, white: 1, crushed: 0)])
        XCTAssertTrue(dim.isEmpty, "\(dim)")
        // A Canon's HDR pair: the HDR frame reaches white but clips 3.4 % itself; its plain twin
        // 1.7 stops brighter (6.2 %) is another rendition, not a misfire.
        let canon = GroupExposure.measure(members: [0, 1], photos: [input(0.29, clipped: 0.034, white: 1, crushed: 0),
                                                                     input(0.55, clipped: 0.062, white: 1, crushed: 0)])
        XCTAssertTrue(canon.isEmpty, "\(canon)")
        // Less than a stop apart: no misfire either.
        XCTAssertTrue(GroupExposure.measure(members: [0, 1], photos: [input(0.12, clipped: 0, white: 0.94, crushed: 0),
                                                                       input(0.17, clipped: 0.03, white: 1, crushed: 0)]).isEmpty)
    }

    /// A frame of a bright scene for `SelectStage.sceneExposure`: only its exposure score and
    /// its share in clipped blocks differ.
    private func sceneInput(_ exposure: Double, clipped: Double = 0.3) -> SelectInput {
        let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.5,
                                      measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                          noiseSigma: 0.5, meanLuma: 0.7, clippedHighlights: clipped, clippedShadows: 0, dynamicRange: 0.8,
                                                          whitePoint: 1, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: 0.7))
        return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
    }

    /// A high-key scene clips in every frame: a clean frame 0.4 stops over the burst scored 0.003
    /// on exposure while a defocused sibling scored 0.68. Near the group's exposure a frame is
    /// judged at least about as well as its best-exposed sibling; a misfire gets nothing from it
    /// and lends nothing (a dark scene's frame 2 stops over looked perfect on its own).
    func testAHighKeyScenesFramesAreJudgedByTheSceneNotEachOnItsOwn() throws {
        let photos = [sceneInput(0.003), sceneInput(0.73), sceneInput(0.68), sceneInput(1.0), sceneInput(0.02)]
        let ev: [Int: Double] = [0: 0.39, 1: -0.22, 2: -0.02, 3: 2.1, 4: -1.9]
        let lift = SelectStage.sceneExposure(groups: [[0, 1, 2, 3, 4]], photos: photos, groupExposure: ev, stops: 0.4)
        // 0.73 × exp(−(0.39/0.4)²) = 0.28 instead of 0.003: ×3.9 on overall (exposure weighs 0.3).
        XCTAssertEqual(try XCTUnwrap(lift[0]), pow(0.73 * exp(-pow(0.39 / 0.4, 2)) / 0.003, 0.3), accuracy: 1e-9)
        XCTAssertGreaterThan(try XCTUnwrap(lift[0]), 3.5)
        XCTAssertNil(lift[1], "the best-exposed frame keeps its own score")
        XCTAssertNil(lift[3], "the misfire 2 stops over is not lifted, and does not set the bar (else frame 1 would be)")
        XCTAssertEqual(lift[4] ?? 1, 1, accuracy: 1e-3, "a frame 1.9 stops under keeps what it scored")
        XCTAssertTrue(SelectStage.sceneExposure(groups: [[0, 1, 2, 3, 4]], photos: photos, groupExposure: ev, stops: 0).isEmpty, "0 turns it off")
        XCTAssertTrue(SelectStage.sceneExposure(groups: [[0]], photos: photos, groupExposure: [:], stops: 0.4).isEmpty, "a photo alone keeps its own")
    }

    /// A stop or more from the burst is a misfire's distance: a frame 1.6 stops over that scores
    /// 0.001 on its own is not lifted, however little the Gaussian leaves; one 0.9 stops over is.
    func testOnlyAFrameLessThanAStopFromItsBurstIsLiftedToTheScenesExposure() throws {
        let photos = [sceneInput(0.001), sceneInput(0.66), sceneInput(0.002), sceneInput(0.52)]
        let ev: [Int: Double] = [0: 1.6, 1: -0.28, 2: 0.9, 3: 0.02]
        let lift = SelectStage.sceneExposure(groups: [[0, 1, 2, 3]], photos: photos, groupExposure: ev, stops: 0.8)
        XCTAssertNil(lift[0], "1.6 stops over: the relative factor alone judges it")
        XCTAssertEqual(try XCTUnwrap(lift[2]), pow(0.66 * exp(-pow(0.9 / 0.8, 2)) / 0.002, 0.3), accuracy: 1e-9)
    }

    /// Three or more frames agreeing on a dark exposure are a low-key scene: the whole group is
    /// judged across the trip as if its best exposure scored `lowKey` (select v31), one factor
    /// for all so its order stays. Not a pair, not a bright scene, not a doubted group, not
    /// when the agreement needs a misfire.
    func testALowKeySceneStandsAcrossTheTripAsAWellExposedOne() throws {
        func dark(_ exposure: Double, luma: Double = 0.15) -> SelectInput {
            var p = sceneInput(exposure, clipped: 0)
            p.technical.measurements.medianLuma = luma
            return p
        }
        let w = 0.3 / QualityAnalyzer.parameterSpecs.filter { $0.name.hasPrefix("weight") }.map(\.defaultValue).reduce(0, +)
        let fog = [dark(0.1), dark(0.08), dark(0.06)]
        let ev: [Int: Double] = [0: 0, 1: -0.2, 2: 0.3]
        let k = SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: fog, groupExposure: ev, doubted: [], floor: 0.9)
        XCTAssertEqual(Set(k.keys), [0, 1, 2])
        for i in 0..<3 { XCTAssertEqual(try XCTUnwrap(k[i]), pow(0.9 / 0.1, w), accuracy: 1e-9, "one factor for the group") }
        XCTAssertGreaterThan(try XCTUnwrap(k[0]), 1.5)
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: fog, groupExposure: ev, doubted: [0], floor: 0.9).isEmpty,
                      "a group whose best nothing confirms")
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1]], photos: fog, groupExposure: ev, doubted: [], floor: 0.9).isEmpty, "a pair")
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: fog, groupExposure: ev, doubted: [], floor: 0).isEmpty, "0 turns it off")
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: fog, groupExposure: [0: 0, 1: -0.2, 2: 1.4], doubted: [], floor: 0.9).isEmpty,
                      "two agree, the third is a misfire")
        let bright = [dark(0.1, luma: 0.7), dark(0.08, luma: 0.7), dark(0.06, luma: 0.7)]
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: bright, groupExposure: ev, doubted: [], floor: 0.9).isEmpty,
                      "a bright burst agreeing is blown frames agreeing")
        XCTAssertTrue(SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: [dark(0.95), dark(0.9), dark(0.85)], groupExposure: ev, doubted: [],
                                               floor: 0.9).isEmpty, "already judged well exposed")
    }

    /// A sibling faulty on two counts at once, neither reaching its line, does not confirm the
    /// best frame in the weak pass: its shares of the lines add up (og55).
    func testSmallFaultsAddUpAgainstAConfirmingSibling() throws {
        let tech = [0.97, 0.92, 0.2]
        let blur: [Int: Double] = [1: 0.22], smear: [Int: Double] = [1: 0.53], exposure: [Int: Double] = [2: -1.7]
        func weak(_ partly: Double) -> Set<Int> {
            SelectStage.uncorroborated(groups: [[0, 1, 2]], tech: tech, blur: blur, exposure: exposure, grain: [:], blurRef: 0.45 * 0.75, grainRef: 5,
                                       smear: smear, partlyFaulty: partly)
        }
        XCTAssertEqual(weak(.infinity), [], "each fault alone is under its line: the sibling confirms")
        XCTAssertEqual(weak(1), [0], "0.22 / 0.34 + 0.53 / 0.6 ≥ 1: it does not")
        XCTAssertEqual(SelectStage.uncorroborated(groups: [[0, 1, 2]], tech: tech, blur: [1: 0.1], exposure: exposure, grain: [:], blurRef: 0.45 * 0.75,
                                                  grainRef: 5, smear: [1: 0.2], partlyFaulty: 1), [], "small faults that do not add up to one still confirm")
    }

    /// A frame 2.2 stops over with 83 % of it in clipped blocks reads 0.0 stops from its burst
    /// (only its shadows are left to compare): it is not lifted to its sibling's exposure.
    func testAFrameBlownWhiteOverMostOfItIsNotLiftedToTheScenesExposure() throws {
        let photos = [sceneInput(0.002, clipped: 0.83), sceneInput(0.83, clipped: 0), sceneInput(0.28, clipped: 0.05), sceneInput(0.002, clipped: 0.4)]
        let ev: [Int: Double] = [0: 0.0, 1: -0.58, 2: 0.13, 3: 0.1]
        let lift = SelectStage.sceneExposure(groups: [[0, 1, 2, 3]], photos: photos, groupExposure: ev, stops: 0.8)
        XCTAssertNil(lift[0], "blown over 83 %: its stops cannot be read, so it keeps its own score")
        XCTAssertGreaterThan(try XCTUnwrap(lift[2]), 1, "a clean frame near the burst is lifted")
        XCTAssertGreaterThan(try XCTUnwrap(lift[3]), 1, "so is one clipping 40 %")
        let unread = SelectStage.sceneExposure(groups: [[0, 1, 2]], photos: [sceneInput(0.002, clipped: 0.4), sceneInput(0.83, clipped: 0), sceneInput(0.28, clipped: 0)],
                                               groupExposure: [1: -0.1, 2: 0.1], stops: 0.8)
        XCTAssertNil(unread[0], "a frame with no reading against its group (no comparable sibling) keeps its own score, clipped or not")
        XCTAssertNotNil(unread[2])
        // Beside a high-key best frame whose light backdrop covers 78 % of it, a sibling 0.25 stops
        // brighter clipped over 80 % (the backdrop gone white) is lifted when its subject still reads
        // (0.4), not when its subject is blown too (0.004, a frame pushed two stops; select v49).
        var sweep = [sceneInput(0.0, clipped: 0.80), sceneInput(1.0, clipped: 0)]
        sweep[1].technical.measurements.highKey = true
        sweep[1].technical.measurements.backdrop = 0.78
        sweep[0].technical.measurements.subjectExposure = 0.4
        XCTAssertNotNil(SelectStage.sceneExposure(groups: [[0, 1]], photos: sweep, groupExposure: [0: 0.25], stops: 0.6)[0])
        func doubted(_ subject: Double?) -> Set<Int> {
            SelectStage.uncorroborated(groups: [[0, 1, 2]], tech: [0.1, 0.9, 0.2], blur: [:], exposure: [2: -1.8], grain: [:], blurRef: 0.45, grainRef: 5,
                                       blown: [.init(clipped: 0.8, subject: subject), .init(clipped: 0, backdrop: 0.78), 0])
        }
        XCTAssertEqual(doubted(0.4), [], "it confirms its best frame")
        XCTAssertEqual(doubted(0.004), [1], "blown, it does not: the third frame is under-exposed")
        sweep[0].technical.measurements.subjectExposure = 0.004
        XCTAssertNil(SelectStage.sceneExposure(groups: [[0, 1]], photos: sweep, groupExposure: [0: 0.25], stops: 0.6)[0])
        sweep[0].technical.measurements.subjectExposure = 0.4
        sweep[0].technical.measurements.clippedHighlights = 0.9
        XCTAssertNil(SelectStage.sceneExposure(groups: [[0, 1]], photos: sweep, groupExposure: [0: 0.25], stops: 0.6)[0], "clipped beyond the backdrop")
        let whiteScene = [sceneInput(0.002, clipped: 0.83), sceneInput(0.83, clipped: 0.3)]
        XCTAssertNotNil(SelectStage.sceneExposure(groups: [[0, 1]], photos: whiteScene, groupExposure: [0: 0.1, 1: 0], stops: 0.8)[0],
                        "beside a best frame that clips much itself (a white scene), it is lifted as before")
    }

    /// Two of four frames two stops under: no majority, and the median falls between the camps,
    /// so the clean frames read 1.5 stops over. As in a pair, the camp that looks right is the scene's.
    func testABurstSplitInTwoIsJudgedByTheCampThatLooksRight() throws {
        func input(_ luma: Double, exposure: Double, whitePoint: Double = 0.9, clipped: Double = 0) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: luma, clippedHighlights: clipped, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: whitePoint, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: luma))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        let photos = [input(0.45, exposure: 0.9), input(0.46, exposure: 0.89), input(0.23, exposure: 0.2), input(0.21, exposure: 0.17)]
        let ev = GroupExposure.measure(members: [0, 1, 2, 3], photos: photos)
        for i in 0...1 { XCTAssertLessThan(abs(try XCTUnwrap(ev[i])), 0.2, "a clean frame is the scene's exposure") }
        for i in 2...3 { XCTAssertLessThan(try XCTUnwrap(ev[i]), -1.8, "an under-exposed frame is two stops under it") }
        // The same camps the other way round: the bright pair is blown, the dark pair looks right.
        let bright = [input(0.45, exposure: 0.9), input(0.46, exposure: 0.89), input(0.85, exposure: 0.1), input(0.87, exposure: 0.08)]
        let ev2 = GroupExposure.measure(members: [0, 1, 2, 3], photos: bright)
        for i in 0...1 { XCTAssertLessThan(abs(try XCTUnwrap(ev2[i])), 0.2) }
        for i in 2...3 { XCTAssertGreaterThan(try XCTUnwrap(ev2[i]), 1.5) }
        // A bright scene (autumn leaves): its clean pair looks too bright on its own, the pair
        // under looks better, but only the clean pair reaches white, clipping next to nothing.
        let high = [input(0.7, exposure: 0.43, whitePoint: 0.97, clipped: 0.001), input(0.75, exposure: 0.14, whitePoint: 0.98, clipped: 0.022),
                    input(0.38, exposure: 0.59, whitePoint: 0.55), input(0.39, exposure: 0.62, whitePoint: 0.56)]
        let ev3 = GroupExposure.measure(members: [0, 1, 2, 3], photos: high)
        for i in 0...1 { XCTAssertLessThan(abs(try XCTUnwrap(ev3[i])), 0.3, "\(ev3)") }
        for i in 2...3 { XCTAssertLessThan(try XCTUnwrap(ev3[i]), -1.5) }
        // Clipping more than a few % of the frame, the bright pair does not use its range: the look decides.
        let clipping = high.enumerated().map { k, p -> SelectInput in
            k < 2 ? input(p.technical.measurements.medianLuma, exposure: p.technical.exposure, whitePoint: 0.98, clipped: 0.06) : p
        }
        let ev4 = GroupExposure.measure(members: [0, 1, 2, 3], photos: clipping)
        for i in 2...3 { XCTAssertLessThan(abs(try XCTUnwrap(ev4[i])), 0.3, "\(ev4)") }
        // og199's rabbits on hay: the pushed pair clips 4 and 9 % and looks as right on its own as
        // the clean pair, which reaches 0.73 and 0.86 clipping nothing. As in a pair, the camp that
        // clips nothing is the scene's exposure (select v49).
        let hay = [input(0.41, exposure: 0.95, whitePoint: 1, clipped: 0.088), input(0.36, exposure: 0.99, whitePoint: 1, clipped: 0.043),
                   input(0.19, exposure: 1, whitePoint: 0.86), input(0.16, exposure: 0.94, whitePoint: 0.73)]
        let ev5 = GroupExposure.measure(members: [0, 1, 2, 3], photos: hay)
        for i in 0...1 { XCTAssertGreaterThan(try XCTUnwrap(ev5[i]), 1.5, "\(ev5)") }
        for i in 2...3 { XCTAssertLessThan(abs(try XCTUnwrap(ev5[i])), 0.5, "\(ev5)") }
        // A darker pair that stops short of white (0.5) is not shown right by clipping nothing: the look decides.
        let short = hay.enumerated().map { k, p -> SelectInput in
            k < 2 ? p : input(p.technical.measurements.medianLuma, exposure: p.technical.exposure, whitePoint: 0.5)
        }
        let ev6 = GroupExposure.measure(members: [0, 1, 2, 3], photos: short)
        for i in 0...1 { XCTAssertLessThan(abs(try XCTUnwrap(ev6[i])), 0.5, "\(ev6)") }
    }

    /// Four frames two stops under, two clean, one two stops over: the median is the under
    /// camp's. The two clean frames agree, look right on their own and clip nothing, while every
    /// under frame looks wrong on its own: the clean pair is the scene's exposure. Where the
    /// majority looks right enough (a low-key scene), or only one frame looks right, the median rules.
    func testAnAgreeingMinorityThatLooksRightOutvotesAMajorityThatLooksWrong() throws {
        func input(_ luma: Double, exposure: Double, clipped: Double = 0) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: luma, clippedHighlights: clipped, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: luma))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        func burst(under: Double, clean: [Double], cleanClipped: Double = 0) -> [Int: Double] {
            let photos = [input(0.19, exposure: under), input(0.18, exposure: under), input(0.2, exposure: under), input(0.19, exposure: under)]
                + clean.map { input(0.4, exposure: $0, clipped: cleanClipped) } + [input(0.75, exposure: 0.2, clipped: 0.11)]
            return GroupExposure.measure(members: Array(photos.indices), photos: photos)
        }
        let ev = burst(under: 0.22, clean: [1, 0.98])
        for i in 4...5 { XCTAssertLessThan(abs(try XCTUnwrap(ev[i])), 0.2, "a clean frame is the scene's exposure: \(ev)") }
        for i in 0...3 { XCTAssertLessThan(try XCTUnwrap(ev[i]), -1.5) }
        XCTAssertGreaterThan(try XCTUnwrap(ev[6]), 1.5)
        // The median rules: a majority that looks half right, one clean frame, a pair that clips.
        for other in [burst(under: 0.6, clean: [1, 0.98]), burst(under: 0.22, clean: [1]), burst(under: 0.22, clean: [1, 0.98], cleanClipped: 0.03)] {
            XCTAssertLessThan(abs(try XCTUnwrap(other[0])), 0.3, "the under camp is the reference: \(other)")
            XCTAssertGreaterThan(try XCTUnwrap(other[4]), 1.5)
        }
    }

    /// A burst of three whose two misfires are pushed two stops and blown: the majority is the
    /// misfire. Blown highlights hold nothing; the clean frame is the scene's exposure.
    func testABlownMajorityIsTheMisfire() throws {
        func input(_ luma: Double, clipped: Double, whitePoint: Double = 0.9) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: clipped > 0.5 ? 0.1 : 1, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: luma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: whitePoint, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1,
                                                              medianLuma: luma, clippedColour: clipped))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        let blown = [input(0.25, clipped: 0), input(0.52, clipped: 0.8), input(0.47, clipped: 0.79)]
        let ev = GroupExposure.measure(members: [0, 1, 2], photos: blown)
        XCTAssertLessThan(abs(try XCTUnwrap(ev[0])), 0.2, "the clean frame is the scene's exposure: \(ev)")
        for i in 1...2 { XCTAssertGreaterThan(try XCTUnwrap(ev[i]), 1.5) }
        // Two frames as bright but not blown (a dark scene and one misfire under): the median rules.
        let dark = [input(0.25, clipped: 0), input(0.52, clipped: 0.05), input(0.47, clipped: 0.04)]
        let ev2 = GroupExposure.measure(members: [0, 1, 2], photos: dark)
        XCTAssertLessThan(try XCTUnwrap(ev2[0]), -1.5)
        for i in 1...2 { XCTAssertLessThan(abs(try XCTUnwrap(ev2[i])), 0.5) }
        // Saturated flowers blow a colour over a third of two clean frames; the third frame, 2.6
        // stops under, stops far short of white: it is the misfire, not they.
        let saturated = [input(0.25, clipped: 0, whitePoint: 0.42), input(0.62, clipped: 0.36, whitePoint: 0.93), input(0.58, clipped: 0.31, whitePoint: 0.93)]
        let ev3 = GroupExposure.measure(members: [0, 1, 2], photos: saturated)
        XCTAssertLessThan(try XCTUnwrap(ev3[0]), -1.5, "\(ev3)")
        for i in 1...2 { XCTAssertLessThan(abs(try XCTUnwrap(ev3[i])), 0.5) }
    }

    /// A scene shot badly throughout: its best frame is compared with faulty frames only, so
    /// nothing shows it is clean. A group where the best has a clean sibling, or a pair, is
    /// left alone.
    func testTheBestOfABurstWhoseOtherFramesAreAllFaultyIsNotConfirmed() throws {
        let tech = [0.9, 0.3, 0.2, 0.1, 0.85, 0.4, 0.8, 0.2]
        // Group 0: blurred, misexposed and grainy siblings. Group 1: one clean sibling (6).
        let blur: [Int: Double] = [1: 0.6, 5: 0.7, 7: 0.9], exposure: [Int: Double] = [2: -2.1, 3: 0.2], grain: [Int: Double] = [3: 6]
        func unconfirmed(_ groups: [[Int]]) -> Set<Int> {
            SelectStage.uncorroborated(groups: groups, tech: tech, blur: blur, exposure: exposure, grain: grain, blurRef: 0.45, grainRef: 5)
        }
        XCTAssertEqual(unconfirmed([[0, 1, 2, 3], [4, 5, 6]]), [0])
        XCTAssertTrue(unconfirmed([[6, 7]]).isEmpty, "a pair is left alone")
        XCTAssertTrue(unconfirmed([[0, 1, 2, 3, 6]]).isEmpty, "a clean sibling, even a worse one, confirms the scene can be shot well")
    }

    /// Held-back groups fill a short top N weakly confirmed first, then unconfirmed or under the
    /// floor, then contradicted; within a tier, by key. A scene with no clean frame (unconfirmed,
    /// key 0.626) filled ahead of a clean weakly confirmed one (0.611) on og50.
    func testAWeaklyConfirmedGroupFillsBeforeAnUnconfirmedOne() {
        let tier = [0: 1, 1: 0, 2: 2, 3: 1, 4: 0], key = [0: 0.626, 1: 0.611, 2: 0.9, 3: 0.5, 4: 0.7]
        let order = SelectStage.fillOrder([0, 1, 2, 3, 4], tier: { tier[$0]! }, key: { key[$0]! }, path: { "p\($0)" })
        XCTAssertEqual(order, [4, 1, 0, 3, 2])
        XCTAssertEqual(SelectStage.fillOrder([5, 6], tier: { _ in 1 }, key: { _ in 0.5 }, path: { "p\($0)" }), [5, 6], "ties go by path")
    }

    /// Of the frames of one shooting burst in one fill tier, the technically best takes the first
    /// of their places: a misfire that left its burst's group (alone, with a scene of one frame's
    /// context) filled before its clean siblings (technical 0.06 against 0.11, d35b). Other frames,
    /// other tiers and untimed frames keep their places.
    func testTheTechnicallyBestFrameOfAShootingBurstFillsFirst() {
        let burst: [Int: Int] = [0: 7, 1: 3, 2: 7, 3: 7, 4: 3], tier = [0: 1, 1: 1, 2: 1, 3: 2, 4: 1]
        let tech = [0: 0.06, 1: 0.5, 2: 0.11, 3: 0.9, 4: 0.2, 5: 0.01]
        let order = SelectStage.burstsBestFirst([0, 1, 5, 2, 3, 4], burst: { burst[$0] }, tier: { tier[$0]! }, technical: { tech[$0]! }, path: { "p\($0)" })
        XCTAssertEqual(order, [2, 1, 5, 0, 3, 4])
        XCTAssertEqual(SelectStage.burstsBestFirst([1, 0], burst: { _ in 1 }, tier: { _ in 1 }, technical: { _ in 0.5 }, path: { "p\($0)" }), [0, 1],
                       "ties go by path")
    }

    /// A sibling with most of it in clipped blocks cannot confirm a best frame that is not: it
    /// counts as faulty against it, however few stops it reads. Group [0, 1, 2, 3]: 1 blurred,
    /// 2 under; 3 reads only 0.7 stop over (its shadows are all that is left to compare) but
    /// 88 % of it is in clipped blocks.
    func testASiblingBlownWhiteOverMostOfItsFrameDoesNotConfirmTheBest() throws {
        let tech = [0.65, 0.1, 0.15, 0.19]
        let blur: [Int: Double] = [1: 0.75], exposure: [Int: Double] = [0: 0.2, 2: -2.2, 3: 0.86]
        func unconfirmed(_ blown: [SelectStage.Clipping]) -> Set<Int> {
            SelectStage.uncorroborated(groups: [[0, 1, 2, 3]], tech: tech, blur: blur, exposure: exposure, grain: [:], blurRef: 0.45, grainRef: 5, blown: blown)
        }
        XCTAssertEqual(unconfirmed([0.005, 0, 0, 0.88]), [0])
        XCTAssertTrue(unconfirmed([0.005, 0, 0, 0.40]).isEmpty, "a clean frame a stop over a bright scene's best clips 40 %: it confirms")
        XCTAssertTrue(unconfirmed([0.3, 0, 0, 0.88]).isEmpty, "beside a best that clips much itself (a white scene), clipping is no fault")
        XCTAssertTrue(unconfirmed([]).isEmpty, "without clipping measures, as before")
    }

    func testGroupExposureFindsTheMisfireByTheBurstsMedianOrInAPairByTheBetterExposed() throws {
        func input(_ path: String, meanLuma: Double, exposure: Double) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: exposure, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: meanLuma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: meanLuma))
            return SelectInput(path: path, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        // A dark scene shot four times, one frame 2 stops brighter: the bright one is the misfire,
        // though its own exposure score is the best.
        let dark = [input("a", meanLuma: 0.20, exposure: 0.5), input("b", meanLuma: 0.21, exposure: 0.5),
                    input("c", meanLuma: 0.19, exposure: 0.45), input("d", meanLuma: 0.40, exposure: 0.95)]
        let ev = GroupExposure.measure(members: [0, 1, 2, 3], photos: dark)
        XCTAssertEqual(try XCTUnwrap(ev[3]), 2, accuracy: 0.15)
        for i in 0..<3 { XCTAssertLessThan(abs(try XCTUnwrap(ev[i])), 0.3) }
        // A pair: the worse exposed of the two gets the difference, the other none.
        let pair = GroupExposure.measure(members: [0, 1], photos: [input("x", meanLuma: 0.45, exposure: 0.9), input("y", meanLuma: 0.12, exposure: 0.3)])
        XCTAssertNil(pair[0])
        XCTAssertLessThan(try XCTUnwrap(pair[1]), -3)
        XCTAssertTrue(GroupExposure.measure(members: [0], photos: dark).isEmpty, "a photo alone has nothing to be compared with")
        // A burst of five with two frames blown two stops: the three clean frames are the reference
        // (against all four siblings a clean frame read −1 EV, the median of 0, 0, −2, −2).
        let twoBlown = [input("a", meanLuma: 0.35, exposure: 0.9), input("b", meanLuma: 0.36, exposure: 0.9), input("c", meanLuma: 0.34, exposure: 0.9),
                        input("d", meanLuma: 0.655, exposure: 0.1), input("e", meanLuma: 0.66, exposure: 0.1)]
        let ev5 = GroupExposure.measure(members: [0, 1, 2, 3, 4], photos: twoBlown)
        for i in 0..<3 { XCTAssertLessThan(abs(try XCTUnwrap(ev5[i])), 0.3, "clean frame \(i)") }
        for i in 3..<5 { XCTAssertEqual(try XCTUnwrap(ev5[i]), 2, accuracy: 0.2) }

        // Untimed photos grouped by look alone judge each other only when they look very alike.
        var lookalike = [input("p", meanLuma: 0.45, exposure: 0.9), input("q", meanLuma: 0.12, exposure: 0.3)]
        for k in 0..<2 { lookalike[k].timeTrusted = false }
        lookalike[0].print = FeaturePrint(vector: [1, 0])
        lookalike[1].print = FeaturePrint(vector: [0.77, (1 - 0.77 * 0.77).squareRoot()])
        XCTAssertTrue(GroupExposure.measure(members: [0, 1], photos: lookalike).isEmpty, "cosine 0.77: another scene, perhaps")
        lookalike[1].print = FeaturePrint(vector: [0.95, (1 - 0.95 * 0.95).squareRoot()])
        XCTAssertNotNil(GroupExposure.measure(members: [0, 1], photos: lookalike)[1])
    }

    func testGroupExposureReadsAFramePushedTwoStopsWhenItsBrightHalfIsBlown() throws {
        func encode(_ linear: Double) -> Double { linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055 }
        func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let base = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.55, 0.7, 0.85]
        func input(_ path: String, stops: Double, medianLuma: Double) -> SelectInput {
            let deciles = base.map { min(1, encode(decode($0) * pow(2, stops))) }
            let t = TechnicalQualityScore(sharpness: 1, exposure: 0.9, noise: 1, composition: 0.5, overall: 0.8,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: medianLuma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1,
                                                              medianLuma: medianLuma, brightestDeciles: deciles))
            return SelectInput(path: path, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        // Blown yellow petals keep luma near 0.8, so median luma says +0.8 stops; the
        // deciles neither frame has clipped say +2.
        let burst = [input("a", stops: 0, medianLuma: 0.55), input("b", stops: 0.2, medianLuma: 0.58),
                     input("c", stops: -0.2, medianLuma: 0.52), input("d", stops: 2, medianLuma: 0.8)]
        let ev = GroupExposure.measure(members: [0, 1, 2, 3], photos: burst)
        XCTAssertEqual(try XCTUnwrap(ev[3]), 2, accuracy: 0.25)
        for i in 0..<3 { XCTAssertLessThan(abs(try XCTUnwrap(ev[i])), 0.45, "the clean frames lie within 0.4 stops of each other") }
    }

    /// A saturated cyan scene pushed 2.5 stops: blue and green are white over the whole frame,
    /// so the brightest channel has no decile left to compare and luma rose a third of a stop.
    /// The darkest channel (red) still moved with the gain.
    func testGroupExposureReadsAPushedSaturatedSkyOnItsDarkestChannel() throws {
        func encode(_ linear: Double) -> UInt8 {
            let v = min(1, linear)
            return UInt8((255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055)).rounded())
        }
        let w = 96, h = 64
        func frame(stops: Double) -> AnalysisImage {
            var rgb = [UInt8](repeating: 0, count: w * h * 3)
            let gain = pow(2, stops)
            for y in 0..<h {
                for x in 0..<w {
                    let t = Double(x + y) / Double(w + h), i = 3 * (y * w + x)
                    rgb[i] = encode((0.02 + 0.13 * t) * gain); rgb[i + 1] = encode((0.55 + 0.25 * t) * gain); rgb[i + 2] = encode((0.65 + 0.25 * t) * gain)
                }
            }
            return AnalysisImage(width: w, height: h, rgb: rgb)
        }
        let q = QualityAnalyzer()
        let burst = [0, 0.15, -0.15, 2.5].enumerated().map { k, stops in
            SelectInput(path: "f\(k)", technical: q.analyze(frame(stops: stops)), localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]))
        }
        XCTAssertTrue(burst[3].technical.measurements.brightestDeciles.allSatisfy { $0 > 0.94 }, "the brightest channel is blown everywhere")
        let ev = GroupExposure.measure(members: [0, 1, 2, 3], photos: burst)
        XCTAssertEqual(try XCTUnwrap(ev[3]), 2.5, accuracy: 0.3)
        for i in 0..<3 { XCTAssertLessThan(abs(try XCTUnwrap(ev[i])), 0.3) }
    }

    func testColourClippingSeesABlownYellowThatLumaDoesNot() {
        // Left half blown yellow (255, 255, 0: luma 0.89), right half mid grey.
        let w = 64, h = 32
        var rgb = [UInt8](repeating: 128, count: w * h * 3)
        for y in 0..<h { for x in 0..<(w / 2) { let i = 3 * (y * w + x); rgb[i] = 255; rgb[i + 1] = 255; rgb[i + 2] = 0 } }
        let image = AnalysisImage(width: w, height: h, rgb: rgb)
        let q = QualityAnalyzer()
        XCTAssertEqual(q.colourClipping(image), 0.5, accuracy: 1e-9)
        XCTAssertEqual(q.exposureStats(image.luma, w, h).high, 0, "luma never reaches white")
    }

    func testMetrics() {
        XCTAssertEqual(Metrics.auc(positive: [3, 4], negative: [1, 2])!, 1)
        XCTAssertEqual(Metrics.auc(positive: [1], negative: [1])!, 0.5)
        XCTAssertEqual(Metrics.adjustedRand(truth: [0, 0, 1, 1], predicted: [5, 5, 7, 7]), 1, accuracy: 1e-12)
        XCTAssertLessThan(Metrics.adjustedRand(truth: [0, 0, 1, 1], predicted: [0, 1, 0, 1]), 0.01)
        let pw = Metrics.pairwise(truth: [0, 0, 1], predicted: [0, 0, 0])
        XCTAssertEqual(pw.precision, 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(pw.recall, 1)
    }
}
