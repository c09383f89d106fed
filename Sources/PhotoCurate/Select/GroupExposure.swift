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
/// reference and only the other gets a value. Brightness is the median luma
/// taken to linear light, in stops (EV): unlike the mean, clipped highlights
/// do not hold it back, so a frame pushed 2 stops reads 2 stops.
public enum GroupExposure {
    /// log₂ of the linear-light value of an sRGB-encoded luma (0–1); floored at half a level.
    public static func stops(medianLuma v: Double) -> Double {
        let x = max(0.5 / 255, v)
        return log2(x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4))
    }

    public static func measure(members: [Int], photos: [SelectInput]) -> [Int: Double] {
        func ev(_ i: Int) -> Double { stops(medianLuma: photos[i].technical.measurements.medianLuma) }
        var out: [Int: Double] = [:]
        for i in members {
            // Each photo against the siblings it can be compared with (all of a timed burst).
            let peers = [i] + SelectInput.siblings(of: i, in: members, photos)
            if peers.count == 2 {
                let other = peers[1]
                if photos[i].technical.exposure < photos[other].technical.exposure { out[i] = ev(i) - ev(other) }
            } else if peers.count >= 3, let median = peers.map(ev).median {
                out[i] = ev(i) - median
            }
        }
        return out
    }
}
