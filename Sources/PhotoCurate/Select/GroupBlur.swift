import Foundation

/// How much more blurred each photo is than the comparable photos of its
/// visual group: the relative-sharpness hook of selection.
///
/// ```swift
/// let blur = GroupBlur.measure(members: cluster.photos, photos: inputs)
/// blur[i]?.sigma      // 1.6: px of extra blur at the analysis scale
/// blur[i]?.reference  // the sibling it was compared with
/// ```
/// An absolute sharpness score cannot tell a soft lens, a macro shot or a
/// misty scene from a blurred frame; a burst can, because its frames share the
/// scene and differ in blur (see `PowerSpectrum.extraBlur`). A sibling serves
/// as reference only if it is not clearly grainier (grain adds high frequencies
/// that would pass for detail; light grain is allowed, since blur itself smooths
/// grain away; measured at 100 % where both frames were, `grainy`), has no more clipped highlights (clipping makes
/// hard edges) and is less than a stop brighter or darker (`exposureApart`), so a
/// noisy or misexposed frame never makes its clean siblings look blurred. A frame
/// with no such sibling falls back to those that clip more, then to those 1–1.7
/// stops away: the darkest frame of a burst under a blown sky had no witness, and
/// its blur went unseen (three picks of held-out trips). Last come the grainier
/// siblings, at the analysis scale only: in a scene with no clean frame, the
/// blurred one had no witness and, the least bad, was picked over clean photos of
/// other scenes (one pick on each of two trips of the second generator). The value is the median over the comparable
/// siblings, so one odd pair (a sharp detail half out of one frame, a texture
/// zoomed a little) does not decide; a shaken frame among steady ones is more
/// blurred than most of them. A witness that is blurred itself (its own value at
/// `blurredWitness` or more) has its value added back to the comparison, so two siblings,
/// one clean and one more blurred, do not cancel out. A witness smeared within its own frame
/// (`smeared`, from `GroupSmear`) counts only when no other of any tier does. Photos with no comparable sibling get no value.
///
/// For JPEGs the same comparison is also made at 100 %, on the DCT blocks
/// (`NativeDetail.blurDifference`), and the two add up: Δσ² = analysis +
/// `nativeWeight` × max(0, native), both at the analysis scale. Each sees what the
/// other misses. At 768 px, mild defocus of a photo with fine detail (σ 0.5 px
/// per 1000 px) is 0.15 px², inside the spread of clean siblings (up to ±0.2),
/// and a quality-75 JPEG at 2560 px keeps too little of it; at 100 % the
/// same blur takes most of the coarsest DCT frequencies' power. A photo upscaled
/// from a small original has nothing at 100 % to lose, and there the analysis
/// scale decides. The native fit reads about half of a blur (the DCT's leakage),
/// and at 12 MP the analysis scale's spread among clean siblings (up to 0.9 px² in
/// one orientation sector) drowns a blur that reads 1.4–1.9 px² at 100 % (0.07 px²
/// at 768 px), hence selection's weight 3.5 (select v9; 2 before). A brighter frame loses
/// fine detail at 100 % to its tone curve alone, so that comparison is corrected by the two
/// frames' exposure difference (`brighterNativeLoss`).
public enum GroupBlur {
    public struct Value: Sendable, Equatable {
        /// Extra gaussian σ, in analysis-image pixels (0 when it is as sharp as its siblings or sharper).
        public var sigma: Double
        public var reference: Int
        /// The part measured at 100 % (Δσ², px² at the analysis scale, before weighting); `nil` without DCT blocks.
        public var native: Double?
    }

    /// Noise σ (levels) that the noise-floor subtraction absorbs: a sibling this
    /// grainy still serves as reference. Blur smooths grain away, so a blurred frame
    /// reads less noisy than its clean siblings and must still be compared with them.
    static let lightGrain = 3.0

    /// The comparison at 100 % is made when the file is at least this many times the
    /// analysis scale. Below, both read the same frequencies, and the coarse DCT band
    /// of an 800 px frame reads a handheld zoom as blur (clean frames of the fixture
    /// trip read 0.5–1 px²).
    public static let nativeScale = 2

    /// Whether `b` is clearly noisier at the analysis scale than `a` (beyond `lightGrain`).
    static func noisier(_ b: TechnicalQualityScore.Measurements, than a: TechnicalQualityScore.Measurements) -> Bool {
        b.noiseSigma > max(1.5 * a.noiseSigma + 0.5, lightGrain)
    }

    /// How much wider (px, `edgeWidth` at the analysis scale) a frame's edges must be than a grainier
    /// witness's before that witness's spectrum may say the frame is blurred.
    public static let grainyWitnessEdge = 0.05

    /// Grain at 100 % (levels per pixel) that a reference may carry whatever this frame's:
    /// half of what a person rejects (8).
    static let lightNativeGrain = 4.0

    /// Whether `b` is clearly grainier at 100 % than `a`, where both were measured. Grain
    /// σ 7 per pixel reads only σ 1.8 at 768 px (under `lightGrain`), yet it is
    /// power at every frequency, and clean siblings compared with it read 0.8 px blurred.
    /// With `unmeasuredIsClean`, an `a` whose grain was not measured counts as without grain.
    static func grainier(_ b: NativeDetail?, than a: NativeDetail?, unmeasuredIsClean: Bool = false) -> Bool {
        guard let gb = b?.grain, let ga = a?.grain ?? (unmeasuredIsClean ? 0 : nil) else { return false }
        return gb > max(1.5 * ga + 0.5, lightNativeGrain)
    }

    /// Whether sibling `j` is too grainy to witness `i`'s blur: at 100 % (`grainier`) where both
    /// frames' grain was measured there, else at the analysis scale (`noisier`). At 768 px fine
    /// texture reads as noise (a painting's brushwork σ 3–4, snow on trees σ 6), and a blurred
    /// frame, which smooths it, found its clean siblings noisier and was compared with them at
    /// the analysis scale only: a defocus of σ 0.97 per 1000 px read 0.25 px (a held-out trip), a
    /// scene's smears 0–0.2 px, and one was picked (og63). At 100 % those siblings' grain is
    /// σ 2.9–3.7, under `lightNativeGrain`. Only files of `nativeScale` × the analysis scale or
    /// more: in a file near the analysis size the two read the same pixels, and an 800 px frame
    /// with grain σ 20 read σ 2.2 at 100 % (the fixture trip's grainy sign was picked).
    static func grainy(_ j: SelectInput, than i: SelectInput) -> Bool {
        if let a = i.detail, let b = j.detail, a.grain != nil, b.grain != nil, atFullSize(a), atFullSize(b) {
            return grainier(b, than: a)
        }
        return noisier(j.technical.measurements, than: i.technical.measurements)
    }

    /// Whether a file is large enough (`nativeScale` × the analysis scale) for what it holds at
    /// 100 % to differ from what the analysis scale reads.
    static func atFullSize(_ d: NativeDetail) -> Bool {
        max(d.width, d.height) >= nativeScale * SelectInput.analysisLongEdge
    }

    /// How much more blurred `a` is than `b` at 100 %, as Δσ² in analysis px², or `nil`
    /// when it is not compared there (under `nativeScale` × the analysis scale, or too
    /// little detail in common).
    public static func nativeDifference(_ a: NativeDetail, _ b: NativeDetail) -> Double? {
        guard atFullSize(a), let d = a.blurDifference(comparedWith: b) else { return nil }
        // Native px² of this frame → analysis px².
        let k = Double(SelectInput.analysisLongEdge) / Double(max(a.width, a.height))
        return d * k * k
    }

    /// Blur per stop (Δσ², analysis px²) that the comparison at 100 % reads in a frame brighter
    /// than its witness, taken off it (and added where the frame is darker): the tone curve's
    /// shoulder flattens a brighter frame's fine detail. Over 10,703 comparisons between clean
    /// frames of 52 trips, the reading went from −0.011 (median) for a frame 0.75–1.7 stops
    /// darker than its witness to +0.011 for one 0.75–1 stop brighter (90th percentile −0.011 to
    /// +0.037 at 1–1.7 stops); weighted by `nativeWeight`, clean frames 0.5–0.8 stop over their
    /// siblings read 0.26–0.40 px blurred and ranked under mildly defocused ones (select v36).
    public static let brighterNativeLoss = 0.02

    /// `nativeDifference` of two frames `stops` apart (`a`'s exposure minus `b`'s), less what the
    /// brighter frame loses at 100 % to its tone curve alone (`brighterNativeLoss`).
    static func nativeDifference(_ a: NativeDetail, _ b: NativeDetail, stops: Double) -> Double? {
        nativeDifference(a, b).map { $0 - brighterNativeLoss * stops }
    }

    /// Stops apart at which two frames are no blur reference for each other: the tone curve
    /// squashes a brighter frame's highlights and JPEG quantisation drops more of a darker
    /// frame's detail, so a clean frame 0.7 EV over its scene read 0.5 px blurred against
    /// its sibling 1.7 EV under.
    static let exposureApart = 1.0

    /// Range of per-decile stops (`GroupExposure.toneSpread`) from which two frames a stop or more
    /// apart, both right on their own, are two renditions rather than one metered apart: bursts'
    /// frames read 0.0–0.3 in 210 of 261 such pairs on the trips, the camera files' HDR pairs 0.93–1.1.
    public static let renditionSpread = 0.5

    /// Blur (Δσ², analysis px²) taken off what a frame reads against a sibling one gain and a stop
    /// or more apart, both right on their own. Clean frames of such pairs read up to 0.58 px against
    /// each other (the darker one: its JPEG keeps less detail), 0.46 px at the 95th percentile
    /// (248 readings on 49 trips): 0.45² takes that off; defocused frames read 0.85 px at the median.
    public static let gainPairAllowance = 0.2025

    /// Share of the frame that a witness may clip beyond the frame it judges and stay in the first
    /// tier: clipping makes hard edges, which pass for detail.
    static let clippingMargin = 0.02

    /// Whether sibling `j` witnesses `i`'s blur in the first tier: less than `exposureApart` from
    /// it, clipping no more (`clippingMargin`), not grainier (`grainy`).
    static func firstTierWitness(_ j: SelectInput, of i: SelectInput) -> Bool {
        let mi = i.technical.measurements, mj = j.technical.measurements
        return abs(GroupExposure.difference(mi, mj)) < exposureApart && mj.clippedHighlights <= mi.clippedHighlights + clippingMargin
            && !grainy(j, than: i)
    }

    /// Stops apart at which a sibling is no witness at all: a misexposed frame (the fault is 1.7).
    static let exposureFar = 1.7

    /// Extra blur in one orientation (Δσ², analysis px²) at which a frame is smeared against
    /// another. Over the development trips and the second generator's, a smeared frame is
    /// this much blurrier than its group's best in its worst orientation in 77–89 % of
    /// cases; two clean frames are, in 2 % (one orientation with little power, a handheld turn).
    public static let smear = 0.8

    /// Whether `a` is at least `smear` blurrier than `b` in some orientation sector.
    public static func smeared(_ a: PowerSpectrum, against b: PowerSpectrum) -> Bool {
        (a.sectorBlur(comparedWith: b).compactMap { $0 }.max() ?? 0) >= smear
    }

    /// Detail at 100 % that a sibling keeps over a frame in one orientation (Δσ² of the DCT fit,
    /// in px² per 1000 px of long edge) that shows the frame is blurred itself. The fit reads
    /// about half a blur, so this is near the spec's mild defocus (σ 0.5 per 1000 px, 0.25).
    /// Of a scene's best frames with every sibling faulty, the defocused ones lost this much
    /// to a smeared sibling (which keeps detail across its smear) in 7 of 8 cases on the second
    /// generator's trips; clean ones, to any sibling, in 4 % (development trips: 5 %).
    public static let detailKept = 0.15

    /// Whether sibling `j` keeps detail that photo `i` lost in some orientation: at 100 %
    /// (`detailKept`), or at the analysis scale (`i` smeared against `j`). Then `i` is blurred,
    /// whatever else `j` is. Only siblings that are not grainier (grain passes for detail)
    /// and less than a stop apart count.
    public static func contradicts(_ j: SelectInput, _ i: SelectInput) -> Bool {
        guard !grainier(j.detail, than: i.detail),
              abs(GroupExposure.difference(i.technical.measurements, j.technical.measurements)) < exposureApart else { return false }
        // At the analysis scale: `i` smeared against `j` (a smear beside a defocused frame).
        if !noisier(j.technical.measurements, than: i.technical.measurements), let si = i.spectrum, let sj = j.spectrum,
           smeared(si, against: sj) { return true }
        guard let a = i.detail, let b = j.detail, atFullSize(a) else { return false }
        let k = pow(1000 / Double(max(a.width, a.height)), 2)
        return (a.sectorBlurDifference(comparedWith: b).compactMap { $0 }.max() ?? 0) * k >= detailKept
    }

    /// `misfires` are the frames whose exposure is their group's misfire (`GroupExposure.misfire`):
    /// one of them a stop or more apart from a frame that is not one witnesses none of its blur.
    /// A brighter one clips along edges the other frame renders in full, and a clipped edge is a
    /// hard one: the clean frame of a white flower read 1.1 px blurred against its sibling 2 EV over
    /// (a held-out trip's pick went to the over-exposed frame; select v30); one that clips no luma
    /// has no such edge and witnesses (select v42: a clean facade blown only in red, 1.1 stops over
    /// its defocused twin, was the pair's misfire, and the defocused frame was picked). A darker one reads its
    /// clean sibling blurred too: a cat 0.55 px against its twin 1.7 stops under, a dark diagram
    /// 0.72 px against its twin 1.9 under, and each dark frame was picked (select v35). A frame
    /// whose only siblings are misfires is then unwitnessed: its scene has no clean frame.
    public static func measure(members: [Int], photos: [SelectInput], nativeWeight: Double = 3.5, blurredWitness: Double = 0.45,
                               smeared: Set<Int> = [], misfires: Set<Int> = []) -> [Int: Value] {
        // Per photo: its witnesses (the best tier with a steady witness, else the best present)
        // with the blur against each, at the analysis scale and at 100 % (nil where not compared there).
        typealias Witness = (analysis: Double, native: Double?, j: Int)
        var witnesses: [Int: [Witness]] = [:]
        // Smaller value first; ties by path, so the same photos give the same reference.
        func before(_ x: (Double, Int), _ y: (Double, Int)) -> Bool { x.0 != y.0 ? x.0 < y.0 : photos[x.1].path < photos[y.1].path }
        for i in members {
            guard let si = photos[i].spectrum else { continue }
            let mi = photos[i].technical.measurements
            // Siblings by how good a witness they are: 0 as bright, no more clipped, no grainier;
            // 1 clipping more (hard edges); 2 a stop or more apart; 3 and 4 grainier (as 0–1
            // and 2). Only the best tier present counts.
            var tiers: [[(Double, Int)]] = [[], [], [], [], []]
            // Each sibling's exposure against this frame (stops), for the correction at 100 %.
            var stopsTo: [Int: Double] = [:]
            // Siblings comparable at 100 % only: too little detail above the analysis scale's noise
            // floor to fit there (a fog bank with one tree at its edge).
            var atFullSizeOnly: [(Double, Int)] = []
            for j in SelectInput.siblings(of: i, in: members, photos) {
                guard let sj = photos[j].spectrum else { continue }
                let mj = photos[j].technical.measurements
                let stops = GroupExposure.difference(mi, mj), apart = abs(stops)
                stopsTo[j] = stops
                // Two frames a stop or more apart that both look right on their own are two
                // renditions of the view (an HDR frame and its plain twin), not a burst: their tone
                // curves differ, and the HDR one read 0.5 px blurred (a camera file's false alarm).
                let renditions = apart >= Self.exposureApart && min(photos[i].technical.exposure, photos[j].technical.exposure) >= GroupExposure.fineOnItsOwn
                // Unless their tones are one gain apart (`renditionSpread`): one rendition metered a
                // stop apart, as a handheld burst's frames are. Such a pair of 12 MP phone frames
                // 1.03 stops apart went unwitnessed, and its frame defocused σ 0.77 per 1000 px read
                // no blur (technical 0.958). It witnesses, less `gainPairAllowance` (select v51).
                let gainPair = renditions && (GroupExposure.toneSpread(mi, mj) ?? .infinity) < Self.renditionSpread
                // A brighter misfire that clips no luma has no clipped edge to pass for detail: it
                // witnesses (select v42).
                let unclippedBrighter = stops < 0 && mj.clippedHighlights <= GroupExposure.darkClippedAtMost
                let misfireWitness = apart >= Self.exposureApart && misfires.contains(j) && !misfires.contains(i) && !unclippedBrighter
                guard apart < Self.exposureFar, !renditions || gainPair, !misfireWitness else { continue }
                let grainy = Self.grainy(photos[j], than: photos[i])
                let tier = apart >= Self.exposureApart ? 2 : mj.clippedHighlights > mi.clippedHighlights + Self.clippingMargin ? 1 : 0
                let t = grainy ? (tier == 2 ? 4 : 3) : tier
                // Grain passes for detail in a spectrum, even at the analysis scale, but not for a
                // narrower edge: a grainy witness shows this frame blurred only where this frame's
                // edges are wider too. A clean frame of a dark mountain read 1.3 px blurred against its
                // one sibling, grainy (σ 10.9 per pixel at 100 %), with edges as sharp (0.79 px
                // against 0.77), and the grainy frame was picked.
                if grainy, mi.edgeWidth > 0, mj.edgeWidth > 0, mi.edgeWidth < mj.edgeWidth + Self.grainyWitnessEdge { continue }
                if let d = si.extraBlur(comparedWith: sj) {
                    tiers[t].append((gainPair ? d - Self.gainPairAllowance : d, j))
                } else if t < 2, !grainier(photos[j].detail, than: photos[i].detail, unmeasuredIsClean: true),
                          let a = photos[i].detail, let b = photos[j].detail,
                          let native = nativeDifference(a, b, stops: stops) {
                    atFullSizeOnly.append((native, j))
                }
            }
            // A frame whose every sibling clips more (a scene with a blown sky, this frame the
            // darkest of its burst) or sits a stop away has only them to witness its blur. A
            // frame whose only witness is grainy (a scene with no clean frame: blurred, grainy,
            // misexposed) is compared with it at the analysis scale, where the fit stands above
            // the noise floor; at 100 % the grain would pass for detail, so not there.
            // A witness smeared within its own frame (`GroupSmear`) has lost detail along its smear
            // and little in the sum over orientations, so this frame's blur reads less against it:
            // a σ 0.5 defocus read 0.1 px blurred, the median falling on a 3.9 px smear between
            // a clean sibling (+0.4 px²) and a more blurred one. It counts only when no other does,
            // in any tier: a σ 0.7 defocus whose one steady sibling was grainy read 0 against its
            // smeared sibling and 0.5 px against the grainy one, and was picked (select v18).
            let steady = tiers.map { $0.filter { !smeared.contains($0.1) } }
            guard let tier = steady.firstIndex(where: { !$0.isEmpty }) ?? tiers.firstIndex(where: { !$0.isEmpty }) else {
                // No sibling compares at the analysis scale: the comparison at 100 % speaks alone, and
                // only when every sibling agrees (the least of them). A frame of fog smeared 6.5 px per
                // 1000 px read 1.3 px more blurred at 100 % than each of its three clean siblings and
                // nothing at 768 px, and was picked on its exposure. In a fog bank with nothing but
                // a branch at one edge, a handheld shift moves the branch in and out of the frame:
                // clean frames read up to 1.3 px apart there, each against some sibling, never all.
                if let least = atFullSizeOnly.min(by: before) {
                    witnesses[i] = [(0, least.0, least.1)]
                }
                continue
            }
            witnesses[i] = (steady[tier].isEmpty ? tiers[tier] : steady[tier]).map { d, j in
                (d, tier >= 3 ? nil : photos[i].detail.flatMap { a in photos[j].detail.flatMap { nativeDifference(a, $0, stops: stopsTo[j] ?? 0) } }, j)
            }
        }
        func medians(_ ws: [Witness]) -> (analysis: Double, native: Double?)? {
            guard let a = ws.map(\.analysis).median else { return nil }
            return (a, ws.compactMap(\.native).median)
        }
        // Δσ² of the two scales together, as the value reports it.
        func combined(_ m: (analysis: Double, native: Double?)) -> Double { m.analysis + nativeWeight * max(0, m.native ?? 0) }
        // A witness blurred itself (its own value at `blurredWitness` or more) understates this
        // frame's blur by as much: add its value back. A frame with one clean and one more blurred
        // sibling read 0 (the median of +1.1 px² against the clean one and less than 0 against
        // the other): a σ 0.7 defocus (per 1000 px) tied with its clean sibling (technical 0.977
        // against 0.982). Witnesses under that are taken as they are: adding their noise
        // (±0.2 px²) would mark clean frames down.
        let first = witnesses.compactMapValues(medians)
        var out: [Int: Value] = [:]
        for i in members {
            guard let ws = witnesses[i]?.map({ w -> Witness in
                guard let f = first[w.j], max(0, combined(f)).squareRoot() >= blurredWitness else { return w }
                return (w.analysis + max(0, f.analysis), w.native.map { $0 + max(0, f.native ?? 0) }, w.j)
            }), let m = medians(ws) else { continue }
            let pairs = ws.map { ($0.analysis, $0.j) }.sorted(by: before)
            out[i] = Value(sigma: max(0, combined(m)).squareRoot(), reference: pairs[pairs.count / 2].1, native: m.native)
        }
        return out
    }
}
