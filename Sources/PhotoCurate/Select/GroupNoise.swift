import Foundation

/// How much grainier each photo is than the comparable photos of its visual
/// group, at 100 %: the relative-grain hook of selection.
///
/// ```swift
/// let g = GroupNoise.measure(members: cluster.photos, photos: inputs)
/// g[i]   // 8.7: levels of extra grain σ per pixel over the burst's
/// ```
/// The frames of a burst share the scene, so whatever texture passes for grain
/// (foliage, sand, water) passes equally in all of them; a frame whose
/// per-pixel grain (`NativeDetail.noiseLuma`) stands above its siblings' median
/// gained it from the sensor. The value is √(σᵢ² − median σⱼ²), 0 when it is no
/// grainier; photos without native detail (not JPEG) or without a comparable
/// sibling get no value.
public enum GroupNoise {
    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        var out: [Int: Double] = [:]
        for i in members {
            guard let si = photos[i].detail?.grain else { continue }
            let others = SelectInput.siblings(of: i, in: members, photos).compactMap { photos[$0].detail?.grain }
            guard let median = others.median else { continue }
            out[i] = max(0, si * si - median * median).squareRoot()
        }
        return out
    }
}
