import Foundation
import XCTest
@testable import PhotoCurate
@testable import PhotoCurateArt
import PhotoCurateBench

final class ArtTests: XCTestCase {
    func testDeltaE2000MatchesSharmasReferencePairs() {
        // Sharma, Wu & Dalal (2005), table 1, pairs 1 and 7.
        XCTAssertEqual(Lab(l: 50, a: 2.6772, b: -79.7751).deltaE2000(Lab(l: 50, a: 0, b: -82.7485)), 2.0425, accuracy: 1e-3)
        XCTAssertEqual(Lab(l: 50, a: 0, b: 0).deltaE2000(Lab(l: 50, a: -1, b: 2)), 2.3669, accuracy: 1e-3)
        XCTAssertEqual(NamedPalette.standard.nearest(Lab(r: 30, g: 80, b: 190)).name, "cobalt blue")
    }

    func testParserReadsTheProductsExampleSentence() {
        let c = QueryParser().parse("Large abstract blue artwork for a bright office under 500")
        XCTAssertEqual(c.colours.map(\.family), ["blue"])
        XCTAssertEqual(c.sizes, ["large", "oversized"])
        XCTAssertEqual(c.styles, ["abstract"])
        XCTAssertEqual(c.room, "office")
        XCTAssertNil(c.brightness, "a bright office is the room's light, not the artwork's")
        XCTAssertEqual(c.priceMax, 500)
        XCTAssertTrue(c.unrecognised.isEmpty, "\(c.unrecognised)")
    }

    func testParserPricesShadesAndNegation() {
        let p = QueryParser()
        var c = p.parse("calm light blue landscape print, not red, between 200 and 1,200 €")
        XCTAssertEqual(c.priceMin, 200); XCTAssertEqual(c.priceMax, 1200)
        XCTAssertEqual(c.colours.first?.names, ["sky blue"])
        XCTAssertEqual(c.excludedColours.map(\.family), ["red"])
        XCTAssertEqual(c.orientation, "landscape"); XCTAssertEqual(c.moods, ["calm"])
        c = p.parse("something over $2k for the bedroom")
        XCTAssertEqual(c.priceMin, 2000); XCTAssertEqual(c.room, "bedroom")
        c = p.parse("300-800 eur dark moody piece")
        XCTAssertEqual(c.priceMin, 300); XCTAssertEqual(c.priceMax, 800); XCTAssertEqual(c.brightness, "dark")
        c = p.parse("qwzx flibber")
        XCTAssertTrue(c.isEmpty); XCTAssertEqual(c.unrecognised, ["qwzx", "flibber"])
    }

    /// A hard-edge canvas: cobalt blue left, white right, a black bar.
    func hardEdge(w: Int = 200, h: Int = 120) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in 0..<w {
            let i = 3 * (y * w + x)
            let c: (UInt8, UInt8, UInt8) = x < 120 ? (31, 79, 191) : (x < 126 ? (20, 20, 20) : (247, 247, 245))
            px[i] = c.0; px[i + 1] = c.1; px[i + 2] = c.2
        } }
        return px
    }

    func testAnalyzerNamesWhatIsPainted() throws {
        let a = try ArtAnalyzer().analyze(rgb: hardEdge(), width: 200, height: 120, artwork: nil)
        XCTAssertEqual(a.basicVisualProperties.dominantColors.first, "cobalt blue")
        XCTAssertTrue(a.basicVisualProperties.dominantColors.contains("white"))
        XCTAssertEqual(a.measured.colours.first?.share ?? 0, 0.6, accuracy: 0.02)
        XCTAssertEqual(a.basicVisualProperties.colorTemperature, "cool")
        XCTAssertEqual(a.styleAndGenre.genre, "abstract")
        XCTAssertTrue(a.styleAndGenre.styles.contains("geometric"), "\(a.styleAndGenre.styles) \(a.measured)")
        XCTAssertEqual(a.measured.orientation, "landscape")
        XCTAssertEqual(a.subjectMatter.primarySubject, "unknown", "no image model: the subject is not guessed")
        XCTAssertFalse((a.evidence["style"] ?? []).isEmpty)
    }

    func testCatalogKeepsGoodRecordsAndNamesBadOnes() throws {
        let json = """
        [{"objectID": "a1", "title": "One", "studioName": "S", "price": 100, "currency": "EUR", "imageUrls": ["a1.jpg"], "status": "sold", "artistUrl": "x"},
         {"objectID": "a2", "title": "Two", "studioName": "S", "imageUrls": ["a2.jpg"]},
         {"objectID": "a1", "title": "Dup", "studioName": "S", "price": 1, "imageUrls": ["d.jpg"]},
         {"objectID": "a3", "title": "Three", "studioName": "S", "price": "cheap", "imageUrls": ["a3.jpg"]},
         {"objectID": "a4", "title": "Four", "studioName": "S", "price": 5, "imageUrls": ["https://example.com/a4.jpg"]},
         42]
        """
        let c = try ArtCatalog.parse(Data(json.utf8), file: "/cat/artworks.json")
        XCTAssertEqual(c.artworks.map(\.objectID), ["a1", "a4"])
        XCTAssertTrue(c.problems.contains { $0.contains("record 2 (a2)") && $0.contains("price is missing") }, "\(c.problems)")
        XCTAssertTrue(c.problems.contains { $0.contains("record 4 (a3)") && $0.contains("price is not a number") })
        XCTAssertTrue(c.problems.contains { $0.contains("a1") && $0.contains("second record") })
        XCTAssertTrue(c.problems.contains { $0.contains("record 6") })
        XCTAssertEqual(try c.imagePath(of: c.artworks[0]), "/cat/a1.jpg")
        XCTAssertThrowsError(try c.imagePath(of: c.artworks[1]))
        // Unknown fields survive a round trip.
        let out = String(decoding: try JSONEncoder().encode(c.artworks[0]), as: UTF8.self)
        XCTAssertTrue(out.contains("artistUrl") && out.contains("sold"), out)
        XCTAssertThrowsError(try ArtCatalog.parse(Data("{\"x\": 1}".utf8), file: "bad.json"))
        XCTAssertThrowsError(try ArtCatalog.parse(Data("[{".utf8), file: "bad.json"))
    }

    /// A small generated catalog, analysed without a cache.
    func library() throws -> (ArtLibrary, ArtCatalogGenerator.TruthFile, String) {
        let dir = NSTemporaryDirectory() + "art-test-\(UUID().uuidString)"
        var g = ArtCatalogGenerator(out: dir, sources: nil, count: 40, seed: 11)
        g.rooms = 2
        try g.generate()
        let lib = try ArtLibrary(catalog: ArtCatalog.load(dir), cache: nil)
        let report = lib.analyseMissing(workers: 2)
        XCTAssertEqual(report.analysed, 40); XCTAssertTrue(report.problems.isEmpty, "\(report.problems)")
        let truth = try JSONDecoder().decode(ArtCatalogGenerator.TruthFile.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/truth.json")))
        return (lib, truth, dir)
    }

    func testSearchRanksFiltersSortsAndExplains() throws {
        let (lib, truth, dir) = try library()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let m = ArtMatcher(), p = QueryParser()
        var o = SearchOptions(); o.limit = 3
        // Colour: the top 3 were painted with that family on ≥ 25 % of the canvas.
        for fam in ["blue", "green", "red"] where truth.artworks.values.filter({ $0.families.contains(fam) }).count >= 3 {
            let r = m.search(p.parse("\(fam) artwork"), in: lib.analysed, options: o)
            for x in r.results { XCTAssertTrue(truth.artworks[x.artworkId]!.families.contains(fam), "\(fam): \(x.artworkId) \(x.reasons)") }
            XCTAssertTrue(r.results[0].reasons.contains { $0.hasPrefix("dominant colour") })
        }
        // A price phrase is a hard limit.
        let cheap = m.search(p.parse("under 300"), in: lib.analysed, options: SearchOptions())
        XCTAssertTrue(cheap.results.allSatisfy { $0.artwork.price <= 300 })
        XCTAssertEqual(cheap.total, truth.artworks.values.filter { $0.price <= 300 }.count)
        // Sorts and filters.
        var so = SearchOptions(); so.sort = .priceAscending; so.limit = 200
        let asc = m.search(p.parse("abstract"), in: lib.analysed, options: so).results.map(\.artwork.price)
        XCTAssertEqual(asc, asc.sorted())
        so.sort = .random; so.seed = 7
        let r1 = m.search(p.parse("abstract"), in: lib.analysed, options: so).results.map(\.artworkId)
        let r2 = m.search(p.parse("abstract"), in: lib.analysed, options: so).results.map(\.artworkId)
        XCTAssertEqual(r1, r2, "the same seed gives the same order")
        so.seed = 8
        XCTAssertNotEqual(r1, m.search(p.parse("abstract"), in: lib.analysed, options: so).results.map(\.artworkId))
        var fo = SearchOptions(); fo.artist = lib.catalog.artworks[0].studioName.lowercased(); fo.limit = 200
        XCTAssertTrue(m.search(p.parse("art"), in: lib.analysed, options: fo).results.allSatisfy { $0.artwork.studioName == lib.catalog.artworks[0].studioName })
        // The server's fast encoder gives JSONEncoder's bytes, twice (the second from its cache).
        let resp = m.search(p.parse("large blue abstract under 5000 qwzx"), in: lib.analysed)
        let plain = ResponseEncoder.encoder()
        let fast = ResponseEncoder()
        XCTAssertEqual(try fast.encode(resp), try plain.encode(resp))
        XCTAssertEqual(try fast.encode(resp), try plain.encode(resp))
        var odd = resp
        if !odd.results.isEmpty {
            odd.results[0].reasons = ["quote \" backslash \\ tab \t newline \n bell \u{7} slash / 12° × ΔE −"]
            odd.results[0].score = 66.7
            XCTAssertEqual(try ResponseEncoder().encode(odd), try plain.encode(odd))
        }
        // Nothing recognised: said so, no invented reasons.
        let none = m.search(p.parse("zzz"), in: lib.analysed)
        XCTAssertNotNil(none.message)
        XCTAssertTrue(none.results.allSatisfy { $0.reasons.isEmpty })
    }

    func testRoomPhotoWallAndHarmony() throws {
        let (lib, truth, dir) = try library()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for room in truth.rooms {
            let r = try RoomAnalyzer().analyze(path: dir + "/rooms/" + room.file)
            XCTAssertEqual(r.wallColour, room.wallColour)
            let res = ArtMatcher().search(RoomAnalyzer().criteria(for: r), in: lib.analysed, options: { var o = SearchOptions(); o.limit = 5; return o }())
            let good = res.results.filter { ArtMatcher().harmony(wall: r, analysis: $0.analysis!).0 >= 0.5 }.count
            XCTAssertGreaterThanOrEqual(good, 4, "\(room.wallColour): \(res.results.map(\.reasons))")
        }
    }

    func testVisualizerPlacesRotatesAndRefusesBadPlacements() throws {
        let room = [UInt8](repeating: 200, count: 100 * 80 * 3)
        let art = hardEdge(w: 40, h: 20)
        var p = RoomVisualizer.Placement(x: 0.5, y: 0.5, scale: 0.4, rotation: 1, opacity: 1)
        let jpeg = try RoomVisualizer().composite(room: (room, 100, 80), artwork: (art, 40, 20), placement: p)
        let path = NSTemporaryDirectory() + "viz-\(UUID().uuidString).jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: path)); defer { try? FileManager.default.removeItem(atPath: path) }
        let img = try Decoder(longEdge: 100).decode(path)
        XCTAssertEqual(img.width, 100); XCTAssertEqual(img.height, 80)
        // Turned a quarter, 40 px wide → 80 px tall: the centre column is painted, the room's corner is not.
        let centre = 3 * (40 * 100 + 50)
        XCTAssertLessThan(Int(img.rgb[centre]) + Int(img.rgb[centre + 1]) + Int(img.rgb[centre + 2]), 500)
        XCTAssertGreaterThan(Int(img.rgb[0]), 180)
        p.scale = 3
        XCTAssertNotNil(p.problem)
        p.scale = 0.3; p.rotation = 5
        XCTAssertNotNil(p.problem)
    }

    /// Found by schemathesis: a 48 px room photo crashed the compositor (an empty pixel range).
    func testTinyAndEdgeInputsDoNotCrash() throws {
        for (w, h) in [(1, 1), (2, 2), (3, 3), (48, 36)] {
            let room = [UInt8](repeating: 120, count: w * h * 3)
            for (x, y, scale) in [(0.0, 0.0, 0.02), (1.0, 1.0, 1.0), (0.5, 0.5, 0.5)] {
                let p = RoomVisualizer.Placement(x: x, y: y, scale: scale, rotation: 3, opacity: 0.5, grid: true)
                XCTAssertFalse(try RoomVisualizer().composite(room: (room, w, h), artwork: (hardEdge(w: 5, h: 3), 5, 3), placement: p).isEmpty)
            }
            let r = RoomAnalyzer().analyze(rgb: room, width: w, height: h)
            XCTAssertFalse(r.wallColour.isEmpty)
            _ = try ArtAnalyzer().analyze(rgb: room, width: w, height: h, artwork: nil)
        }
    }

    func testAnalysesAreCachedPerImageAndParameters() throws {
        let dir = NSTemporaryDirectory() + "art-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var g = ArtCatalogGenerator(out: dir, sources: nil, count: 6, seed: 2)
        g.rooms = 0
        try g.generate()
        let cache = try CacheStore(path: dir + "/art.sqlite")
        let first = try ArtLibrary(catalog: ArtCatalog.load(dir), cache: cache).analyseMissing(workers: 1)
        XCTAssertEqual(first.analysed, 6)
        let again = try ArtLibrary(catalog: ArtCatalog.load(dir), cache: cache)
        let second = again.analyseMissing(workers: 1)
        XCTAssertEqual(second.analysed, 0); XCTAssertEqual(second.reused, 6)
        var p = try Parameters(ArtAnalyzer.parameterSpecs)
        try p.set("longEdge", 128)
        let third = try ArtLibrary(catalog: ArtCatalog.load(dir), analyzer: ArtAnalyzer(parameters: p), cache: cache).analyseMissing(workers: 1)
        XCTAssertEqual(third.analysed, 6, "other parameters, another analysis")
        // An edited image is analysed again.
        let img = dir + "/images/aw-001.jpg"
        let px = [UInt8](repeating: 90, count: 64 * 48 * 3)
        try Data(try VImage.from(pixels: px, width: 64, height: 48, bands: 3).jpeg(quality: 90)).write(to: URL(fileURLWithPath: img))
        let fourth = try ArtLibrary(catalog: ArtCatalog.load(dir), cache: cache).analyseMissing(workers: 1)
        XCTAssertEqual(fourth.analysed, 1); XCTAssertEqual(fourth.reused, 5)
    }
}
