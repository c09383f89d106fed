import Foundation
import PhotoCurate
@testable import PhotoCurateAlbums
import PhotoCurateTestSupport
import XCTest

/// The context provider against a local stub of the Messages API, and the
/// albums stage: no test here touches the network.
final class AlbumContextTests: XCTestCase {
    func scratch(_ name: String) throws -> String {
        let dir = try FixtureFactory.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// A copy of the small set's catalog in which `titleOnly` albums have no card of their own.
    func catalogCopy(titleOnly: Set<String>) throws -> String {
        let set = try SmallCoverSet.shared.make()
        let dir = try scratch("albums-title-only")
        let fm = FileManager.default
        for f in try fm.contentsOfDirectory(atPath: set + "/catalog") where f != "albums.json" {
            try fm.copyItem(atPath: set + "/catalog/" + f, toPath: dir + "/" + f)
        }
        var list = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: set + "/catalog/albums.json"))) as! [[String: Any]]
        for k in list.indices {
            let id = ((list[k]["artist_name"] as! String) + " — " + (list[k]["album_title"] as! String)).lowercased()
            if titleOnly.contains(id) { for f in AlbumCatalog.contextFields { list[k].removeValue(forKey: f) } }
        }
        try JSONSerialization.data(withJSONObject: list).write(to: URL(fileURLWithPath: dir + "/albums.json"))
        return dir
    }

    static func reply(_ card: [String: Any], fenced: Bool = true) -> String {
        let json = String(decoding: try! JSONSerialization.data(withJSONObject: card), as: UTF8.self)
        let text = fenced ? "Here is the card:\n```json\n\(json)\n```" : json
        let body: [String: Any] = ["id": "msg_1", "type": "message", "role": "assistant", "content": [["type": "text", "text": text]],
                                   "stop_reason": "end_turn"]
        return String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    static let goodCard: [String: Any] = [
        "album_title": "Something Else Entirely", "artist_name": "Nobody",
        "context_summary": "A record that moved the genre toward open, modal playing. Its calm pacing shaped a decade of studio work.",
        "context_bullets": ["Modal improvisation over sparse chords", "Recorded in two sessions", "A model for later ambient jazz"],
        "rating": 8.5, "recommendation": "RECOMMENDED", "key_tracks": ["Opening", "Blue Hour"], "genres": ["Jazz"], "release_year": 1961,
    ]

    func titleOnlyEntry() throws -> (AlbumEntry, String) {
        let set = try SmallCoverSet.shared.make()
        let first = try AlbumCatalog.load(set + "/catalog").albums[0]
        let folder = try catalogCopy(titleOnly: [first.id])
        let entry = try XCTUnwrap(try AlbumCatalog.load(folder).albums.first { $0.id == first.id })
        XCTAssertTrue(entry.needsContext, "an entry without context fields is known only by title")
        return (entry, folder)
    }

    func testProviderAsksOnceWithTheProductStructureAndCachesPerAlbum() throws {
        let (entry, folder) = try titleOnlyEntry()
        let stub = try StubHTTPServer { _ in .init(status: 200, body: Self.reply(Self.goodCard)) }
        defer { stub.stop() }
        let cache = try scratch("albums-context") + "/context.sqlite"
        let provider = try AlbumContextProvider(endpoint: stub.baseURL, apiKey: "test-key", cachePath: cache)
        let done = try provider.complete(entry, catalogFolder: folder)
        XCTAssertEqual(done.album_title, entry.album_title, "the catalog decides which album it is, not the reply")
        XCTAssertEqual(done.artist_name, entry.artist_name)
        XCTAssertEqual(done.context_bullets.count, 3)
        XCTAssertEqual(done.recommendation, .RECOMMENDED)
        XCTAssertEqual(done.rating, 8.5)
        XCTAssertFalse(done.needsContext)
        let r = try XCTUnwrap(stub.requests.first)
        XCTAssertEqual(r.method, "POST")
        XCTAssertEqual(r.path, "/v1/messages")
        XCTAssertEqual(r.headers["x-api-key"], "test-key")
        XCTAssertEqual(r.headers["anthropic-version"], "2023-06-01")
        let body = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [String: Any])
        XCTAssertTrue((body["system"] as? String ?? "").contains("\"context_bullets\""), "the product's structure is the required output")
        XCTAssertTrue("\(body["messages"] ?? "")".contains(entry.album_title))
        // The same album again, from another process on the same cache: no second call.
        let again = try AlbumContextProvider(endpoint: stub.baseURL, apiKey: "test-key", cachePath: cache)
        XCTAssertEqual(try again.complete(entry, catalogFolder: folder), done)
        XCTAssertEqual(stub.requests.count, 1)
        XCTAssertEqual(again.requestsSent, 0)
    }

    func testOneRetryOnTransientFailuresAndNoneOnOthers() throws {
        let (entry, folder) = try titleOnlyEntry()
        final class Count: @unchecked Sendable { var n = 0; let lock = NSLock(); func next() -> Int { lock.lock(); defer { lock.unlock() }; n += 1; return n } }
        // Overloaded once, then fine: answered, two requests.
        let c = Count()
        let flaky = try StubHTTPServer { _ in
            c.next() == 1 ? .init(status: 529, body: #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#)
                          : .init(status: 200, body: Self.reply(Self.goodCard, fenced: false))
        }
        defer { flaky.stop() }
        var p = try AlbumContextProvider(endpoint: flaky.baseURL, apiKey: "k", cachePath: nil)
        p.retryDelay = 0
        XCTAssertEqual(try p.complete(entry, catalogFolder: folder).rating, 8.5)
        XCTAssertEqual(flaky.requests.count, 2)
        // Down for good: exactly one retry, and the reason.
        let down = try StubHTTPServer { _ in .init(status: 503, body: "") }
        defer { down.stop() }
        p = try AlbumContextProvider(endpoint: down.baseURL, apiKey: "k", cachePath: nil)
        p.retryDelay = 0
        XCTAssertThrowsError(try p.complete(entry, catalogFolder: folder)) { XCTAssertTrue("\($0)".contains("HTTP 503"), "\($0)") }
        XCTAssertEqual(down.requests.count, 2)
        // A refused key is not transient: no retry; the API's own message is kept.
        let refused = try StubHTTPServer { _ in .init(status: 401, body: #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#) }
        defer { refused.stop() }
        p = try AlbumContextProvider(endpoint: refused.baseURL, apiKey: "bad", cachePath: nil)
        XCTAssertThrowsError(try p.complete(entry, catalogFolder: folder)) { XCTAssertTrue("\($0)".contains("HTTP 401: authentication_error: invalid x-api-key"), "\($0)") }
        XCTAssertEqual(refused.requests.count, 1)
        // Too slow: the limit holds, and the one retry is made.
        let slow = try StubHTTPServer { _ in .init(status: 200, body: Self.reply(Self.goodCard), delay: 1.0) }
        defer { slow.stop() }
        p = try AlbumContextProvider(endpoint: slow.baseURL, apiKey: "k", cachePath: nil)
        p.timeout = 0.3; p.retryDelay = 0
        XCTAssertThrowsError(try p.complete(entry, catalogFolder: folder)) { XCTAssertTrue("\($0)".contains("no reply within 0.3 s"), "\($0)") }
        XCTAssertEqual(p.requestsSent, 2)
    }

    func testHostileRepliesAreRefusedOrScreened() throws {
        let (entry, folder) = try titleOnlyEntry()
        func provider(_ body: String) throws -> (AlbumContextProvider, StubHTTPServer) {
            let s = try StubHTTPServer { _ in .init(status: 200, body: body) }
            return (try AlbumContextProvider(endpoint: s.baseURL, apiKey: "k", cachePath: nil), s)
        }
        var bad = Self.goodCard; bad["rating"] = 42
        var short = Self.goodCard; short["context_bullets"] = ["one"]
        for (body, reason) in [("not json at all", "not a Messages API response"), (Self.reply(["x": 1]).replacingOccurrences(of: "{\\\"x\\\":1}", with: "no braces here"), "no JSON object"),
                               (Self.reply(bad), "rating: 42.0 is outside 0–10"), (Self.reply(short), "context_bullets: 1 items, expected 3–5")] {
            let (p, s) = try provider(body)
            XCTAssertThrowsError(try p.complete(entry, catalogFolder: folder)) { XCTAssertTrue("\($0)".contains(reason), "\($0) — expected \(reason)") }
            s.stop()
        }
        // Talk of money gets through the provider's checks but never onto the card.
        var pricey = Self.goodCard
        pricey["context_summary"] = "A landmark of modal jazz. First pressings now sell for $400 and are a sound investment."
        let (p, s) = try provider(Self.reply(pricey))
        defer { s.stop() }
        let card = ContextCard(try p.complete(entry, catalogFolder: folder), coverPath: folder + "/" + entry.album_art)
        XCTAssertFalse(card.guardNotes.isEmpty)
        XCTAssertFalse(card.text().contains("$400"))
        XCTAssertTrue(card.text().contains("A landmark of modal jazz."))
    }

    /// The pipeline stage over a run's photos: a title-only album gives no match without a
    /// provider (with the reason), a card with one; two runs write the same bytes.
    func testAlbumsStageIdentifiesARunsPhotos() async throws {
        let set = try SmallCoverSet.shared.make()
        let labels = try JSONDecoder().decode([AlbumEvaluation.Label].self, from: Data(contentsOf: URL(fileURLWithPath: set + "/labels.json")))
        let known = labels.filter { $0.album != nil && !$0.guide }.prefix(2)
        let unknown = try XCTUnwrap(labels.first { $0.album == nil && !$0.guide })
        let titleOnly = try XCTUnwrap(known.first?.album)
        let folder = try catalogCopy(titleOnly: [titleOnly])
        let photos = try scratch("albums-stage-photos")
        for l in Array(known) + [unknown] { try FileManager.default.copyItem(atPath: set + "/photos/" + l.file, toPath: photos + "/" + l.file) }
        var o = CurationRunner.Options(root: photos)
        o.cachePath = nil
        let manifest = Manifest(try await CurationRunner(options: o).run(), startedAt: Date(), finishedAt: Date())
        let context = OutputContext(manifest: manifest, root: photos)
        let params = try Parameters(AlbumsStage.parameterSpecs)
        let out = try scratch("albums-stage-out")
        func scans(_ dir: String) throws -> [AlbumScanner.AlbumScan] {
            try JSONDecoder().decode([AlbumScanner.AlbumScan].self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/scans.json")))
        }
        // Without a provider.
        try AlbumsStage().write(params, context, into: out + "/a", catalog: folder, cachePath: nil, historyPath: out + "/h.sqlite", provider: .some(nil))
        var got = Dictionary(uniqueKeysWithValues: try scans(out + "/a").map { (($0.photo as NSString).lastPathComponent, $0) })
        XCTAssertEqual(got.count, 3)
        let first = try XCTUnwrap(got[known.first!.file])
        XCTAssertEqual(first.result, AlbumIdentifier.noMatch)
        XCTAssertTrue(first.notes?.first?.contains("only by title") == true, "\(first.notes ?? [])")
        XCTAssertEqual(got[unknown.file]?.result, AlbumIdentifier.noMatch)
        // With one: the title-only album gets its card.
        let stub = try StubHTTPServer { _ in .init(status: 200, body: Self.reply(Self.goodCard)) }
        defer { stub.stop() }
        let provider = try AlbumContextProvider(endpoint: stub.baseURL, apiKey: "k", cachePath: out + "/ctx.sqlite")
        for run in ["b", "c"] {
            try AlbumsStage().write(params, context, into: out + "/" + run, catalog: folder, cachePath: nil, historyPath: out + "/h.sqlite", provider: provider)
        }
        got = Dictionary(uniqueKeysWithValues: try scans(out + "/b").map { (($0.photo as NSString).lastPathComponent, $0) })
        XCTAssertEqual(got[known.first!.file]?.card?.recommendation, "RECOMMENDED")
        XCTAssertEqual(got[known.first!.file]?.result.lowercased(), titleOnly)
        XCTAssertEqual(got[unknown.file]?.result, AlbumIdentifier.noMatch)
        let cards = try FileManager.default.contentsOfDirectory(atPath: out + "/b/cards")
        XCTAssertEqual(cards.count, got.values.filter { $0.card != nil }.count)
        XCTAssertEqual(stub.requests.count, 1, "the second run reads the provider's answer from the cache")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/b/scans.json")), try Data(contentsOf: URL(fileURLWithPath: out + "/c/scans.json")))
        XCTAssertEqual(try ScanHistory(path: out + "/h.sqlite").list().count, got.values.filter { $0.card != nil }.count * 2 + 1)
    }
}
