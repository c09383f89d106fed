import Foundation
import PhotoCurate
@testable import PhotoCurateFaces
import PhotoCurateModels
import PhotoCurateTestSupport
import XCTest

final class FaceAnalyzerTests: XCTestCase {
    /// Four maps of 8×8 cells (a 32×32 input) with one face centred on cell (3, 4), and a weaker duplicate beside it.
    func maps() -> [Tensor] {
        let plane = 64
        var heat = [Float](repeating: 0.01, count: plane)
        heat[3 * 8 + 4] = 0.9
        heat[3 * 8 + 5] = 0.6
        var scale = [Float](repeating: 0, count: 2 * plane)
        for i in 0..<plane { scale[i] = log(16 / 4); scale[plane + i] = log(12 / 4) }  // 16 px tall, 12 wide
        let offset = [Float](repeating: 0, count: 2 * plane)
        var marks = [Float](repeating: 0, count: 10 * plane)
        for j in 0..<5 { for i in 0..<plane { marks[(2 * j) * plane + i] = 0.5; marks[(2 * j + 1) * plane + i] = 0.25 } }
        return [Tensor(shape: [1, 1, 8, 8], data: heat), Tensor(shape: [1, 2, 8, 8], data: scale),
                Tensor(shape: [1, 2, 8, 8], data: offset), Tensor(shape: [1, 10, 8, 8], data: marks)]
    }

    func testPeaksBecomeBoxesAndDuplicatesMerge() {
        let faces = CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 4).faces(maps(), width: 32, height: 32)
        XCTAssertEqual(faces.count, 1, "the weaker overlapping peak is the same face")
        let f = faces[0]
        // Centre (4 + 0.5) · 4 = 18 px across, (3 + 0.5) · 4 = 14 px down; 12 × 16 px.
        XCTAssertEqual(f.box[0] * 32, 12, accuracy: 0.01)
        XCTAssertEqual(f.box[1] * 32, 6, accuracy: 0.01)
        XCTAssertEqual(f.box[2] * 32, 12, accuracy: 0.01)
        XCTAssertEqual(f.box[3] * 32, 16, accuracy: 0.01)
        XCTAssertEqual(f.confidence, 0.9, accuracy: 1e-4)
        // Landmarks are relative to the box: x = 0.25 of its width, y = 0.5 of its height.
        XCTAssertEqual(f.landmarks[0] * 32, 12 + 3, accuracy: 0.01)
        XCTAssertEqual(f.landmarks[1] * 32, 6 + 8, accuracy: 0.01)
        XCTAssertTrue(CenterFaceDecoder(threshold: 0.95, overlap: 0.3, minSize: 4).faces(maps(), width: 32, height: 32).isEmpty)
        XCTAssertTrue(CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 20).faces(maps(), width: 32, height: 32).isEmpty, "too small")
    }

    /// The strongest response decides whether turned looks are worth their cost; maps that
    /// are not CenterFace's stir nothing.
    func testStrongestResponseIsTheHeatMapsPeak() throws {
        XCTAssertEqual(CenterFaceDecoder.strongest(maps()), 0.9, accuracy: 1e-6)
        XCTAssertEqual(CenterFaceDecoder.strongest(Array(maps().prefix(3))), 0)
        var quiet = maps()
        quiet[0] = Tensor(shape: [1, 1, 8, 8], data: [Float](repeating: 0.02, count: 64))
        XCTAssertEqual(CenterFaceDecoder.strongest(quiet), 0.02, accuracy: 1e-6)
        XCTAssertLessThan(Double(CenterFaceDecoder.strongest(quiet)), try Parameters(FaceAnalyzer.parameterSpecs)["sidewaysHeat"], "a quiet photo gets no turned looks")
    }

    /// The full-size look in tiles: the cores share out the image, and a face of up to twice the
    /// margin lies whole inside the tile that owns its centre.
    func testTilesShareOutTheImageAndHoldEachSmallFaceWhole() throws {
        let m = FaceAnalyzer.tileMargin
        // Every face the full-size look is for (under `fullSizeBelow` at half size) fits a margin.
        XCTAssertLessThanOrEqual(2 * (try Parameters(FaceAnalyzer.parameterSpecs)["fullSizeBelow"]), Double(2 * m))
        for (w, h) in [(768, 512), (512, 768), (768, 432), (700, 300), (300, 200), (1536, 1024)] {
            let tiles = FaceAnalyzer.tiles(width: w, height: h, side: 384)
            XCTAssertEqual(tiles.map { ($0.core[2] - $0.core[0]) * ($0.core[3] - $0.core[1]) }.reduce(0, +), w * h, "\(w)×\(h): cores cover it once")
            for t in tiles {
                XCTAssertLessThanOrEqual(t.core[2] - t.core[0], 384)
                XCTAssertEqual(t.seen, [max(0, t.core[0] - m), max(0, t.core[1] - m), min(w, t.core[2] + m), min(h, t.core[3] + m)])
            }
            for side in [8, 40, 2 * m - 2] {
                for y in stride(from: 0, through: h - side, by: 7) {
                    for x in stride(from: 0, through: w - side, by: 5) {
                        let box = [Float(x), Float(y), Float(x + side), Float(y + side)]
                        let owners = tiles.filter { FaceAnalyzer.owns($0, box, width: w, height: h) }
                        XCTAssertEqual(owners.count, 1, "\(w)×\(h): face \(box) has one tile")
                        if let t = owners.first {
                            XCTAssertTrue(box[0] >= Float(t.seen[0]) && box[2] <= Float(t.seen[2]) && box[1] >= Float(t.seen[1]) && box[3] <= Float(t.seen[3]))
                        }
                    }
                }
            }
        }
        XCTAssertEqual(FaceAnalyzer.tiles(width: 300, height: 200, side: 384).count, 1, "a small image is one look")
        XCTAssertEqual(FaceAnalyzer.tiles(width: 768, height: 512, side: 384).count, 4)
    }

    /// A tile runs only where the half-size look's heat map stirs over what it sees: the map is a
    /// quarter of the half-size input, so an eighth of the full-size image.
    func testATilesHeatIsTheHalfSizeResponseOverWhatItSees() {
        var data = [Float](repeating: 0.01, count: 64)
        data[2 * 8 + 6] = 0.7   // row 2, column 6: full-size pixels 48–55, 16–23
        let maps = [Tensor(shape: [1, 1, 8, 8], data: data)]
        XCTAssertEqual(CenterFaceDecoder.strongest(maps, over: [40, 10, 64, 30], scale: 2), 0.7)
        XCTAssertEqual(CenterFaceDecoder.strongest(maps, over: [0, 0, 48, 64], scale: 2), 0.01, "columns 0–5 only")
        XCTAssertEqual(CenterFaceDecoder.strongest(maps, over: [0, 24, 64, 64], scale: 2), 0.01, "rows 3–7 only")
        XCTAssertNil(CenterFaceDecoder.strongest([], over: [0, 0, 64, 64], scale: 2), "no map: every tile runs")
    }

    /// A tile gives no face it sees cut by its edge, nor one whose centre another tile owns;
    /// a face the half-size look found stands only where no tile found it.
    func testTilesGiveOnlyWholeFacesTheyOwnAndHalfSizeFacesFillTheRest() {
        let tile = FaceAnalyzer.Tile(core: [0, 0, 384, 256], seen: [0, 0, 448, 320])
        XCTAssertTrue(FaceAnalyzer.owns(tile, [340, 100, 410, 170], width: 768, height: 512), "centre in the core, whole")
        XCTAssertFalse(FaceAnalyzer.owns(tile, [318, 100, 448, 170], width: 768, height: 512), "centre in the core, but cut by the shared edge")
        XCTAssertFalse(FaceAnalyzer.owns(tile, [380, 100, 440, 170], width: 768, height: 512), "its centre is the neighbour's")
        XCTAssertTrue(FaceAnalyzer.owns(tile, [0, 0, 40, 40], width: 768, height: 512), "the image's own edge cuts nothing")
        typealias C = CenterFaceDecoder.Candidate
        let d = CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 4)
        let small = C(box: [10, 10, 40, 40], score: 0.8, marks: [])
        let again = C(box: [12, 11, 41, 40], score: 0.7, marks: [])
        let bigSeenInTile = C(box: [100, 100, 200, 220], score: 0.9, marks: [])
        let sameAtHalf = C(box: [98, 104, 198, 224], score: 0.95, marks: [])
        let acrossSeams = C(box: [300, 150, 500, 400], score: 0.6, marks: [])
        let faces = FaceAnalyzer.merged([small, again, bigSeenInTile], large: [sameAtHalf, acrossSeams], d)
        XCTAssertEqual(faces, [bigSeenInTile, small, acrossSeams], "the tile's box wins over the half-size one; best first")
        XCTAssertEqual(C(box: [1, 2, 3, 4], score: 1, marks: [5, 6]).placed(dx: 10, dy: 20, by: 2), C(box: [12, 24, 16, 28], score: 1, marks: [20, 32]))
    }

    func testWithoutTheModelFacesSayWhyOnceAndTheKeyChangesWhenItArrives() throws {
        let dir = NSTemporaryDirectory() + "pc-faces-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FacesFeature.register(sessions: ModelSessions(store: ModelStore(root: dir), threads: 1))
        XCTAssertNotNil(AnalyzerRegistry.plugin("faces"))
        XCTAssertTrue(PipelineDefinition.defaults().analyzers.contains("faces"), "the built-in pipeline names it")
        XCTAssertFalse(try PipelineDefinition.parse("name: x\nstages:\n  select: {top: 5}\n", source: "x.yml").analyzers.contains("faces"),
                       "a pipeline file runs it only where it names it")
        var p = PipelineDefinition.defaults()
        try p.set("faces", "threshold", 0.6)
        XCTAssertTrue(p.analyzers.contains("faces"))
        let analyzer = FaceAnalyzer()
        XCTAssertEqual(analyzer.fingerprint, "centerface-int8:none|face-landmarks:none|iris-landmarks:none")
        var withPeople = try Parameters(FaceAnalyzer.parameterSpecs)
        try withPeople.set("people", 1)
        XCTAssertEqual(FaceAnalyzer(parameters: withPeople).fingerprint, "centerface-int8:none|face-landmarks:none|iris-landmarks:none|face-shape5:none|face-embed:none")
        var float = try Parameters(FaceAnalyzer.parameterSpecs)
        try float.set("int8", 0)
        XCTAssertEqual(FaceAnalyzer(parameters: float).fingerprint, "centerface:none|face-landmarks:none|iris-landmarks:none")
        let r = analyzer.analyze(AnalysisImage(width: 64, height: 48, rgb: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        XCTAssertEqual(r.faces, [])
        XCTAssertTrue(r.note?.contains("photocurate models install centerface") == true, r.note ?? "")
        let none = analyzer.key(upstream: "u")
        // Installed models change the key, so photos analysed without them are analysed again.
        XCTAssertNotEqual(none, QualityAnalyzer().key(upstream: "u"))
        XCTAssertNotEqual(none.parametersHash, FaceAnalyzerTests.keyWithoutFingerprint(analyzer))
    }

    /// A store from before the 8-bit detector (the float CenterFace installed, the 8-bit one
    /// not) keeps faces on the float model, and the cache key says which model ran.
    func testAStoreWithOnlyTheFloatDetectorKeepsFacesOnIt() throws {
        let dir = NSTemporaryDirectory() + "pc-faces-float-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let e = try XCTUnwrap(ModelCatalog.entry(FaceAnalyzer.floatModel))
        try FileManager.default.createDirectory(atPath: dir + "/" + e.id, withIntermediateDirectories: true)
        // The record and the file's size are what `installedPath` checks (the bytes are checked at load).
        FileManager.default.createFile(atPath: dir + "/" + e.id + "/" + e.fileName, contents: nil)
        let file = try XCTUnwrap(FileHandle(forWritingAtPath: dir + "/" + e.id + "/" + e.fileName))
        try file.truncate(atOffset: UInt64(e.installed.size))
        try file.close()
        let record = #"{"id":"\#(e.id)","version":\#(e.version),"file":"\#(e.fileName)","sha256":"\#(e.installed.sha256)","size":\#(e.installed.size),"source":"test","installedAt":"2026-11-27T00:00:00Z"}"#
        try Data(record.utf8).write(to: URL(fileURLWithPath: dir + "/" + e.id + "/installed.json"))
        FacesFeature.register(sessions: ModelSessions(store: ModelStore(root: dir), threads: 1))
        XCTAssertEqual(FaceAnalyzer().detector, FaceAnalyzer.floatModel)
        XCTAssertTrue(FaceAnalyzer().fingerprint.hasPrefix("centerface:\(e.installed.sha256)|"), FaceAnalyzer().fingerprint)
        FacesFeature.register(sessions: ModelSessions(store: ModelStore(root: dir + "/none"), threads: 1))
        XCTAssertEqual(FaceAnalyzer().detector, FaceAnalyzer.model, "with neither installed, the note names the 8-bit model")
    }

    /// The face models' working memory is freed once the run's photos are analysed, so
    /// clustering and export do not add theirs on top (the peak of a 1,000-photo run).
    func testARunReleasesTheFaceModelsOnceItsPhotosAreAnalysed() async throws {
        let dir = NSTemporaryDirectory() + "pc-faces-release-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 1, width: 320, height: 240), to: dir + "/photos/a.jpg")
        let sessions = ModelSessions(store: ModelStore(root: dir + "/models"), threads: 1)
        FacesFeature.register(sessions: sessions)
        var o = CurationRunner.Options(root: dir + "/photos")
        o.cachePath = nil
        let r = try await CurationRunner(options: o).run()
        XCTAssertEqual(r.records.count, 1)
        XCTAssertEqual(sessions.releases, 1, "released once, after the analyse stage")
    }

    /// A photo stored on its side: faces lying at ±90° or upside down vote for the turn that stands them up.
    func testFacesOnTheirSideSuggestTheTurnThatStandsThemUp() {
        func f(roll: Double, presence: Double = 1, size: Double = 0.2) -> Face {
            var x = Face(box: [0.4, 0.3, size, size], confidence: 0.9, landmarks: [])
            x.size = size; x.roll = roll
            x.mesh = Face.MeshMeasures(presence: presence, eyeOpenness: [0.3, 0.3], mouthWidth: 0.6, cornerLift: 0, mouthOpen: 0,
                                       eyeIris: nil, eyeWidth: nil, points: [])
            return x
        }
        XCTAssertNil(FaceAnalyzer.turnFromRoll([f(roll: 3), f(roll: -12)]), "upright faces, head tilts included")
        XCTAssertEqual(FaceAnalyzer.turnFromRoll([f(roll: 72), f(roll: 99), f(roll: 83)]), 270, "lying clockwise: turn back anticlockwise")
        XCTAssertEqual(FaceAnalyzer.turnFromRoll([f(roll: -95)]), 90)
        XCTAssertEqual(FaceAnalyzer.turnFromRoll([f(roll: 170), f(roll: -175)]), 180)
        XCTAssertNil(FaceAnalyzer.turnFromRoll([f(roll: 90), f(roll: 2), f(roll: -3)]), "one person lying down among upright ones")
        XCTAssertNil(FaceAnalyzer.turnFromRoll([f(roll: 90, presence: 0.2)]), "a face the mesh does not believe")
    }

    func testTurningAnImageMovesEachPixelWhereItBelongs() {
        // 3×2: pixel values 0…5 in the red channel.
        let rgb: [UInt8] = (0..<6).flatMap { i -> [UInt8] in [UInt8(i), 0, 0] }
        let img = AnalysisImage(width: 3, height: 2, rgb: rgb)
        func red(_ i: AnalysisImage) -> [UInt8] { stride(from: 0, to: i.rgb.count, by: 3).map { i.rgb[$0] } }
        let cw = FaceAnalyzer.rotated(img, clockwise: 90)
        XCTAssertEqual([cw.width, cw.height], [2, 3])
        XCTAssertEqual(red(cw), [3, 0, 4, 1, 5, 2])
        XCTAssertEqual(red(FaceAnalyzer.rotated(img, clockwise: 180)), [5, 4, 3, 2, 1, 0])
        XCTAssertEqual(red(FaceAnalyzer.rotated(img, clockwise: 270)), [2, 5, 1, 4, 0, 3])
    }

    /// The shipped pipelines name faces, which only a program with the faces layer knows.
    func testShippedPipelinesParse() throws {
        FacesFeature.register(sessions: ModelSessions(store: ModelStore(root: NSTemporaryDirectory() + "pc-none-\(getpid())"), threads: 1))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["trip.yml", "nightly.yml"] {
            let def = try PipelineDefinition.load(path: root.appendingPathComponent("pipelines/\(name)").path)
            XCTAssertFalse(def.name.isEmpty)
        }
        let trip = try PipelineDefinition.load(path: root.appendingPathComponent("pipelines/trip.yml").path)
        XCTAssertEqual(trip.parameters("cluster")["similarity"], 0.75)
        XCTAssertEqual(trip.parameters("cluster")["timeWindow"], 600)
        XCTAssertEqual(trip.parameters("select").int("top"), 20)
        XCTAssertTrue(trip.analyzers.contains("faces"))
        XCTAssertEqual(trip.parameters("faces")["eyesClosedBelow"], 0.45)
    }

    static func keyWithoutFingerprint(_ a: FaceAnalyzer) -> String {
        var h = StableHash()
        h.combine(a.parameters.canonical)
        h.combine("u")
        return h.hex
    }
}
