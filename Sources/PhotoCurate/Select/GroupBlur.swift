import Foundation

/// How much more blurred each photo is than the sharpest comparable photo of
/// its visual group: the relative-sharpness hook of selection.
///
/// ```swift
/// let blur = GroupBlur.measure(members: cluster.photos, photos: inputs)
/// blur[i]?.sigma      // 1.6: px of extra blur at the analysis scale
/// blur[i]?.reference  // the sibling it was compared with
/// ```
/// An absolute sharpness score cannot tell a soft lens, a macro shot or a
/// misty scene from a blurred frame; a burst can, because its frames share the
/// scene and differ in blur (see `PowerSpectrum.extraBlur`). A sibling serves
/// as reference only if it is not noisier (grain adds high frequencies that
/// would pass for detail) and has no more clipped highlights (clipping makes
/// hard edges), so a noisy or over-exposed frame never makes its clean
/// siblings look blurred. Photos with no such sibling get no value.
public enum GroupBlur {
    public struct Value: Sendable, Equatable {
        /// Extra gaussian σ, in analysis-image pixels (0 when it is the sharpest).
        public var sigma: Double
        public var reference: Int
    }

    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Value] {
        var out: [Int: Value] = [:]
        for i in members {
            guard let si = photos[i].spectrum else { continue }
            let mi = photos[i].technical.measurements
            var worst: (Double, Int)?
            for j in members where j != i {
                guard let sj = photos[j].spectrum else { continue }
                let mj = photos[j].technical.measurements
                guard mj.noiseSigma <= 1.5 * mi.noiseSigma + 0.5, mj.clippedHighlights <= mi.clippedHighlights + 0.02 else { continue }
                guard let d = si.extraBlur(comparedWith: sj) else { continue }
                if worst == nil || d > worst!.0 || (d == worst!.0 && photos[j].path < photos[worst!.1].path) { worst = (d, j) }
            }
            if let (d, j) = worst { out[i] = Value(sigma: max(0, d).squareRoot(), reference: j) }
        }
        return out
    }
}
