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
/// as reference only if it is not clearly noisier (grain adds high frequencies
/// that would pass for detail; light grain up to σ 3 is allowed, since blur
/// itself smooths grain away) and has no more clipped highlights (clipping makes
/// hard edges), so a noisy or over-exposed frame never makes its clean
/// siblings look blurred. The value is the median over the comparable
/// siblings, so one odd pair (a sharp detail half out of one frame, a texture
/// zoomed a little) does not decide; a shaken frame among steady ones is more
/// blurred than most of them. Photos with no comparable sibling get no value.
public enum GroupBlur {
    public struct Value: Sendable, Equatable {
        /// Extra gaussian σ, in analysis-image pixels (0 when it is as sharp as its siblings or sharper).
        public var sigma: Double
        public var reference: Int
    }

    /// Noise σ (levels) that the noise-floor subtraction absorbs: a sibling this
    /// grainy still serves as reference. Blur smooths grain away, so a blurred frame
    /// reads less noisy than its clean siblings and must still be compared with them.
    static let lightGrain = 3.0

    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Value] {
        var out: [Int: Value] = [:]
        for i in members {
            guard let si = photos[i].spectrum else { continue }
            let mi = photos[i].technical.measurements
            var pairs: [(Double, Int)] = []
            for j in SelectInput.siblings(of: i, in: members, photos) {
                guard let sj = photos[j].spectrum else { continue }
                let mj = photos[j].technical.measurements
                guard mj.noiseSigma <= max(1.5 * mi.noiseSigma + 0.5, Self.lightGrain),
                      mj.clippedHighlights <= mi.clippedHighlights + 0.02 else { continue }
                if let d = si.extraBlur(comparedWith: sj) { pairs.append((d, j)) }
            }
            guard let median = pairs.map(\.0).median else { continue }
            pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : photos[$0.1].path < photos[$1.1].path }
            out[i] = Value(sigma: max(0, median).squareRoot(), reference: pairs[pairs.count / 2].1)
        }
        return out
    }
}
