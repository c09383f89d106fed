import Foundation

/// How much more one-directional each photo's blur is than its visual group's:
/// a smear measured within the frame, so that misexposed and grainy siblings
/// can witness it too.
///
/// ```swift
/// let excess = GroupSmear.measure(members: cluster.photos, photos: inputs)
/// excess[i]   // 0.9: px² more blur along one orientation than across it, beyond every sibling's
/// ```
/// `GroupBlur` compares one frame's spectrum with a sibling's, which needs a
/// sibling as bright and as clean: a frame two stops over or with grain σ 9 is
/// no reference. In a scene shot badly throughout (every frame smeared,
/// defocused, misexposed or grainy) a smeared frame then had no witness, and the
/// least bad frame, smeared 27 px at 4000 px, was picked over clean scenes (a
/// held-out trip of the second generator). Compared with itself turned by 90°,
/// a frame reads the blur of each orientation against the one across it
/// (`PowerSpectrum.anisotropy`): a gain or a tone curve scales both alike and
/// grain adds to both alike, so every sibling's value is a reading of the
/// scene's own anisotropy (railings, a horizon). A photo's excess is, in its
/// most smeared orientation, how much its value exceeds the largest of its
/// siblings': smeared against every one of them. Against their median instead,
/// a clean frame read 2 px² beside two siblings of which one was smeared (the
/// median fell between them), and crops of one scene differ in anisotropy by
/// 1–3 px² (a clean best frame exceeded its siblings' median by that in 3 % of
/// groups).
///
/// Over the 33 development and second-generator trips (all frames of groups of
/// three or more): a clean frame exceeds every sibling by `smeared` in 0.5 % of
/// cases, a frame smeared 3–9 px per 1000 px in about half.
public enum GroupSmear {
    /// Excess at which a frame is smeared against its group (px² at the analysis scale).
    public static let smeared = 0.9

    /// Each photo's excess one-directional blur over every comparable sibling's, in the
    /// orientation where it is largest; orientations with fewer than two siblings measured
    /// do not count, and photos with none left get no value.
    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        let own = Dictionary(uniqueKeysWithValues: members.compactMap { i in photos[i].spectrum.map { (i, $0.anisotropy) } })
        var out: [Int: Double] = [:]
        for i in members {
            guard let ai = own[i] else { continue }
            let siblings = SelectInput.siblings(of: i, in: members, photos).compactMap { own[$0] }
            var excess: Double?
            for sector in ai.indices {
                let theirs = siblings.compactMap { sector < $0.count ? $0[sector] : nil }
                guard let v = ai[sector], theirs.count >= 2, let m = theirs.max() else { continue }
                excess = max(excess ?? -.infinity, v - m)
            }
            if let excess { out[i] = excess }
        }
        return out
    }
}
