import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

final class SpectrumTests: XCTestCase {
    /// 1024×768 procedural frames decoded to 768×576: blur σ given at 1024 px is 0.75 σ at the analysis scale.
    func frame(shiftX: Double = 0, blur: Double = 0, gain: Double = 1, noise: Double = 0) throws -> AnalysisImage {
        let dir = try temporaryDirectory()
        let path = dir + "/f.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 11, width: 1024, height: 768, shiftX: shiftX, blur: blur, gain: gain, noise: noise), to: path)
        return try Decoder(longEdge: 768).decode(path)
    }

    /// sRGB from linear light and back, to set a frame's deciles some stops apart.
    func srgb(_ linear: Double) -> Double { linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055 }
    func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

    /// Frames of one scene as selection sees them: their quality and spectrum, measured.
    func selectInputs(_ images: [AnalysisImage]) -> [SelectInput] {
        let s = SpectrumAnalyzer(), q = QualityAnalyzer()
        return images.enumerated().map { k, img in
            SelectInput(path: "f\(k)", technical: q.analyze(img), localHour: nil, timeLabel: nil,
                        print: FeaturePrint(vector: [1]), spectrum: s.analyze(img))
        }
    }

    func testExtraBlurMeasuresTheAddedGaussianWhateverTheScene() throws {
        let s = SpectrumAnalyzer()
        let sharp = s.analyze(try frame())
        let shifted = s.analyze(try frame(shiftX: 0.02, gain: 1.3))
        let blurred = s.analyze(try frame(blur: 2))  // σ 1.5 px at 768: Δσ² = 2.25
        XCTAssertEqual(sharp.power.count, 4 * 32)
        let same = try XCTUnwrap(shifted.extraBlur(comparedWith: sharp))
        XCTAssertLessThan(abs(same), 0.4, "a shifted, brighter frame of the same scene is as sharp")
        let extra = try XCTUnwrap(blurred.extraBlur(comparedWith: sharp))
        // Less than the added blur: the blurred frame's finest detail sinks under its
        // noise floor and leaves the fit.
        XCTAssertEqual(extra, 1.6, accuracy: 0.6, "the fit sees most of the added blur (Δσ² 2.25)")
        XCTAssertLessThan(try XCTUnwrap(sharp.extraBlur(comparedWith: blurred)), -0.2, "the other way round it is negative (in every sector)")
        let other = SpectrumAnalyzer(parameters: try Parameters(SpectrumAnalyzer.parameterSpecs, overrides: ["bins": 16])).analyze(try frame())
        XCTAssertNil(other.extraBlur(comparedWith: sharp), "spectra of another shape do not compare")
    }

    /// Waves or railings hold their power along one axis and almost none on the diagonals.
    /// There, between two frames of a burst (a turn of a degree or two, the resampling of a
    /// handheld shift), the little that is there changes a lot; a mean of per-sector fits read
    /// such clean frames 0.6–0.8 px blurred (select v9). Summed over orientations each
    /// frequency counts by its power, so the frame reads as sharp, and a defocus still reads
    /// as its Δσ².
    func testADiagonalWithoutPowerDoesNotMakeBlurButADefocusDoes() throws {
        let sectors = 4, bins = 32
        let probe = PowerSpectrum(sectors: sectors, bins: bins, power: [Float](repeating: 0, count: sectors * bins))
        func spectrum(diagonalLoss: Double, sigma2: Double) -> PowerSpectrum {
            var p = [Float](repeating: 0, count: sectors * bins)
            for b in 0..<bins {
                let f = probe.frequency(b), g = -4 * Double.pi * Double.pi * f * f
                // Band-limited below the noise floor's band (0.42 cycles/px), so the floor is the grain alone.
                let content = f < 0.4 ? 1e5 * pow(f + 0.02, -2) * exp(g * sigma2) : 0
                let diagonal = 0.01 * content * exp(g * diagonalLoss)
                p[0 * bins + b] = Float(content + 2)
                p[1 * bins + b] = Float(diagonal + 2)
                p[2 * bins + b] = Float(0.6 * content + 2)
                p[3 * bins + b] = Float(diagonal + 2)
            }
            return PowerSpectrum(sectors: sectors, bins: bins, power: p)
        }
        let steady = spectrum(diagonalLoss: 0, sigma2: 0), turned = spectrum(diagonalLoss: 1.2, sigma2: 0)
        let bySector = turned.sectorBlur(comparedWith: steady).compactMap { $0 }
        XCTAssertGreaterThan(bySector.reduce(0, +) / Double(bySector.count), 0.5, "per sector, the diagonals read as blur")
        XCTAssertLessThan(try XCTUnwrap(turned.extraBlur(comparedWith: steady)), 0.05, "summed, the frame is as sharp")
        let defocused = spectrum(diagonalLoss: 1.2, sigma2: 0.5)
        XCTAssertEqual(try XCTUnwrap(defocused.extraBlur(comparedWith: steady)), 0.5, accuracy: 0.1, "a defocus reads as its Δσ²")
    }

    func testGroupBlurIgnoresNoisierSiblingsAndNamesTheBlurredFrame() throws {
        let images = [try frame(), try frame(shiftX: 0.015), try frame(blur: 2.5), try frame(noise: 14)]
        let inputs = selectInputs(images)
        let blur = GroupBlur.measure(members: [0, 1, 2, 3], photos: inputs)
        XCTAssertLessThan(try XCTUnwrap(blur[0]).sigma, 0.6)
        XCTAssertLessThan(try XCTUnwrap(blur[1]).sigma, 0.6)
        XCTAssertGreaterThan(try XCTUnwrap(blur[2]).sigma, 1.3, "σ 1.9 px at the analysis scale was added")
        XCTAssertNotEqual(blur[0]?.reference, 3, "grain is not detail: the noisy frame is nobody's reference")
        XCTAssertNotEqual(blur[2]?.reference, 3)
    }

    /// A pair with one grainy frame: grain passes for detail in the spectrum even at the analysis
    /// scale, so the clean frame read blurred against it; its edges are as narrow, so it is not.
    /// A blurred frame beside the same grainy one has wider edges, and the grainy frame still
    /// witnesses its blur (a scene with no clean frame must not hide it).
    func testAGrainyWitnessShowsBlurOnlyWhereTheEdgesAreWiderToo() throws {
        let grainy = try frame(shiftX: 0.01, noise: 10)
        let clean = selectInputs([try frame(), grainy])
        XCTAssertLessThan(clean[0].technical.measurements.edgeWidth, clean[1].technical.measurements.edgeWidth + GroupBlur.grainyWitnessEdge)
        XCTAssertLessThan(GroupBlur.measure(members: [0, 1], photos: clean)[0]?.sigma ?? 0, 0.45, "the clean frame of the pair is not blurred")
        let blurred = selectInputs([try frame(blur: 2.5), grainy])
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1], photos: blurred)[0]).sigma, 1.0, "σ 1.9 px at the analysis scale was added")
    }

    /// Three frames: clean, mildly blurred, strongly blurred. The mild one is sharper than the
    /// strong one by more than it is blurrier than the clean one, so the median of its two
    /// comparisons read it as sharp as the clean frame. The strong one is blurred itself, and
    /// its own blur is added back to what it witnesses.
    func testABlurredWitnessDoesNotCancelACleanOne() throws {
        let images = [try frame(), try frame(shiftX: 0.01, blur: 1.2), try frame(shiftX: 0.02, blur: 3)]
        let inputs = selectInputs(images)
        let blur = GroupBlur.measure(members: [0, 1, 2], photos: inputs)
        let mild = try XCTUnwrap(blur[1]).sigma, clean = try XCTUnwrap(blur[0]).sigma
        XCTAssertGreaterThan(mild, 0.45, "σ 0.9 px at the analysis scale was added")
        XCTAssertLessThan(clean, 0.3, "the clean frame is not marked down by the blurred witnesses")
        XCTAssertGreaterThan(try XCTUnwrap(blur[2]).sigma, mild)
    }

    /// A witness smeared within its own frame loses detail along its smear and little in the sum,
    /// so a blurred sibling reads sharp against it; it counts only when no other witness does.
    /// og34: a σ 0.5 defocus read 0.1 px blurred, the median falling on a 3.9 px smear between a
    /// clean sibling (+0.4 px²) and a more blurred one.
    func testASmearedWitnessCountsOnlyWhenNoOtherDoes() throws {
        // 2 stands in for the smeared sibling: as blurred as 1, so 1 reads no blur against it.
        let images = [try frame(), try frame(shiftX: 0.01, blur: 1.2), try frame(shiftX: 0.02, blur: 1.2)]
        let inputs = selectInputs(images)
        // No witness's own blur is added back here, so the median alone is at stake.
        let both = try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, blurredWitness: 100)[1]).sigma
        let clean = try XCTUnwrap(GroupBlur.measure(members: [0, 1], photos: inputs, blurredWitness: 100)[1]).sigma
        let steady = try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, blurredWitness: 100, smeared: [2])[1]).sigma
        XCTAssertGreaterThan(clean, both + 0.1, "the smeared witness halves the blur read against the clean one")
        XCTAssertEqual(steady, clean, accuracy: 1e-9, "without it, the clean witness decides")
        XCTAssertNotNil(GroupBlur.measure(members: [1, 2], photos: inputs, smeared: [2])[1], "alone, it still witnesses")
    }

    /// og32 (held out): a σ 0.7 defocus whose steady witness was grainy (a lower tier) read 0
    /// against its smeared sibling, the one witness of the best tier, and was picked. A smeared
    /// witness gives way to a steady one of any tier.
    func testASmearedWitnessGivesWayToASteadyOneOfALowerTier() throws {
        // 2 stands in for the smeared sibling, as blurred as 1; 0 is clean but clips more (tier 1).
        let images = [try frame(), try frame(shiftX: 0.01, blur: 1.2), try frame(shiftX: 0.02, blur: 1.2)]
        var inputs = selectInputs(images)
        inputs[0].technical.measurements.clippedHighlights = inputs[1].technical.measurements.clippedHighlights + 0.1
        let alone = try XCTUnwrap(GroupBlur.measure(members: [0, 1], photos: inputs, blurredWitness: 100)[1]).sigma
        let steady = try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, blurredWitness: 100, smeared: [2])[1])
        let smeared = try XCTUnwrap(GroupBlur.measure(members: [1, 2], photos: inputs, blurredWitness: 100, smeared: [2])[1]).sigma
        XCTAssertGreaterThan(alone, smeared + 0.1, "against the smeared sibling its blur hardly shows")
        XCTAssertEqual(steady.sigma, alone, accuracy: 1e-9, "the steady witness of the lower tier decides")
        XCTAssertEqual(steady.reference, 0)
    }

    /// A scene with no clean frame: the blurred one's only sibling is grainy. It is still
    /// compared with it, at the analysis scale (where the fit stands above the grain's floor),
    /// not at 100 %, so the least bad frame of the scene does not pass for sharp.
    func testAGrainySiblingWitnessesBlurWhenNoCleanOneIs() throws {
        // 3072 px files: the analysis scale averages grain as a camera file's downscale does.
        func big(blur: Double = 0, noise: Double = 0) throws -> AnalysisImage {
            let path = try temporaryDirectory() + "/g.jpg"
            try FixtureFactory.write(try FixtureFactory.jpeg(scene: 11, width: 3072, height: 2304, blur: blur, noise: noise), to: path)
            return try Decoder(longEdge: 768).decode(path)
        }
        let images = [try big(blur: 7.5), try big(noise: 14)]
        let inputs = selectInputs(images)
        XCTAssertGreaterThan(inputs[1].technical.measurements.noiseSigma, max(1.5 * inputs[0].technical.measurements.noiseSigma + 0.5, 3), "the sibling is grainy")
        let blur = GroupBlur.measure(members: [0, 1], photos: inputs)
        let blurred = try XCTUnwrap(blur[0], "the grainy sibling is its witness")
        XCTAssertGreaterThan(blurred.sigma, 1.0)
        XCTAssertEqual(blurred.reference, 1)
        XCTAssertNil(blurred.native, "not compared at 100 %, where grain is power at every frequency")
        XCTAssertLessThan(blur[1]?.sigma ?? 0, 0.3, "the grainy frame reads no blur against the blurred one")
    }

    /// A blurred frame whose siblings all clip more (the darkest frame of a burst under a
    /// blown sky) still has them as witnesses; a sibling 2 stops away is none.
    func testGroupBlurFallsBackToSiblingsThatClipMoreButNeverToAMisexposedOne() throws {
        let s = SpectrumAnalyzer(), q = QualityAnalyzer()
        let images = [try frame(blur: 2.5), try frame(), try frame(shiftX: 0.015)]
        var inputs = images.enumerated().map { k, img in
            SelectInput(path: "f\(k)", technical: q.analyze(img), localHour: nil, timeLabel: nil,
                        print: FeaturePrint(vector: [1]), spectrum: s.analyze(img))
        }
        for k in 1...2 { inputs[k].technical.measurements.clippedHighlights = inputs[0].technical.measurements.clippedHighlights + 0.1 }
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0]).sigma, 1.3)
        // The same siblings 2 stops brighter: no witness, so no value.
        let base = [0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2, 0.25, 0.3]
        inputs[0].technical.measurements.brightestDeciles = base
        for k in 1...2 { inputs[k].technical.measurements.brightestDeciles = base.map { srgb(linear($0) * 4) } }
        XCTAssertNil(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0])
        // 1.3 stops brighter, they witness; unless both it and they look right on their own and
        // their tones are not one gain apart: then they are renditions of the view (an HDR frame
        // and its plain twin, shadows lifted 2 stops and highlights 0.8), not a burst.
        for k in 1...2 { inputs[k].technical.measurements.brightestDeciles = base.map { srgb(linear($0) * pow(2, 1.3)) } }
        let apart = try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0]).sigma
        XCTAssertGreaterThan(apart, 1.3)
        for k in 0...2 { inputs[k].technical.exposure = 0.95 }
        XCTAssertEqual(try XCTUnwrap(GroupExposure.toneSpread(inputs[1].technical.measurements, inputs[0].technical.measurements)), 0, accuracy: 0.01)
        // One gain apart, both right alone: a burst metered apart, which witnesses less the
        // allowance for frames a stop apart (select v51).
        let gain = try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0], "a gain pair witnesses").sigma
        XCTAssertEqual(gain, (apart * apart - GroupBlur.gainPairAllowance).squareRoot(), accuracy: 0.01)
        let hdr = base.enumerated().map { k, v in srgb(linear(v) * pow(2, 2 - 1.2 * Double(k) / Double(base.count - 1))) }
        for k in 1...2 { inputs[k].technical.measurements.brightestDeciles = hdr }
        XCTAssertGreaterThan(try XCTUnwrap(GroupExposure.toneSpread(inputs[1].technical.measurements, inputs[0].technical.measurements)), GroupBlur.renditionSpread)
        XCTAssertNil(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0], "two renditions witness nothing")
    }

    /// A sibling a stop or more apart that is its group's exposure misfire witnesses no blur
    /// of a frame that is not (select v30 for a brighter one, v35 for a darker one). A misfire
    /// frame's own blur is still witnessed by its well-exposed siblings.
    func testAMisfireWitnessesNoBlurOfAFrameThatIsNotOne() throws {
        var inputs = selectInputs([try frame(blur: 2.5), try frame(), try frame(shiftX: 0.015)])
        let base = [0.05, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2, 0.25, 0.3]
        inputs[0].technical.measurements.brightestDeciles = base
        for k in 1...2 { inputs[k].technical.measurements.brightestDeciles = base.map { srgb(linear($0) * pow(2, 1.3)) } }
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0]).sigma, 1.3)
        // A brighter misfire that clips no luma has no clipped edge to pass for detail: it
        // witnesses (select v42; a clean facade blown only in red read as the misfire, x34d).
        for k in 1...2 { inputs[k].technical.measurements.clippedHighlights = 0 }
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [1, 2])[0]).sigma, 1.3,
                             "unclipped brighter misfires witness")
        // Clipping as the white flower's over-exposed frame does (7.5 %), they do not.
        for k in 1...2 { inputs[k].technical.measurements.clippedHighlights = 0.075 }
        XCTAssertNil(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [1, 2])[0], "the brighter misfires are no witnesses")
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [0])[0]).sigma, 1.3,
                             "the misfire's blur is still seen by the frames that are not")
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [0, 1, 2])[0]).sigma, 1.3,
                             "among misfires, as before")
        // Darker misfires are no witnesses either (select v35): a clean cat read 0.55 px blurred
        // against its twin 1.7 stops under, and the dark frame was picked.
        for k in 1...2 { inputs[k].technical.measurements.brightestDeciles = base.map { srgb(linear($0) / pow(2, 1.3)) } }
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs)[0]).sigma, 1.3)
        XCTAssertNil(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [1, 2])[0], "the darker misfires are no witnesses")
        XCTAssertGreaterThan(try XCTUnwrap(GroupBlur.measure(members: [0, 1, 2], photos: inputs, misfires: [0])[0]).sigma, 1.3,
                             "the brighter misfire's blur is still seen by the frames that are not")
    }

    func testSelectionRanksABlurredBurstFrameDownEvenWhenItsAbsoluteScoreTies() throws {
        let s = SpectrumAnalyzer(), q = QualityAnalyzer()
        let images = [try frame(blur: 2.5), try frame(), try frame(shiftX: 0.01)]
        let tie = q.analyze(images[1])
        let print = FeaturePrint(vector: [1])
        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "f\(k)", technical: tie, localHour: 12, timeLabel: "12:00", print: print, spectrum: s.analyze(img))
        }
        let clusterInputs = inputs.enumerated().map { k, p in ClusterInput(epoch: Double(k), latitude: nil, longitude: nil, print: print, quality: 0.5, path: p.path) }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(clusterInputs)
        XCTAssertEqual(c.clusters.count, 1)
        let sel = try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs)).run((inputs, c))
        XCTAssertLessThan(sel.scores[0].technical, 0.6 * sel.scores[1].technical, "1.9 px of extra blur more than halves it")
        XCTAssertEqual(sel.scores[1].technical, tie.overall, accuracy: 0.05)
        XCTAssertNotEqual(sel.picks.first, 0)
        XCTAssertNotEqual(sel.bestOfGroup[0], 0, "the group's best (in the manifest's clusters) is judged the same way")
        XCTAssertEqual(sel.scores[sel.bestOfGroup[0]].relative, 1)
        XCTAssertTrue(sel.reasons[0].contains { $0.contains("more blur than its siblings") }, "\(sel.reasons[0])")
    }

    func testMotionBlurShowsAcrossTheSmearAndInTheDirectionRatio() throws {
        let s = SpectrumAnalyzer()
        let sharpImage = try frame()
        // A 9-px horizontal smear on the analysis image. Its transfer function is a sinc, not a
        // gaussian, so the fit (dominated by the frequencies below its first zero) reads less than 81/12.
        var luma = sharpImage.luma, rgb = [UInt8](repeating: 0, count: sharpImage.rgb.count)
        let w = sharpImage.width, h = sharpImage.height
        for y in 0..<h {
            for x in 0..<w {
                var acc: Float = 0
                for d in -4...4 { acc += sharpImage.luma[y * w + min(w - 1, max(0, x + d))] }
                luma[y * w + x] = acc / 9
            }
        }
        for i in 0..<(w * h) { let v = UInt8(max(0, min(255, luma[i].rounded()))); rgb[3 * i] = v; rgb[3 * i + 1] = v; rgb[3 * i + 2] = v }
        let grey = AnalysisImage(width: w, height: h, rgb: sharpImage.luma.flatMap { v -> [UInt8] in let b = UInt8(max(0, min(255, v.rounded()))); return [b, b, b] })
        let smeared = AnalysisImage(width: w, height: h, rgb: rgb)
        let smearedSpectrum = s.analyze(smeared), greySpectrum = s.analyze(grey)
        let bySector = smearedSpectrum.sectorBlur(comparedWith: greySpectrum).compactMap { $0 }
        XCTAssertGreaterThan(bySector.max() ?? 0, 2, "the sectors across the smear lose most")
        // Summed over orientations, the ones along the smear keep their power: less, but blur.
        XCTAssertGreaterThan(try XCTUnwrap(smearedSpectrum.extraBlur(comparedWith: greySpectrum)), 0.15)
        let q = QualityAnalyzer()
        XCTAssertLessThan(q.analyze(smeared).sharpness, q.analyze(grey).sharpness - 0.2, "the direction ratio sees the smear")
    }
}
