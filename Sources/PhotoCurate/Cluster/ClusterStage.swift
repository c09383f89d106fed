import Foundation

/// One photo as clustering sees it.
public struct ClusterInput: Sendable {
    public var epoch: Double?          // nil when the time is not trusted
    public var latitude: Double?
    public var longitude: Double?
    public var print: FeaturePrint
    public var quality: Double
    public var path: String
    /// Width over height as shown (EXIF orientation applied); nil when unknown.
    public var aspect: Double?
    /// Whether nothing says which way up it is (no EXIF orientation, or 1): it may be stored on its side.
    public var orientationUnknown: Bool
    public init(epoch: Double?, latitude: Double?, longitude: Double?, print: FeaturePrint, quality: Double, path: String,
                aspect: Double? = nil, orientationUnknown: Bool = false) {
        self.epoch = epoch; self.latitude = latitude; self.longitude = longitude
        self.print = print; self.quality = quality; self.path = path
        self.aspect = aspect; self.orientationUnknown = orientationUnknown
    }
}

/// Cluster stage (barrier): `[ClusterInput]` → `Clustering`.
///
/// ```swift
/// let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
/// ```
/// 1. **Moments**: photos with a trusted time, in time order, split where the gap
///    exceeds `timeWindow` or the place moves more than `locationRadius` from the
///    moment's centre (haversine; only when both have GPS).
/// 2. **Candidate pairs**: each photo against its `window` neighbours in time
///    order, in sgemm blocks; photos without a trusted time against everything.
///    A pair counts when cosine ≥ `similarity` and, if both times are trusted,
///    the two are in the same moment.
/// 3. **Visual groups**: connected components of those pairs, each re-split by
///    average linkage at the same threshold, so a chain of look-alikes (a city
///    walk) does not merge distinct scenes; groups over `maxPerCluster` are cut in time order.
/// Near-linear: the cost is n × window × dimension.
public struct ClusterStage: BarrierStage {
    public static let id = "cluster"
    /// 2: a photo stored on its side without an EXIF orientation is grouped turned (`sidewaysSimilarity`).
    /// 3: it is judged against photos that something orients only, not against other untagged frames on their side.
    /// 4: two or more untimed photos that look like each other join photos with trusted times only when
    ///    they look about as much like them as each side looks like itself (`untimedGap`).
    /// 5: … and two such untimed sets join each other on the same terms, less `untimedPairGap`.
    public static let version = 5
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("similarity", 0.75, in: 0...1, "feature-print cosine at or above which two photos are one visual group"),
        ParameterSpec("timeWindow", 600, in: 0...86_400 * 30, "seconds without a photo that start a new moment"),
        ParameterSpec("locationRadius", 50, in: 0...1_000_000, "metres from a moment's centre that start a new moment"),
        ParameterSpec("maxPerCluster", 20, in: 1...10_000, integer: true, "largest visual group; bigger ones are cut in time order"),
        ParameterSpec("window", 128, in: 8...4096, integer: true, "time-ordered neighbours compared with each photo"),
        ParameterSpec("untimedGap", 0.05, in: 0...1, "two or more photos without a trusted time, alike among themselves, join a visual group with trusted times only when they look at least as much like it (mean cosine) as each side looks like itself, less this: an untimed scene is not merged into another scene of the same look (a second crop of one photograph, another foggy picture); 1 turns this off"),
        ParameterSpec("untimedPairGap", 0.12, in: 0...1, "two sets of two or more photos without a trusted time, each alike within itself, join only when they look at least as much like each other (mean cosine) as each looks like itself, less this: two untimed scenes of the same look (fog, a grey gradient) stay apart. Wider than untimedGap: an untimed burst splits by its faults (sharp frames against blurred or grainy ones), and its halves sat up to 0.10 under themselves on the #9 trips; 1 turns this off"),
        ParameterSpec("sidewaysSimilarity", 0.9, in: 0...1, "a photo with no trusted time and no EXIF orientation that, turned a quarter, looks at least this much like a photo of the other shape (portrait against landscape), and more than it does upright, was stored on its side: it is grouped turned (unrelated photos turned reach 0.78); 1 turns this off"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public func run(_ input: [ClusterInput]) throws -> Clustering {
        let (photos, sideways) = upright(input)
        var clustering = try group(photos)
        clustering.sideways = sideways
        return clustering
    }

    /// The inputs with the prints of photos stored on their side turned upright, and which
    /// those are (index → degrees clockwise). Only photos that nothing orients (no trusted
    /// time, so no camera burst to go by, and no EXIF orientation) are tried, against photos
    /// of the other shape: a camera or an app that dropped the tag leaves the pixels on
    /// their side, and such a frame did not join its own burst (a same-scene pair of picks).
    func upright(_ photos: [ClusterInput]) -> ([ClusterInput], [Int: Int]) {
        let limit = Float(parameters["sidewaysSimilarity"])
        // A square photo has no other shape to match.
        let tried = photos.indices.filter { photos[$0].epoch == nil && photos[$0].orientationUnknown && (photos[$0].aspect ?? 1) != 1 }
        guard limit < 1, !tried.isEmpty else { return (photos, [:]) }
        let n = photos.count
        var rows = photos.map(\.print)
        for i in tried { rows.append(FeaturePrintAnalyzer.turned(photos[i].print, quarterTurns: 1)); rows.append(FeaturePrintAnalyzer.turned(photos[i].print, quarterTurns: 3)) }
        let m = SimilarityMatrix(rows)
        var out = photos, turned: [Int: Int] = [:]
        // Only photos that something orients can say which way is up. Two untagged frames of
        // one burst, both on their side, look alike as stored (og21: 0.99), and against each
        // other they would keep each other sideways and apart from their burst.
        let isTried = Set(tried)
        let anchored = (0..<n).filter { !isTried.contains($0) }
        for (k, i) in tried.enumerated() {
            let wide = photos[i].aspect! > 1
            let others = anchored.filter { photos[$0].aspect.map { ($0 > 1) != wide && $0 != 1 } == true }
            guard !others.isEmpty else { continue }
            let upright = m.block(rows: i..<(i + 1), cols: 0..<n)
            let asIs = anchored.map { upright[$0] }.max() ?? -1
            var best: (degrees: Int, cosine: Float)?
            for (t, degrees) in [(0, 90), (1, 270)] {
                let r = n + 2 * k + t
                let s = m.block(rows: r..<(r + 1), cols: 0..<n)
                let top = others.map { s[$0] }.max() ?? -1
                if top >= limit, top > asIs, top > (best?.cosine ?? -1) { best = (degrees, top) }
            }
            guard let b = best else { continue }
            out[i].print = FeaturePrintAnalyzer.turned(photos[i].print, quarterTurns: b.degrees / 90)
            turned[i] = b.degrees
        }
        return (out, turned)
    }

    func group(_ photos: [ClusterInput]) throws -> Clustering {
        let n = photos.count
        let momentOf = moments(photos)
        let threshold = Float(parameters["similarity"])

        // Time order for the window (untrusted times last, by path, so the order is total).
        let order = (0..<n).sorted { a, b in
            switch (photos[a].epoch, photos[b].epoch) {
            case let (x?, y?): return x != y ? x < y : photos[a].path < photos[b].path
            case (_?, nil): return true
            case (nil, _?): return false
            default: return photos[a].path < photos[b].path
            }
        }
        // One copy of the prints, in time order (100k × 417 floats is 167 MB); groups look theirs up by position.
        let ordered = SimilarityMatrix(order.map { photos[$0].print })
        var position = [Int](repeating: 0, count: n)
        for (k, i) in order.enumerated() { position[i] = k }
        let sim = Positioned(matrix: ordered, position: position)
        var uf = UnionFind(n)
        func allowed(_ i: Int, _ j: Int) -> Bool {
            guard photos[i].epoch != nil, photos[j].epoch != nil else { return true }
            return momentOf[i] == momentOf[j]
        }
        let window = parameters.int("window"), block = 256
        let trustedCount = order.prefix { photos[$0].epoch != nil }.count
        var start = 0
        while start < trustedCount {
            let end = min(trustedCount, start + block)
            let cols = start..<min(trustedCount, end + window)
            let s = ordered.block(rows: start..<end, cols: cols)
            for r in 0..<(end - start) {
                let i = start + r
                for c in 0..<cols.count {
                    let j = cols.lowerBound + c
                    guard j > i, j - i <= window, s[r * cols.count + c] >= threshold else { continue }
                    if allowed(order[i], order[j]) { uf.union(order[i], order[j]) }
                }
            }
            start = end
        }
        // Photos without a trusted time: against everything, in blocks.
        if trustedCount < n {
            var r0 = trustedCount
            while r0 < n {
                let r1 = min(n, r0 + block)
                let s = ordered.block(rows: r0..<r1, cols: 0..<n)
                for r in 0..<(r1 - r0) {
                    for j in 0..<n where j != r0 + r && s[r * n + j] >= threshold {
                        uf.union(order[r0 + r], order[j])
                    }
                }
                r0 = r1
            }
        }

        // Components → average-linkage groups → size cap.
        var components: [Int: [Int]] = [:]
        for i in 0..<n { components[uf.find(i), default: []].append(i) }
        var groups: [[Int]] = []
        for root in components.keys.sorted() {
            let members = components[root]!.sorted()
            for g in averageLinkage(members, sim, threshold, momentOf, photos, untimedGap: Float(parameters["untimedGap"]),
                                    untimedPairGap: Float(parameters["untimedPairGap"])) {
                groups += cap(g, photos, parameters.int("maxPerCluster"))
            }
        }
        groups = groups.map { $0.sorted() }.sorted { $0[0] < $1[0] }

        // Photos without a trusted time join the moment most of their group is in.
        var momentFinal = momentOf
        var nextMoment = (momentOf.max() ?? -1) + 1
        for g in groups {
            let trusted = g.filter { photos[$0].epoch != nil }.map { momentOf[$0] }
            let adopted: Int
            if let m = Dictionary(grouping: trusted, by: { $0 }).max(by: { $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $0.key > $1.key })?.key {
                adopted = m
            } else {
                adopted = nextMoment; nextMoment += 1
            }
            for i in g where photos[i].epoch == nil { momentFinal[i] = adopted }
        }
        return assemble(photos, groups, momentFinal, sim)
    }

    /// Moment ids for trusted-time photos, numbered in time order; −1 for the
    /// others until they are adopted. Geotagged photos make the moments (time
    /// gap or distance from the moment's centre); a photo without GPS joins the
    /// moment of its nearest geotagged neighbour in time, so a burst whose first
    /// frame lacks GPS is not glued to the previous scene.
    func moments(_ photos: [ClusterInput]) -> [Int] {
        let gap = parameters["timeWindow"], radius = parameters["locationRadius"]
        var out = [Int](repeating: -1, count: photos.count)
        let timed = photos.indices.filter { photos[$0].epoch != nil }
            .sorted { (photos[$0].epoch!, photos[$0].path) < (photos[$1].epoch!, photos[$1].path) }
        let geo = timed.filter { photos[$0].latitude != nil && photos[$0].longitude != nil }
        var id = -1
        var lastTime = -Double.infinity
        var centre: (lat: Double, lon: Double, n: Double)?
        for i in geo {
            let p = photos[i], la = p.latitude!, lo = p.longitude!
            if p.epoch! - lastTime > gap || centre.map({ Geo.haversine($0.lat, $0.lon, la, lo) > radius }) == true {
                id += 1
                centre = nil
            }
            if let c = centre { centre = ((c.lat * c.n + la) / (c.n + 1), (c.lon * c.n + lo) / (c.n + 1), c.n + 1) } else { centre = (la, lo, 1) }
            out[i] = id
            lastTime = p.epoch!
        }
        // Photos without GPS: nearest geotagged neighbour in time, within the window.
        let geoTimes = geo.map { photos[$0].epoch! }
        var loneLast = -Double.infinity
        for i in timed where out[i] < 0 {
            let t = photos[i].epoch!
            var lo = 0, hi = geoTimes.count
            while lo < hi { let mid = (lo + hi) / 2; if geoTimes[mid] < t { lo = mid + 1 } else { hi = mid } }
            var best: (Double, Int)?
            for k in [lo - 1, lo] where k >= 0 && k < geoTimes.count {
                let d = abs(geoTimes[k] - t)
                if d <= gap, best == nil || d < best!.0 { best = (d, out[geo[k]]) }
            }
            if let b = best {
                out[i] = b.1
            } else {
                // No geotagged photo nearby: moments by time alone.
                if t - loneLast > gap { id += 1 }
                out[i] = id
                loneLast = t
            }
        }
        // Number moments by their first photo's time.
        var first: [Int: (Double, String)] = [:]
        for i in timed {
            let key = (photos[i].epoch!, photos[i].path)
            if let f = first[out[i]], f <= key { continue }
            first[out[i]] = key
        }
        let order = first.keys.sorted { first[$0]! < first[$1]! }
        let renumber = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return out.map { $0 < 0 ? -1 : renumber[$0]! }
    }

    /// Average-linkage agglomeration inside one component; O(m³) on small m, chunked for large m.
    ///
    /// Two clusters, one of two or more untimed photos and one holding trusted times, merge
    /// only when their mean cross cosine is within `untimedGap` of the lower of their own mean
    /// cosines: on the #9 trips an untimed scene of another crop or another photograph of the
    /// same look sat 0.08–0.21 under both (13 of 16 such merges, the cause of most scenes lost
    /// to coverage), and untimed frames of the timed scene itself 0.022 at most.
    ///
    /// Two clusters of two or more untimed photos each merge on the same terms with
    /// `untimedPairGap`: of 99 such merges on 87 trips, the halves of one untimed burst sat
    /// 0.098 under themselves at most, two scenes of one grey, foggy look 0.147.
    func averageLinkage(_ members: [Int], _ sim: Positioned, _ threshold: Float, _ momentOf: [Int], _ photos: [ClusterInput],
                        untimedGap: Float = 1, untimedPairGap: Float = 1) -> [[Int]] {
        if members.count <= 2 { return [members] }
        if members.count > 400 {
            // Pathological component: fall back to time-ordered chunks, each agglomerated.
            return stride(from: 0, to: members.count, by: 400).flatMap {
                averageLinkage(Array(members[$0..<min(members.count, $0 + 400)]), sim, threshold, momentOf, photos,
                               untimedGap: untimedGap, untimedPairGap: untimedPairGap)
            }
        }
        let m = members.count
        var s = sim.among(members)
        for (a, i) in members.enumerated() {
            for (b, j) in members.enumerated() where photos[i].epoch != nil && photos[j].epoch != nil && momentOf[i] != momentOf[j] {
                s[a * m + b] = -1
            }
        }
        var clusters = (0..<m).map { [$0] }
        var sums = s  // sum of pairwise similarities between cluster a and b
        var alive = [Bool](repeating: true, count: m)
        // Within each cluster: the sum of its pairwise similarities, and whether it is all untimed
        // (else it holds a trusted time).
        var inner = [Float](repeating: 0, count: m)
        var untimed = members.map { photos[$0].epoch == nil }
        // A cluster's mean cosine within itself; nil for a single photo.
        func own(_ a: Int) -> Float? {
            let n = clusters[a].count
            return n >= 2 ? inner[a] / Float(n * (n - 1) / 2) : nil
        }
        // An untimed set of two or more meets a timed cluster (`untimedGap`) or another untimed
        // set of two or more (`untimedPairGap`) only within the gap of the lower own mean cosine.
        func kept(_ a: Int, _ b: Int, _ avg: Float) -> Bool {
            guard untimed[a] || untimed[b] else { return true }
            let both = untimed[a] && untimed[b]
            let (u, t) = untimed[a] ? (a, b) : (b, a)
            let gap = both ? untimedPairGap : untimedGap
            guard gap < 1, let ownU = own(u), !both || own(t) != nil else { return true }
            return avg >= min(ownU, own(t) ?? ownU) - gap
        }
        while true {
            var best: Float = -.infinity, ba = -1, bb = -1
            for a in 0..<m where alive[a] {
                for b in (a + 1)..<m where alive[b] {
                    let avg = sums[a * m + b] / Float(clusters[a].count * clusters[b].count)
                    if avg > best && kept(a, b, avg) { best = avg; ba = a; bb = b }
                }
            }
            guard ba >= 0, best >= threshold else { break }
            for c in 0..<m where alive[c] && c != ba && c != bb {
                sums[ba * m + c] += sums[bb * m + c]
                sums[c * m + ba] = sums[ba * m + c]
            }
            inner[ba] += inner[bb] + sums[ba * m + bb]
            untimed[ba] = untimed[ba] && untimed[bb]
            clusters[ba] += clusters[bb]
            alive[bb] = false
        }
        return (0..<m).filter { alive[$0] }.map { clusters[$0].map { members[$0] } }
    }

    func cap(_ group: [Int], _ photos: [ClusterInput], _ limit: Int) -> [[Int]] {
        guard group.count > limit else { return [group] }
        let sorted = group.sorted { (photos[$0].epoch ?? .infinity, photos[$0].path) < (photos[$1].epoch ?? .infinity, photos[$1].path) }
        let parts = (group.count + limit - 1) / limit
        let size = (group.count + parts - 1) / parts
        return stride(from: 0, to: sorted.count, by: size).map { Array(sorted[$0..<min(sorted.count, $0 + size)]) }
    }

    func assemble(_ photos: [ClusterInput], _ groups: [[Int]], _ momentOf: [Int], _ sim: Positioned) -> Clustering {
        var clusterOf = [Int](repeating: -1, count: photos.count)
        var clusters: [PhotoCluster] = []
        for (gid, g) in groups.enumerated() {
            for i in g { clusterOf[i] = gid }
            var rep = g[0], repScore: Float = -.infinity
            if g.count > 2 {
                let s = sim.among(g)
                for (a, i) in g.enumerated() {
                    let total = (0..<g.count).reduce(Float(0)) { $0 + s[a * g.count + $1] }
                    if total > repScore { repScore = total; rep = i }
                }
            }
            let best = g.max { photos[$0].quality != photos[$1].quality ? photos[$0].quality < photos[$1].quality : photos[$0].path > photos[$1].path }!
            let times = g.compactMap { photos[$0].epoch }.sorted()
            let gps = g.compactMap { i in photos[i].latitude.flatMap { la in photos[i].longitude.map { (la, $0) } } }
            clusters.append(PhotoCluster(
                id: gid, photos: g, representative: rep, best: best, moment: momentOf[g[0]],
                medianTime: times.isEmpty ? nil : CaptureTime.iso(epoch: times[times.count / 2]),
                latitude: gps.isEmpty ? nil : gps.map(\.0).reduce(0, +) / Double(gps.count),
                longitude: gps.isEmpty ? nil : gps.map(\.1).reduce(0, +) / Double(gps.count)))
        }
        var byMoment: [Int: [Int]] = [:]
        for (i, m) in momentOf.enumerated() { byMoment[m, default: []].append(i) }
        let moments = byMoment.keys.sorted().map { m -> Moment in
            let members = byMoment[m]!.sorted()
            let times = members.compactMap { photos[$0].epoch }.sorted()
            let gps = members.compactMap { i in photos[i].latitude.flatMap { la in photos[i].longitude.map { (la, $0) } } }
            return Moment(id: m, photos: members, start: times.first.map(CaptureTime.iso(epoch:)), end: times.last.map(CaptureTime.iso(epoch:)),
                          latitude: gps.isEmpty ? nil : gps.map(\.0).reduce(0, +) / Double(gps.count),
                          longitude: gps.isEmpty ? nil : gps.map(\.1).reduce(0, +) / Double(gps.count))
        }
        return Clustering(moments: moments, clusters: clusters, momentOf: momentOf, clusterOf: clusterOf)
    }
}

/// Similarities among photos named by their input index, in a matrix stored in another order.
struct Positioned {
    let matrix: SimilarityMatrix
    let position: [Int]
    func among(_ photos: [Int]) -> [Float] { matrix.among(photos.map { position[$0] }) }
}

struct UnionFind {
    var parent: [Int]
    init(_ n: Int) { parent = Array(0..<n) }
    mutating func find(_ x: Int) -> Int {
        var r = x
        while parent[r] != r { r = parent[r] }
        var c = x
        while parent[c] != r { let nx = parent[c]; parent[c] = r; c = nx }
        return r
    }
    mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}
