import COpenCVShim
import Foundation
import PhotoCurate

/// Which catalog album a photo shows, or that none does.
///
/// ```swift
/// let id = AlbumIdentifier(index: index)
/// let answer = try id.identify("shop/IMG_2041.jpg")
/// answer.match?.album.album_title   // "Kind of Blue", or nil: "Couldn't find a match"
/// ```
/// Input: a photo path (and whether it was taken with the square guide). Output: an
/// `Identification`. The photo's ORB points become visual words that pick a
/// shortlist from the index's inverted file; each shortlisted cover is then
/// matched point to point (`CoverMatcher`) and must agree with one homography
/// (RANSAC). The best cover with at least `minInliers` such points, spread over
/// it, is the answer; the homography also gives where the cover lies in the photo.
public struct AlbumIdentifier: Sendable {
    public let index: AlbumIndex
    public let parameters: Parameters

    public init(index: AlbumIndex, parameters: Parameters? = nil) throws {
        self.index = index
        self.parameters = try parameters ?? Parameters(AlbumParameters.identify)
    }

    public struct Identification: Codable, Sendable {
        public var photo: String
        public var match: Match?
        /// Why there is no match, or what was doubtful ("Couldn't find a match" is what a user sees).
        public var note: String?
        public var candidates: [Candidate]
        public var milliseconds: Double?

        public struct Match: Codable, Sendable {
            public var album: AlbumEntry
            /// 0–1, from the number of geometrically consistent points and the margin over the runner-up.
            public var confidence: Double
            public var inliers: Int
            /// The cover's corners in the photo (upright pixels of the full photo): top-left, top-right, bottom-right, bottom-left.
            public var corners: [[Double]]
        }
        public struct Candidate: Codable, Sendable {
            public var album: String
            /// The photo's visual words shared with this cover (tf-idf): why it was verified.
            public var shortlistScore: Double
            public var matches: Int
            public var inliers: Int
            /// Cells of a 4 × 4 grid over the cover that hold agreeing points (0–16).
            public var spread: Int
        }
    }

    public static let noMatch = "Couldn't find a match"

    /// Identifies one photo. Errors (unreadable, not an image) are thrown with the path and reason.
    public func identify(_ path: String, guide: Bool = false) throws -> Identification {
        let t0 = Date()
        let decoder = Decoder(longEdge: parameters.int("photoSize"))
        let (header, loader) = try decoder.openHeader(path)
        let decoded = try decoder.decode(path, header: header, loader: loader).image
        var image = decoded, offset = (0, 0)
        if guide {
            // The product's square guide: the cover fills the centre square.
            let s = min(image.width, image.height)
            offset = ((image.width - s) / 2, (image.height - s) / 2)
            image = Self.crop(image, x: offset.0, y: offset.1, width: s, height: s)
        }
        let q = try CoverFeatures.extract(image, maxFeatures: parameters.int("photoFeatures"))
        var result = identify(features: q, photo: path)
        // Corners in the full upright photo's pixels.
        if var m = result.match {
            let upright = Self.uprightSize(header)
            let scale = Double(max(upright.0, upright.1)) / Double(max(decoded.width, decoded.height))
            m.corners = m.corners.map { [($0[0] + Double(offset.0)) * scale, ($0[1] + Double(offset.1)) * scale].map { ($0 * 10).rounded() / 10 } }
            result.match = m
        }
        result.milliseconds = (Date().timeIntervalSince(t0) * 10000).rounded() / 10
        return result
    }

    /// The decision on already extracted photo features.
    public func identify(features q: CoverFeatures, photo: String) -> Identification {
        let query = CoverMatcher.query(q, vocabulary: index.vocabulary)
        let order = index.shortlist(query, count: parameters.int("shortlist"))
        let minInliers = parameters.int("minInliers")
        var candidates: [(i: Int, c: Identification.Candidate, h: [Double], size: (Int, Int))] = []
        for (i, shortlistScore) in order {
            guard let ref = try? index.coverFeatures(i) else { continue }
            var h = [Double](repeating: 0, count: 9)
            let pairs = CoverMatcher.match(query, cover: ref, vocabulary: index.vocabulary, ratio: parameters["ratio"])
            let matches = pairs.from.count / 2
            // Fewer pairs than needed cannot pass, and RANSAC on a few stray pairs is the slow case.
            var kept = [UInt8](repeating: 0, count: matches)
            let inliers = matches >= minInliers ? pc_cv_fit_homography(pairs.from, pairs.to, Int32(matches), Float(parameters["ransacPixels"]), &h, &kept) : 0
            // How much of the cover the agreeing points span (cells of a 4 × 4 grid): a cover shares
            // a title's lettering or a logo with other covers, but not its whole face.
            var cells = Set<Int>()
            for k in 0..<matches where kept[k] != 0 {
                let cx = min(3, max(0, Int(Double(pairs.from[2 * k]) / Double(ref.width) * 4)))
                let cy = min(3, max(0, Int(Double(pairs.from[2 * k + 1]) / Double(ref.height) * 4)))
                cells.insert(cy * 4 + cx)
            }
            var n = Int(max(0, inliers))
            // Points bunched in one or two cells are a shared detail (a logo, a label's lettering)
            // as often as a cover: such a fit needs twice the points to count.
            if n > 0 && cells.count <= 2 && n < 2 * minInliers { n = 0 }
            let corners = Self.project(h, width: Double(ref.width), height: Double(ref.height))
            // A fit that folds or shrinks the cover to a sliver is not a cover in the photo.
            if n > 0, !Self.plausible(corners, photoWidth: Double(q.width), photoHeight: Double(q.height)) { n = 0 }
            // Several covers may be in view: the one meant is the one the photo is aimed at, whose
            // outline holds the photo's centre. A cover beside it is another record, not the answer.
            if n > 0, !Self.contains(corners, x: Double(q.width) / 2, y: Double(q.height) / 2) { n = 0 }
            let c = Identification.Candidate(album: index.albums[i].id, shortlistScore: shortlistScore, matches: Int(matches), inliers: n, spread: n > 0 ? cells.count : 0)
            candidates.append((i, c, h, (ref.width, ref.height)))
        }
        candidates.sort { $0.c.inliers != $1.c.inliers ? $0.c.inliers > $1.c.inliers : $0.i < $1.i }
        var out = Identification(photo: photo, match: nil, note: nil, candidates: candidates.map(\.c), milliseconds: nil)
        guard let best = candidates.first, best.c.inliers >= minInliers else {
            let top = candidates.first.map { ": best candidate \($0.c.album) had \($0.c.inliers) consistent points, \(minInliers) needed" } ?? ": no cover of the catalog shares enough points with the photo"
            out.note = Self.noMatch + top
            return out
        }
        let second = candidates.dropFirst().first?.c.inliers ?? 0
        let strength = 1 - exp(-Double(best.c.inliers - minInliers / 2) / Double(minInliers))
        let margin = min(1, Double(best.c.inliers - second) / Double(max(1, best.c.inliers)) * 1.5)
        let corners = Self.project(best.h, width: Double(best.size.0), height: Double(best.size.1))
        out.match = .init(album: index.albums[best.i], confidence: (max(0, min(1, strength * (0.5 + 0.5 * margin))) * 1000).rounded() / 1000,
                          inliers: best.c.inliers, corners: corners.map { [$0.0, $0.1] })
        return out
    }

    static func project(_ h: [Double], width: Double, height: Double) -> [(Double, Double)] {
        [(0, 0), (width, 0), (width, height), (0, height)].map { (x, y) in
            let w = h[6] * x + h[7] * y + h[8]
            guard abs(w) > 1e-9 else { return (.infinity, .infinity) }
            return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
        }
    }

    /// Convex, in order, not tiny, not absurdly stretched.
    static func plausible(_ c: [(Double, Double)], photoWidth: Double, photoHeight: Double) -> Bool {
        guard c.allSatisfy({ $0.0.isFinite && $0.1.isFinite }) else { return false }
        var sign = 0.0, area = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4], d = c[(i + 2) % 4]
            let cross = (b.0 - a.0) * (d.1 - b.1) - (b.1 - a.1) * (d.0 - b.0)
            if sign == 0 { sign = cross > 0 ? 1 : -1 } else if cross * sign <= 0 { return false }
            area += a.0 * b.1 - b.0 * a.1
        }
        area = abs(area) / 2
        guard area >= 0.01 * photoWidth * photoHeight else { return false }
        let sides = (0..<4).map { i in hypot(c[(i + 1) % 4].0 - c[i].0, c[(i + 1) % 4].1 - c[i].1) }
        return sides.max()! / max(1e-6, sides.min()!) < 6
    }

    static func contains(_ c: [(Double, Double)], x: Double, y: Double) -> Bool {
        guard c.allSatisfy({ $0.0.isFinite && $0.1.isFinite }) else { return false }
        var inside = false
        for i in 0..<4 {
            let a = c[i], b = c[(i + 3) % 4]
            if (a.1 > y) != (b.1 > y), x < (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0 { inside.toggle() }
        }
        return inside
    }

    static func crop(_ image: AnalysisImage, x: Int, y: Int, width: Int, height: Int) -> AnalysisImage {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            let src = ((y + row) * image.width + x) * 3
            rgb.replaceSubrange(row * width * 3..<(row + 1) * width * 3, with: image.rgb[src..<(src + width * 3)])
        }
        return AnalysisImage(width: width, height: height, rgb: rgb)
    }

    static func uprightSize(_ header: VImage) -> (Int, Int) {
        let o = header.int("orientation") ?? 1
        return o >= 5 ? (header.height, header.width) : (header.width, header.height)
    }
}
