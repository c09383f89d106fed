import Foundation
@testable import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// A scene shot badly throughout: whether anything in the burst shows its best frame is clean.
final class BurstEvidenceTests: XCTestCase {
    func spectrum(blur: Double = 0, smear: Int = 0, shiftX: Double = 0) throws -> PowerSpectrum {
        let dir = try temporaryDirectory()
        let path = dir + "/f.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 11, width: 1600, height: 1200, shiftX: shiftX, blur: blur, smear: smear), to: path)
        return SpectrumAnalyzer().analyze(try Decoder(longEdge: 400).decode(path))
    }

    /// The blur against the group sums all orientations, where a smear counts little: beside
    /// a mildly defocused best frame, smeared siblings looked clean and confirmed it. In its
    /// worst orientation a smeared frame is plainly the blurrier; two clean frames are not.
    func testASmearedSiblingIsFaultyAgainstTheBestAndDoesNotConfirmIt() throws {
        let defocused = try spectrum(blur: 1.2), smeared = try spectrum(smear: 18, shiftX: 0.01)
        let clean = try spectrum(shiftX: 0.005), clean2 = try spectrum(shiftX: 0.012)
        XCTAssertTrue(GroupBlur.smeared(smeared, against: defocused))
        XCTAssertFalse(GroupBlur.smeared(clean2, against: clean), "two clean frames")
        XCTAssertFalse(GroupBlur.smeared(defocused, against: clean), "a mild defocus is no smear (the group blur sees it)")

        // Frames 0–3: defocused (best by score), smeared, smeared, grainy. 4, 5: clean.
        let spectra: [PowerSpectrum?] = [defocused, smeared, smeared, defocused, clean, clean2]
        let tech = [0.95, 0.9, 0.88, 0.3, 0.97, 0.96], grain: [Int: Double] = [3: 12]
        func unconfirmed(_ g: [Int], _ s: [PowerSpectrum?]) -> Set<Int> {
            SelectStage.uncorroborated(groups: [g], tech: tech, blur: [:], exposure: [:], grain: grain, blurRef: 0.45, grainRef: 5, spectra: s)
        }
        XCTAssertEqual(unconfirmed([0, 1, 2, 3], spectra), [0])
        XCTAssertTrue(unconfirmed([0, 1, 2, 3], []).isEmpty, "without the orientations, the smeared frames looked clean")
        XCTAssertTrue(unconfirmed([4, 5, 1, 3], spectra).isEmpty, "a clean sibling confirms a clean best")
    }

    /// At 100 %, a frame smeared along x keeps the detail along y that a defocused frame
    /// lost: it shows the defocused frame is blurred, though it is faulty itself. A clean
    /// frame loses nothing to it, and a grainy frame's grain is not detail.
    func testASiblingThatKeepsDetailInOneDirectionShowsTheBestIsBlurred() throws {
        // DCT power of a 4000 px frame: content falling as 1/f², times each blur's transfer.
        func detail(sigmaX: Double, sigmaY: Double, grain: Double = 0) -> NativeDetail {
            let power = (0..<64).map { k -> Float in
                let u = Double(k % 8) / 16, v = Double(k / 8) / 16
                guard k > 0 else { return 0 }
                let content = 4000 / (u * u + v * v + 0.001) * exp(-4 * .pi * .pi * (u * u * sigmaX * sigmaX + v * v * sigmaY * sigmaY))
                return Float(content + 2 + grain * grain)
            }
            return NativeDetail(width: 4000, height: 3000, noiseLuma: grain, grainUnmeasured: nil, noiseChroma: nil, power: power,
                                nonzero: [Float](repeating: 1, count: 64), quant: [Int](repeating: 2, count: 64), tiles: [], transposed: false, sharpWidth: nil)
        }
        func input(_ d: NativeDetail) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: 1, noise: 1, composition: 0.5, overall: 0.9,
                                          measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: 0.4, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: 0.4))
            return SelectInput(path: "", technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), detail: d)
        }
        let defocused = input(detail(sigmaX: 2.4, sigmaY: 2.4))     // σ 0.6 per 1000 px
        let smeared = input(detail(sigmaX: 3.5, sigmaY: 0.3))       // a 12 px smear along x
        let clean = input(detail(sigmaX: 0.3, sigmaY: 0.3)), clean2 = input(detail(sigmaX: 0.35, sigmaY: 0.3))
        let grainy = input(detail(sigmaX: 2.4, sigmaY: 2.4, grain: 12))
        XCTAssertTrue(GroupBlur.contradicts(smeared, defocused))
        XCTAssertFalse(GroupBlur.contradicts(smeared, clean), "a clean frame loses nothing to a smeared one")
        XCTAssertFalse(GroupBlur.contradicts(clean2, clean))
        XCTAssertTrue(GroupBlur.contradicts(clean, defocused))
        XCTAssertFalse(GroupBlur.contradicts(grainy, smeared), "grain at 100 % is not detail")
    }

    /// A fog bank with one tree: at the analysis scale no frequency stands above the noise
    /// floor, so no two frames can be compared there, but at 100 % the tree's detail can. A
    /// smeared frame is then blurrier than its clean siblings by the comparison there alone.
    func testWhereTheAnalysisScaleCannotCompareTheComparisonAt100PercentSpeaksAlone() throws {
        // As many windows' power at every frequency as at the noise floor: nothing to fit at 768 px.
        let fog = PowerSpectrum(sectors: 4, bins: 16, power: [Float](repeating: 1, count: 64))
        func detail(sigmaX: Double, sigmaY: Double) -> NativeDetail {
            let power = (0..<64).map { k -> Float in
                let u = Double(k % 8) / 16, v = Double(k / 8) / 16
                guard k > 0 else { return 0 }
                return Float(4000 / (u * u + v * v + 0.001) * exp(-4 * .pi * .pi * (u * u * sigmaX * sigmaX + v * v * sigmaY * sigmaY)) + 2)
            }
            return NativeDetail(width: 2560, height: 1920, noiseLuma: 0, grainUnmeasured: nil, noiseChroma: nil, power: power,
                                nonzero: [Float](repeating: 1, count: 64), quant: [Int](repeating: 2, count: 64), tiles: [], transposed: false, sharpWidth: nil)
        }
        func input(_ d: NativeDetail, _ name: String) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 0.35, exposure: 0.1, noise: 1, composition: 0.5, overall: 0.3,
                                          measurements: .init(edgeWidth: 0, edgeWidthGlobal: 0, motionRatio: 1, edgeCount: 0, laplacianVariance: 0,
                                                              noiseSigma: 0.7, meanLuma: 0.2, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.3,
                                                              whitePoint: 0.25, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: 0.2))
            return SelectInput(path: name, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), spectrum: fog, detail: d)
        }
        let photos = [input(detail(sigmaX: 0.3, sigmaY: 0.3), "a"), input(detail(sigmaX: 0.35, sigmaY: 0.3), "b"),
                      input(detail(sigmaX: 0.3, sigmaY: 0.35), "c"), input(detail(sigmaX: 4, sigmaY: 0.3), "smeared")]
        XCTAssertNil(fog.extraBlur(comparedWith: fog), "nothing to compare at the analysis scale")
        let blur = GroupBlur.measure(members: [0, 1, 2, 3], photos: photos)
        let smeared = try XCTUnwrap(blur[3], "the comparison at 100 % alone gives a value")
        XCTAssertGreaterThan(smeared.sigma, 0.45, "blurrier than the clean frames by selection's measure (blurRef)")
        XCTAssertNotNil(smeared.native)
        for i in 0..<3 { XCTAssertLessThan(try XCTUnwrap(blur[i]).sigma, 0.2, "clean frame \(i)") }
    }

    /// The doubt falls on the whole group, so its order stays: with the defocused best held
    /// back, a smeared sibling must not step up as the group's candidate, and the group only
    /// fills a top N that the clean scene leaves short.
    func testADoubtedGroupKeepsItsOrderAndOnlyFills() throws {
        let sectors = 4, bins = 32
        let probe = PowerSpectrum(sectors: sectors, bins: bins, power: [Float](repeating: 0, count: sectors * bins))
        // Extra blur Δσ² per sector over a clean frame's content.
        func spectrum(_ blur: [Double]) -> PowerSpectrum {
            var p = [Float](repeating: 0, count: sectors * bins)
            for s in 0..<sectors {
                for b in 0..<bins {
                    let f = probe.frequency(b), g = -4 * Double.pi * Double.pi * f * f
                    p[s * bins + b] = Float((f < 0.4 ? 1e5 * pow(f + 0.02, -2) * exp(g * blur[s]) : 0) + 2)
                }
            }
            return PowerSpectrum(sectors: sectors, bins: bins, power: p)
        }
        let defocus = 0.04, smear = 1.6  // a defocus the analysis scale hardly sees (as on the trips)
        let a = FeaturePrint(vector: [1, 0]), b = FeaturePrint(vector: [0, 1])
        // (print, seconds, quality, spectrum): a burst shot badly throughout, then a clean pair.
        let frames: [(FeaturePrint, Double, Double, PowerSpectrum)] = [
            (a, 0, 0.95, spectrum([defocus, defocus, defocus, defocus])),
            (a, 1, 0.90, spectrum([smear, 0, 0, 0])), (a, 2, 0.88, spectrum([0, 0, smear, 0])), (a, 3, 0.86, spectrum([0, smear, 0, 0])),
            (b, 36_000, 0.70, spectrum([0, 0, 0, 0])), (b, 36_001, 0.69, spectrum([0.02, 0.02, 0.02, 0.02])),
        ]
        var inputs: [ClusterInput] = [], sel: [SelectInput] = []
        for (k, (p, t, q, sp)) in frames.enumerated() {
            inputs.append(ClusterInput(epoch: 1_000_000 + t, latitude: nil, longitude: nil, print: p, quality: q, path: "f\(k)"))
            let m = TechnicalQualityScore.Measurements(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 1000, laplacianVariance: 0,
                                                       noiseSigma: 0.5, meanLuma: 0.5, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                       whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1)
            let tq = TechnicalQualityScore(sharpness: q, exposure: 1, noise: 1, composition: 0.5, overall: q, measurements: m)
            sel.append(SelectInput(path: "f\(k)", technical: tq, localHour: 12, timeLabel: "12:00", print: p, spectrum: sp, epoch: 1_000_000 + t))
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 2)
        func run(top: Int) throws -> Selection {
            try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": Double(top), "minQuality": 0])).run((sel, c))
        }
        XCTAssertEqual(try run(top: 1).picks, [4], "the clean scene first")
        let two = try run(top: 2)
        XCTAssertEqual(Set(two.picks), [4, 0], "the doubted group fills with its best, not a smeared frame")
        XCTAssertTrue(two.reasons[0].contains { $0.contains("fills the top 2: every other frame of its burst is faulty against it") }, "\(two.reasons[0])")
        XCTAssertGreaterThan(two.scores[0].technical, two.scores[1].technical)
        XCTAssertLessThan(two.scores[1].technical, 0.9 * 0.61, "its siblings share the doubt")
        XCTAssertGreaterThanOrEqual(two.scores[1].smearVsGroup ?? 0, GroupSmear.smeared)
        XCTAssertTrue(two.reasons[1].contains { $0.contains("(smeared: ") }, "\(two.reasons[1])")
        // The smear costs in the technical score itself (select v50): × 1 / (1 + (smear / smearRef)⁴).
        let off = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 2, "minQuality": 0, "smearRef": 0])).run((sel, c))
        let s1 = try XCTUnwrap(two.scores[1].smearVsGroup)
        XCTAssertEqual(two.scores[1].technical / off.scores[1].technical, 1 / (1 + pow(s1, 4)), accuracy: 1e-3)
        XCTAssertEqual(two.scores[4].technical, off.scores[4].technical, "a frame that is not smeared keeps its score")
    }

    /// A best frame whose only sibling that is not faulty is itself blurred (0.39 px against it,
    /// under `blurRef` but over `confirmingBlur` × `blurRef`) is not shown to be clean: its group
    /// fills a short top N, its scores as they were.
    func testABlurredSiblingConfirmsNothing() throws {
        let sectors = 4, bins = 32
        let probe = PowerSpectrum(sectors: sectors, bins: bins, power: [Float](repeating: 0, count: sectors * bins))
        func spectrum(_ blur: Double) -> PowerSpectrum {
            var p = [Float](repeating: 0, count: sectors * bins)
            for s in 0..<sectors {
                for b in 0..<bins {
                    let f = probe.frequency(b), g = -4 * Double.pi * Double.pi * f * f
                    p[s * bins + b] = Float((f < 0.4 ? 1e5 * pow(f + 0.02, -2) * exp(g * blur) : 0) + 2)
                }
            }
            return PowerSpectrum(sectors: sectors, bins: bins, power: p)
        }
        let a = FeaturePrint(vector: [1, 0]), b = FeaturePrint(vector: [0, 1])
        // (print, seconds, quality, Δσ², median luma): the best, a sibling blurred 0.39 px, one 4 stops
        // under; then a clean pair of another scene.
        let frames: [(FeaturePrint, Double, Double, Double, Double)] = [
            (a, 0, 0.95, 0, 0.5), (a, 1, 0.93, 0.15, 0.5), (a, 2, 0.6, 0, 0.12),
            (b, 36_000, 0.70, 0, 0.5), (b, 36_001, 0.69, 0.01, 0.5),
        ]
        var inputs: [ClusterInput] = [], sel: [SelectInput] = []
        for (k, (p, t, q, blur, luma)) in frames.enumerated() {
            inputs.append(ClusterInput(epoch: 1_000_000 + t, latitude: nil, longitude: nil, print: p, quality: q, path: "f\(k)"))
            let m = TechnicalQualityScore.Measurements(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 1000, laplacianVariance: 0,
                                                       noiseSigma: 0.5, meanLuma: luma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                       whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: luma)
            let tq = TechnicalQualityScore(sharpness: q, exposure: 1, noise: 1, composition: 0.5, overall: q, measurements: m)
            sel.append(SelectInput(path: "f\(k)", technical: tq, localHour: 12, timeLabel: "12:00", print: p, spectrum: spectrum(blur), epoch: 1_000_000 + t))
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 2)
        func run(top: Int, confirming: Double = 0.75) throws -> Selection {
            try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": Double(top), "minQuality": 0, "confirmingBlur": confirming])).run((sel, c))
        }
        let one = try run(top: 1)
        XCTAssertEqual(one.scores[1].blurVsGroup ?? 0, 0.39, accuracy: 0.04)
        XCTAssertEqual(one.picks, [3], "the clean pair first")
        XCTAssertEqual(try run(top: 1, confirming: 1).picks, [0], "with the rule off, the blurred sibling confirms the best")
        let two = try run(top: 2)
        XCTAssertEqual(Set(two.picks), [0, 3])
        XCTAssertTrue(two.reasons[0].contains { $0.contains("fills the top 2: every other frame of its burst is faulty or blurred itself") }, "\(two.reasons[0])")
        XCTAssertEqual(two.scores[0].technical, try run(top: 2, confirming: 1).scores[0].technical, "its score is left as it is")
    }

    /// At 100 % a brighter frame loses fine detail to its tone curve alone: the comparison there
    /// is corrected by the two frames' exposure difference, each way, so a clean frame 0.8 stop
    /// over its sibling is not read as blurred, and one under it reads as much more.
    func testABrighterFramesDetailFlattenedByItsToneCurveIsNotBlur() throws {
        let fog = PowerSpectrum(sectors: 4, bins: 16, power: [Float](repeating: 1, count: 64))
        func detail(sigma: Double) -> NativeDetail {
            let power = (0..<64).map { k -> Float in
                let u = Double(k % 8) / 16, v = Double(k / 8) / 16
                guard k > 0 else { return 0 }
                return Float(4000 / (u * u + v * v + 0.001) * exp(-4 * .pi * .pi * (u * u + v * v) * sigma * sigma) + 2)
            }
            return NativeDetail(width: 2560, height: 1920, noiseLuma: 0, grainUnmeasured: nil, noiseChroma: nil, power: power,
                                nonzero: [Float](repeating: 1, count: 64), quant: [Int](repeating: 2, count: 64), tiles: [], transposed: false, sharpWidth: nil)
        }
        func input(_ d: NativeDetail, luma: Double, _ name: String) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: 1, noise: 1, composition: 0.5, overall: 0.9,
                                          measurements: .init(edgeWidth: 0, edgeWidthGlobal: 0, motionRatio: 1, edgeCount: 0, laplacianVariance: 0,
                                                              noiseSigma: 0.5, meanLuma: luma, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.6,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: luma))
            return SelectInput(path: name, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), spectrum: fog, detail: d)
        }
        // The brighter frame's fine detail a little flattened, as its tone curve does.
        let photos = [input(detail(sigma: 0.3), luma: 0.3, "dark"), input(detail(sigma: 0.45), luma: 0.37, "bright")]
        let stops = GroupExposure.difference(photos[1].technical.measurements, photos[0].technical.measurements)
        XCTAssert((0.5..<GroupBlur.exposureApart).contains(stops), "\(stops) stops: still witnesses")
        let raw = try XCTUnwrap(GroupBlur.nativeDifference(try XCTUnwrap(photos[1].detail), try XCTUnwrap(photos[0].detail)))
        XCTAssertGreaterThan(raw, 0, "uncorrected, the brighter frame reads blurred")
        let blur = GroupBlur.measure(members: [0, 1], photos: photos)
        XCTAssertEqual(try XCTUnwrap(blur[1]?.native), raw - GroupBlur.brighterNativeLoss * stops, accuracy: 1e-9)
        let back = try XCTUnwrap(GroupBlur.nativeDifference(try XCTUnwrap(photos[0].detail), try XCTUnwrap(photos[1].detail)))
        XCTAssertEqual(try XCTUnwrap(blur[0]?.native), back + GroupBlur.brighterNativeLoss * stops, accuracy: 1e-9,
                       "the darker frame's reading against the brighter one goes up as much")
    }

    /// Fine texture reads as noise at the analysis scale, and a blurred frame smooths it: where
    /// both frames' grain was measured at 100 %, that measure says whether a sibling is grainier,
    /// so the clean siblings of a painting still witness its defocused frame's blur there.
    func testTextureThatReadsAsNoiseAt768PxStillWitnessesBlurAt100Percent() throws {
        let fog = PowerSpectrum(sectors: 4, bins: 16, power: [Float](repeating: 1, count: 64))
        func detail(sigma: Double, grain: Double?) -> NativeDetail {
            let power = (0..<64).map { k -> Float in
                let u = Double(k % 8) / 16, v = Double(k / 8) / 16
                guard k > 0 else { return 0 }
                return Float(4000 / (u * u + v * v + 0.001) * exp(-4 * .pi * .pi * (u * u + v * v) * sigma * sigma) + 2)
            }
            return NativeDetail(width: 2560, height: 1920, noiseLuma: grain ?? 0, grainUnmeasured: grain == nil ? "flat" : nil, noiseChroma: nil,
                                power: power, nonzero: [Float](repeating: 1, count: 64), quant: [Int](repeating: 2, count: 64), tiles: [],
                                transposed: false, sharpWidth: nil)
        }
        func input(_ d: NativeDetail, noise: Double, _ name: String) -> SelectInput {
            let t = TechnicalQualityScore(sharpness: 1, exposure: 1, noise: 1, composition: 0.5, overall: 0.9,
                                          measurements: .init(edgeWidth: 0, edgeWidthGlobal: 0, motionRatio: 1, edgeCount: 0, laplacianVariance: 0,
                                                              noiseSigma: noise, meanLuma: 0.4, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.6,
                                                              whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1, medianLuma: 0.4))
            return SelectInput(path: name, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), spectrum: fog, detail: d)
        }
        // Brushwork: σ 4 at 768 px in the clean frames, 1 in the defocused one; σ 3 and 2.5 at 100 %.
        let photos = [input(detail(sigma: 0.3, grain: 3), noise: 4, "clean"), input(detail(sigma: 0.3, grain: 3), noise: 4, "clean2"),
                      input(detail(sigma: 2.4, grain: 2.5), noise: 1, "defocused")]
        XCTAssertTrue(GroupBlur.noisier(photos[0].technical.measurements, than: photos[2].technical.measurements), "at 768 px it reads noisier")
        XCTAssertFalse(GroupBlur.grainy(photos[0], than: photos[2]), "at 100 % it is not grainier")
        let blur = GroupBlur.measure(members: [0, 1, 2], photos: photos)
        XCTAssertGreaterThan(try XCTUnwrap(blur[2]).sigma, 0.45, "the clean siblings witness the blur at 100 %")
        // Without a grain reading at 100 %, the analysis scale still decides.
        let unmeasured = [input(detail(sigma: 0.3, grain: nil), noise: 4, "clean"), photos[2]]
        XCTAssertTrue(GroupBlur.grainy(unmeasured[0], than: unmeasured[1]))
        XCTAssertFalse(GroupBlur.grainy(photos[2], than: photos[0]), "the smoother frame is no grainier")
    }

    /// A fault can change a frame's look enough to split it from its burst: alone in its visual
    /// group it had no sibling to be compared with, read no fault, and was picked over its clean
    /// burst mates (a defocused lattice, a smeared weave). It is compared with the frames of its
    /// shooting burst in other groups; with `burstGap` 0 it is not, and reads nothing.
    func testAFrameAloneInItsGroupIsComparedWithItsShootingBurst() throws {
        let q = QualityAnalyzer(), sp = SpectrumAnalyzer(), f = FeaturePrintAnalyzer()
        let images = try [(0.0, 0.0), (0.004, 0.0), (0.008, 2.5)].map { shift, blur in
            try decoded(try FixtureFactory.jpeg(scene: 11, width: 1600, height: 1200, shiftX: shift, blur: blur), longEdge: 768)
        }
        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "p\(k).jpg", technical: q.analyze(img), localHour: 12, timeLabel: nil, print: f.analyze(img),
                        spectrum: sp.analyze(img), epoch: 1_700_000_000 + Double(k))
        }
        // The clean pair is one group, the defocused frame a group of its own, all one moment.
        let clustering = Clustering(
            moments: [Moment(id: 0, photos: [0, 1, 2], start: nil, end: nil, latitude: nil, longitude: nil)],
            clusters: [PhotoCluster(id: 0, photos: [0, 1], representative: 0, best: 0, moment: 0, medianTime: nil, latitude: nil, longitude: nil),
                       PhotoCluster(id: 1, photos: [2], representative: 2, best: 2, moment: 0, medianTime: nil, latitude: nil, longitude: nil)],
            momentOf: [0, 0, 0], clusterOf: [0, 0, 1])
        func select(_ gap: Double) throws -> Selection {
            try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 1, "minQuality": 0, "burstGap": gap])).run((inputs, clustering))
        }
        let s = try select(5)
        XCTAssertGreaterThan(s.scores[2].blurVsGroup ?? 0, 0.45, "blurred against its burst mates")
        XCTAssertLessThan(s.scores[2].technical, 0.6 * s.scores[0].technical)
        XCTAssertNotEqual(s.picks, [2])
        XCTAssertNil(try select(0).scores[2].blurVsGroup, "burstGap 0: alone, it has nothing to be compared with")
        XCTAssertEqual(s.scores[0].blurVsGroup, try select(0).scores[0].blurVsGroup, "its mates keep their own values")
    }
}
