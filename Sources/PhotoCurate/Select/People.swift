import Foundation

/// Faces grouped into people across the trip, from their descriptors: input the
/// photos' faces (with `embedding`), output `[Person]`, most photographed first.
///
/// ```swift
/// let people = People.group(photos, distance: 0.6, minPhotos: 2)
/// people[0].id        // "person-1"
/// people[0].photos    // the photos they are in, in photo order
/// ```
/// The number of people is not given. Faces join through Chinese whispers, as dlib
/// groups faces (an edge where two descriptors are closer than `distance`; each face
/// takes the label most of its neighbours hold), made deterministic: faces in photo
/// order, labels compared by weight then by number, a fixed number of rounds. Two
/// faces of one photo are never one person. Someone seen in fewer than `minPhotos`
/// photos (a passer-by) gets no album.
public struct Person: Codable, Sendable, Equatable {
    public struct FaceRef: Codable, Sendable, Equatable {
        public var photo: Int
        public var face: Int
    }
    public var id: String
    public var photos: [Int]
    public var faces: [FaceRef]
    /// The face that shows them best: eyes open, frontal, large, sharp.
    public var representative: FaceRef
}

public enum People {
    public static func group(_ photos: [SelectInput], distance: Double, minPhotos: Int) -> [Person] {
        var refs: [Person.FaceRef] = [], vectors: [[Double]] = []
        for (i, p) in photos.enumerated() {
            for (k, f) in (p.faces ?? []).enumerated() {
                guard let e = f.embedding, e.count == 128 else { continue }
                refs.append(.init(photo: i, face: k)); vectors.append(e)
            }
        }
        let n = refs.count
        guard n > 0 else { return [] }
        var neighbours = [[Int]](repeating: [], count: n)
        let limit = distance * distance
        for a in 0..<n {
            for b in (a + 1)..<n where refs[a].photo != refs[b].photo {
                var d = 0.0
                for k in 0..<128 { let t = vectors[a][k] - vectors[b][k]; d += t * t; if d > limit { break } }
                if d < limit { neighbours[a].append(b); neighbours[b].append(a) }
            }
        }
        var label = Array(0..<n)
        for _ in 0..<30 {
            var changed = false
            for a in 0..<n where !neighbours[a].isEmpty {
                var weight: [Int: Int] = [:]
                for b in neighbours[a] { weight[label[b], default: 0] += 1 }
                let best = weight.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
                if best != label[a] && (weight[label[a]] ?? 0) < weight[best]! { label[a] = best; changed = true }
            }
            if !changed { break }
        }
        var groups: [Int: [Int]] = [:]
        for a in 0..<n { groups[label[a], default: []].append(a) }
        var people: [Person] = []
        for members in groups.values {
            // One face per photo: a second face of a photo the person is already in is someone else.
            var seen = Set<Int>(), kept: [Person.FaceRef] = []
            for a in members.sorted() where seen.insert(refs[a].photo).inserted { kept.append(refs[a]) }
            guard seen.count >= minPhotos else { continue }
            let rep = kept.max { quality(photos, $0) < quality(photos, $1) }!
            people.append(Person(id: "", photos: kept.map(\.photo), faces: kept, representative: rep))
        }
        people.sort { $0.photos.count != $1.photos.count ? $0.photos.count > $1.photos.count : $0.photos[0] < $1.photos[0] }
        for k in people.indices { people[k].id = "person-\(k + 1)" }
        return people
    }

    static func quality(_ photos: [SelectInput], _ r: Person.FaceRef) -> Double {
        let f = photos[r.photo].faces![r.face]
        return FaceQualityScore.faceScore(f) * min(1, (f.size ?? 0) / 0.2) + 1e-9 * Double(photos.count - r.photo)
    }
}
