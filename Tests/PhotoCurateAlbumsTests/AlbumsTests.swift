import Foundation
import PhotoCurate
@testable import PhotoCurateAlbums
import PhotoCurateBench
import PhotoCurateTestSupport
import XCTest

/// A small labelled set made by the project's own generator, once per test process.
final class SmallCoverSet: @unchecked Sendable {
    static let shared = SmallCoverSet()
    private let lock = NSLock()
    private var folder: String?

    func make() throws -> String {
        lock.lock(); defer { lock.unlock() }
        if let folder { return folder }
        let dir = try FixtureFactory.temporaryDirectory("albums")
        var g = CoverGenerator(seed: 3)
        g.coverSize = 320; g.photoWidth = 960; g.photoHeight = 720
        try g.write(to: dir, catalog: 16, photos: 8, unknown: 4)
        folder = dir
        atexit { SmallCoverSet.shared.folder.map { _ = try? FileManager.default.removeItem(atPath: $0) } }
        return dir
    }
}

final class AlbumsTests: XCTestCase {
    func scratch(_ name: String) throws -> String {
        let dir = try FixtureFactory.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testIdentifiesCatalogCoversAndNeverNamesAnUnknownOne() throws {
        let set = try SmallCoverSet.shared.make()
        let cache = try CacheStore(path: try scratch("albums-cache") + "/albums.sqlite")
        let index = try AlbumIndex.build(try AlbumCatalog.load(set + "/catalog"), cache: cache)
        XCTAssertEqual(index.albums.count, 16)
        XCTAssertEqual(index.problems, [])
        let identifier = try AlbumIdentifier(index: index)
        let labels = try JSONDecoder().decode([AlbumEvaluation.Label].self, from: Data(contentsOf: URL(fileURLWithPath: set + "/labels.json")))
        let report = AlbumEvaluation.run(labels: labels, folder: set + "/photos", identifier: identifier)
        XCTAssertEqual(report.known.count, 8)
        XCTAssertGreaterThanOrEqual(report.known.filter(\.correct).count, 7, report.render(indexSeconds: 0, covers: 16))
        XCTAssertEqual(report.wrongAlbum, 0, "a catalog cover must never be named as another album")
        XCTAssertEqual(report.unknown.filter { $0.answer != nil }.count, 0, "a cover not in the catalog must give no match")
        // Where the cover lies: four corners inside the photo's frame (give or take the tilt).
        let first = try XCTUnwrap(labels.first { $0.album != nil })
        let r = try identifier.identify(set + "/photos/" + first.file, guide: first.guide)
        if let m = r.match {
            XCTAssertEqual(m.corners.count, 4)
            XCTAssertGreaterThan(m.confidence, 0.3)
        }
        // The second build reads every cover from the cache.
        let again = try AlbumIndex.build(try AlbumCatalog.load(set + "/catalog"), cache: cache)
        XCTAssertEqual(again.reused, 16)
        XCTAssertEqual(again.computed, 0)
        for i in index.albums.indices { XCTAssertEqual(try again.coverFeatures(i), try index.coverFeatures(i)) }
        // A large catalog keeps no features in memory and reads the shortlisted ones from the
        // cache: the same words, the same answers.
        let fromCache = try AlbumIndex.build(try AlbumCatalog.load(set + "/catalog"), cache: cache, memoryCovers: 4)
        XCTAssertEqual(fromCache.postings, index.postings)
        let viaCache = try AlbumIdentifier(index: fromCache)
        for l in labels.prefix(6) {
            let a = try identifier.identify(set + "/photos/" + l.file, guide: l.guide), b = try viaCache.identify(set + "/photos/" + l.file, guide: l.guide)
            XCTAssertEqual(a.match?.album.id, b.match?.album.id, l.file)
            XCTAssertEqual(a.candidates.map(\.inliers), b.candidates.map(\.inliers), l.file)
        }
    }

    func testUnreadablePhotoIsNamed() throws {
        let set = try SmallCoverSet.shared.make()
        let identifier = try AlbumIdentifier(index: try AlbumIndex.build(try AlbumCatalog.load(set + "/catalog"), cache: nil))
        let bad = try scratch("albums-bad") + "/not-a-photo.jpg"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: bad))
        XCTAssertThrowsError(try identifier.identify(bad)) { XCTAssertTrue("\($0)".contains("not-a-photo.jpg"), "\($0)") }
    }

    func testCatalogEntriesAreCheckedFieldByField() throws {
        let dir = try scratch("albums-catalog")
        try FileManager.default.createDirectory(atPath: dir + "/covers", withIntermediateDirectories: true)
        try Data([0xFF, 0xD8]).write(to: URL(fileURLWithPath: dir + "/covers/a.jpg"))
        func entry(_ changes: [String: Any]) -> [String: Any] {
            var e: [String: Any] = ["album_title": "A", "artist_name": "B", "release_year": 1970, "genres": ["Jazz"], "record_label": "L",
                                    "context_summary": "S.", "context_bullets": ["x", "y", "z"], "rating": 8, "recommendation": "ESSENTIAL",
                                    "key_tracks": ["t"], "album_art": "covers/a.jpg"]
            for (k, v) in changes { e[k] = v }
            return e
        }
        let list: [Any] = [
            entry([:]),
            entry(["album_title": "C", "rating": 11]),
            entry(["album_title": "D", "recommendation": "BUY"]),
            entry(["album_title": "E", "album_art": "covers/missing.jpg"]),
            entry(["album_title": "F", "album_art": "../../etc/passwd"]),
            entry(["album_title": "G", "context_bullets": ["only one"]]),
            entry(["album_title": "H", "rating": true]),
            "not an object",
            entry([:]),  // same artist and title as the first
        ]
        try JSONSerialization.data(withJSONObject: list).write(to: URL(fileURLWithPath: dir + "/albums.json"))
        let c = try AlbumCatalog.load(dir)
        XCTAssertEqual(c.albums.map(\.album_title), ["A"])
        let text = c.problems.joined(separator: "\n")
        for needle in ["entry 2 (B — C): rating: 11", "entry 3 (B — D): recommendation: \"BUY\"", "entry 4 (B — E): album_art:",
                       "entry 5 (B — F): album_art: \"../../etc/passwd\" must be a file inside", "entry 6 (B — G): context_bullets: 1 items",
                       "entry 7 (B — H): rating: expected a number", "entry 8: not an object", "entry 9 (B — A): same artist and title"] {
            XCTAssertTrue(text.contains(needle), "missing \(needle) in\n\(text)")
        }
        XCTAssertTrue(c.problems.allSatisfy { $0.hasPrefix(dir + "/albums.json") })
        // Hostile files: not JSON, the wrong shape.
        try Data("{\"albums\": 3}".utf8).write(to: URL(fileURLWithPath: dir + "/albums.json"))
        XCTAssertThrowsError(try AlbumCatalog.load(dir)) { XCTAssertTrue("\($0)".contains("expected a list of albums"), "\($0)") }
        try Data([0xFF, 0x00, 0x7B]).write(to: URL(fileURLWithPath: dir + "/albums.json"))
        XCTAssertThrowsError(try AlbumCatalog.load(dir)) { XCTAssertTrue("\($0)".contains("not valid JSON"), "\($0)") }
    }

    func sampleEntry() -> AlbumEntry {
        AlbumEntry(album_title: "Blue Train", artist_name: "John Coltrane", release_year: 1958, genres: ["Jazz", "Hard bop"],
                   record_label: "Blue Note", context_summary: "Coltrane's only Blue Note date as a leader. A first pressing is worth a fortune.",
                   context_bullets: ["Recorded at Van Gelder Studio", "Rare original copies sell at auction", "Lee Morgan on trumpet", "An investment piece for collectors"],
                   rating: 9, recommendation: .ESSENTIAL, key_tracks: ["Blue Train", "Moment's Notice"], album_art: "covers/a.jpg")
    }

    func testContentGuardKeepsMoneyAndCollectingOffTheCard() throws {
        let card = ContextCard(sampleEntry(), coverPath: "covers/a.jpg")
        let shown = card.text() + String(decoding: try card.json(), as: UTF8.self)
        for word in ["worth", "pressing", "Rare", "auction", "investment", "collectors", "fortune"] {
            XCTAssertFalse(shown.contains(word), "\(word) shown:\n\(shown)")
        }
        XCTAssertTrue(shown.contains("Coltrane's only Blue Note date as a leader."))
        XCTAssertTrue(shown.contains("Lee Morgan on trumpet"))
        XCTAssertEqual(card.guardNotes.count, 3, card.guardNotes.joined(separator: "\n"))
        XCTAssertNil(ContentGuard.violation(in: "An evaluation of modal jazz, rarefied and precise"))  // words that only contain a stem
        XCTAssertNotNil(ContentGuard.violation(in: "its value lies in the solos"))
        XCTAssertNotNil(ContentGuard.violation(in: "Sells for $250 today"))
        XCTAssertNotNil(ContentGuard.violation(in: "highly collectible"))
    }

    func testCardFollowsTheProductOrder() throws {
        var e = sampleEntry()
        e.context_summary = "Coltrane's only Blue Note date as a leader."
        e.context_bullets = ["Recorded at Van Gelder Studio", "Lee Morgan on trumpet", "Curtis Fuller on trombone"]
        let text = ContextCard(e, coverPath: "covers/a.jpg").text()
        let order = ["[cover: covers/a.jpg]", "John Coltrane — Blue Train", "ESSENTIAL 💎", "Coltrane's only", "• Recorded at Van Gelder",
                     "• Lee Morgan", "• Curtis Fuller", "Rating: 9/10", "Key tracks: Blue Train, Moment's Notice", "1958 · Jazz, Hard bop · Blue Note"]
        var last = text.startIndex
        for o in order {
            guard let r = text.range(of: o, range: last..<text.endIndex) else { return XCTFail("\(o) missing or out of order in\n\(text)") }
            last = r.upperBound
        }
        XCTAssertEqual(AlbumEntry.Recommendation.allCases.map(\.badge), ["ESSENTIAL 💎", "RECOMMENDED 👍", "SKIP 😐", "AVOID 💩"])
    }

    func testHistoryIsNewestFirstKeepsDuplicatesAndSurvivesReopening() throws {
        let set = try SmallCoverSet.shared.make()
        let catalog = try AlbumCatalog.load(set + "/catalog")
        let path = try scratch("albums-history") + "/h.sqlite"
        let a = catalog.albums[0], b = catalog.albums[1]
        do {
            let h = try ScanHistory(path: path)
            try h.add(ContextCard(a, coverPath: catalog.artPath(a)), confidence: 0.9, photoName: "1.jpg", at: Date(timeIntervalSince1970: 100))
            try h.add(ContextCard(b, coverPath: catalog.artPath(b)), confidence: 0.8, photoName: "2.jpg", at: Date(timeIntervalSince1970: 200))
            try h.add(ContextCard(a, coverPath: catalog.artPath(a)), confidence: 0.7, photoName: "3.jpg", at: Date(timeIntervalSince1970: 300))
        }
        let h = try ScanHistory(path: path)
        let list = try h.list()
        XCTAssertEqual(list.map(\.photoName), ["3.jpg", "2.jpg", "1.jpg"])
        XCTAssertEqual(list.filter { $0.title == a.album_title }.count, 2)
        // The catalog's cover is kept (original and a 200×200 thumbnail), never the photo.
        let thumb = try XCTUnwrap(h.thumbnail(list[0].id))
        let img = try VImage.from(pixels: try Decoder(longEdge: 4096).decode(try writeTemp(thumb)).rgb, width: 200, height: 200, bands: 3)
        XCTAssertEqual(img.width, 200)
        XCTAssertEqual(list[0].coverBytes, try Data(contentsOf: URL(fileURLWithPath: catalog.artPath(a))).count)
        XCTAssertTrue(try h.delete(list[1].id))
        XCTAssertFalse(try h.delete(list[1].id))
        XCTAssertEqual(try ScanHistory(path: path).list().map(\.photoName), ["3.jpg", "1.jpg"])
    }

    func writeTemp(_ data: Data) throws -> String {
        let p = try scratch("albums-thumb") + "/t.jpg"
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }
}
