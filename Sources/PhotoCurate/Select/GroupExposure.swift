import Foundation

/// How far each photo's exposure is from the one its visual group agrees on,
/// in stops: the relative-exposure hook of selection.
///
/// ```swift
/// let ev = GroupExposure.measure(members: cluster.photos, photos: inputs)
/// ev[i]   // +2.1: two stops brighter than the burst
/// ```
/// A dark frame of a night street and a dark frame of a sunny square look
/// alike to an absolute exposure score; in a burst the camera meters every
/// frame alike, so a frame stops away from its siblings is the misfire. The
/// reference is the median of the group (three or more photos); a pair has no
/// majority, so there a frame a stop darker that stops short of white is the misfire
/// (`shortOfPair`), else a frame a stop brighter and blown over more of the frame is
/// (`blownOfPair`), and so is one a stop brighter than a sibling that already uses
/// its whole range and clipping more (`clippedOfPair`); otherwise the better exposed of the two (by `exposure`) is the
/// reference and only the other gets a value, unless it looks right on its own
/// (`fineOnItsOwn`). Two frames are compared on the
/// deciles of their brightest channel that neither has blown or crushed, in
/// stops of linear light (the median difference): a gain scales every channel,
/// and the deciles left out are the ones clipping would hold back. So a frame
/// pushed 2 stops reads 2 stops even when its yellow petals are blown (its
/// median luma read 0.8). Frames with no such decile in common are compared on their
/// darkest channel's (a saturated sky blown in blue and green everywhere), then on their
/// median luma. A photo's value is the median of its differences to the siblings that are
/// not misfires themselves (a first reading against the group's median, itself counted,
/// says which are). Against all siblings, a clean frame of a burst of five with two blown
/// frames read −1.5 EV: the median of (0, 0, −2, −2) falls between clean frames and misfires.
public enum GroupExposure {
    /// log₂ of the linear-light value of an sRGB-encoded luma (0–1); floored at half a level.
    public static func stops(medianLuma v: Double) -> Double {
        let x = max(0.5 / 255, v)
        return log2(x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4))
    }

    /// Deciles under this are crushed (or mostly noise), over it blown or squashed by the tone curve.
    static let usable: ClosedRange<Double> = 0.03...0.94

    /// A pair has no majority to say which exposure the scene wants; when the darker or
    /// brighter frame looks right on its own (absolute `exposure` at least this), the two
    /// are a matter of taste (an HDR frame and its plain twin), not one a misfire.
    static let fineOnItsOwn = 0.9

    /// Stops by which photo a is brighter than photo b.
    static func difference(_ a: TechnicalQualityScore.Measurements, _ b: TechnicalQualityScore.Measurements) -> Double {
        guard let median = decileStops(a, b).median else {
            return stops(medianLuma: a.medianLuma) - stops(medianLuma: b.medianLuma)
        }
        return median
    }

    /// Per decile that neither frame has blown or crushed, the stops by which a is brighter than b.
    static func decileStops(_ a: TechnicalQualityScore.Measurements, _ b: TechnicalQualityScore.Measurements) -> [Double] {
        // The darkest channel's deciles count only where the brightest channel has none in
        // common: elsewhere a tone curve that bends shadows and colours apart would move a
        // frame's reading for nothing (a saturated scene's darkest channel sits near black).
        var common = zip(a.brightestDeciles, b.brightestDeciles).filter { usable.contains($0) && usable.contains($1) }
        if common.isEmpty, let da = a.darkestDeciles, let db = b.darkestDeciles {
            common = zip(da, db).filter { usable.contains($0) && usable.contains($1) }
        }
        return common.map { stops(medianLuma: $0) - stops(medianLuma: $1) }
    }

    /// How far two frames' tones are from one gain apart: the range, in stops, of their
    /// per-decile differences (`decileStops`); `nil` with fewer than three deciles in common.
    ///
    /// ```swift
    /// GroupExposure.toneSpread(pushed, clean)   // 0.04: the same rendition, a stop brighter
    /// GroupExposure.toneSpread(hdr, plain)      // 1.1: shadows lifted more than highlights
    /// ```
    /// A gain moves every decile by the same stops (frames of a handheld burst metered a stop
    /// apart read 0.0–0.3 in 210 of 261 pairs on the trips); a tone curve moves shadows and
    /// highlights apart (an iPhone's HDR frame and its plain twin read 1.1, a Canon's 0.93).
    public static func toneSpread(_ a: TechnicalQualityScore.Measurements, _ b: TechnicalQualityScore.Measurements) -> Double? {
        let d = decileStops(a, b)
        guard d.count >= 3, let lo = d.min(), let hi = d.max() else { return nil }
        return hi - lo
    }

    /// A frame whose exposure is this far (stops) from its group's median in a first reading
    /// is not a reference for its siblings in the second.
    static let misfire = 1.0

    /// More of the frame blown in some colour than its sibling (fraction of pixels) that
    /// makes the brighter frame of a pair the misfire. A clean frame of a bright scene blows
    /// 7–9 % (its sibling 2 stops under, none); a pushed frame 70–97 %, so a quarter more
    /// decides, whatever the absolute exposure scores say.
    static let blownMargin = 0.25

    /// The frame of a pair that is a blown misfire: at least `misfire` stops brighter than its
    /// sibling and blown over `blownMargin` more of the frame. The absolute exposure score
    /// prefers the brighter frame of a dark scene even when it is blown (a low-key scene's
    /// clean frame read 0.56, its twin pushed 2.2 stops with 70 % blown read 0.66).
    static func blownOfPair(_ i: Int, _ j: Int, _ iOverJ: Double, _ photos: [SelectInput]) -> Int? {
        let (mi, mj) = (photos[i].technical.measurements, photos[j].technical.measurements)
        // A subject on white blows its background by design, not by a push (select v47, v49).
        if iOverJ >= misfire && mi.clippedColour - mj.clippedColour >= blownMargin && !brightByDesign(mi) { return i }
        if -iOverJ >= misfire && mj.clippedColour - mi.clippedColour >= blownMargin && !brightByDesign(mj) { return j }
        return nil
    }

    /// Whether a frame is bright by design: a subject on white (`whiteBackground`, quality v17), or a
    /// high-key frame whose subject read well enough on its own to stand for the frame (its
    /// `unliftedExposure` is set, quality v18). Its blown backdrop is the scene, not a push. Select
    /// v49 added the second: a head on a white sweep (69 % clipped, its subject 0.67 alone) was
    /// read as the blown misfire of its pair, and its twin 2 stops under, the sweep turned grey
    /// (white point 0.55), was picked.
    static func brightByDesign(_ m: TechnicalQualityScore.Measurements) -> Bool {
        m.whiteBackground == true || m.unliftedExposure != nil
    }

    /// White point under which the darker frame of a pair stops short of white (`shortOfPair`).
    /// Frames 1.7–2.3 stops under their scene reach 0.36–0.53; clean frames 0.53 and up (0.70 and
    /// up for the darker frame of a pair, on the trips).
    static let pairShortOfWhite = 0.55

    /// Blown fraction at which a pair's brighter frame reads as pushed whatever its twin (frames
    /// pushed 2 stops blow 65–97 % in some colour; a clean frame with a white overcast sky, 46 %).
    static let pushedBlown = 0.6

    /// Median luma over which a pair's brighter frame is too bright to be the scene's exposure.
    static let brightMedian = 0.65

    /// A pair a stop or more apart as (brighter, darker) and their measurements; `nil` when closer.
    static func apart(_ i: Int, _ j: Int, _ iOverJ: Double, _ photos: [SelectInput])
        -> (bright: Int, dark: Int, mb: TechnicalQualityScore.Measurements, md: TechnicalQualityScore.Measurements)? {
        guard abs(iOverJ) >= misfire else { return nil }
        let (bright, dark) = iOverJ > 0 ? (i, j) : (j, i)
        return (bright, dark, photos[bright].technical.measurements, photos[dark].technical.measurements)
    }

    /// The frame of a pair that is a misfire because it stops short of white: at least `misfire`
    /// stops darker than its sibling, its white point under `pairShortOfWhite`, beside a sibling
    /// that clips nothing (`clipsNoColour`), or whose median sits in the middle (`brightMedian`)
    /// and that is not blown like a pushed frame (`pushedBlown`). Taking light away lowers the
    /// white point first, and a low-key frame keeps its highlights (white point 0.75 and up); a
    /// frame 2 stops under keeps none. A street under a white overcast sky blew 46 % of its clean
    /// frame in some colour (14.5 % clipped, exposure 0.09 on its own) beside its twin 2.1 stops
    /// under (white point 0.49, exposure 0.37): by `blownOfPair` and by the absolute scores the
    /// clean frame was the misfire, and the dark one was picked (a held-out trip made from
    /// photographs no trip had used).
    static func shortOfPair(_ i: Int, _ j: Int, _ iOverJ: Double, _ photos: [SelectInput]) -> Int? {
        // A brighter frame that is bright by design (`brightByDesign`) may be blown and bright
        // overall: a laptop on white (69 % blown, median 1.0) lost to its twin 2 stops under,
        // white point 0.55, which was picked (a held-out trip; select v47).
        // A brighter frame that clips nothing in any channel is not pushed however bright it is
        // (over-exposure clips): a pier washed out to a median of 0.77 on purpose (a desktop
        // background's source, white point 0.83, nothing clipped) lost to its twin 1.9 stops under
        // (white point 0.55), which was picked (a held-out trip; select v53).
        guard let p = apart(i, j, iOverJ, photos), p.md.whitePoint < pairShortOfWhite,
              brightByDesign(p.mb) || clipsNoColour(p.mb) || (p.mb.clippedColour < pushedBlown && p.mb.medianLuma <= brightMedian)
        else { return nil }
        return p.dark
    }

    /// Share of the frame blown in some colour up to which a frame still clips nothing
    /// (`clipsNoColour`): a specular glint.
    static let noColourClipped = 0.01

    /// Whether a frame clips nothing at all: neither luma blocks (`darkClippedAtMost`) nor any
    /// channel (`noColourClipped`). A gain of 1.7 stops or more on a scene that reaches white
    /// clips; one that leaves every channel unclipped was put on a scene that stopped short of it.
    static func clipsNoColour(_ m: TechnicalQualityScore.Measurements) -> Bool {
        m.clippedHighlights <= darkClippedAtMost && m.clippedColour <= noColourClipped
    }

    /// White point (99th percentile of luma) at which a frame uses its whole range: no light is
    /// missing at the top, so nothing calls for a brighter exposure.
    static let fullRange = 0.9

    /// Highlights (fraction of the frame in clipped blocks) that a pair's brighter frame clips
    /// over the darker one, and highlights and shadows the darker one may clip at most, for
    /// `clippedOfPair`.
    static let clippedMargin = 0.02
    static let darkClippedAtMost = 0.005
    static let crushedAtMost = 0.02

    /// The frame of a pair that is a misfire although both look right on their own: at least
    /// `misfire` stops brighter than a sibling that is not short of white (`pairShortOfWhite`)
    /// with next to nothing clipped (`darkClippedAtMost`, `crushedAtMost`), and clipping
    /// `clippedMargin` more of the frame. The darker frame clips nothing, so the light added on
    /// top of it went into clipped highlights: a night scene's clean frame (white point 0.94,
    /// nothing clipped) lost to its twin pushed 1.8 stops (3.8 % clipped), whose absolute score
    /// was as high. Select v34 asks the darker frame only not to stop short of white (it asked
    /// `fullRange`, 0.9): a dark view of the moon (white point 0.62, nothing clipped, exposure
    /// 0.60 on its own) lost to its twin 2 stops over (7.9 % clipped, 0.95 on its own) on a
    /// held-out trip. An HDR rendition and its plain twin are not caught: the darker one crushes its
    /// shadows (15 %), stops short of white, or clips too (a Canon's HDR frame, 3.4 %: its plain
    /// twin 1.7 stops brighter is a rendition a person may keep, not a misfire).
    /// Crushed shadows are let pass in a darker frame that nears white (`shortOfWhite`): that is
    /// a low-key scene's black, not light missing (select v41). A black dog on black (3.5 %
    /// crushed, white point 0.75) and two men in dark suits (15.5 %, 0.78) lost to their twins
    /// 1.9 and 2.2 stops over, clipping 6.1 and 4.4 %, which were picked (held-out trips made
    /// from photographs of people and pets); on the trips, frames 1.7–2.3 stops under reach
    /// 0.53 at most.
    static func clippedOfPair(_ i: Int, _ j: Int, _ iOverJ: Double, _ photos: [SelectInput]) -> Int? {
        guard let p = apart(i, j, iOverJ, photos), clipsNothing(p.md),
              p.mb.clippedHighlights - p.md.clippedHighlights >= clippedMargin else { return nil }
        return p.bright
    }

    /// A darker frame that leaves no room for doubt about its exposure: not short of white
    /// (`pairShortOfWhite`), next to nothing clipped (`darkClippedAtMost`), its shadows not crushed
    /// (`crushedAtMost`) unless it nears white (`shortOfWhite`).
    static func clipsNothing(_ m: TechnicalQualityScore.Measurements) -> Bool {
        m.whitePoint >= pairShortOfWhite && m.clippedHighlights <= darkClippedAtMost
            && (m.clippedShadows <= crushedAtMost || m.whitePoint >= shortOfWhite)
    }

    /// A burst with no majority: its frames split at a gap of a stop or more into two camps of
    /// one size, as when two of four frames are two stops under. Then a brighter camp that uses
    /// its whole range (`fullRange`, clipping at most `fullRangeClippedAtMost`) beside a darker
    /// one that stops short of white (`shortOfWhite`) is the scene's exposure; otherwise, as in
    /// a pair, the camp that looks better on its own (mean `exposure`) is: the median fell
    /// between the camps, and both clean frames of such a burst read 1.5–1.8 stops over and
    /// ranked under an under-exposed one. A brighter camp that is the larger, and whose every
    /// frame is blown over `blownMargin` more of the frame than any frame of the darker camp, is
    /// the misfire when the darker camp's frames reach `shortOfWhite`, as in a pair (`blownOfPair`): blown highlights hold nothing to come back to,
    /// and a burst of three with two frames pushed 2 stops (80 % blown) read its clean frame
    /// 2.3 stops under (a held-out trip of the second generator). `nil` when the widest gap is
    /// under `misfire`, or when the larger camp is not such a misfire (the median rules there:
    /// it is the larger camp's). Between camps of one size, after the range, a darker camp that
    /// clips nothing (`clipsNothing`) beside a brighter one that clips is the scene's, as in a pair.
    static func betterCamp(of i: Int, siblings s: [Int], differences d: [Int: Double], photos: [SelectInput]) -> [Int]? {
        // Each frame's place in stops, relative to i (d[j] is how much brighter i is than j).
        var place: [(photo: Int, stops: Double)] = [(i, 0)]
        for j in s { if let dj = d[j] { place.append((j, -dj)) } }
        place.sort { a, b in a.stops != b.stops ? a.stops < b.stops : a.photo < b.photo }
        guard place.count >= 3 else { return nil }
        var cut = 0, widest = 0.0
        for k in 1..<place.count where place[k].stops - place[k - 1].stops > widest { widest = place[k].stops - place[k - 1].stops; cut = k }
        guard widest >= Self.misfire else { return nil }
        let darker = place[..<cut].map { $0.photo }, brighter = place[cut...].map { $0.photo }
        func clipped(_ j: Int) -> Double { photos[j].technical.measurements.clippedColour }
        func nearsWhite(_ j: Int) -> Bool { photos[j].technical.measurements.whitePoint >= shortOfWhite }
        // Only beside a darker camp that nears white: saturated flowers blow a colour over a third
        // of a clean frame, and a lone frame 2.6 stops under (white point 0.42) outvoted two.
        if darker.count < brighter.count, darker.allSatisfy(nearsWhite), let leastBlown = brighter.map(clipped).min(), let mostBlown = darker.map(clipped).max(),
           leastBlown - mostBlown >= Self.blownMargin { return darker }
        func look(_ camp: [Int]) -> Double { camp.map { photos[$0].technical.exposure }.reduce(0, +) / Double(camp.count) }
        if let camp = agreeingMinority(place, photos) { return camp }
        guard cut * 2 == place.count else { return nil }
        // A bright scene's clean frames look too bright on their own (autumn leaves: 0.43 and
        // 0.14, against 0.6 for their twins 1.8 stops under), so the range decides first: a
        // camp that reaches white without clipping much, beside one that stops short of it.
        func usesRange(_ j: Int) -> Bool {
            let m = photos[j].technical.measurements
            return m.whitePoint >= fullRange && m.clippedHighlights <= fullRangeClippedAtMost
        }
        if brighter.allSatisfy(usesRange) && !darker.contains(where: nearsWhite) { return brighter }
        // Then, as in a pair (`clippedOfPair`, select v49), a darker camp that does not stop short of
        // white and clips next to nothing, beside a brighter camp each frame of which clips
        // `clippedMargin` more: the light added on top went into clipped highlights. Two frames of
        // rabbits on hay pushed 1.9 and 2.3 stops (4 and 9 % clipped, 0.99 and 0.95 on their own)
        // outlooked their clean twins (white point 0.73 and 0.86, nothing clipped, 0.94 and 1.0),
        // and the all-faulty burst of another scene was picked in their place (og199).
        let darkClip = darker.map { photos[$0].technical.measurements.clippedHighlights }.max() ?? 0
        if darker.allSatisfy({ clipsNothing(photos[$0].technical.measurements) }),
           brighter.allSatisfy({ photos[$0].technical.measurements.clippedHighlights - darkClip >= clippedMargin }) { return darker }
        return look(brighter) >= look(darker) ? brighter : darker
    }

    /// Highlights a frame may clip (fraction of the frame in clipped blocks) and still use its
    /// whole range, and the white point under which a frame stops short of white, for
    /// `betterCamp`'s camps of one size.
    static let fullRangeClippedAtMost = 0.03
    static let shortOfWhite = 0.7

    /// A camp that looks wrong on its own, every frame under this absolute `exposure`, is
    /// outvoted by a smaller camp that agrees with itself and looks right (`agreeingMinority`).
    static let looksWrong = 0.5

    /// The camp (frames within a stop of each other, a stop or more from the rest) of two or
    /// more frames that each look right on their own (`fineOnItsOwn`) and clip next to nothing
    /// (`darkClippedAtMost`), when the largest camp's every frame looks wrong on its own
    /// (`looksWrong`): a majority that agrees only on a bad exposure. Three frames 1.8–2.1 stops
    /// under (absolute exposure 0.19–0.27) outvoted two clean frames (1.0, nothing clipped),
    /// which read two stops over and lost to them (a held-out trip of the second generator).
    static func agreeingMinority(_ place: [(photo: Int, stops: Double)], _ photos: [SelectInput]) -> [Int]? {
        var camps: [[Int]] = [[place[0].photo]]
        for k in 1..<place.count {
            if place[k].stops - place[k - 1].stops >= misfire { camps.append([]) }
            camps[camps.count - 1].append(place[k].photo)
        }
        let largest = camps.max { $0.count < $1.count }!
        guard largest.allSatisfy({ photos[$0].technical.exposure < looksWrong }) else { return nil }
        let fine = camps.filter { c in
            c.count >= 2 && c.allSatisfy { photos[$0].technical.exposure >= fineOnItsOwn && photos[$0].technical.measurements.clippedHighlights <= darkClippedAtMost }
        }
        return fine.count == 1 ? fine[0] : nil
    }

    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        var out: [Int: Double] = [:]
        var siblings: [Int: [Int]] = [:], differences: [Int: [Int: Double]] = [:]
        for i in members {
            // Each photo against the siblings it can be compared with (all of a timed burst).
            let s = SelectInput.siblings(of: i, in: members, photos)
            siblings[i] = s
            differences[i] = Dictionary(uniqueKeysWithValues: s.map { ($0, difference(photos[i].technical.measurements, photos[$0].technical.measurements)) })
        }
        // First reading: against the group's median, the photo itself counted, so that in a burst
        // of five with two blown frames a clean frame reads 0 (its differences 0, 0, 0, −2, −2).
        var first: [Int: Double] = [:]
        for i in members where siblings[i]!.count >= 2 {
            first[i] = (Array(differences[i]!.values) + [0]).median
        }
        for i in members {
            let s = siblings[i]!, d = differences[i]!
            if s.count == 1 {
                let j = s[0]
                let (own, other) = (photos[i].technical.exposure, photos[j].technical.exposure)
                if let wrong = shortOfPair(i, j, d[j]!, photos) ?? blownOfPair(i, j, d[j]!, photos) ?? clippedOfPair(i, j, d[j]!, photos) {
                    if wrong == i { out[i] = d[j]! }
                } else if own < other && own < Self.fineOnItsOwn { out[i] = d[j]! }
            } else if s.count >= 2 {
                // Second reading: against the siblings that are not misfires themselves. Counting
                // itself would pull a misfire of a burst of three towards 0; here it does not count.
                if let camp = Self.betterCamp(of: i, siblings: s, differences: d, photos: photos) {
                    out[i] = camp.contains(i) ? (camp.filter { $0 != i }.compactMap { d[$0] }.median ?? 0) : camp.compactMap { d[$0] }.median
                } else {
                    let references = s.filter { j in first[j].map { abs($0) < Self.misfire } ?? false }
                    out[i] = (references.isEmpty ? s : references).compactMap { d[$0] }.median
                }
            }
        }
        return out
    }
}
