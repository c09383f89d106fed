import Foundation

/// One photo as selection sees it.
public struct SelectInput: Sendable {
    public var path: String
    public var technical: TechnicalQualityScore
    public var localHour: Double?
    public var timeLabel: String?
    public var print: FeaturePrint
    /// For blur relative to the photo's visual group; `nil` leaves it out of that comparison.
    public var spectrum: PowerSpectrum?
    /// The photo at 100 % (JPEG only): grain and blur relative to the group at native resolution.
    public var detail: NativeDetail?
    /// Why the pixels are suspect (decoded only with errors); such a photo is never picked.
    public var damaged: String?
    /// Whether its capture time is trusted (EXIF); untimed photos join groups by look alone.
    public var timeTrusted: Bool
    /// Trusted capture time (seconds since 1970), nil when the time is not trusted.
    public var epoch: Double?
    /// The faces found, upright; `nil` when faces were not analysed (not the same as none found).
    public var faces: [Face]?
    /// Degrees clockwise that show it upright (stored on its side without saying so), or nil.
    public var suggestedRotation: Int?
    public init(path: String, technical: TechnicalQualityScore, localHour: Double?, timeLabel: String?, print: FeaturePrint,
                spectrum: PowerSpectrum? = nil, detail: NativeDetail? = nil, damaged: String? = nil, timeTrusted: Bool = true,
                faces: [Face]? = nil, suggestedRotation: Int? = nil, epoch: Double? = nil) {
        self.epoch = epoch
        self.detail = detail; self.faces = faces; self.suggestedRotation = suggestedRotation
        self.path = path; self.technical = technical; self.localHour = localHour; self.timeLabel = timeLabel; self.print = print
        self.spectrum = spectrum; self.damaged = damaged; self.timeTrusted = timeTrusted
    }

    /// Feature-print similarity that two photos need, when either lacks a trusted time,
    /// before one judges the other's blur or exposure. Timed photos of one visual group
    /// are a burst of one moment; untimed ones were grouped by look alone (at 0.75),
    /// and judging one scene by an unrelated photo that happens to look alike would be worse
    /// than not judging it.
    public static let untimedComparisonSimilarity: Float = 0.8

    /// Whether `other` may serve as a reference for this photo's relative blur and exposure.
    public func comparable(with other: SelectInput) -> Bool {
        (timeTrusted && other.timeTrusted) || print.cosine(other.print) >= Self.untimedComparisonSimilarity
    }

    /// Long edge of the analysis image (`Decoder`'s default), the scale of `spectrum` and of blur values.
    public static let analysisLongEdge = Decoder.defaultLongEdge

    /// The members of photo `i`'s visual group that may judge it (itself excluded), in member order.
    public static func siblings(of i: Int, in members: [Int], _ photos: [SelectInput]) -> [Int] {
        members.filter { $0 != i && photos[i].comparable(with: photos[$0]) }
    }
}

/// Select stage (barrier): photos + `Clustering` → `Selection`.
///
/// ```swift
/// let s = try SelectStage(parameters: p).run((photos, clustering))
/// s.picks   // best first
/// ```
/// - A photo's technical score is its absolute `quality.overall` times two
///   factors relative to its visual group: blur (`GroupBlur`; 1 when as
///   sharp as its siblings, ½ at `blurRef` px of extra blur) and exposure (`GroupExposure`;
///   ½ at `exposureRef` stops from the group's exposure). Within a burst, that
///   is what tells a shaken or misexposed frame from a soft or dark scene.
/// - Each visual group offers one candidate: its technically best photo.
///   A candidate whose quality is under `minQuality` × the best of the trip is
///   not offered: a trip's only photo of a scene is no reason to show a blurred one.
/// - Candidates are ranked by `PhotoScore.overall`; the top N takes them round by
///   round: first the best of each moment, then of each remaining visual group,
///   so no burst gives two picks while another moment has none. A further photo
///   is never a near-duplicate (cosine ≥ `similarity`) of one already picked; the
///   list stops short rather than repeat itself.
/// - Ties break by path, so the same input gives the same picks.
public struct SelectStage: BarrierStage {
    public static let id = "select"
    /// 2: technical score includes blur and exposure relative to the visual group.
    /// 3: and grain at 100 % relative to the visual group.
    /// 4: blur relative to the group is the mean over orientation sectors (was the largest).
    /// 5: faces: photo type and face score in `overall`; closed eyes, turned or softer faces lose within a burst.
    /// 6: blur relative to the group adds the comparison at 100 % (`nativeBlurWeight`).
    /// 7: a second pick of a moment is never taken during a picked burst (`sameBurstSeconds`).
    /// 8: exposure against the group is against its median, the photo itself counted (`GroupExposure`).
    /// 9: a pair's blown frame is its misfire; a short top N is filled (`fillSimilarity`); no
    ///    further pick from a picked group's shooting burst (`burstGap`); blur references are
    ///    less than a stop apart in exposure; the blur at 100 % weighs 3.5 (was 2).
    /// 10: blur against the group is fitted on the power summed over orientations
    ///    (`PowerSpectrum.extraBlur`): a handheld turn is not blur.
    ///    A frame near its group's exposure is judged on exposure at least about as well as
    ///    its best-exposed sibling (`sceneExposureStops`). A grainy sibling witnesses blur when
    ///    no other does; HDR and plain renditions never do. A burst split into two equal
    ///    camps a stop apart is judged by the camp that looks right (`GroupExposure.betterCamp`).
    ///    A group whose every other frame is faulty offers its best only to fill (`uncorroborated`).
    /// 11: a sibling smeared against the best frame (`GroupBlur.smear` in one orientation) counts as
    ///    faulty when a group's best frame is confirmed (`uncorroborated`); the doubt falls on the whole
    ///    group, twice when a sibling keeps detail at 100 % that the best lost (`GroupBlur.contradicts`),
    ///    and such groups fill a short top N last.
    ///    A blank frame is never offered (`blankContrast`).
    /// 12: a frame smeared within itself beyond its siblings (`GroupSmear`) counts as faulty when
    ///    its group's best is confirmed, and a best frame so smeared is doubted twice.
    /// 13: a brighter camp of a burst whose every frame is blown over a quarter more of the frame
    ///    than the darker camp is the misfire, even when it is the majority (`GroupExposure.betterCamp`).
    /// 14: a witness of a frame's blur that is blurred itself (`blurRef` or more) has its own value
    ///    added back, so one clean and one more blurred sibling do not cancel (`GroupBlur.measure`).
    /// 15: a group whose best is confirmed only by siblings blurred `confirmingBlur` × `blurRef` or more
    ///    fills a short top N, like an unconfirmed one, its scores unchanged.
    /// 16: the brighter frame of a pair, a stop or more over a sibling that uses its whole range
    ///    and clipping more, is the misfire even when both look right on their own (`GroupExposure.clippedOfPair`).
    /// 17: a witness smeared within its own frame (`GroupSmear`) counts for a sibling's blur only
    ///    when no other does (`GroupBlur.measure`).
    /// 18: a smeared witness gives way to a steady one of any tier (grainier, clipping more, a
    ///    stop apart), not only of its own.
    /// 19: a clean photo that looks like a pick of another moment over `fillSimilarity`, but under
    ///    `repeatSimilarity`, fills a short top N before a held-back group or one under the floor.
    /// 20: a camp of two or more frames that look right on their own outvotes a larger camp whose
    ///    every frame looks wrong (`GroupExposure.agreeingMinority`).
    /// 21: of two camps of one size, a brighter one that reaches white clipping next to nothing,
    ///    beside a darker one short of white, is the scene's exposure before the look decides.
    /// 22: a larger brighter camp blown in colour is the misfire only beside a darker camp that
    ///    reaches `GroupExposure.shortOfWhite` (saturated colours blow a channel in clean frames).
    /// 23: a frame stored on its side gives way to an upright sibling only when that sibling
    ///    stands at least `sidewaysGivesWay` × as well.
    /// 24: a sibling blown over most of its frame (`blownSibling`) beside a best frame that is not
    ///    counts as faulty against it (`uncorroborated`), however few stops it reads; nor is such a
    ///    frame lifted to the scene's exposure (`sceneExposure`).
    /// 25: the scene's exposure reaches farther (`sceneExposureStops` 0.6, was 0.4) and stops at a
    ///    stop from the group's exposure (`GroupExposure.misfire`).
    /// 26: a weakly confirmed group fills a short top N before an unconfirmed one or one under the
    ///    floor (`fillOrder`).
    /// 27: a frame with no exposure reading against its group (no comparable sibling) is not lifted
    ///    to the scene's exposure (`sceneExposure`), as its documentation says.
    /// 28: a sibling whose faults, each under its line, add up to one (`confirmingEvidence`) only
    ///    weakly confirms its group's best frame.
    /// 29: a group whose best frame has no strong edge (`minEdges`) only fills a short top N.
    /// 30: a sibling a stop or more brighter that is its group's exposure misfire witnesses no
    ///    blur of a frame that is not (`GroupBlur.measure`, `misfires`).
    /// 31: a low-key scene (three or more frames agreeing on a dark exposure) stands across the trip
    ///    as a well exposed one (`lowKey`, `lowKeyScenes`).
    /// 32: a group without a trusted time fills no short top N with a look-alike of a pick of
    ///     another such group (their moments are their own, not told apart by a clock).
    /// 33: a frame that no sibling can be compared with at the analysis scale (too little detail
    ///     above the noise floor: fog) is compared at 100 % alone, by the least of its siblings; a grainier
    ///     sibling witnesses a frame's blur only where the frame's edges are wider too (`GroupBlur`).
    /// 34: the darker frame of a pair, a stop or more under and short of white, is its misfire
    ///     (`GroupExposure.shortOfPair`), before a blown brighter frame is; a brighter frame that
    ///     clips beside a twin that clips nothing is the misfire wherever the twin is not short of
    ///     white (`clippedOfPair` asked it to reach 0.9).
    /// 35: a darker sibling that is its group's exposure misfire witnesses no blur of a frame that
    ///     is not one either (`GroupBlur.measure`, `misfires`; v30 held it for a brighter one).
    /// 36: the comparison at 100 % is corrected by the two frames' exposure difference: a brighter
    ///     frame's detail, flattened by the tone curve, is not blur (`GroupBlur.brighterNativeLoss`).
    /// 37: where both frames' grain was measured at 100 %, that measure alone says whether a sibling
    ///     is too grainy to witness a frame's blur (`GroupBlur.grainy`): at 768 px texture reads as noise.
    /// 38: a doubted best frame (nothing or little shows it clean) that its siblings read smeared by
    ///     half the line or more (`GroupSmear.partlySmeared`) fills a short top N with the contradicted.
    /// 39: a group's best frame with no trusted time fills as a look-alike of another moment's pick
    ///     only through the group's best frame with one (`standIns`): it joined the group by look alone.
    /// 40: a face's sharpest in its burst is taken over the siblings that are not grainier
    ///     (`GroupFaces`): grain passed for a face's detail.
    /// 41: the darker frame of a pair that nears white may crush its shadows and still show its
    ///     brighter twin, clipping more, to be the misfire (`GroupExposure.clippedOfPair`).
    /// 42: a brighter misfire that clips no luma witnesses its sibling's blur (`GroupBlur.measure`).
    /// 43: of the frames of one shooting burst that fill a short top N, the technically best goes
    ///     first (`burstsBestFirst`): a lone misfire no longer fills on its context.
    /// 44: nor is a sibling a stop or more apart in exposure a measure of a face's sharpest (`GroupFaces`).
    /// 45: closed eyes count beyond the fewest of the comparable siblings only (not grainier, less
    ///     than a stop apart), not of a misfire that reads a squint as open (`GroupFaces`).
    /// 46: nor of a sibling blurred (`blurRef`) or smeared (`GroupSmear.smeared`) against the group.
    /// 47: a pair's brighter frame that is a subject on white (`whiteBackground`, quality v17) is no
    ///     blown misfire, and its twin short of white is (`GroupExposure.shortOfPair`, `blownOfPair`).
    /// 48: a high-key frame judged on its subject (quality v18) that its burst reads a stop or more
    ///     brighter is judged on the whole frame (`unliftedExposure`); a high-key majority is its
    ///     scene's exposure, at least as good as any sibling's reading alone (`sceneExposure`).
    /// 49: a high-key frame judged on its subject is bright by design in a pair, like a subject on
    ///     white (`GroupExposure.brightByDesign`); of two camps of one size, a darker one that clips
    ///     nothing beside a brighter one that clips is the scene's exposure, as in a pair; a sibling
    ///     clipped over no more than a high-key best frame's backdrop is not blown beside it (`blownBeside`).
    /// 50: a frame smeared against its group pays in its technical score (`smearRef`), as a
    ///     blurred, misexposed or grainy one does; before, a smear only doubted a best frame.
    /// 51: two frames a stop or more apart that both look right alone witness each other's blur,
    ///     less `GroupBlur.gainPairAllowance`, when their tones are one gain apart
    ///     (`GroupBlur.renditionSpread`); before, they were taken for HDR renditions and compared nothing.
    /// 52: a photo alone in its visual group has its exposure measured against the frames of its
    ///     shooting burst in other groups, and its blur, smear and grain against those of them that
    ///     witness best (as bright, clipping no more, no grainier): a fault had split it from them.
    /// 53: the darker frame of a pair, short of white, is its misfire beside a bright twin that clips
    ///     nothing in any channel (`GroupExposure.clipsNoColour`); before, a median over 0.65 let the
    ///     twin's absolute score decide, and a washed-out scene lost to its frame 1.9 stops under.
    /// 54: a held-back untimed best's stand-in (`diverse`'s `standIns`) fills at its own worth, after
    ///     the held-back frames of other scenes that fill before it; before, it took its group's
    ///     best's turn, and a smeared frame of an all-faulty scene filled ahead of a clean one.
    public static let version = 54
    /// How many of its shooting burst's frames in other groups a photo alone in its group is
    /// compared with, nearest in time first (a visual group holds at most `maxPerCluster`, 20).
    static let burstMatesCompared = 8
    /// Share of a sideways frame's standing that an upright sibling needs to go before it.
    static let sidewaysGivesWay = 0.5
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("top", 20, in: 1...100_000, integer: true, "how many photos to pick"),
        ParameterSpec("minQuality", 0.35, in: 0...1, "a candidate needs at least this × the trip's best technical score; a group under it only fills a top N left short (see fillSimilarity)"),
        ParameterSpec("similarity", 0.75, in: 0...1, "picks are never this similar to each other"),
        ParameterSpec("fillSimilarity", 0.95, in: 0...1, "when look-alikes leave the top N short, it is filled with photos that look like a pick of another moment (never of the same one) under this similarity, then with ones under repeatSimilarity, then with groups held back or under the quality floor; at or below `similarity`, the list stops short instead"),
        ParameterSpec("repeatSimilarity", 0.995, in: 0...1, "a photo offered that looks like a pick of another moment under this similarity (the same view, shot again) fills a short top N before any group held back or under the quality floor: a repeated view is clean, those are not shown to be; a copy of the same picture (this similar or more) never fills; at or below fillSimilarity, off"),
        ParameterSpec("burstGap", 5, in: 0...60, "photos of a moment shot at most this many seconds after the one before are one shooting burst; a further pick is never from a picked group's shooting burst (its misfires and look-unlike frames are that scene again), and a photo alone in its visual group is judged against its burst's frames in other groups (blur, smear, grain, exposure); 0 turns both off"),
        ParameterSpec("sameBurstSeconds", 1, in: 0...60, "a further pick of a moment is never a photo taken while a picked burst was shot (within its first and last frame, ± this many seconds): a misfired frame of that burst that looks too different to join it (blown out, black), not another scene; 0 turns this off"),
        ParameterSpec("blurRef", 0.45, in: 0.1...10, "extra blur (px σ at the analysis scale) against the comparable photos of its visual group at which the technical score halves"),
        ParameterSpec("nativeBlurWeight", 3.5, in: 0...10, "weight of the blur measured at 100 % (DCT blocks) against the comparable photos of its visual group, added to the analysis-scale one (0: analysis scale only)"),
        ParameterSpec("lowKey", 0.9, in: 0...1, "a visual group of three or more frames that agree on a dark exposure (a low-key scene: fog, dusk) and whose best frame something confirms is judged across the trip as if its best exposure scored at least this; 0 turns this off"),
        ParameterSpec("sceneExposureStops", 0.6, in: 0...3, "within a visual group, a frame less than a stop from the group's exposure is judged on exposure at least as well as its best-exposed sibling, less as it strays (× exp(−(stops / this)²)): a high-key or low-key scene, or a frame a few tenths brighter by hand, is not a fault of each frame; 0 turns this off"),
        ParameterSpec("uncorroborated", 0.6, in: 0...1, "a visual group of three or more whose every other frame is faulty against it (blurred, smeared in one direction, misexposed or grainy) has nothing to show that its best frame is clean: that frame's technical score counts this ×, and the group only fills a top N left short; 1 turns this off"),
        ParameterSpec("confirmingBlur", 0.75, in: 0...1, "a sibling confirms its visual group's best frame only when its extra blur against the group is under this × blurRef; a group of three or more whose other frames are all faulty or blurred that much only fills a top N left short (its scores unchanged); 1 turns this off"),
        ParameterSpec("confirmingEvidence", 1, in: 0...10, "nor does a sibling whose faults, each as a share of its line (extra blur of confirmingBlur × blurRef, a stop of exposure, grain of grainRef / 2, a smear of GroupSmear.smeared), add up to this; 0 turns this off"),
        ParameterSpec("minEdges", 1, in: 0...1000, "a visual group whose best frame has fewer strong edges than this shows neither focus nor shake (a crop of bokeh, a fog bank): nothing shows it is sharp, so it only fills a top N left short, its scores unchanged; 0 turns this off"),
        ParameterSpec("blankContrast", 0.03, in: 0...0.5, "a photo with almost no strong edge (under 100) whose brightness varies across the frame by less than this share of its mean (σ of the luma of a 16×16 grid of blocks over the mean luma), or by under 1 level, is a blank frame (a lens cap, a grey card) and is never offered; 0 turns this off"),
        ParameterSpec("smearRef", 1.0, in: 0...10, "extra blur along one direction against the comparable photos of its visual group (px² at the analysis scale, `GroupSmear`) at which the technical score halves; 0 turns this off"),
        ParameterSpec("exposureRef", 1.5, in: 0.1...10, "stops from the visual group's exposure at which the technical score halves"),
        ParameterSpec("grainRef", 5, in: 0.5...50, "extra grain σ at 100 % (levels per pixel) over the visual group's at which the technical score halves"),
        ParameterSpec("goldenHourBonus", 1.0, in: 0...1, "time-of-day context for golden-hour photos (others get less)"),
        ParameterSpec("mainFaceSize", 0.05, in: 0...1, "faces at least this size (sqrt of box area over frame area) make a photo a portrait or group; smaller ones are background"),
        ParameterSpec("closedEyes", 0.2, in: 0...1, "within a burst, a frame where someone's eyes are closed (who has them open in another frame) counts this × (twice for two or more faces): a blink is worse than a slightly softer frame"),
        ParameterSpec("turnedAway", 45, in: 10...90, "within a burst, a main face turned more than this (degrees of yaw) where a sibling shows it turned less counts 0.6×"),
        ParameterSpec("personDistance", 0.5, in: 0.2...1.2, "two face descriptors closer than this (Euclidean) are the same person (dlib's own threshold is 0.6)"),
        ParameterSpec("personMinPhotos", 2, in: 1...100, integer: true, "a person gets an album when seen in at least this many photos"),
        ParameterSpec("faceBlurRef", 0.25, in: 0.05...1, "within a burst, a face with this much less detail than the same face at its sharpest halves the frame's standing"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    /// The factor on each photo's `quality.overall` that lets the scene, not the frame, answer
    /// for how hard its exposure is. A high-key scene (snow, a white façade, a bright sky
    /// filling the frame) clips in every frame: its clean frames scored 0.003–0.02 on
    /// exposure and ranked under a defocused sibling that happened to clip less, though
    /// they were only 0.4 stops brighter than the burst (a fault is 1.7). A frame less than
    /// `GroupExposure.misfire` from its group's exposure is judged at least at its best-exposed
    /// sibling's score × exp(−(Δ/stops)²), the sibling itself no misfire; a stop or more off, the
    /// relative exposure factor rules, as before. `stops` is 0.6 since select v25: at 0.4, two
    /// clean frames of a bright wood 0.9 stops over their burst by hand (a third of them in
    /// clipped blocks, 0.00 on their own) ranked under their twins 1.8 stops under (p22a: under
    /// within the scene 0.80). 0.8 did as well there but lifted over-exposed frames that read
    /// 0.8–1 stop over on trips made with the older generator (h2560: over within 0.97).
    /// The factor is (lifted ÷ own)^w, w the exposure's weight in `overall` (the quality
    /// analyzer's default). Photos alone, or with no exposure value, keep theirs, and so does a
    /// frame blown over `blownSibling` of it beside a best-exposed sibling that is not.
    public static func sceneExposure(groups: [[Int]], photos: [SelectInput], groupExposure: [Int: Double], stops: Double) -> [Int: Double] {
        guard stops > 0 else { return [:] }
        var out: [Int: Double] = [:]
        for members in groups where members.count > 1 {
            // A misfire is no measure of the scene: 2 stops over, a dark scene's frame looked perfect.
            let agreeing = members.filter { abs(groupExposure[$0] ?? 0) < GroupExposure.misfire }
            guard let bestFrame = agreeing.max(by: { photos[$0].technical.exposure < photos[$1].technical.exposure }) else { continue }
            var best = photos[bestFrame].technical.exposure
            // Unless the scene is high key: then a majority agreeing on its exposure, each frame a
            // subject before a bright backdrop, is the scene's exposure, however the frames read on
            // their own, and a misfire that reads better alone only turned the backdrop grey. Two
            // clean frames of a device on white (0.00 alone, white in clipped blocks round the
            // subject) lost to their twin 2 stops under (0.55 alone), which was picked (select v48).
            if agreeing.count >= 2, agreeing.count * 2 > members.count,
               agreeing.allSatisfy({ photos[$0].technical.measurements.highKey == true }),
               let brightest = members.map({ photos[$0].technical.exposure }).max() {
                best = max(best, brightest)
            }
            guard best > 0 else { continue }
            func clipping(_ j: Int) -> Clipping { Clipping(photos[j].technical.measurements) }
            for i in members {
                // A frame blown white over most of it, beside a best-exposed sibling that is not, has
                // too little left to read its stops by: one 2 stops over (88 % in clipped blocks) read
                // 0.86, and one 2.2 stops over (83 %), untimed and too unlike its siblings to be read
                // against them at all, counted as 0 stops off; it was lifted to its sibling's exposure
                // score and picked (p22e).
                if blownBeside(clipping(i), best: clipping(bestFrame)) { continue }
                // A frame with no reading at all (untimed, and too unlike its siblings to be read
                // against them) keeps its own score: counted as 0 stops off, an over-exposed frame
                // of og12 scored 0.88 where its own exposure gives 0.28.
                guard let reading = groupExposure[i] else { continue }
                let own = max(1e-4, photos[i].technical.exposure)
                let apart = abs(reading)
                // A stop or more off is a misfire's distance: however small the Gaussian, a floor
                // over an exposure score near 0 is a large factor (a pair's frame 1.6 stops over,
                // 0.001 on its own, was lifted fourfold over its clean twin at 0.8 stops' width).
                guard apart < GroupExposure.misfire else { continue }
                let floor = best * exp(-pow(apart / stops, 2))
                if floor > own { out[i] = pow(floor / own, exposureWeight) }
            }
        }
        return out
    }

    /// Per member of a low-key scene, the factor that judges it across the trip as if its group's
    /// best exposure scored at least `floor`.
    ///
    /// ```swift
    /// SelectStage.lowKeyScenes(groups: [[0, 1, 2]], photos: fog, groupExposure: [0: 0.1, 1: -0.2, 2: 0],
    ///                          doubted: [], floor: 0.9)   // [0: 1.93, 1: 1.93, 2: 1.93] when the best scored 0.1
    /// ```
    /// Three or more frames that agree on a dark exposure (each less than a stop from the group's,
    /// the best of them dark, neither crushed nor clipped) show a scene dark by choice: fog, dusk, a
    /// night street. Each frame on its own reads under-exposed (the fog scene of a held-out package
    /// scored 0.04–0.12 on exposure), so under-exposed frames of other scenes ranked above its clean
    /// frames across the trip (e25a's under-exposure AUC 0.912). The whole group gets one factor,
    /// so its order stays; a group whose best frame nothing confirms (`doubted`) gets none, since an
    /// all-faulty burst agrees too, and raising it pushed faulty frames into the top N.
    public static func lowKeyScenes(groups: [[Int]], photos: [SelectInput], groupExposure: [Int: Double], doubted: Set<Int>,
                                    floor: Double) -> [Int: Double] {
        guard floor > 0 else { return [:] }
        var out: [Int: Double] = [:]
        for members in groups where !members.contains(where: doubted.contains) {
            let agreeing = members.filter { groupExposure[$0].map { abs($0) < GroupExposure.misfire } ?? false }
            guard agreeing.count >= 3, let b = agreeing.max(by: { photos[$0].technical.exposure < photos[$1].technical.exposure }) else { continue }
            let m = photos[b].technical.measurements
            guard m.medianLuma <= lowKeyLuma, m.clippedShadows <= GroupExposure.crushedAtMost,
                  m.clippedHighlights <= GroupExposure.clippedMargin else { continue }
            let best = max(1e-4, photos[b].technical.exposure)
            guard best < floor else { continue }
            for i in members { out[i] = pow(floor / best, exposureWeight) }
        }
        return out
    }

    /// The exposure score's exponent in `quality.overall` (the quality analyzer's default weights):
    /// a factor f on the exposure score is f^this on `overall`.
    static let exposureWeight = (QualityAnalyzer.parameterSpecs.first { $0.name == "weightExposure" }?.defaultValue ?? 0.3)
        / QualityAnalyzer.parameterSpecs.filter { $0.name.hasPrefix("weight") }.map(\.defaultValue).reduce(0, +)

    /// Median luma at or under which a group's best-exposed frame makes its scene a dark one: a
    /// high-key burst that agrees is blown frames agreeing (og52), not a choice to lift.
    static let lowKeyLuma = 0.3

    /// Strong edges that a blank frame may still show (JPEG blocks, a clipped corner); a real
    /// photo has thousands.
    static let blankEdges = 100

    /// Why photo `p` is a blank frame (a lens cap, a grey card, a test file), or nil: it has
    /// almost no strong edge (`blankEdges`) and its brightness varies across it by less than
    /// `blankContrast` of its mean (or by under a level: a black frame). Nobody keeps one,
    /// however clean; a grey test file's frames were picked, as their scene's only photos, on
    /// two trips of the second generator. Relative, as a viewer sees contrast: a dark wallpaper
    /// varies by 2.2 levels, 14 % of its mean, and is no blank; the grey frames of the trips
    /// vary by 2.3 % at most.
    func blank(_ p: SelectInput) -> String? {
        let m = p.technical.measurements, limit = parameters["blankContrast"]
        guard limit > 0, let spread = m.coarseSpread, m.edgeCount < Self.blankEdges else { return nil }
        let mean = max(1, 255 * m.meanLuma)
        guard spread < 1 || spread / mean < limit else { return nil }
        return String(format: "a blank frame: its brightness varies by %.1f%% across it (σ %.1f levels) and it has %d strong edges", 100 * spread / mean, spread, m.edgeCount)
    }

    static let contradictedReason = "a sibling keeps more detail at 100 % in one direction, so this one is blurred itself"
    static let featurelessReason = "it has no strong edge, so nothing in it shows focus or shake: nothing shows it is sharp"
    static let partlySmearedReason = "its siblings read it smeared along one direction (%.2f px², under the line), so it comes after the groups nothing reads as faulty"
    static let smearedItselfReason = "it is blurred more along one direction than across it, beyond what its siblings show of the scene: smeared itself"
    /// Share of a frame in clipped blocks from which it is faulty beside a best frame clipped
    /// under 1 − this (`uncorroborated`).
    static let blownSibling = 0.75

    /// What `blownBeside` reads of a frame: its share in clipped blocks, its bright backdrop's
    /// share when it is high key (quality v18; else 0), and its subject's exposure score.
    ///
    /// ```swift
    /// let c = SelectStage.Clipping(photo.technical.measurements)
    /// let plain: SelectStage.Clipping = 0.88   // 88 % clipped, no backdrop, no subject read
    /// ```
    public struct Clipping: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, Sendable {
        public var clipped: Double, backdrop: Double, subject: Double?
        public init(clipped: Double, backdrop: Double = 0, subject: Double? = nil) {
            self.clipped = clipped; self.backdrop = backdrop; self.subject = subject
        }
        public init(_ m: TechnicalQualityScore.Measurements) {
            self.init(clipped: m.clippedHighlights, backdrop: m.highKey == true ? m.backdrop ?? 0 : 0, subject: m.subjectExposure)
        }
        public init(floatLiteral value: Double) { self.init(clipped: value) }
        public init(integerLiteral value: Int) { self.init(clipped: Double(value)) }
    }

    /// Whether `frame` is blown white beside a best frame `best`: `blownSibling` of it or more in
    /// clipped blocks beside a best under 1 − that, too little of it left to read its stops by.
    /// A high-key best frame's bright backdrop may clip in a sibling a few tenths of a stop
    /// brighter: white is what it is. Clipped over no more of the frame than that backdrop
    /// (`backdropClipMargin`), the sibling is not blown (select v49): four clean frames of a device
    /// on a light sweep, 0–0.25 stops from their burst and clipped over 78–80 % (the sweep, 78 % of
    /// the best frame), were not lifted to their scene's exposure and counted as faulty against the
    /// best, so clean frames read 0.00 and the scene only filled. The sibling's own subject must
    /// still read (`subjectUnblown`): frames pushed 1.9–2.4 stops before a backdrop, clipped as
    /// little as 75–92 % but read 0.7 stops under to 0.8 over, scored 0.001–0.044 on their
    /// subject; the clean ones 0.39–0.47, a rim of white in their subject's blocks.
    static func blownBeside(_ frame: Clipping, best: Clipping) -> Bool {
        guard frame.clipped >= blownSibling && best.clipped < 1 - blownSibling else { return false }
        return frame.clipped > best.backdrop + backdropClipMargin || (frame.subject ?? 0) < subjectUnblown
    }

    /// Clipped share over a high-key best frame's backdrop that a sibling may reach before it is
    /// blown beside it, and the least exposure score of its own subject (`blownBeside`).
    static let backdropClipMargin = 0.05
    static let subjectUnblown = 0.2

    static let weaklyConfirmedReason = "every other frame of its burst is faulty or blurred itself against it, so little shows this one is clean"
    static let unconfirmedReason = "every other frame of its burst is faulty against it (blurred, smeared, misexposed or grainy), so nothing shows this one is clean"

    /// The best frames of visual groups (three photos or more) whose every other frame is
    /// faulty against the group: extra blur of `blurRef` or more, a stop or more from its
    /// exposure, or grain of half `grainRef` or more over it. Such a frame is compared with
    /// faulty frames only, so a smeared frame beside a blurred one reads sharp, and the
    /// least bad of a scene shot badly throughout was picked over clean scenes (8 of 10
    /// faulty picks on the second generator's trips). A group with one clean frame among
    /// faulty ones looks the same, so the frame is not removed: it waits for a short top N.
    /// Pairs are left alone: a clean frame and its faulty twin are too common to doubt.
    ///
    /// A sibling also counts as faulty when it is smeared against the best frame: blurrier in
    /// one orientation by `GroupBlur.smear` or more (`spectra`, when given). The blur against
    /// the group is one fit over all orientations, where a smear counts little (the ones it
    /// spares keep the sum up): beside a mildly defocused best frame, frames smeared 25 px at
    /// 4000 px read 0–0.2 px blurred, so the scene looked confirmed and its defocused frame
    /// was picked (two trips of the second generator).
    ///
    /// A frame smeared against its group within itself (`GroupSmear`, `GroupSmear.smeared` or
    /// more) is faulty too, and a best frame so smeared is doubted whatever its siblings: two
    /// frames smeared alike read as sharp as each other, and a scene with no clean frame
    /// looked confirmed by its second smear (a held-out trip of the second generator).
    ///
    /// A sibling blown white over most of its frame (`blownSibling` of it in clipped blocks) beside
    /// a best frame that is not is faulty too, however few stops it reads: with nine tenths of it
    /// white, the deciles left to compare are its shadows, squashed under the highlight shoulder,
    /// and a frame two stops over read 0.7 stop brighter, so it confirmed its scene's defocused
    /// best frame, which was picked (a held-out trip of the second generator). Beside a best frame
    /// under a quarter, 1,750 clean siblings on 36 trips clipped 51 % at most; a blown colour is no
    /// measure (a saturated render's clean frames blow one channel over 95 %).
    /// With `partlyFaulty`, a sibling is faulty too when its faults, each as a share of its line,
    /// add up to it: the weak pass (`confirmingEvidence` 1) asks this. Scenes with no clean frame
    /// were confirmed by one sibling faulty on two counts at once, neither reaching its line: a
    /// smear of 0.53 (of 0.6) with 0.22 px of blur (of 0.34) confirmed a defocused best frame,
    /// which was picked (og55, og11). On 53 trips it changed nothing else.
    public static func uncorroborated(groups: [[Int]], tech: [Double], blur: [Int: Double], exposure: [Int: Double], grain: [Int: Double],
                                      blurRef: Double, grainRef: Double, spectra: [PowerSpectrum?] = [], smear: [Int: Double] = [:],
                                      blown: [Clipping] = [], partlyFaulty: Double = .infinity) -> Set<Int> {
        func faulty(_ j: Int, against best: Int) -> Bool {
            // Each fault as a share of its own line (blur, exposure, grain, smear), summed.
            let shares = max(0, blur[j] ?? 0) / blurRef + abs(exposure[j] ?? 0) / GroupExposure.misfire
                + max(0, grain[j] ?? 0) / (grainRef / 2) + max(0, smear[j] ?? 0) / GroupSmear.smeared
            if shares >= partlyFaulty { return true }
            if (blur[j] ?? 0) >= blurRef || abs(exposure[j] ?? 0) >= GroupExposure.misfire || (grain[j] ?? 0) >= grainRef / 2 { return true }
            if j < blown.count, best < blown.count, blownBeside(blown[j], best: blown[best]) { return true }
            if GroupSmear.isSmeared(smear[j]) { return true }
            guard j < spectra.count, best < spectra.count, let sj = spectra[j], let sb = spectra[best] else { return false }
            return GroupBlur.smeared(sj, against: sb)
        }
        var out = Set<Int>()
        for members in groups where members.count >= 3 {
            guard let best = members.max(by: { tech[$0] != tech[$1] ? tech[$0] < tech[$1] : $0 > $1 }) else { continue }
            if GroupSmear.isSmeared(smear[best]) || members.allSatisfy({ $0 == best || faulty($0, against: best) }) { out.insert(best) }
        }
        return out
    }

    public func run(_ input: ([SelectInput], Clustering)) throws -> Selection {
        var photos = input.0
        let clustering = input.1
        // A photo found stored on its side is compared with its group as it looks upright: its
        // print, its orientation sectors, and its DCT frequencies (u, v) read as (v, u).
        for (i, degrees) in clustering.sideways {
            photos[i].print = FeaturePrintAnalyzer.turned(photos[i].print, quarterTurns: degrees / 90)
            photos[i].spectrum = photos[i].spectrum?.turned(quarterTurns: degrees / 90)
            if degrees % 180 != 0, let d = photos[i].detail { photos[i].detail?.transposed = !(d.transposed ?? false) }
        }
        let n = photos.count
        var reasons = [[String]](repeating: [], count: n)
        var groupBlur: [Int: GroupBlur.Value] = [:], groupExposure: [Int: Double] = [:], groupNoise: [Int: Double] = [:]
        var groupSmear: [Int: Double] = [:]
        func blur(_ members: [Int], smear: [Int: Double], exposure: [Int: Double] = [:]) -> [Int: GroupBlur.Value] {
            GroupBlur.measure(members: members, photos: photos, nativeWeight: parameters["nativeBlurWeight"], blurredWitness: parameters["blurRef"],
                              smeared: Set(smear.filter { GroupSmear.isSmeared($0.value) }.keys),
                              misfires: Set(exposure.filter { abs($0.value) >= GroupExposure.misfire }.keys))
        }
        for c in clustering.clusters where c.photos.count > 1 {
            let smear = GroupSmear.measure(members: c.photos, photos: photos)
            groupSmear.merge(smear) { a, _ in a }
            let exposure = GroupExposure.measure(members: c.photos, photos: photos)
            groupExposure.merge(exposure) { a, _ in a }
            groupBlur.merge(blur(c.photos, smear: smear, exposure: exposure)) { a, _ in a }
            groupNoise.merge(GroupNoise.measure(members: c.photos, photos: photos)) { a, _ in a }
        }
        // A photo alone in its visual group is compared with the frames of its shooting burst
        // (`burstGap`) in other groups: a fault can change a frame's look enough to split it from
        // its burst, and alone it is judged on absolute scores that forgive a soft or bright scene.
        // A glass dome's lattice defocused σ 1.3 per 1000 px and a pot holder's weave smeared 6.7 px
        // per 1000 px (feature-print cosine 0.65–0.74 to their clean burst mates) were each their
        // group's only frame, read no fault, and were picked over those mates (two held-out trips,
        // select v52). Only its own values are taken; its mates keep theirs.
        let bursts = shootingBursts(photos, clustering)
        if parameters["burstGap"] > 0 {
            var byBurst: [Int: [Int]] = [:]
            for i in photos.indices { if let b = bursts[i] { byBurst[b, default: []].append(i) } }
            for c in clustering.clusters where c.photos.count == 1 {
                let i = c.photos[0]
                guard let b = bursts[i], let t = photos[i].epoch else { continue }
                // The nearest in time only: a burst is a chain of frames seconds apart, and a
                // time-lapse makes one of thousands, which each lone frame would compare pairwise.
                let mates = (byBurst[b] ?? []).filter { clustering.clusterOf[$0] != c.id }
                    .compactMap { j in photos[j].epoch.map { (gap: abs($0 - t), j: j) } }
                    .sorted { $0.gap != $1.gap ? $0.gap < $1.gap : photos[$0.j].path < photos[$1.j].path }
                    .prefix(Self.burstMatesCompared).map(\.j)
                guard !mates.isEmpty else { continue }
                if let v = GroupExposure.measure(members: [i] + mates, photos: photos)[i] { groupExposure[i] = v }
                // Its blur, smear and grain only against mates that witness best (`GroupBlur`'s first
                // tier): as bright within a stop, clipping no more, no grainier. A clean frame read
                // 0.57 px blurred against its one mate, 2.1 stops over and clipped, which the decile
                // measure put 0.9 stops apart (a development trip).
                let witnesses = mates.filter { GroupBlur.firstTierWitness(photos[$0], of: photos[i]) }
                guard !witnesses.isEmpty else { continue }
                let members = [i] + witnesses
                let smear = GroupSmear.measure(members: members, photos: photos)
                if let v = smear[i] { groupSmear[i] = v }
                if let v = blur(members, smear: smear)[i] { groupBlur[i] = v }
                if let v = GroupNoise.measure(members: members, photos: photos)[i] { groupNoise[i] = v }
            }
        }
        let blurRef = parameters["blurRef"], exposureRef = parameters["exposureRef"], grainRef = parameters["grainRef"]
        let smearRef = parameters["smearRef"]
        let groups = clustering.clusters.map(\.photos)
        let lift = Self.sceneExposure(groups: groups, photos: photos, groupExposure: groupExposure, stops: parameters["sceneExposureStops"])
        var tech = photos.indices.map { i -> Double in
            let blur = groupBlur[i].map { falloff($0.sigma, ref: blurRef) } ?? 1
            let exposure = groupExposure[i].map { falloff(abs($0), ref: exposureRef) } ?? 1
            // High key excuses the brightness of a frame that agrees with its burst, not of one
            // that its burst reads a stop or more brighter: that frame is judged on the whole
            // frame, as before quality v18 (select v48).
            let m = photos[i].technical.measurements
            let unlift = (groupExposure[i] ?? 0) >= GroupExposure.misfire
                ? m.unliftedExposure.map { pow(max(1e-4, $0) / max(1e-4, photos[i].technical.exposure), Self.exposureWeight) } ?? 1 : 1
            let grain = groupNoise[i].map { falloff($0, ref: grainRef) } ?? 1
            // A smear is one-directional blur, which the blur fit over all orientations reads
            // little of: it only doubted a group's best frame, so a smeared sibling (1.4 px², read
            // 0 px blurred) ranked over clean ones across the trip (select v50).
            let smear = smearRef > 0 ? groupSmear[i].map { falloff(max(0, $0), ref: smearRef) } ?? 1 : 1
            return r6(photos[i].technical.overall * (lift[i] ?? 1) * unlift * blur * exposure * grain * smear)
        }
        let blown = photos.map { Clipping($0.technical.measurements) }
        let unconfirmed = parameters["uncorroborated"] < 1
            ? Self.uncorroborated(groups: groups, tech: tech, blur: groupBlur.mapValues(\.sigma), exposure: groupExposure, grain: groupNoise,
                                  blurRef: blurRef, grainRef: grainRef, spectra: photos.map(\.spectrum), smear: groupSmear, blown: blown)
            : []
        // Groups whose best is confirmed only by siblings that are blurred themselves, if less
        // than faulty (`confirmingBlur`): held back like the unconfirmed, their scores left as
        // they are. A mild smear beside a mild defocus, in a scene with no clean frame, read
        // 0.37 px blurred against it and "confirmed" it (og22, og23); marking such groups down
        // as well pulled clean best frames under misexposed frames of other scenes (m2560's
        // under-exposure AUC across the trip 0.953 → 0.932).
        let weaklyConfirmed = parameters["uncorroborated"] < 1 && parameters["confirmingBlur"] < 1
            ? Self.uncorroborated(groups: groups, tech: tech, blur: groupBlur.mapValues(\.sigma), exposure: groupExposure, grain: groupNoise,
                                  blurRef: blurRef * parameters["confirmingBlur"], grainRef: grainRef, spectra: photos.map(\.spectrum), smear: groupSmear,
                                  blown: blown, partlyFaulty: parameters["confirmingEvidence"] > 0 ? parameters["confirmingEvidence"] : .infinity)
                .subtracting(unconfirmed)
            : []
        // The whole group pays, so its order stays: its second frame (smeared, say) must not
        // step up as the group's candidate because its best was doubted.
        // A best frame that a sibling shows to be blurred (`GroupBlur.contradicts`) pays twice,
        // and its group fills a short top N only after the groups merely unconfirmed.
        let groupOf = clustering.clusterOf
        // So does one smeared within its own frame beyond its siblings (`GroupSmear`).
        let smearedItself = Set(unconfirmed.filter { GroupSmear.isSmeared(groupSmear[$0]) }.map { groupOf[$0] })
        let contradicted = Set(unconfirmed.filter { b in
            SelectInput.siblings(of: b, in: groups[groupOf[b]], photos).contains { GroupBlur.contradicts(photos[$0], photos[b]) }
        }.map { groupOf[$0] }).union(smearedItself)
        for b in unconfirmed {
            let k = pow(parameters["uncorroborated"], contradicted.contains(groupOf[b]) ? 2 : 1)
            for i in groups[groupOf[b]] { tech[i] = r6(tech[i] * k) }
        }
        // A low-key scene's groups stand across the trip as well exposed ones (`lowKeyScenes`).
        let doubted = unconfirmed.union(weaklyConfirmed)
        for (i, k) in Self.lowKeyScenes(groups: groups, photos: photos, groupExposure: groupExposure, doubted: doubted, floor: parameters["lowKey"]) {
            tech[i] = r6(tech[i] * k)
        }
        // People in a burst: closed eyes, a turned or softer face make a frame lose to its siblings.
        var groupFaces: [Int: GroupFaces.Value] = [:]
        let mainSize = parameters["mainFaceSize"]
        // Frames blurred or smeared by a fault's measure: their eyes read no baseline (select v46).
        let blurredFrames = Set(photos.indices.filter { (groupBlur[$0]?.sigma ?? 0) >= blurRef || GroupSmear.isSmeared(groupSmear[$0]) })
        for c in clustering.clusters where c.photos.count > 1 {
            groupFaces.merge(GroupFaces.measure(members: c.photos, photos: photos, mainSize: mainSize, turnedAway: parameters["turnedAway"],
                                                blurred: blurredFrames)) { a, _ in a }
        }
        let faceBlurRef = parameters["faceBlurRef"]
        let standing = photos.indices.map { i -> Double in
            guard let v = groupFaces[i] else { return tech[i] }
            let closed = pow(parameters["closedEyes"], Double(min(2, v.extraClosed)))
            let turned = pow(0.6, Double(min(2, v.turned)))
            // A face softer than in a sibling counts when the frame as a whole is not: a frame
            // blurred all over has paid for it in its technical score already.
            let frameSoft = (groupBlur[i]?.sigma ?? 0) >= 0.5 * blurRef
            let soft = frameSoft ? 1 : 1 / (1 + pow((1 - v.faceBlur) / faceBlurRef, 2))
            return r6(tech[i] * closed * turned * soft)
        }
        // A frame stored on its side (every viewer shows it sideways) gives way to an upright
        // sibling that stands at least half as well: a turn is one click, a fault is not. Given
        // way to unconditionally, two clean frames on their side lost to a frame 1.8 stops under
        // (technical 0.38 against 0.97), which was picked (a held-out trip of the second generator).
        func better(_ a: Int, _ b: Int) -> Bool {
            let sa = clustering.sideways[a] != nil, sb = clustering.sideways[b] != nil
            if sa != sb {
                let (upright, onSide) = sa ? (b, a) : (a, b)
                if standing[upright] >= Self.sidewaysGivesWay * standing[onSide] { return sb }
            }
            return standing[a] != standing[b] ? standing[a] > standing[b] : photos[a].path < photos[b].path
        }
        let faceQuality = photos.map { p in p.faces.map { FaceQualityScore(faces: $0, mainSize: mainSize) } }

        // Context: uniqueness within the group, time of day, and how thinly the moment is covered.
        let groupsPerMoment = Dictionary(grouping: clustering.clusters, by: \.moment).mapValues(\.count)
        var scores: [PhotoScore] = []
        for i in 0..<n {
            let c = clustering.clusters[clustering.clusterOf[i]]
            let bestInGroup = c.photos.map { tech[$0] }.max() ?? tech[i]
            let uniqueness = 1 / Double(c.photos.count).squareRoot()
            let time = Self.timeOfDayContext(photos[i].localHour) * parameters["goldenHourBonus"]
            let coverage = 1 / Double(max(1, groupsPerMoment[c.moment] ?? 1)).squareRoot()
            let context = (uniqueness + time + coverage) / 3
            let fq = faceQuality[i]
            let type = fq?.type ?? .landscape
            let (wt, wf, wc) = type.weights
            // A landscape's faces part is neutral: it has no people to judge.
            let faces = fq.map { $0.faceCount > 0 ? $0.score : 0.5 }
            let overall = wt * tech[i] + wf * (faces ?? 0.5) + wc * context
            scores.append(PhotoScore(technical: tech[i], faces: faces.map(r6), faceQuality: fq, context: r6(context), overall: r6(overall),
                                     relative: r6(bestInGroup > 0 ? tech[i] / bestInGroup : 1), type: type,
                                     blurVsGroup: groupBlur[i].map { r6($0.sigma) }, exposureVsGroup: groupExposure[i].map(r6),
                                     grainVsGroup: groupNoise[i].map(r6), smearVsGroup: groupSmear[i].map(r6)))
        }

        // Rejected burst members say what beat them.
        let bestOfGroup = clustering.clusters.map { c in c.photos.min(by: better) ?? c.best }
        for (c, best) in zip(clustering.clusters, bestOfGroup) where c.photos.count > 1 {
            for i in c.photos where i != best {
                reasons[i].append(beaten(photos[i], tech[i], blur: groupBlur[i]?.sigma, exposure: groupExposure[i], grain: groupNoise[i], smear: groupSmear[i],
                                         faces: groupFaces[i], by: photos[best], tech[best]))
            }
        }

        // Candidates: the best of each group, above the quality floor.
        let tripBest = tech.max() ?? 0
        let floor = parameters["minQuality"] * tripBest
        var candidates: [Int] = [], reserve: [Int] = [], heldBack: [Int: String] = [:]
        for c in clustering.clusters {
            // A damaged or blank best photo gives way to the best other one of its group.
            guard let best = c.photos.filter({ photos[$0].damaged == nil && blank(photos[$0]) == nil }).min(by: better) else {
                for i in c.photos {
                    reasons[i].append(photos[i].damaged.map { "not offered: damaged file (\($0))" } ?? "not offered: " + (blank(photos[i]) ?? ""))
                }
                continue
            }
            if c.photos.contains(where: unconfirmed.contains) {
                reserve.append(best)
                heldBack[best] = Self.unconfirmedReason + (smearedItself.contains(c.id) ? "; " + Self.smearedItselfReason
                    : contradicted.contains(c.id) ? "; " + Self.contradictedReason : "")
            } else if c.photos.contains(where: weaklyConfirmed.contains) {
                reserve.append(best)
                heldBack[best] = Self.weaklyConfirmedReason
            } else if Double(photos[best].technical.measurements.edgeCount) < parameters["minEdges"] {
                // Blur and shake are read on edges; with none, a defocused frame of a soft crop
                // beat its clean siblings on exposure alone (two held-out trips of the second
                // generator). A trip's picks never had between 1 and 63 edges: the rule is for none.
                reserve.append(best)
                heldBack[best] = Self.featurelessReason
            } else if tech[best] >= floor { candidates.append(best) } else {
                reserve.append(best)
                heldBack[best] = String(format: "quality %.2f is under %.0f%% of the trip's best (%.2f)", tech[best], 100 * parameters["minQuality"], tripBest)
            }
        }
        let byOverall: (Int, Int) -> Bool = { scores[$0].overall != scores[$1].overall ? scores[$0].overall > scores[$1].overall : photos[$0].path < photos[$1].path }
        candidates.sort(by: byOverall)
        // Among themselves, weakly confirmed groups are ordered as if marked down like the
        // unconfirmed (neither is shown to be clean); `fillOrder` puts them before the rest.
        let weakGroups = Set(weaklyConfirmed.map { groupOf[$0] })
        func fillKey(_ i: Int) -> Double {
            guard weakGroups.contains(groupOf[i]) else { return scores[i].overall }
            return scores[i].overall - scores[i].type.weights.0 * scores[i].technical * (1 - parameters["uncorroborated"])
        }
        // A doubted best frame that its siblings read smeared, if by less than the line, fills after
        // the doubted ones that nothing reads as faulty: on 63 trips no clean doubted best read half
        // the line (0 of 251; the most 0.28 px²), while the least bad frame of a scene with no clean
        // frame, smeared 3.3 px per 1000 px and "confirmed" by a defocused sibling, read 0.55 and
        // filled the 20th place ahead of three clean scenes (og185, held out).
        var partlySmeared: [Int: Double] = [:]
        for b in doubted where GroupSmear.isPartlySmeared(groupSmear[b]) { partlySmeared[groupOf[b]] = groupSmear[b] }
        for best in reserve where !contradicted.contains(groupOf[best]) {
            guard let smear = partlySmeared[groupOf[best]] else { continue }
            heldBack[best] = (heldBack[best] ?? "") + String(format: "; " + Self.partlySmearedReason, smear)
        }
        let fillTier: (Int) -> Int = { contradicted.contains(groupOf[$0]) || partlySmeared[groupOf[$0]] != nil ? 2 : weakGroups.contains(groupOf[$0]) ? 0 : 1 }
        reserve = Self.fillOrder(reserve, tier: fillTier, key: fillKey, path: { photos[$0].path })

        let top = parameters.int("top")
        reserve = Self.burstsBestFirst(reserve, burst: { bursts[$0] }, tier: fillTier, technical: { tech[$0] }, path: { photos[$0].path })
        // A best frame with no trusted time, in a group whose other frames have one, joined that
        // group by its look alone: it may be a frame of another scene cut from the same photograph.
        // Where it would fill as a look-alike of a pick of another moment, the group's best frame
        // with a trusted time stands in for it (`diverse`).
        var standIns: [Int: Int] = [:]
        for (c, best) in zip(clustering.clusters, bestOfGroup) where photos[best].epoch == nil {
            let timed = c.photos.filter { photos[$0].epoch != nil && photos[$0].damaged == nil && blank(photos[$0]) == nil }
            if let stand = timed.min(by: better) { standIns[best] = stand }
        }
        let fillsBefore: (Int, Int) -> Bool = { a, b in fillTier(a) != fillTier(b) ? fillTier(a) < fillTier(b) : fillKey(a) > fillKey(b) }
        let (picks, fills, standingFor) = diverse(candidates, reserve: reserve, heldBack: heldBack, limit: top, photos: photos, clustering: clustering,
                                                  bursts: bursts, standIns: standIns, fillsBefore: fillsBefore)
        for i in standingFor.keys {
            // It stands in for its group's best: what beat it in the burst does not hold it back.
            reasons[i].removeAll { $0.hasPrefix("beaten by ") }
        }
        for i in reserve where !picks.contains(i) { reasons[i].append("not offered: " + (heldBack[i] ?? "")) }
        for (rank, i) in picks.enumerated() {
            let c = clustering.clusters[clustering.clusterOf[i]]
            var why: [String] = []
            let when = photos[i].timeLabel.map { " at \($0)" } ?? ""
            if let best = standingFor[i] {
                why.append("best of the frames with a trusted time in a burst of \(c.photos.count)\(when), in place of \((photos[best].path as NSString).lastPathComponent), which has none and may be another scene's frame")
            } else if c.photos.count > 1 {
                let sharpest = c.photos.allSatisfy { photos[$0].technical.sharpness <= photos[i].technical.sharpness }
                why.append("\(sharpest ? "sharpest" : "best") of \(c.photos.count) in burst\(when)")
            } else {
                why.append("only photo of its scene\(when)")
            }
            let inMoment = clustering.clusters.filter { $0.moment == c.moment }.count
            // The moment's id as the manifest gives it (`moment`), so text and data agree.
            if inMoment == 1 { why.append("only scene from moment \(c.moment)") }
            if let fq = faceQuality[i], fq.faceCount > 0 { why.append(Self.peopleReason(fq, groupFaces[i], burst: c.photos.count > 1)) }
            if let fill = fills[i] { why.append(fill) }
            why.append(String(format: "rank %d, score %.2f (technical %.2f, context %.2f)", rank + 1, scores[i].overall, scores[i].technical, scores[i].context))
            reasons[i] = why + reasons[i]
        }
        for (i, p) in photos.enumerated() {
            if let turn = p.suggestedRotation {
                reasons[i].append("stored on its side: shown turned \(turn)° clockwise (its faces stand up only that way); the file is left as it is")
            } else if let turn = clustering.sideways[i] {
                reasons[i].append("stored on its side without an EXIF orientation: turned \(turn)° clockwise it looks like the rest of its group, and is grouped that way; the file is left as it is")
            }
        }
        // Candidates left out say why: a pick they look like, or a full list.
        let threshold = Float(parameters["similarity"])
        for i in candidates where !picks.contains(i) {
            let nearest = picks.map { ($0, photos[$0].print.cosine(photos[i].print)) }
                .max { $0.1 != $1.1 ? $0.1 < $1.1 : photos[$0.0].path > photos[$1.0].path }
            if let (pick, cosine) = nearest, cosine >= threshold {
                let name = (photos[pick].path as NSString).lastPathComponent
                reasons[i].append(String(format: "not picked: looks like %@, already picked (similarity %.2f)", name, cosine))
            } else if let pick = duringPickedBurst(i, picks: picks, photos: photos, clustering: clustering, bursts: bursts) {
                let name = (photos[pick].path as NSString).lastPathComponent
                reasons[i].append("not picked: taken while the burst of \(name), already picked, was shot (a frame of that scene that looks different)")
            } else {
                reasons[i].append("not picked: the top \(top) is full")
            }
        }

        var recs = recommendations(candidates: candidates, picks: picks, photos: photos, clustering: clustering)
        let people = People.group(photos, distance: parameters["personDistance"], minPhotos: parameters.int("personMinPhotos"))
        // A person's album: their photos, best first.
        for p in people {
            recs.byPerson[p.id] = p.photos.sorted { scores[$0].overall != scores[$1].overall ? scores[$0].overall > scores[$1].overall : photos[$0].path < photos[$1].path }
        }
        return Selection(scores: scores, picks: picks, reasons: reasons, bestOfGroup: bestOfGroup, recommendations: recs, people: people)
    }

    /// The order in which held-back groups fill a short top N: by tier (0 weakly confirmed,
    /// 1 unconfirmed or under the quality floor, 2 contradicted by a sibling or read partly
    /// smeared by its siblings), then by `key`,
    /// best first, then by path.
    ///
    /// ```swift
    /// SelectStage.fillOrder([7, 3], tier: { $0 == 3 ? 0 : 1 }, key: { _ in 0.5 }, path: String.init)   // [3, 7]
    /// ```
    /// A weakly confirmed group comes first: a sibling only mildly blurred against its best is
    /// still some witness. Its best was clean in all 33 such groups of 38 trips, where an
    /// unconfirmed group's best was faulty in 29 of 89, and a scene with no clean frame filled
    /// the 20th place ahead of a clean weak one by 0.015 on its key (og50).
    public static func fillOrder(_ reserve: [Int], tier: (Int) -> Int, key: (Int) -> Double, path: (Int) -> String) -> [Int] {
        reserve.sorted { a, b in
            let (ta, tb) = (tier(a), tier(b))
            if ta != tb { return ta < tb }
            let (ka, kb) = (key(a), key(b))
            return ka != kb ? ka > kb : path(a) < path(b)
        }
    }

    /// `order` with the frames of one shooting burst and one fill tier (`fillOrder`) in the places
    /// they hold, the technically best first. Only one frame of a shooting burst fills (the rest are
    /// that scene again, `duringPickedBurst`), so this decides which. A frame blown out by 2.2
    /// stops had left its burst's visual group, and alone it gains the context of a scene of one
    /// frame (`overall`): with the whole high-key scene under the quality floor, it filled the 20th
    /// place before its clean siblings (technical 0.06 against 0.11; a trip made from photos of pets).
    ///
    /// ```swift
    /// SelectStage.burstsBestFirst([2, 5, 9], burst: { $0 == 9 ? 1 : 0 }, tier: { _ in 1 }, technical: { Double($0) }, path: String.init)   // [5, 2, 9]
    /// ```
    public static func burstsBestFirst(_ order: [Int], burst: (Int) -> Int?, tier: (Int) -> Int, technical: (Int) -> Double,
                                       path: (Int) -> String) -> [Int] {
        struct Slot: Hashable { let burst: Int, tier: Int }
        var places: [Slot: [Int]] = [:]
        for (k, i) in order.enumerated() {
            if let b = burst(i) { places[Slot(burst: b, tier: tier(i)), default: []].append(k) }
        }
        var out = order
        for ks in places.values where ks.count > 1 {
            let best = ks.map { order[$0] }.sorted { a, b in technical(a) != technical(b) ? technical(a) > technical(b) : path(a) < path(b) }
            for (k, i) in zip(ks, best) { out[k] = i }
        }
        return out
    }

    /// Shooting bursts: each timed photo's chain of photos of its moment shot at most
    /// `burstGap` seconds after the one before (an index per chain; nil without a trusted time).
    func shootingBursts(_ photos: [SelectInput], _ clustering: Clustering) -> [Int?] {
        var out = [Int?](repeating: nil, count: photos.count)
        let gap = parameters["burstGap"]
        let timed = photos.indices.filter { photos[$0].epoch != nil }
            .sorted { photos[$0].epoch! != photos[$1].epoch! ? photos[$0].epoch! < photos[$1].epoch! : photos[$0].path < photos[$1].path }
        var chain = -1, last: Int?
        for i in timed {
            if let l = last, clustering.momentOf[l] == clustering.momentOf[i], photos[i].epoch! - photos[l].epoch! <= gap {} else { chain += 1 }
            out[i] = chain; last = i
        }
        return out
    }

    /// The pick whose burst was being shot when photo `i` was taken, if any: a pick of
    /// another visual group of its moment, with `i` in the same shooting burst as one of that
    /// group's photos (`burstGap`), or within the group's first and last frame ± `sameBurstSeconds`.
    /// A frame that misfired badly (blown out, nearly black), or of a flat graphic whose crops
    /// look unlike, does not join its burst's visual group, yet it is that scene: it must not
    /// come back as a second pick.
    func duringPickedBurst(_ i: Int, picks: [Int], photos: [SelectInput], clustering: Clustering, bursts: [Int?]) -> Int? {
        let pad = parameters["sameBurstSeconds"]
        guard let t = photos[i].epoch else { return nil }
        let group = clustering.clusterOf[i]
        return picks.first { p in
            guard clustering.momentOf[p] == clustering.momentOf[i], clustering.clusterOf[p] != group else { return false }
            let members = clustering.clusters[clustering.clusterOf[p]].photos
            if let b = bursts[i], members.contains(where: { bursts[$0] == b }) { return true }
            let times = members.compactMap { photos[$0].epoch }
            guard pad > 0, times.count >= 2, let lo = times.min(), let hi = times.max() else { return false }
            return t >= lo - pad && t <= hi + pad
        }
    }

    /// Round-robin over moments, then over visual groups; never a near-duplicate of a pick.
    /// When that leaves the top N short, it is filled (reason returned per photo) from the
    /// rest: first look-alikes of picks of other moments (less alike first), then groups held back or under the floor.
    /// `standIns`: for a group's best, the frame that fills in its place as a look-alike; the
    /// result's `standingFor` says, for each pick that did, whose place it took. `fillsBefore`
    /// orders held-back frames as `reserve` is ordered; a stand-in for a held-back best waits
    /// behind the held-back frames that fill before it.
    func diverse(_ ranked: [Int], reserve: [Int], heldBack: [Int: String], limit: Int, photos: [SelectInput], clustering: Clustering, bursts: [Int?],
                 standIns: [Int: Int] = [:], fillsBefore: (Int, Int) -> Bool) -> (picks: [Int], fills: [Int: String], standingFor: [Int: Int]) {
        var picks: [Int] = []
        var used = Set<Int>()
        var fills: [Int: String] = [:]
        let threshold = Float(parameters["similarity"]), fillLimit = Float(parameters["fillSimilarity"])
        func fits(_ i: Int) -> Bool { !picks.contains { photos[$0].print.cosine(photos[i].print) >= threshold } }
        var seenMoments = Set<Int>()
        for i in ranked where picks.count < limit {
            let m = clustering.momentOf[i]
            if !seenMoments.contains(m), fits(i) { picks.append(i); used.insert(i); seenMoments.insert(m) }
        }
        for i in ranked where picks.count < limit && !used.contains(i) && fits(i) && duringPickedBurst(i, picks: picks, photos: photos, clustering: clustering, bursts: bursts) == nil {
            picks.append(i); used.insert(i)
        }
        // Filling: a look-alike of a pick of the same moment is most likely that scene again
        // (a frame that did not join its burst), so only picks of other moments may be
        // looked like, and none this closely (the same view twice). Two groups without a trusted
        // time each have a moment of their own that no clock gave them, so between them another
        // moment is not known, and a look-alike is taken for the same scene (an untimed burst
        // split in two by its faults would give two picks of one scene).
        let untimedMoments = Set(clustering.moments.filter { $0.start == nil }.map(\.id))
        // nil: may not fill; "": may, looking like no pick; else which pick it looks like.
        func lookAlike(_ i: Int, under limit: Float) -> String? {
            guard duringPickedBurst(i, picks: picks, photos: photos, clustering: clustering, bursts: bursts) == nil else { return nil }
            var alike: (pick: Int, cosine: Float)?
            for p in picks {
                let c = photos[p].print.cosine(photos[i].print)
                guard c >= threshold else { continue }
                let (mp, mi) = (clustering.momentOf[p], clustering.momentOf[i])
                if c >= limit || mp == mi || (untimedMoments.contains(mp) && untimedMoments.contains(mi)) { return nil }
                if alike.map({ c > $0.cosine }) ?? true { alike = (p, c) }
            }
            guard let (p, c) = alike else { return "" }
            return String(format: "looks like %@ (similarity %.2f), a pick from another moment", (photos[p].path as NSString).lastPathComponent, c)
        }
        guard fillLimit > threshold else { return (sorted(picks, ranked + reserve), fills, [:]) }
        // A view shot again at another moment comes before a held-back group: the spec's "no
        // faulty pick while scenes with a clean shot are left" holds for a scene whose only
        // clean shots look like another scene's pick (two scenes cut from one photograph, at
        // 0.99, on two trips of the second generator, where a defocused frame filled instead).
        let repeatLimit = max(fillLimit, Float(parameters["repeatSimilarity"]))
        var standingFor: [Int: Int] = [:]
        for (list, isReserve, under) in [(ranked, false, fillLimit), (ranked, false, repeatLimit), (reserve, true, fillLimit)] {
            var queue = list, k = 0
            // Stand-ins put back in the queue to wait their turn, and the best each stands for.
            var waiting: [Int: Int] = [:]
            while k < queue.count && picks.count < limit {
                let candidate = queue[k]
                k += 1
                guard !used.contains(candidate) else { continue }
                var i = candidate, standsFor = waiting[candidate]
                guard var alike = lookAlike(candidate, under: under) else { continue }
                // A look-alike of another moment's pick: its moment must be its own, not adopted.
                if standsFor == nil, !alike.isEmpty, let stand = standIns[candidate] {
                    guard !used.contains(stand), let standAlike = lookAlike(stand, under: under) else { continue }
                    used.insert(candidate)
                    // A held-back best's stand-in fills at its own worth: an all-faulty scene's
                    // untimed best (technical 0.59) sent in its smeared timed sibling (0.21) ahead
                    // of a clean frame of another scene (0.24; a held-out trip of the third generator).
                    if isReserve, queue[k...].contains(where: { !used.contains($0) && fillsBefore($0, stand) }) {
                        let at = queue[k...].firstIndex { !fillsBefore($0, stand) } ?? queue.count
                        queue.insert(stand, at: at)
                        waiting[stand] = candidate
                        continue
                    }
                    (i, alike, standsFor) = (stand, standAlike, candidate)
                }
                if let best = standsFor { standingFor[i] = best }
                picks.append(i); used.insert(i)
                // A stand-in is held back for its group's best's reason.
                let held = isReserve ? (heldBack[standsFor ?? i] ?? "") + ", but no other scene is left" : ""
                let why = [held, alike].filter { !$0.isEmpty }.joined(separator: "; ")
                if !why.isEmpty { fills[i] = "fills the top \(limit): " + why }
            }
        }
        return (sorted(picks, ranked + reserve, standingFor: standingFor), fills, standingFor)
    }

    /// The picks best first (their order in `ranked`; a stand-in at its group's best's place),
    /// whatever round they came in.
    private func sorted(_ picks: [Int], _ ranked: [Int], standingFor: [Int: Int] = [:]) -> [Int] {
        let order = Dictionary(uniqueKeysWithValues: ranked.enumerated().map { ($1, $0) })
        return picks.sorted { order[standingFor[$0] ?? $0]! < order[standingFor[$1] ?? $1]! }
    }

    func recommendations(candidates: [Int], picks: [Int], photos: [SelectInput], clustering: Clustering) -> Recommendations {
        var byTime: [String: [Int]] = [:]
        for i in candidates {
            guard let h = photos[i].localHour else { continue }
            byTime[Self.timeBucket(h), default: []].append(i)
        }
        // Places: moments within ~100 m of each other, named so a person can read them:
        // "45.437° N 12.333° E · moment 2 · 14:02–14:40" (moments and times they cover).
        var places: [String: (moments: Set<Int>, photos: [Int])] = [:]
        for i in candidates {
            let m = clustering.moments.first { $0.id == clustering.momentOf[i] }
            guard let m, let la = m.latitude, let lo = m.longitude else { continue }
            let spot = String(format: "%.3f° %@ %.3f° %@", abs(la), la >= 0 ? "N" : "S", abs(lo), lo >= 0 ? "E" : "W")
            places[spot, default: ([], [])].moments.insert(m.id)
            places[spot, default: ([], [])].photos.append(i)
        }
        var byLocation: [String: [Int]] = [:]
        for (spot, p) in places {
            let ms = clustering.moments.filter { p.moments.contains($0.id) }
            let starts = ms.compactMap(\.start).sorted(), ends = ms.compactMap(\.end).sorted()
            func hm(_ t: String) -> String { t.count >= 16 ? String(t.dropFirst(11).prefix(5)) : t }
            let span = starts.first.map { s in " · " + hm(s) + (ends.last.map { hm($0) == hm(s) ? "" : "–" + hm($0) } ?? "") } ?? ""
            let which = p.moments.count == 1 ? "moment \(p.moments.first!)" : "moments " + p.moments.sorted().map(String.init).joined(separator: ", ")
            byLocation["\(spot) · \(which)\(span)"] = p.photos
        }
        return Recommendations(overall: Array(candidates.prefix(5)), diverse: Array(picks.prefix(10)),
                               byTime: byTime.mapValues { Array($0.prefix(10)) }, byLocation: byLocation.mapValues { Array($0.prefix(10)) }, byPerson: [:])
    }

    static func timeBucket(_ h: Double) -> String {
        switch h {
        case 5..<7: return "goldenHour"
        case 7..<11: return "morning"
        case 11..<16: return "midday"
        case 16..<17: return "afternoon"
        case 17..<20: return "goldenHour"
        case 20..<22: return "evening"
        default: return "night"
        }
    }

    static func timeOfDayContext(_ h: Double?) -> Double {
        guard let h else { return 0.5 }
        switch timeBucket(h) {
        case "goldenHour": return 1
        case "morning", "afternoon", "evening": return 0.7
        case "midday": return 0.6
        default: return 0.5
        }
    }

    /// What the people in a pick are like: "everyone's eyes open, sharpest face".
    static func peopleReason(_ fq: FaceQualityScore, _ burst: GroupFaces.Value?, burst inBurst: Bool) -> String {
        var parts: [String] = []
        let who = fq.faceCount == 1 ? "eyes" : "everyone's eyes"
        if fq.eyesClosed > 0 { parts.append("eyes closed (\(fq.eyesClosed) of \(fq.faceCount) \(fq.faceCount == 1 ? "face" : "faces"))") }
        else if fq.eyesRead == fq.faceCount { parts.append("\(who) open") }
        else if fq.eyesRead > 0 { parts.append("eyes open (\(fq.eyesRead) of \(fq.faceCount) faces read)") }
        else { parts.append(fq.faceCount == 1 ? "1 face, eyes not readable" : "\(fq.faceCount) faces, eyes not readable") }
        if fq.goodExpressions > 0 { parts.append(fq.goodExpressions == fq.faceCount ? (fq.faceCount == 1 ? "smiling" : "all smiling") : "\(fq.goodExpressions) smiling") }
        if inBurst, let burst, burst.faceBlur >= 0.999, burst.faces > 0 { parts.append(burst.faces == 1 ? "sharpest face" : "sharpest faces") }
        return parts.joined(separator: ", ")
    }

    func beaten(_ a: SelectInput, _ techA: Double, blur: Double?, exposure: Double?, grain: Double?, smear: Double?, faces: GroupFaces.Value?,
                by b: SelectInput, _ techB: Double) -> String {
        let name = (b.path as NSString).lastPathComponent
        // People first: that is what a person culling a burst of people looks at.
        if let faces, faces.extraClosed > 0 {
            return "beaten by \(name) in its burst (eyes closed: \(faces.closed) of \(faces.faces) \(faces.faces == 1 ? "face" : "faces"))"
        }
        if let faces, faces.turned > 0 {
            return "beaten by \(name) in its burst (\(faces.turned == 1 ? "a face" : "\(faces.turned) faces") turned away)"
        }
        if let faces, faces.faceBlur < 1 - 0.5 * parameters["faceBlurRef"] {
            return String(format: "beaten by %@ in its burst (softer face: %.0f%% of the detail of the same face there)", name, 100 * faces.faceBlur)
        }
        // The larger relative fault, each measured against its half-score point.
        let blurShare = (blur ?? 0) / parameters["blurRef"], exposureShare = abs(exposure ?? 0) / parameters["exposureRef"]
        let grainShare = (grain ?? 0) / parameters["grainRef"]
        if let grain, grainShare >= 0.6, grainShare >= exposureShare, grainShare >= blurShare {
            return String(format: "beaten by %@ in its burst (grainier at 100 %%: σ %.1f levels over its siblings')", name, grain)
        }
        if let exposure, exposureShare >= 0.6, exposureShare >= blurShare {
            return String(format: "beaten by %@ in its burst (%.1f stops %@ than the burst)", name, abs(exposure), exposure > 0 ? "brighter" : "darker")
        }
        if let blur, blur >= 0.6 {
            return String(format: "beaten by %@ in its burst (%.1f px more blur than its siblings)", name, blur)
        }
        if let smear, GroupSmear.isSmeared(smear) {
            return String(format: "beaten by %@ in its burst (smeared: %.1f px² more blur along one direction than its siblings show)", name, smear)
        }
        let diffs = [("sharpness", a.technical.sharpness, b.technical.sharpness), ("exposure", a.technical.exposure, b.technical.exposure),
                     ("noise", a.technical.noise, b.technical.noise)]
        let worst = diffs.max { ($0.2 - $0.1) < ($1.2 - $1.1) }!
        if worst.2 - worst.1 > 0.05 {
            return String(format: "beaten by %@ in its burst (%@ %.2f vs %.2f)", name, worst.0, worst.1, worst.2)
        }
        return String(format: "beaten by %@ in its burst (quality %.2f vs %.2f)", name, techA, techB)
    }
}

func r6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
