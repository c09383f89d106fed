import Foundation
import PhotoCurate
import PhotoCurateArt

/// Scores art search on a catalog made by `ArtCatalogGenerator`, against what each artwork was made to be.
///
/// ```swift
/// let report = try ArtEvaluation(folder: "/tmp/art").run(library: library)
/// report.groups["colour"]     // mean precision@10 of the colour queries
/// ```
/// Queries are by colour, brightness, orientation and price (the four
/// kinds), plus mixed sentences reported apart. A result is right when the
/// artwork's truth meets every wish of the query. Rooms: a top-10 artwork
/// harmonises when its truth colours meet the colour rule (`ArtMatcher.harmony`)
/// against the wall colour the room was painted with. Reasons are checked against
/// the truth: a colour reason's family must be one the artwork was painted with
/// in that amount (± 10 points), a brightness reason's lightness within 4 of the
/// truth, and orientation, size and price reasons must agree with the record.
public struct ArtEvaluation {
    public let folder: String
    public init(folder: String) { self.folder = folder }

    /// `precision`: right / 10; `relevant`: artworks in the catalog that meet the query (when under 10, precision cannot reach 1; `precisionOfPossible` is right / min(10, relevant)).
    public struct QueryResult: Codable { public var query: String; public var group: String; public var precision: Double; public var relevant: Int; public var precisionOfPossible: Double; public var returned: Int; public var wrong: [String] }
    public struct RoomResult: Codable { public var room: String; public var wall: String; public var measuredWall: String; public var harmonising: Int; public var returned: Int }
    public struct Report: Codable {
        public var queries: [QueryResult] = []
        public var groups: [String: Double] = [:]
        public var rooms: [RoomResult] = []
        public var roomsMeeting8of10 = 0
        public var reasonsChecked = 0
        public var falseReasons: [String] = []
        /// Photographs (real crops) the analysis called abstract, and paintings it called representational, of each.
        public var photosCalledAbstract = 0, photos = 0, paintingsCalledRepresentational = 0, paintings = 0
    }

    typealias Truth = ArtCatalogGenerator.Truth

    static let queries: [(String, String, (Truth) -> Bool)] = {
        var q: [(String, String, (Truth) -> Bool)] = []
        for fam in ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"] {
            q.append(("\(fam) artwork", "colour", { $0.families.contains(fam) }))
        }
        q.append(("a painting that is mostly blue", "colour", { $0.families.contains("blue") }))
        q.append(("bright artwork", "brightness", { $0.meanL >= 60 }))
        q.append(("light and airy painting", "brightness", { $0.meanL >= 60 }))
        q.append(("dark moody piece", "brightness", { $0.meanL <= 40 }))
        q.append(("abstract artwork", "style", { $0.abstract }))
        q.append(("a realistic photographic print", "style", { !$0.abstract }))
        q.append(("landscape format", "orientation", { $0.orientation == "landscape" }))
        q.append(("vertical artwork", "orientation", { $0.orientation == "portrait" }))
        q.append(("square canvas", "orientation", { $0.orientation == "square" }))
        q.append(("under 300", "price", { $0.price <= 300 }))
        q.append(("artwork between 500 and 1000 euros", "price", { $0.price >= 500 && $0.price <= 1000 }))
        q.append(("something over €2,000", "price", { $0.price >= 2000 }))
        q.append(("large abstract blue artwork for a bright office", "mixed", { $0.families.contains("blue") && $0.abstract && ["large", "oversized"].contains($0.sizeClass) }))
        q.append(("large bright yellow painting", "mixed", { $0.families.contains("yellow") && $0.meanL >= 60 && ["large", "oversized"].contains($0.sizeClass) }))
        q.append(("small green painting under 500", "mixed", { $0.families.contains("green") && $0.sizeClass == "small" && $0.price <= 500 }))
        q.append(("red horizontal print", "mixed", { $0.families.contains("red") && $0.orientation == "landscape" }))
        return q
    }()

    public func run(library: ArtLibrary) throws -> Report {
        let truthData = try Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))
        let truth = try JSONDecoder().decode(ArtCatalogGenerator.TruthFile.self, from: truthData)
        let items = library.entries
        let matcher = ArtMatcher(), parser = QueryParser()
        var report = Report()
        var byGroup: [String: [Double]] = [:]
        for (q, group, ok) in Self.queries {
            var o = SearchOptions(); o.limit = 10
            let res = matcher.search(parser.parse(q), entries: items, options: o)
            let wrong = res.results.filter { !(truth.artworks[$0.artworkId].map(ok) ?? false) }.map(\.artworkId)
            let p = res.results.isEmpty ? 0 : Double(res.results.count - wrong.count) / 10
            let relevant = truth.artworks.values.filter(ok).count
            let right = Double(res.results.count - wrong.count)
            report.queries.append(QueryResult(query: q, group: group, precision: p, relevant: relevant,
                                              precisionOfPossible: relevant == 0 ? 1 : right / Double(min(10, relevant)), returned: res.results.count, wrong: wrong))
            byGroup[group, default: []].append(p)
            for r in res.results { check(r, truth.artworks[r.artworkId], &report) }
        }
        for e in items {
            guard let tr = truth.artworks[e.artwork.objectID] else { continue }
            let abstract = e.analysis.styleAndGenre.genre == "abstract"
            if tr.abstract { report.paintings += 1; if !abstract { report.paintingsCalledRepresentational += 1 } }
            else { report.photos += 1; if abstract { report.photosCalledAbstract += 1 } }
        }
        for (g, ps) in byGroup { report.groups[g] = (ps.reduce(0, +) / Double(ps.count) * 1000).rounded() / 1000 }
        let roomAnalyzer = RoomAnalyzer()
        let palette = NamedPalette.standard
        for room in truth.rooms {
            let analysis = try roomAnalyzer.analyze(path: folder + "/rooms/" + room.file)
            var o = SearchOptions(); o.limit = 10
            let res = matcher.search(roomAnalyzer.criteria(for: analysis), entries: items, options: o)
            // The rule applied to the truth: the wall as painted, the artwork's painted colours.
            var known = analysis
            known.wallLab = Lab(hex: room.wallHex)!
            known.wallNeutral = known.wallLab.chroma < 12
            known.wallColour = room.wallColour
            let good = res.results.filter { r in
                guard let an = r.analysis else { return false }
                return matcher.harmony(wall: known, analysis: an).0 >= 0.5
            }.count
            _ = palette
            report.rooms.append(RoomResult(room: room.file, wall: room.wallColour, measuredWall: analysis.wallColour, harmonising: good, returned: res.results.count))
            if good >= 8 { report.roomsMeeting8of10 += 1 }
            for r in res.results { check(r, truth.artworks[r.artworkId], &report) }
        }
        return report
    }

    func check(_ r: MatchResult, _ t: Truth?, _ report: inout Report) {
        guard let t else { return }
        let palette = NamedPalette.standard
        for reason in r.reasons {
            report.reasonsChecked += 1
            var ok = true
            if reason.hasPrefix("dominant colour ") || reason.hasPrefix("has ") {
                // "dominant colour cobalt blue (38 %)": the family must be one painted in about that amount.
                let name = reason.replacingOccurrences(of: "dominant colour ", with: "").replacingOccurrences(of: "has ", with: "")
                    .components(separatedBy: " (").first ?? ""
                if let fam = palette.colour(named: name)?.family, let painted = t.familyShares {
                    // The stated share of one named colour cannot exceed what was painted in its family (+ 10 points for grain and edges).
                    let stated = Double(reason.components(separatedBy: "(").last?.components(separatedBy: " %").first ?? "") ?? 100
                    ok = stated / 100 <= (painted[fam] ?? 0) + 0.10 && (painted[fam] ?? 0) > 0
                }
            } else if reason.hasPrefix("bright: mean lightness ") || reason.hasPrefix("dark: mean lightness ") {
                let v = Double(reason.components(separatedBy: "lightness ").last!.components(separatedBy: "/").first!) ?? -100
                ok = abs(v - t.meanL) <= 4
            } else if ["landscape (", "portrait (", "square ("].contains(where: { reason.hasPrefix($0) }) {
                ok = reason.hasPrefix(t.orientation + " (")
            } else if ["small (", "medium (", "large (", "oversized ("].contains(where: { reason.hasPrefix($0) }) {
                ok = reason.hasPrefix(t.sizeClass + " (")
            } else if reason.hasPrefix("price ") {
                let v = Double(reason.dropFirst(6).components(separatedBy: " ").first ?? "") ?? -1
                ok = abs(v - t.price) < 0.01
            } else if reason.hasPrefix("abstract:") { ok = t.abstract }
            else if reason.hasPrefix("representational:") { ok = !t.abstract }
            if !ok { report.falseReasons.append("\(r.artworkId): \(reason)") }
        }
    }
}
