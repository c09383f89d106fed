import Foundation

/// The run's result as other tools read it: `manifest.json`, schema
/// `photocurate.manifest/1` (see Export/manifest.schema.json).
///
/// Everything outside `run` depends only on the input files and parameters,
/// so two runs over the same photos give the same bytes there.
public struct Manifest: Codable, Sendable {
    public static let schemaId = "photocurate.manifest/1"
    public static let toolVersion = "0.1.0"

    public var schema: String
    public var tool: Tool
    /// The only run-specific part: when, how long, and what came from the cache.
    public var run: Run
    public var pipeline: String
    public var parameters: [String: [String: Double]]
    public var versions: [String: Int]
    public var summary: Summary
    public var picks: [Pick]
    public var photos: [Photo]
    public var clusters: [Cluster]
    public var moments: [MomentEntry]
    public var recommendations: RecommendationPaths
    /// People found across the trip (faces grouped by their descriptors), most photographed first.
    public var people: [PersonEntry] = []
    public var errors: [ErrorInfo]

    public struct Tool: Codable, Sendable { public var name: String; public var version: String }
    public struct Run: Codable, Sendable {
        public var startedAt: String
        public var finishedAt: String
        public var timings: [String: Double]
        public var computedPhotos: Int
        public var cachedPhotos: Int
        public var cancelled: Bool
    }
    public struct Summary: Codable, Sendable {
        public var root: String
        public var files: Int
        public var usable: Int
        public var errors: Int
        public var moments: Int
        public var clusters: Int
        public var picks: Int
        public var top: Int
        public var note: String?
    }
    public struct Pick: Codable, Sendable {
        public var rank: Int
        public var path: String
        public var score: Double
        public var reasons: [String]
        /// Degrees clockwise that show it upright; contact sheets and copies are turned.
        public var suggestedRotation: Int? = nil
    }
    public struct Photo: Codable, Sendable {
        public var path: String
        public var relativePath: String
        public var size: Int64
        public var contentHash: String?
        public var facts: PhotoFacts?
        public var quality: TechnicalQualityScore?
        public var score: PhotoScore?
        public var moment: Int?
        public var cluster: Int?
        public var selected: Bool
        public var rank: Int?
        public var reasons: [String]
        public var error: ErrorInfo?
        /// Results of optional analyzers (faces, …), by analyzer id; absent when none ran.
        public var analyses: [String: JSONValue]? = nil
        /// Degrees clockwise (90, 180, 270) that show the photo upright when it is stored on
        /// its side without an EXIF orientation (found by face analysis); absent otherwise.
        public var suggestedRotation: Int? = nil
        /// The people (`people[].id`) in it; absent when none was recognised.
        public var people: [String]? = nil
    }
    /// Someone seen across the trip: `recommendations.byPerson[id]` lists their photos.
    public struct PersonEntry: Codable, Sendable {
        public var id: String
        public var photos: [String]
        /// Their face in each of those photos: box (x, y, w, h, fractions of the upright frame).
        public var faces: [[Double]]
        /// The face that shows them best: its photo and box (x, y, w, h, fractions of the upright frame).
        public var representative: String
        public var box: [Double]
        /// Files in the output folder: the face crop and a contact sheet of their photos.
        public var crop: String
        public var contactSheet: String
        /// Degrees clockwise that show the representative photo upright, if it is stored on its side.
        public var rotation: Int?
    }
    public struct Cluster: Codable, Sendable {
        public var id: Int
        public var moment: Int
        public var photos: [String]
        public var representative: String
        public var best: String
        public var medianTime: String?
        public var latitude: Double?
        public var longitude: Double?
    }
    public struct MomentEntry: Codable, Sendable {
        public var id: Int
        public var photos: Int
        public var start: String?
        public var end: String?
        public var latitude: Double?
        public var longitude: Double?
    }
    public struct RecommendationPaths: Codable, Sendable {
        public var overall: [String]
        public var diverse: [String]
        public var byTime: [String: [String]]
        public var byLocation: [String: [String]]
        public var byPerson: [String: [String]]
    }

    /// Builds the manifest of a finished run.
    public init(_ r: CurationRunner.Result, startedAt: Date, finishedAt: Date) {
        let usablePaths = r.usable.map { r.records[$0].file.path }
        let sel = r.selection
        let top = r.pipeline.parameters(SelectStage.id).int("top")
        var rankOf: [Int: Int] = [:]
        for (k, i) in sel.picks.enumerated() { rankOf[i] = k + 1 }
        let usableIndex = Dictionary(uniqueKeysWithValues: r.usable.enumerated().map { ($1, $0) })
        let rootPrefix = r.root.hasSuffix("/") ? r.root : r.root + "/"

        // Face results are stored as JSON bytes: decoded once per record here.
        let faceResults = r.records.map(\.faceResult)
        schema = Self.schemaId
        tool = Tool(name: "photocurate", version: Self.toolVersion)
        run = Run(startedAt: ISO8601DateFormatter().string(from: startedAt), finishedAt: ISO8601DateFormatter().string(from: finishedAt),
                  timings: r.timings.mapValues { ($0 * 1000).rounded() / 1000 }, computedPhotos: r.computedPhotos,
                  cachedPhotos: r.cachedPhotos, cancelled: r.cancelled)
        pipeline = r.pipeline.name
        parameters = r.pipeline.stages.mapValues { $0.dictionary }
        versions = Dictionary(uniqueKeysWithValues: StageCatalog.entries.map { ($0.id, $0.version) })
        let note: String? = r.records.isEmpty
            ? "no photos found (searched for: \(FolderScanner.extensions.sorted().joined(separator: ", ")))"
            : r.usable.count < 5
            ? "only \(r.usable.count) usable photo\(r.usable.count == 1 ? "" : "s"): too few to curate; every usable photo is listed"
            : (sel.picks.count < top && r.usable.count >= top ? "\(sel.picks.count) distinct photos found; the rest would repeat a pick" : nil)
        // Files the scan met but could not list as photos count as files too (and as skipped).
        let scanOnly = r.problems.count - r.records.filter { $0.error != nil }.count
        summary = Summary(root: r.root, files: r.records.count + max(0, scanOnly), usable: r.usable.count, errors: r.problems.count,
                          moments: r.clustering.moments.count, clusters: r.clustering.clusters.count, picks: sel.picks.count, top: top, note: note)
        picks = sel.picks.enumerated().map { k, i in
            Pick(rank: k + 1, path: usablePaths[i], score: sel.scores[i].overall, reasons: sel.reasons[i],
                 suggestedRotation: faceResults[r.usable[i]]?.suggestedRotation)
        }
        var peopleOf: [Int: [String]] = [:]
        for p in sel.people { for i in p.photos { peopleOf[i, default: []].append(p.id) } }
        people = sel.people.map { p in
            let boxes = p.faces.map { f in faceResults[r.usable[f.photo]]?.faces[f.face].box ?? [0, 0, 1, 1] }
            return PersonEntry(id: p.id, photos: p.photos.map { usablePaths[$0] }, faces: boxes, representative: usablePaths[p.representative.photo],
                               box: faceResults[r.usable[p.representative.photo]]?.faces[p.representative.face].box ?? [0, 0, 1, 1],
                               crop: "people/\(p.id).jpg", contactSheet: "people/\(p.id)-sheet.jpg", rotation: faceResults[r.usable[p.representative.photo]]?.suggestedRotation)
        }
        photos = r.records.enumerated().map { idx, rec in
            let u = usableIndex[idx]
            return Photo(path: rec.file.path,
                         relativePath: rec.file.path.hasPrefix(rootPrefix) ? String(rec.file.path.dropFirst(rootPrefix.count)) : (rec.file.path as NSString).lastPathComponent,
                         size: rec.file.size, contentHash: rec.contentHash, facts: rec.facts, quality: rec.quality,
                         score: u.map { sel.scores[$0] }, moment: u.map { r.clustering.momentOf[$0] }, cluster: u.map { r.clustering.clusterOf[$0] },
                         selected: u.map { rankOf[$0] != nil } ?? false, rank: u.flatMap { rankOf[$0] },
                         reasons: u.map { sel.reasons[$0] } ?? [], error: rec.error,
                         analyses: rec.results.isEmpty ? nil : rec.results.compactMapValues { try? JSONDecoder().decode(JSONValue.self, from: $0) },
                         suggestedRotation: faceResults[idx]?.suggestedRotation,
                         people: u.flatMap { i in peopleOf[i] })
        }
        clusters = zip(r.clustering.clusters, sel.bestOfGroup).map { c, best in
            Cluster(id: c.id, moment: c.moment, photos: c.photos.map { usablePaths[$0] }, representative: usablePaths[c.representative],
                    best: usablePaths[best], medianTime: c.medianTime, latitude: c.latitude, longitude: c.longitude)
        }
        // Start and end as the camera's local times with their offsets, the convention of every other time
        // here (clustering works on instants and would give them in UTC).
        moments = r.clustering.moments.map { mo in
            let timed = mo.photos.compactMap { i -> (Double, String)? in
                guard let f = r.records[r.usable[i]].facts, f.timeTrusted, let e = f.captureEpoch, let t = f.captureTime else { return nil }
                return (e, t)
            }
            let first = timed.min { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }?.1, last = timed.max { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }?.1
            return MomentEntry(id: mo.id, photos: mo.photos.count, start: first ?? mo.start, end: last ?? mo.end, latitude: mo.latitude, longitude: mo.longitude)
        }
        let rec = sel.recommendations
        func paths(_ l: [Int]) -> [String] { l.map { usablePaths[$0] } }
        recommendations = RecommendationPaths(overall: paths(rec.overall), diverse: paths(rec.diverse), byTime: rec.byTime.mapValues(paths),
                                              byLocation: rec.byLocation.mapValues(paths), byPerson: rec.byPerson.mapValues(paths))
        errors = r.problems
    }

    /// Pretty, key-sorted JSON: stable bytes for the same content.
    public func json() throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(self)
    }

    /// Writes `json()`'s exact bytes to `path`, atomically, one photo at a time.
    ///
    /// ```swift
    /// try manifest.write(to: "/out/manifest.json")
    /// ```
    /// At 10,000 photos the whole document is ~24 MB of JSON, and encoding it
    /// in one piece was the run's peak memory; here only the skeleton and one
    /// photo's record exist at a time. A test holds the bytes equal to `json()`.
    public func write(to path: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var skeleton = self
        skeleton.photos = []
        let text = try enc.encode(skeleton)
        // The top-level key is the only one at two spaces' indent; nested
        // "photos" keys (clusters, moments) sit deeper.
        let marker = Data("\n  \"photos\" : [".utf8)
        guard let hit = text.range(of: marker) else { throw PhotoError.io(path: path, reason: "the manifest's photo list could not be placed (encoder output changed)") }
        let rest = text[hit.upperBound...]
        guard let close = rest.range(of: Data("]".utf8)) else { throw PhotoError.io(path: path, reason: "the manifest's photo list could not be placed (encoder output changed)") }
        try AtomicFile.write(to: path) { emit in
            do {
                try emit(Data(text[..<hit.upperBound]))
                if photos.isEmpty {
                    try emit(Data(text[hit.upperBound..<close.upperBound]))
                } else {
                    for (i, p) in photos.enumerated() {
                        let one = try enc.encode(p)
                        var out = Data((i == 0 ? "\n" : ",\n").utf8)
                        out.reserveCapacity(one.count + one.count / 8)
                        // Pretty output escapes newlines inside strings, so every raw
                        // newline starts a line that needs the array's indent; the
                        // encoder leaves the blank line of an empty array unindented.
                        var lineStart = true
                        for b in one {
                            if lineStart && b != UInt8(ascii: "\n") { out.append(contentsOf: Array("    ".utf8)) }
                            out.append(b)
                            lineStart = b == UInt8(ascii: "\n")
                        }
                        try emit(out)
                    }
                    try emit(Data("\n  ]".utf8))
                }
                try emit(Data(text[close.upperBound...]))
            }
        }
    }

    public static func read(_ path: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
