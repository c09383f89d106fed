import Foundation
import PhotoCurate
import PhotoCurateBench
import PhotoCurateTestSupport
import XCTest

/// End-to-end runs over small generated trips.
final class PipelineTests: XCTestCase {
    static var tripDir: String = ""

    /// A generated trip: 5 scenes from procedural sources, small frames.
    static func makeTrip() async throws -> String {
        if !tripDir.isEmpty { return tripDir }
        let root = try FixtureFactory.temporaryDirectory("photocurate-trip")
        atexit { if !PipelineTests.tripDir.isEmpty { try? FileManager.default.removeItem(atPath: (PipelineTests.tripDir as NSString).deletingLastPathComponent) } }
        try FixtureFactory.sources(count: 5, in: root + "/sources", width: 800, height: 600)
        var g = TripGenerator(sources: root + "/sources", out: root + "/trip", seed: 3)
        g.scenes = 5
        g.longEdge = 640
        g.corruptFiles = 3
        _ = try await g.generate()
        tripDir = root + "/trip"
        return tripDir
    }

    func options(_ root: String, cache: String?) -> CurationRunner.Options {
        var o = CurationRunner.Options(root: root)
        o.cachePath = cache
        o.jobs = 2
        try! o.pipeline.set("import", "longEdge", 384)
        return o
    }

    func testSecondRunRecomputesNothingAndChangesAreNoticed() async throws {
        let trip = try await Self.makeTrip()
        let work = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: trip + "/photos", toPath: work + "/photos")
        let cache = work + "/cache.sqlite"
        let first = try await CurationRunner(options: options(work + "/photos", cache: cache)).run()
        XCTAssertEqual(first.cachedPhotos, 0)
        XCTAssertEqual(first.computedPhotos, first.records.count)
        let second = try await CurationRunner(options: options(work + "/photos", cache: cache)).run()
        XCTAssertEqual(second.computedPhotos, 0, "an unchanged folder recomputes nothing")
        XCTAssertEqual(second.cachedPhotos, first.records.count)
        XCTAssertEqual(second.problems.count, first.problems.count, "bad files are remembered, not re-read")

        // `cache prune` keeps every result of the pipeline's analyzers (spectrum and detail were once forgotten).
        let keys = Set(CurationRunner.resultKeys(for: options(work + "/photos", cache: cache).pipeline))
        XCTAssertEqual(Set(keys.map(\.analyzer)), Set(["import"] + PipelineDefinition.defaults().analyzers))
        XCTAssertTrue(Set(keys.map(\.analyzer)).isSuperset(of: ["import", "quality", "featureprint", "spectrum", "detail"]))
        let prunedNow = try CacheStore(path: cache).prune(current: keys)
        XCTAssertEqual(prunedNow.results, 0, "nothing a run reads is pruned")
        let afterPrune = try await CurationRunner(options: options(work + "/photos", cache: cache)).run()
        XCTAssertEqual(afterPrune.computedPhotos, 0, "after a prune, still nothing to recompute")

        // A renamed photo keeps its results (same content hash); a changed one is recomputed.
        let names = try FileManager.default.contentsOfDirectory(atPath: work + "/photos").sorted()
        let usable = first.usable.map { (first.records[$0].file.path as NSString).lastPathComponent }
        let renamed = usable[0], changed = usable[1]
        XCTAssert(names.contains(renamed))
        try FileManager.default.moveItem(atPath: work + "/photos/" + renamed, toPath: work + "/photos/renamed-" + renamed)
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 999, width: 320, height: 240), to: work + "/photos/" + changed)
        let third = try await CurationRunner(options: options(work + "/photos", cache: cache)).run()
        let computed = third.records.filter { !$0.computed.isEmpty }.map { ($0.file.path as NSString).lastPathComponent }
        XCTAssertEqual(computed, [changed])

        // A new analyzer parameter recomputes that analyzer only.
        var o = options(work + "/photos", cache: cache)
        try o.pipeline.set("quality", "tiles", 4)
        let fourth = try await CurationRunner(options: o).run()
        let usableCount = fourth.usable.count
        XCTAssertEqual(fourth.records.filter { $0.computed == ["quality"] }.count, usableCount)

        // A cached result this build cannot read (another build's) counts as missing: the pixels are decoded again.
        let decoder = Decoder(longEdge: o.pipeline.parameters("import").int("longEdge"),
                              maxPixels: Int(o.pipeline.parameters("import")["maxMegapixels"] * 1_000_000))
        let qualityKey = QualityAnalyzer(parameters: o.pipeline.parameters(QualityAnalyzer.id)).key(upstream: ImportStage.upstreamHash(decoder))
        try CacheStore(path: cache).write(fourth.usable.map { i in
            CacheStore.Entry(file: fourth.records[i].file, contentHash: fourth.records[i].contentHash!, results: [(qualityKey, Data("{}".utf8))])
        })
        let fifth = try await CurationRunner(options: o).run()
        XCTAssertEqual(fifth.usable.count, usableCount, "no photo is lost to an unreadable cache entry")
        XCTAssertEqual(fifth.records.filter { $0.computed == ["quality"] }.count, usableCount)

        let stats = try CacheStore(path: cache).stats()
        XCTAssertGreaterThan(stats.files, 0)
        let pruned = try CacheStore(path: cache).prune(current: nil)
        XCTAssertEqual(pruned.files, 1, "the renamed-away path is forgotten")
    }

    func testManifestIsDeterministicApartFromRunSection() async throws {
        let trip = try await Self.makeTrip()
        func manifest() async throws -> [String: Any] {
            let started = Date()
            let r = try await CurationRunner(options: options(trip + "/photos", cache: nil)).run()
            let m = Manifest(r, startedAt: started, finishedAt: Date())
            var obj = try JSONSerialization.jsonObject(with: try m.json()) as! [String: Any]
            obj.removeValue(forKey: "run")
            return obj
        }
        let a = try await manifest(), b = try await manifest()
        let da = try JSONSerialization.data(withJSONObject: a, options: [.sortedKeys])
        let db = try JSONSerialization.data(withJSONObject: b, options: [.sortedKeys])
        XCTAssertEqual(da, db)
        XCTAssertEqual((a["schema"] as? String), Manifest.schemaId)
    }

    func testRunOnTripReportsBadFilesAndPicksDistinctScenes() async throws {
        let trip = try await Self.makeTrip()
        let labels = try TripLabels.read(trip + "/labels.json")
        var o = options(trip + "/photos", cache: nil)
        // Fewer picks than scenes: round-robin over moments must never repeat a scene.
        try o.pipeline.set("select", "top", 3)
        let r = try await CurationRunner(options: o).run()
        let corrupt = labels.files.filter { $0.value.corrupt }.count
        XCTAssertEqual(r.records.count, labels.files.count)
        // Truncated and non-image files are errors; a garbage-filled JPEG may decode as damaged instead.
        XCTAssertGreaterThanOrEqual(r.problems.count, corrupt - 1)
        for p in r.problems { XCTAssertTrue(p.message.contains(trip + "/photos/"), "names the file: \(p.message)") }
        let m = Manifest(r, startedAt: Date(), finishedAt: Date())
        let report = TripScorer.score(labels: labels, manifest: m)
        XCTAssertEqual(report.top.corruptPicked, 0)
        XCTAssertEqual(report.top.sameSceneDuplicatePairs, 0)
        XCTAssertGreaterThan(report.clustering.ari, 0.5)
        XCTAssertEqual(m.picks.count, 3)
        for p in m.picks { XCTAssertFalse(p.reasons.isEmpty) }
        // Sources left out leave the quality AUCs, not clustering or the top N.
        let sources = Set(labels.files.values.compactMap(\.source))
        XCTAssertFalse(sources.isEmpty)
        let none = TripScorer.score(labels: labels, manifest: m, excludingSources: sources)
        XCTAssertNil(none.quality.aucGlobal)
        XCTAssertNotNil(report.quality.aucGlobal)
        XCTAssertEqual(none.clustering.ari, report.clustering.ari)
        XCTAssertEqual(none.top.picked, report.top.picked)
    }

    /// A sidecar that cannot be written is one problem naming it and why; the others are written.
    func testASidecarThatCannotBeWrittenIsReportedAndTheRestGoOn() async throws {
        let dir = try temporaryDirectory()
        for k in 0..<2 { try FixtureFactory.write(try FixtureFactory.jpeg(scene: k, width: 320, height: 240), to: dir + "/p\(k).jpg") }
        var o = CurationRunner.Options(root: dir)
        o.cachePath = nil
        var m = Manifest(try await CurationRunner(options: o).run(), startedAt: Date(), finishedAt: Date())
        // The first photo's sidecar would go into a "folder" that is a file (root ignores permissions; this it cannot).
        try "not a folder".write(toFile: dir + "/blocker", atomically: true, encoding: .utf8)
        m.photos[0].path = dir + "/blocker/p0.jpg"
        let problems = XMPSidecarWriter().write(m)
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.path, dir + "/blocker/p0.jpg.xmp")
        XCTAssertTrue(problems.first?.message.contains("cannot be") == true, problems.first?.message ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/p1.jpg.xmp"), "the other sidecar is written")
    }

    /// Outcomes are cached by content: a bad file with the same bytes as one seen in another
    /// folder (two empty files, one piece of junk copied) is still named by its own path.
    func testACachedErrorNamesTheFileOfThisRun() async throws {
        let dir = try temporaryDirectory(), cache = dir + "/cache.sqlite"
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try FixtureFactory.write(try FixtureFactory.jpeg(scene: 1, width: 320, height: 240), to: dir + "/\(folder)/good.jpg")
            try FixtureFactory.write([], to: dir + "/\(folder)/empty-\(folder).jpg")
            try FixtureFactory.write(Array("not a photo".utf8), to: dir + "/\(folder)/junk-\(folder).jpg")
        }
        _ = try await CurationRunner(options: options(dir + "/a", cache: cache)).run()
        let r = try await CurationRunner(options: options(dir + "/b", cache: cache)).run()
        XCTAssertEqual(r.cachedPhotos, 3, "the second folder's files are all known by content")
        XCTAssertEqual(Set(r.problems.map(\.path)), [dir + "/b/empty-b.jpg", dir + "/b/junk-b.jpg"])
        for p in r.problems {
            XCTAssertTrue(p.message.hasPrefix(p.path + ": "), p.message)
            XCTAssertFalse(p.message.contains(dir + "/a/"), p.message)
        }
    }

    func testFewPhotosStillGiveAManifest() async throws {
        let dir = try temporaryDirectory()
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 1, width: 320, height: 240, exif: FixtureFactory.exif(time: "2024:01:01 10:00:00")), to: dir + "/a.jpg")
        try FixtureFactory.write(Array("x".utf8), to: dir + "/b.jpg")
        let r = try await CurationRunner(options: options(dir, cache: nil)).run()
        let m = Manifest(r, startedAt: Date(), finishedAt: Date())
        XCTAssertEqual(m.summary.usable, 1)
        XCTAssertNotNil(m.summary.note)
        XCTAssertEqual(m.errors.count, 1)
        let out = dir + "/out"
        try Exporter(outDir: out).write(m, csv: true, contactSheet: true, thumbnail: 96)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/manifest.json"))
        XCTAssertEqual(try Manifest.read(out + "/manifest.json").photos.count, 2)
        XCTAssertTrue(try String(contentsOfFile: out + "/manifest.csv", encoding: .utf8).hasPrefix("path,selected,rank"))
        XCTAssertNotNil(try? VImage.open(out + "/contact-sheet.jpg"))
    }

    func testBoundedMapLimitsWorkInFlight() async throws {
        actor Gauge { var now = 0, peak = 0
            func enter() { now += 1; peak = max(peak, now) }
            func leave() { now -= 1 } }
        let g = Gauge()
        var seen: [Int] = []
        try await BoundedMap.run(Array(0..<40), limit: 3, transform: { i -> Int in
            await g.enter(); try? await Task.sleep(nanoseconds: 1_000_000); await g.leave(); return i
        }, consume: { seen.append($0) })
        let peak = await g.peak
        XCTAssertLessThanOrEqual(peak, 3)
        XCTAssertEqual(seen.sorted(), Array(0..<40))
    }
}

/// A damaged cache is moved aside and rebuilt; a file that is not a cache is refused untouched.
final class CacheRecoveryTests: XCTestCase {
    /// Runs started together on one new cache all get it (they raced to create its tables).
    func testRunsStartedTogetherOnANewCacheAllOpenIt() throws {
        for trial in 0..<5 {
            let path = try temporaryDirectory() + "/race\(trial).sqlite"
            let errors = NSMutableArray()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do { _ = try CacheStore.openChecked(path: path) { _ in } } catch { errors.add("\(error)") }
            }
            XCTAssertEqual(errors.count, 0, "\(errors)")
        }
    }


    func testADamagedCacheIsMovedAsideAndRebuiltAndAForeignFileIsLeftAlone() async throws {
        let dir = try temporaryDirectory()
        for k in 0..<3 { try FixtureFactory.write(try FixtureFactory.jpeg(scene: k, width: 320, height: 240), to: dir + "/p\(k).jpg") }
        let cache = dir + "/cache/c.sqlite"
        var o = CurationRunner.Options(root: dir)
        o.cachePath = cache
        _ = try await CurationRunner(options: o).run()
        // Checkpoint, then overwrite the second page (a table root) with garbage.
        do { try CacheStore(path: cache).vacuum() }  // closed at the end of the scope: no WAL left
        let h = try XCTUnwrap(FileHandle(forUpdatingAtPath: cache))
        XCTAssertGreaterThan(try h.seekToEnd(), 4096 * 2, "pages to damage")
        try h.seek(toOffset: 4096)
        h.write(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        try h.close()
        var warnings: [String] = []
        let reopened = try CacheStore.openChecked(path: cache) { warnings.append($0) }
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("moved aside to \(cache).damaged-") == true, warnings.first ?? "")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir + "/cache").filter { $0.hasPrefix("c.sqlite.damaged-") }
        XCTAssertFalse(aside.isEmpty, "the damaged file is kept, renamed")
        XCTAssertEqual(try reopened.stats().files, 0, "a fresh cache")

        let foreign = dir + "/notes.txt"
        try "my notes".write(toFile: foreign, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try CacheStore.openChecked(path: foreign) { _ in XCTFail("no rebuild of a foreign file") })
        XCTAssertEqual(try String(contentsOfFile: foreign, encoding: .utf8), "my notes", "untouched")
    }
}

/// Linux file names are bytes: a name that is not UTF-8 is analysed and written back exactly.
final class RawNameTests: XCTestCase {
    func testNamesThatAreNotUTF8AreKeptByteForByte() async throws {
        let dir = try temporaryDirectory()
        let jpeg = try FixtureFactory.jpeg(scene: 1, width: 320, height: 240)
        // "caf\xE9.jpg" (Latin-1) and "\xFF\xFE.jpg": not UTF-8.
        let latin = RawPath.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67, 0].map { CChar(bitPattern: $0) })
        let odd = RawPath.string([0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67, 0].map { CChar(bitPattern: $0) })
        XCTAssertEqual(latin, "caf\u{F7E9}.jpg")
        XCTAssertEqual(RawPath.bytes(latin).map { UInt8(bitPattern: $0) }, [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67, 0])
        XCTAssertEqual(RawPath.string("été.jpg"), "été.jpg", "valid UTF-8 is left alone")
        XCTAssertEqual(RawPath.display(latin), "caf\\xE9.jpg")
        for name in [latin, odd, "plain.jpg"] { try AtomicFile.write(Data(jpeg), to: dir + "/" + name) }

        var o = CurationRunner.Options(root: dir)
        o.cachePath = dir + "/.cache.sqlite"
        let r = try await CurationRunner(options: o).run()
        XCTAssertEqual(r.problems, [], "every file found and read")
        XCTAssertEqual(Set(r.records.map { ($0.file.path as NSString).lastPathComponent }), [latin, odd, "plain.jpg"])
        let m = Manifest(r, startedAt: Date(), finishedAt: Date())
        let out = try temporaryDirectory() + "/out"
        try Exporter(outDir: out).write(m, contactSheet: true, picks: .copy)
        let copies = try FileManager.default.contentsOfDirectory(atPath: out + "/picks")
        XCTAssertEqual(copies.count, m.picks.count)
        for p in m.picks {
            let copy = out + "/picks/" + String(format: "%02d-", p.rank) + (p.path as NSString).lastPathComponent
            XCTAssertEqual(RawPath.read(copy), RawPath.read(p.path), "the copy has the original's bytes under the original's name")
        }
        let again = try await CurationRunner(options: o).run()
        XCTAssertEqual(again.computedPhotos, 0, "the cache finds them by the same names")
    }
}
