import Foundation

/// The people in a burst, frame against frame: a frame where someone's eyes are
/// closed, or a main face is turned away or softer than in a sibling, loses to one
/// where they are not.
///
/// ```swift
/// let v = GroupFaces.measure(members: burst, photos: photos, mainSize: 0.05)
/// v[3]?.closed    // 2: two main faces with closed eyes in frame 3
/// v[3]?.faceBlur  // 0.72: its softest main face has 72 % of the detail of the same face at its sharpest
/// ```
/// Faces are the same person across frames when their boxes overlap (IoU ≥ 0.3):
/// frames of a burst are taken from one place within seconds. A face's sharpest is
/// taken over the siblings that are not grainier (`GroupBlur.grainy`) and less than a
/// stop apart in exposure (`GroupBlur.exposureApart`), as for blur.
enum GroupFaces {
    struct Value: Equatable {
        /// Main faces in the frame.
        var faces: Int
        /// Main faces with closed eyes.
        var closed: Int
        /// Closed-eyed faces beyond the fewest that a comparable sibling has (not grainier, less
        /// than a stop apart in exposure): a person whose eyes are closed in every frame (asleep,
        /// or laughing in all of them) tells no frame apart.
        var extraClosed: Int = 0
        /// Main faces turned away (|yaw| over the limit) where a sibling shows that face turned less.
        var turned: Int
        /// The lowest ratio, over its main faces, of face sharpness to the same face's best in the burst (1 = sharpest).
        var faceBlur: Double
    }

    /// `blurred` are the frames blurred or smeared against their group by a fault's measure: what
    /// their eyes read is no baseline for another frame's (see the closed eyes below).
    static func measure(members: [Int], photos: [SelectInput], mainSize: Double, turnedAway: Double, blurred: Set<Int> = []) -> [Int: Value] {
        let mains = Dictionary(uniqueKeysWithValues: members.map { ($0, FaceQualityScore.main(photos[$0].faces ?? [], mainSize: mainSize)) })
        guard mains.values.contains(where: { !$0.isEmpty }) else { return [:] }
        var out: [Int: Value] = [:]
        var references: [Int: Set<Int>] = [:]
        for i in members {
            guard photos[i].faces != nil else { continue }
            let mine = mains[i] ?? []
            var v = Value(faces: mine.count, closed: mine.filter { $0.eyes == .closed }.count, turned: 0, faceBlur: 1)
            let siblings = SelectInput.siblings(of: i, in: members, photos)
            // Grain passes for a face's detail: beside a sibling with grain σ 26, every clean
            // frame's faces read a third as sharp, and a frame smeared 13 px per 1000 px (exempt,
            // being soft all over) was picked (a held-out trip made from photos of people). So does
            // a stop or more of exposure: on the trips, faces of frames 1.7–2.3 stops over or under
            // read up to 1.35× as sharp as their clean siblings' (select v44).
            let mi = photos[i].technical.measurements
            let steady = Set(siblings.filter { j in
                !GroupBlur.grainy(photos[j], than: photos[i])
                    && abs(GroupExposure.difference(mi, photos[j].technical.measurements)) < GroupBlur.exposureApart
            })
            references[i] = steady
            for f in mine {
                let same = siblings.compactMap { j in (mains[j] ?? []).max { iou($0.box, f.box) < iou($1.box, f.box) }.map { (j, $0) } }
                    .filter { iou($0.1.box, f.box) >= 0.3 }
                if abs(f.yaw ?? 0) > turnedAway, same.contains(where: { abs($0.1.yaw ?? 0) < abs(f.yaw ?? 0) - 10 }) { v.turned += 1 }
                if let s = f.sharpness, let best = (same.filter { steady.contains($0.0) }.compactMap(\.1.sharpness) + [s]).max(), best > 0 {
                    v.faceBlur = min(v.faceBlur, s / best)
                }
            }
            v.faceBlur = (v.faceBlur * 1e4).rounded() / 1e4
            out[i] = v
        }
        // Closed eyes beyond the fewest that a comparable sibling shows (not grainier, less than a
        // stop apart): a misexposed frame reads a squint or a laugh as open or unknown, and beside
        // it every clean frame of a group photo with one person laughing counted a blink
        // (×`closedEyes`), on 5 scenes of the trips; a mild misfire would then have won (select v45).
        // A softer frame's eyes still count: a blink beside two mildly blurred open frames must lose.
        // A frame blurred or smeared by a fault's measure (`blurred`) is no baseline: a face whose
        // eyes were closed in every clean frame of a group photo read open in its frame smeared
        // 7.5 px per 1000 px, every clean frame counted a blink, and the frame 1.9 stops over, with
        // no sibling near its exposure to compare with, was picked (a held-out trip; select v46).
        for (i, v) in out {
            let fewest = (references[i] ?? []).subtracting(blurred).compactMap { out[$0]?.closed }.min().map { min($0, v.closed) } ?? v.closed
            out[i]!.extraClosed = v.closed - fewest
        }
        return out
    }

    static func iou(_ a: [Double], _ b: [Double]) -> Double {
        let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])), iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
        let inter = ix * iy, union = a[2] * a[3] + b[2] * b[3] - inter
        return union > 0 ? inter / union : 0
    }
}
