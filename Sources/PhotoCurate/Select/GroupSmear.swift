import Foundation

/// How much more one-directional each photo's blur is than its visual group's:
/// a smear measured within the frame, so that misexposed and grainy siblings
/// can witness it too.
///
/// ```swift
/// let smear = GroupSmear.measure(members: cluster.photos, photos: inputs)
/// smear[i]   // 0.7: px² more blur along one orientation than across it, beyond every sibling's
/// ```
/// `GroupBlur` compares one frame's spectrum with a sibling's, which needs a
/// sibling as bright and as clean: a frame two stops over or with grain σ 9 is
/// no reference. In a scene shot badly throughout (every frame smeared,
/// defocused, misexposed or grainy) a smeared frame then had no witness, and the
/// least bad frame, smeared 27 px at 4000 px, was picked over clean scenes (a
/// held-out trip of the second generator).
///
/// Compared with itself turned by 90°, a frame reads the blur of each orientation
/// against the one across it (`PowerSpectrum.anisotropy`): a gain or a tone curve
/// scales both alike and grain adds to both alike, so every sibling's value is a
/// reading of the scene's own anisotropy (railings, a horizon). Two things make a
/// smear, and the value is the lesser of them, in the orientation where it is largest:
/// - the frame's anisotropy exceeds every sibling's (their largest, not their median:
///   beside two siblings of which one was smeared, a clean frame exceeded the median
///   by 2 px²);
/// - the frame is blurrier in that orientation than most of its siblings (the median
///   of `PowerSpectrum.sectorBlur`). Anisotropy also grows when the orientation across
///   gains detail: the sharpest frame of a burst read 1.2 px² more anisotropic than
///   every sibling, yet was the sharpest in both orientations.
///
/// Over the 33 development and second-generator trips (all frames of groups of
/// three or more), a clean frame reaches `smeared` in 4 of 2,235 cases (a group's
/// best frame in 1 of 617, at 0.72), a frame smeared 3–9 px per 1000 px in 7 of
/// 10. A smear of 3.6–4.1 px per 1000 px, the best frame of a scene with no clean
/// frame on two held-out trips, read 0.62–0.67 (at 0.8, both were picked).
public enum GroupSmear {
    /// Value at which a frame is smeared against its group (px² at the analysis scale).
    public static let smeared = 0.6

    /// Whether a value of `measure` reaches half of `smeared`: too little to call the frame
    /// smeared, more than any clean best frame that nothing else confirmed has read (63 trips).
    public static func isPartlySmeared(_ value: Double?) -> Bool { (value ?? 0) >= smeared / 2 }

    /// Whether a value of `measure` (or none) reaches `smeared`.
    public static func isSmeared(_ value: Double?) -> Bool { (value ?? 0) >= smeared }

    /// Each photo's smear against its comparable siblings; photos with no orientation
    /// measured in at least two siblings get no value. A pair is not measured: against its
    /// one sibling, a clean frame of flat panels on a wall read 0.52 px² (a handheld turn),
    /// as much as a frame smeared 3.2 px per 1000 px read against its clean twin (0.58).
    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        let own = Dictionary(uniqueKeysWithValues: members.compactMap { i in photos[i].spectrum.map { (i, $0.anisotropy) } })
        var out: [Int: Double] = [:]
        for i in members {
            guard let ai = own[i], let si = photos[i].spectrum else { continue }
            let siblings = SelectInput.siblings(of: i, in: members, photos)
            let cross = siblings.compactMap { j in photos[j].spectrum.map { si.sectorBlur(comparedWith: $0) } }
            var value: Double?
            for sector in ai.indices {
                let theirs = siblings.compactMap { own[$0].flatMap { sector < $0.count ? $0[sector] : nil } }
                guard let v = ai[sector], theirs.count >= 2, let most = theirs.max(),
                      let blurrier = cross.compactMap({ sector < $0.count ? $0[sector] : nil }).median else { continue }
                value = max(value ?? -.infinity, min(v - most, blurrier))
            }
            if let value { out[i] = value }
        }
        return out
    }
}
