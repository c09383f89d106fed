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
/// majority, so there the better exposed of the two (by `exposure`) is the
/// reference and only the other gets a value. Brightness is the mean luma
/// taken to linear light (γ 2.2), in stops (EV).
public enum GroupExposure {
    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        guard members.count >= 2 else { return [:] }
        func ev(_ i: Int) -> Double { 2.2 * log2(max(1e-3, photos[i].technical.measurements.meanLuma)) }
        if members.count == 2 {
            let a = members[0], b = members[1]
            let (better, worse) = photos[a].technical.exposure >= photos[b].technical.exposure ? (a, b) : (b, a)
            return [worse: ev(worse) - ev(better)]
        }
        let sorted = members.map(ev).sorted()
        let mid = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        return Dictionary(uniqueKeysWithValues: members.map { ($0, ev($0) - median) })
    }
}
