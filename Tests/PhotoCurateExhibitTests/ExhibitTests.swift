import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import PhotoCurate
@testable import PhotoCurateExhibit
import PhotoCurateTestSupport

/// The exhibit of `fixtures/trip` (its artist.yml and works.yml were written for it), built once.
final class FixtureExhibit: @unchecked Sendable {
    static let shared = FixtureExhibit()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    private var built: (Manifest, String)?
    private var folder: String?
    private let lock = NSLock()

    /// A run of fixtures/trip with the exhibit stage, through the export seam as `photocurate run` does it.
    func build() throws -> (manifest: Manifest, folder: String) {
        lock.lock(); defer { lock.unlock() }
        if let built { return built }
        ExhibitFeature.register()
        var options = CurationRunner.Options(root: root + "/fixtures/trip")
        options.cachePath = nil
        // The real pipeline file, less faces (a layer this test does not load; no models in unit tests).
        let text = try String(contentsOfFile: root + "/pipelines/exhibit.yml", encoding: .utf8)
        options.pipeline = try PipelineDefinition.parse(text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("  faces:") }.joined(separator: "\n"), source: "pipelines/exhibit.yml")
        let sem = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<CurationRunner.Result, Error>!
        Task { result = await Result { try await CurationRunner(options: options).run() }; sem.signal() }
        sem.wait()
        let r = try result.get()
        let m = Manifest(r, startedAt: Date(), finishedAt: Date())
        let out = try FixtureFactory.temporaryDirectory("exhibit")
        folder = out
        // Shared by every test of the process, so removed when the process ends, not per test.
        atexit { FixtureExhibit.shared.folder.map { _ = try? FileManager.default.removeItem(atPath: $0) } }
        try Exporter(outDir: out).write(m, csv: false, contactSheet: false, stages: options.pipeline.outputStages, root: r.root)
        built = (m, out + "/exhibit")
        return built!
    }
}

extension Result where Failure == Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

final class ExhibitStageTests: XCTestCase {
    func testRunWritesTheProductSchemaFromFactsOnly() throws {
        let (m, folder) = try FixtureExhibit.shared.build()
        let ex = try Exhibit.load(folder: folder)
        XCTAssertEqual(ex.works.count, min(20, m.picks.count))
        XCTAssertEqual(ex.artist.name, "Marta Ruiz")
        // Titles come from works.yml; a photo without notes or metadata has none (never invented).
        let titled = Set(ex.works.map(\.title).filter { !$0.isEmpty })
        XCTAssertTrue(titled.isSubset(of: ["Maroon Moon", "Violet Evening", "Orange Sun on Green", "Copper Coin", "Green Tide", "Red Square", "Blue Lagoon", "Indigo Plate"]))
        for w in ex.works {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/" + w.imageName), w.imageName)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/thumbs/" + w.imageName))
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/context/\(w.id).txt"))
        }
        // Works follow the trip's time (untimed picks last, by rank), and a title goes with the photo works.yml gave it to.
        let byPath = Dictionary(m.photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        func time(_ p: Manifest.Pick) -> String? { byPath[p.path]?.facts.flatMap { $0.timeTrusted ? $0.captureTime : nil } }
        let inOrder = m.picks.prefix(20).sorted { a, b in
            switch (time(a), time(b)) {
            case let (x?, y?): return x != y ? x < y : a.rank < b.rank
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.rank < b.rank
            }
        }
        let notes = ["IMG_1020.jpg": "Maroon Moon", "IMG_1041.jpg": "Violet Evening", "IMG_1014.jpg": "Orange Sun on Green",
                     "IMG_1040.jpg": "Copper Coin", "IMG_1037.jpg": "Green Tide"]
        for (i, w) in ex.works.enumerated() {
            XCTAssertEqual(w.id, String(format: "work-%02d", i + 1))
            let file = (inOrder[i].path as NSString).lastPathComponent
            if let title = notes[file] { XCTAssertEqual(w.title, title, file) }
            if !w.title.isEmpty, let given = notes.first(where: { $0.value == w.title }) { XCTAssertEqual(given.key, file, w.title) }
        }
        // The undated photo (no EXIF) has no year, no date sentence and no camera.
        let undated = try XCTUnwrap(ex.works.first { $0.title == "Indigo Plate" })
        XCTAssertEqual(undated.year, "")
        XCTAssertEqual(undated.technique, "")
        XCTAssertFalse(undated.summary.contains("taken on"))
        // Editorials: the user's two groups first, then one per moment, kebab-case ids, every work once.
        XCTAssertEqual(Array(ex.editorials.prefix(2).map(\.id)), ["morning-crossings", "island-doors"])
        XCTAssertEqual(ex.editorials.flatMap(\.works).sorted(), ex.works.map(\.id).sorted())
        for e in ex.editorials {
            XCTAssertNotNil(e.id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression), e.id)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/editorials/" + e.cover))
            let detail = try JSONDecoder().decode(EditorialDetail.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/editorials/\(e.id).json")))
            for w in detail.works { XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/editorials/" + w.imageName), w.imageName) }
        }
        // Narration: 2–3 sentences, each one a sentence of the work's packet.
        for n in ex.narration {
            let packet = try String(contentsOfFile: folder + "/context/\(n.workId).txt", encoding: .utf8)
            let sentences = ContextPacket.split(n.text)
            XCTAssertTrue((1...3).contains(sentences.count), n.text)
            for s in sentences { XCTAssertTrue(packet.contains(s.trimmingCharacters(in: CharacterSet(charactersIn: "\"").union(.whitespaces)).dropLast()), "\(s) not in packet") }
        }
        let page = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        XCTAssertFalse(page.contains("https://"), "the page must not reach the network")
    }

    func testSameInputsSameBytes() throws {
        let (m, folder) = try FixtureExhibit.shared.build()
        let again = try scratchDirectory("exhibit-again")
        var stage = ExhibitStage(parameters: try Parameters(ExhibitStage.parameterSpecs))
        stage.artistFile = nil
        try stage.write(OutputContext(manifest: m, root: m.summary.root), into: again)
        for name in ["works.json", "artist.json", "editorials.json", "narration.json", "data.js", "context/work-01.txt", "work-01.jpg"] {
            XCTAssertEqual(FileManager.default.contents(atPath: folder + "/" + name), FileManager.default.contents(atPath: again + "/" + name), name)
        }
    }

    func testARunWithoutTheStageRemovesAStaleExhibit() throws {
        let (m, _) = try FixtureExhibit.shared.build()
        let out = try scratchDirectory("exhibit-stale")
        ExhibitFeature.register()
        try Exporter(outDir: out).write(m, csv: false, contactSheet: false,
                                        stages: [(ExhibitStage.plugin, try Parameters(ExhibitStage.parameterSpecs))], root: m.summary.root)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/exhibit/works.json"))
        try Exporter(outDir: out).write(m, csv: false, contactSheet: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/exhibit"), "an exhibit from an earlier run must not sit beside this run's manifest")
    }

    func testPipelineNamesTheStageAndChecksItsParameters() throws {
        ExhibitFeature.register()
        XCTAssertNotNil(StageCatalog.entry("exhibit"))
        let p = try PipelineDefinition.parse("name: t\nstages:\n  exhibit: { maxWorks: 5 }\n", source: "t.yml")
        XCTAssertEqual(p.outputStages.map(\.plugin.id), ["exhibit"])
        XCTAssertEqual(p.parameters("exhibit").int("maxWorks"), 5)
        XCTAssertTrue(PipelineDefinition.defaults().outputStages.isEmpty, "the exhibit runs only when a pipeline names it")
        XCTAssertThrowsError(try PipelineDefinition.parse("name: t\nstages:\n  exhibit: { maxWork: 5 }\n", source: "t.yml")) { e in
            XCTAssertTrue("\(e)".contains("t.yml:3") && "\(e)".contains("maxWorks"), "\(e)")
        }
    }
}

final class PhotoMetadataTests: XCTestCase {
    /// A JPEG with an XMP packet, IPTC-IIM and an EXIF description, as editors write them.
    func testReadsXMPIPTCAndEXIFWords() throws {
        var bytes = try FixtureFactory.jpeg(scene: 1, width: 64, height: 48)
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Burano" photoshop:Country="Italy">
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk</rdf:li></rdf:Alt></dc:title>
        <dc:subject><rdf:Bag><rdf:li>boats</rdf:li><rdf:li>photocurate/pick</rdf:li></rdf:Bag></dc:subject>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)
        func iptc(_ ds: UInt8, _ s: String) -> [UInt8] { let b = Array(s.utf8); return [0x1C, 2, ds, UInt8(b.count >> 8), UInt8(b.count & 255)] + b }
        let iim = iptc(120, "Boats back at the quay") + iptc(25, "harbour") + iptc(80, "Ana Souza")
        let irb = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + [0, 0, UInt8(iim.count >> 8), UInt8(iim.count & 255)] + iim + (iim.count % 2 == 1 ? [0] : [])
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] { [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body }
        bytes.insert(contentsOf: segment(0xE1, xmp) + segment(0xED, irb), at: 2)
        let dir = try scratchDirectory("meta")
        try FixtureFactory.write(bytes, to: dir + "/a.jpg")
        let m = PhotoMetadata.read(dir + "/a.jpg")
        XCTAssertEqual(m.title, "Harbour at dusk")
        XCTAssertEqual(m.description, "Boats back at the quay")
        XCTAssertEqual(m.creator, "Ana Souza")
        XCTAssertEqual(m.keywords, ["boats", "harbour"], "photocurate's own keywords are not the photographer's")
        XCTAssertEqual(m.place, ["Burano", "Italy"])
        // A sidecar beside the photo speaks last.
        try Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title><rdf:Alt><rdf:li>Quay at dusk</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
            .write(to: URL(fileURLWithPath: dir + "/a.jpg.xmp"))
        XCTAssertEqual(PhotoMetadata.read(dir + "/a.jpg").title, "Quay at dusk")
    }

    func testHostileOrEmptyFilesGiveNothing() throws {
        let dir = try scratchDirectory("meta-bad")
        try FixtureFactory.write([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45], to: dir + "/trunc.jpg")
        try FixtureFactory.write(Array("not an image".utf8), to: dir + "/text.jpg")
        try FixtureFactory.write([0xFF, 0xD8, 0xFF, 0xED, 0x00, 0x20] + Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [4, 4, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF], to: dir + "/irb.jpg")
        for name in ["trunc.jpg", "text.jpg", "irb.jpg", "missing.jpg"] { XCTAssertEqual(PhotoMetadata.read(dir + "/" + name), PhotoMetadata(), name) }
        XCTAssertNil(PhotoMetadata.clean("OLYMPUS DIGITAL CAMERA  "), "firmware text is not a description")
    }
}

final class UserFactsTests: XCTestCase {
    func testMistakesNameTheFileLineAndWhatIsAllowed() throws {
        let dir = try scratchDirectory("user")
        try "works:\n  a.jpg:\n    titel: X\n".write(toFile: dir + "/works.yml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try UserFacts.load(folder: dir)) { e in
            XCTAssertTrue("\(e)".contains("works.yml:3") && "\(e)".contains("allowed: title"), "\(e)")
        }
        try "editorials:\n  - id: Bad Id\n    photos: [a.jpg]\n".write(toFile: dir + "/works.yml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try UserFacts.load(folder: dir)) { e in XCTAssertTrue("\(e)".contains("kebab-case"), "\(e)") }
        try "name: [1, 2]\n".write(toFile: dir + "/artist.yml", atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: dir + "/works.yml")
        XCTAssertThrowsError(try UserFacts.load(folder: dir)) { e in XCTAssertTrue("\(e)".contains("'name' must be text"), "\(e)") }
    }
}

final class UnusedNotesTests: XCTestCase {
    /// Notes for a photo the run did not pick are said to be unused, naming the pick of its burst.
    func testNotesForAPhotoNotPickedAreReported() throws {
        let (m, _) = try FixtureExhibit.shared.build()
        let picked = Set(m.picks.map { ($0.path as NSString).lastPathComponent })
        let pick = try XCTUnwrap(m.photos.first { picked.contains(($0.path as NSString).lastPathComponent) && $0.cluster != nil })
        let sibling = try XCTUnwrap(m.photos.first { $0.cluster == pick.cluster && !picked.contains(($0.path as NSString).lastPathComponent) })
        let dir = try scratchDirectory("unused-notes")
        try "works:\n  \(sibling.relativePath):\n    title: Not Shown\n  \(pick.relativePath):\n    title: Shown\n"
            .write(toFile: dir + "/works.yml", atomically: true, encoding: .utf8)
        let plan = ExhibitBuilder(maxWorks: 20).build(m, metadata: { _ in PhotoMetadata() }, user: try UserFacts.load(folder: dir))
        XCTAssertEqual(plan.unusedNotes.count, 1)
        XCTAssertEqual(plan.unusedNotes.first?.file, sibling.relativePath)
        XCTAssertEqual(plan.unusedNotes.first?.pickedInstead, pick.relativePath)
        XCTAssertTrue(plan.exhibit.works.contains { $0.title == "Shown" })
        XCTAssertFalse(plan.exhibit.works.contains { $0.title == "Not Shown" })
    }
}

final class CuratorTests: XCTestCase {
    struct QuestionSet: Decodable {
        struct Q: Decodable { var q: String; var expect: String? }
        var answerable: [Q]
        var unanswerable: [Q]
    }

    /// Grounding on the fixture's question set (the targets: ≥ 90 % answered with the right sentence,
    /// ≥ 95 % of the unanswerable get "I don't know", and no answer says what the packets do not).
    func testAnswersOnlyFromThePackets() throws {
        let (_, folder) = try FixtureExhibit.shared.build()
        let curator = try Curator(exhibit: Exhibit.load(folder: folder))
        let set = try JSONDecoder().decode(QuestionSet.self, from: Data(contentsOf: URL(fileURLWithPath: FixtureExhibit.shared.root + "/fixtures/exhibit-questions.json")))
        let packets = try (FileManager.default.contentsOfDirectory(atPath: folder + "/context")).map { try String(contentsOfFile: folder + "/context/" + $0, encoding: .utf8) }.joined()
        var right = 0, known = 0
        for q in set.answerable {
            let a = curator.ask(q.q)
            if let e = q.expect { if a.known && a.answer.contains(e) { right += 1 } } else if !a.known { right += 1 }
            for s in a.sources { XCTAssertTrue(curator.sentences.contains(s.sentence)) }
            // Every sentence it says is a packet's sentence (the packets carry the same facts as fields).
            for s in a.sources where s.workId != nil {
                // Field sentences ("work-08 is titled \"X\".") restate one packet line; the rest are packet sentences verbatim.
                let value: String
                if let r = s.sentence.range(of: #"(is titled |is from |is: |are: )"#, options: .regularExpression) {
                    value = String(s.sentence[r.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: ".\" "))
                } else { value = s.sentence }
                XCTAssertTrue(packets.contains(value), s.sentence)
            }
        }
        for q in set.unanswerable where curator.ask(q.q).known { known += 1 }
        let answered = Double(right) / Double(set.answerable.count), refused = 1 - Double(known) / Double(set.unanswerable.count)
        print("curator on fixtures/exhibit-questions.json: answered \(right)/\(set.answerable.count), refused \(set.unanswerable.count - known)/\(set.unanswerable.count)")
        XCTAssertGreaterThanOrEqual(answered, 0.9)
        XCTAssertGreaterThanOrEqual(refused, 0.95)
        XCTAssertEqual(curator.ask("").answer, Curator.unknown)
        XCTAssertEqual(curator.ask(String(repeating: "camera ", count: 1000)).answer, Curator.unknown)
    }

    /// "What is the X?" is answered by the sentence that says what X is, not by one that only shows it.
    func testWhatIsQuestionsAreAnsweredByADefinition() throws {
        XCTAssertEqual(Curator.definitionHead("What is the orange circle?"), "circle")
        XCTAssertEqual(Curator.definitionHead("what was the red square in Red Square"), "square")
        XCTAssertNil(Curator.definitionHead("What colour is the wall?"))
        XCTAssertTrue(Curator.defines("The square is a window shutter on Pellestrina.", head: "square"))
        XCTAssertFalse(Curator.defines("A red square and an orange bar cross over a pink wall.", head: "square"))
        let (_, folder) = try FixtureExhibit.shared.build()
        let curator = try Curator(exhibit: Exhibit.load(folder: folder))
        let a = curator.ask("What is the orange circle?")
        XCTAssertTrue(a.known && a.answer.contains("The orange circle is a buoy"), a.answer)
    }

    /// A colour is asked of a thing, a place by its kind, and a clause can name an event without asking for its field.
    func testColoursPlacesAndEvents() throws {
        XCTAssertEqual(Curator.definitionHead("What is the pale shape under the orange circle?"), "shape")
        let (_, folder) = try FixtureExhibit.shared.build()
        let curator = try Curator(exhibit: Exhibit.load(folder: folder))
        func answer(_ q: String) -> String { curator.ask(q).answer }
        // The story names the boats' colour without the word "colour".
        XCTAssertTrue(answer("What colour are the boats on Pellestrina?").contains("painted the same red as the boats"))
        // The work's colours are not the boats' colour.
        XCTAssertEqual(answer("What colour were the boats behind the sign?"), Curator.unknown)
        XCTAssertTrue(answer("Which city does Marta Ruiz come from?").contains("from Valencia"))
        XCTAssertTrue(answer("What was Marta waiting for before she took Maroon Moon?").contains("waited for the shadow"))
        // The file's pixel size is not the size of a thing in the picture.
        XCTAssertEqual(answer("How big is the buoy?"), Curator.unknown)
        XCTAssertEqual(answer("Is Maroon Moon her best work?"), Curator.unknown)
        // A burst's "best of 5" is the selection's, not the artist's best work.
        XCTAssertEqual(answer("Is Green Tide Marta's best work?"), Curator.unknown)
        // A time is asked: the artist's name (who "made" it) does not answer it.
        XCTAssertEqual(answer("When was Indigo Plate made?"), Curator.unknown)
        // A town is a named place, not coordinates; a count counts the thing asked about.
        XCTAssertTrue(answer("What town is seen in Violet Evening?").contains("over Chioggia"))
        XCTAssertTrue(answer("How many photos are in the Red Square moment?").contains("a moment of 5 photos"))
        XCTAssertEqual(answer("How many boats passed behind the sign?"), Curator.unknown)
        // The selection's reasons answer why a work was chosen, not why its arc is red.
        XCTAssertEqual(answer("Why is the arc in Indigo Plate red?"), Curator.unknown)
        XCTAssertTrue(answer("Where was the buoy hanging?").contains("buoy hung on a shed"))
        // A place the question asks about does not answer where it is; a name must be in the work's packet.
        XCTAssertEqual(answer("Where is Valencia?"), Curator.unknown)
        XCTAssertEqual(answer("Why did Marta leave Valencia?"), Curator.unknown)
        // A sentence that places nothing does not say what is behind something; a tag list colours nothing.
        XCTAssertEqual(answer("What is behind the shutter?"), Curator.unknown)
        XCTAssertEqual(answer("What colour is the ferry?"), Curator.unknown)
        XCTAssertEqual(answer("What colour is the shed?"), Curator.unknown)
        // The artist's own statement answers a question about her that names no work.
        XCTAssertTrue(answer("What does Marta paint with?").contains("paints with the camera"))
        // …but "the story behind this" asks for the story of the work on screen.
        XCTAssertTrue(curator.ask("What is the story behind this?", workId: "work-02").answer.contains("waited for the shadow"))
    }

    func testCausesPeopleAndPlacesInThePicture() throws {
        let (_, folder) = try FixtureExhibit.shared.build()
        let curator = try Curator(exhibit: Exhibit.load(folder: folder))
        func answer(_ q: String) -> String { curator.ask(q).answer }
        // "Take place" asks when, and "includes" names no fact: neither makes the question unknown.
        XCTAssertTrue(answer("In which month did the walk take place?").contains("June"))
        XCTAssertTrue(answer("Which editorial includes Green Tide?").contains("Island doors"))
        // A cause must be of what is asked: tilting the camera does not make the wall green.
        XCTAssertEqual(answer("Why is the wall in Green Tide green?"), Curator.unknown)
        XCTAssertEqual(answer("Why is the buoy orange?"), Curator.unknown)
        XCTAssertTrue(answer("Why did Marta tilt the camera for Green Tide?").contains("to keep the wall's edge"))
        // …but a colour that only says which thing is meant is not what is asked.
        XCTAssertTrue(answer("Why did Marta wait before photographing the maroon disc?").contains("waited for the shadow"))
        XCTAssertEqual(answer("Why is the disc in Maroon Moon maroon?"), Curator.unknown)
        // An order the sentence must say: her first camera is not the camera of a work; "the
        // last photograph" picks a work by its order, and that work's time answers when.
        XCTAssertEqual(answer("What was Marta's first camera?"), Curator.unknown)
        XCTAssertTrue(answer("When was the last photograph of the walk taken?").contains("19:54"))
        XCTAssertTrue(answer("Which editorial holds Violet Evening?").contains("19:54"))
        // Someone with her is someone else; her biography answers who she is.
        XCTAssertEqual(answer("Who was with Marta on the walk?"), Curator.unknown)
        XCTAssertTrue(answer("Who is Marta Ruiz?").contains("graphic designer"))
        // Where in the frame: the description places it.
        XCTAssertTrue(answer("Where is the orange circle in the frame?").contains("sits high on a green gradient"))
        // "Colours" in passing asks no colour; "which works" is answered by a work.
        XCTAssertTrue(answer("What did Marta say about the lagoon's colours?").contains("lends its colours"))
        XCTAssertEqual(answer("Which works did Marta exhibit in Valencia?"), Curator.unknown)
        // A photo's date is not the time of another event; "what time" wants a clock time.
        XCTAssertEqual(answer("What time did the boats pass the sign?"), Curator.unknown)
        XCTAssertEqual(answer("When did the shadow leave the door?"), Curator.unknown)
        XCTAssertTrue(answer("What time was Violet Evening taken?").contains("19:54"))
        // The colour asked is of the thing after "colour", not the artist; the reasons are photocurate's, not hers.
        XCTAssertEqual(answer("What colour is Marta's camera?"), Curator.unknown)
        XCTAssertEqual(answer("Why did Marta choose Chioggia?"), Curator.unknown)
        XCTAssertTrue(answer("What kind of shapes does Marta hunt for?").contains("circles and squares"))
        // Technique is not the camera's settings.
        XCTAssertEqual(answer("Which camera settings were used for Green Tide?"), Curator.unknown)
    }

    func testTheWorkOnScreenAnswersThis() throws {
        let (_, folder) = try FixtureExhibit.shared.build()
        let ex = try Exhibit.load(folder: folder)
        let curator = try Curator(exhibit: ex)
        let w = try XCTUnwrap(ex.works.first { $0.title == "Red Square" })
        let a = curator.ask("What is the quote for this?", workId: w.id)
        XCTAssertFalse(a.known, "Red Square has no quote: \(a.answer)")
        let b = curator.ask("What is the story?", workId: w.id)
        XCTAssertTrue(b.answer.contains("window shutter on Pellestrina"), b.answer)
    }
}

final class LLMCuratorTests: XCTestCase {
    final class Stub: @unchecked Sendable {
        var requests: [URLRequest] = []
        var reply: (Data, Int) = (Data(), 200)
        var fail = false
    }

    func llm(_ stub: Stub) throws -> LLMCurator {
        let (_, folder) = try FixtureExhibit.shared.build()
        let curator = try Curator(exhibit: Exhibit.load(folder: folder))
        return LLMCurator(curator: curator, endpoint: URL(string: "http://127.0.0.1:9/v1")!, model: "m", apiKey: "k") { req in
            stub.requests.append(req)
            if stub.fail { throw URLError(.timedOut) }
            return stub.reply
        }
    }

    static func reply(_ s: String) -> Data { try! JSONSerialization.data(withJSONObject: ["choices": [["message": ["role": "assistant", "content": s]]]]) }

    func testGroundedAnswersPassAndInventedOnesAreRefused() async throws {
        let stub = Stub()
        let llm = try llm(stub)
        stub.reply = (Self.reply("The square is a window shutter on Pellestrina, painted the same red as the boats."), 200)
        var a = await llm.ask("What is Red Square?", workId: nil, history: [])
        XCTAssertTrue(a.known)
        XCTAssertEqual(a.sources.first?.field, "story")
        let body = try XCTUnwrap(stub.requests.last?.httpBody)
        let sent = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        let system = ((sent["messages"] as? [[String: String]])?.first?["content"]) ?? ""
        XCTAssertTrue(system.contains("ONLY the exhibit context") && system.contains("[Exhibit Context]") && system.contains("[Work: work-"))
        XCTAssertEqual(stub.requests.last?.url?.path, "/v1/chat/completions")
        XCTAssertEqual(stub.requests.last?.value(forHTTPHeaderField: "Authorization"), "Bearer k")
        // A number the packets do not have, or words they do not say: refused.
        stub.reply = (Self.reply("Red Square sold for 4000 euros in 2019."), 200)
        a = await llm.ask("What did Red Square sell for?", workId: nil, history: [])
        XCTAssertEqual(a.answer, Curator.unknown)
        stub.reply = (Self.reply("It shows the Eiffel Tower at night under heavy rain."), 200)
        a = await llm.ask("What is Red Square?", workId: nil, history: [])
        XCTAssertFalse(a.known)
        // A failing or malformed endpoint: the retrieval curator answers instead.
        stub.fail = true
        a = await llm.ask("Who is the artist?", workId: nil, history: [])
        XCTAssertTrue(a.answer.contains("Marta Ruiz"))
        stub.fail = false
        stub.reply = (Data("<html>".utf8), 200)
        a = await llm.ask("Who is the artist?", workId: nil, history: [])
        XCTAssertTrue(a.answer.contains("Marta Ruiz"))
        stub.reply = (Self.reply("x"), 503)
        a = await llm.ask("What is the price?", workId: nil, history: [])
        XCTAssertFalse(a.known)
    }

    func testHistoryIsTrimmedAsTheProductDoes() {
        let h = (0..<7).map { LLMCurator.Message(role: $0 % 2 == 0 ? "user" : "assistant", content: "m\($0)") }
        XCTAssertEqual(LLMCurator.trimmed(Array(h.prefix(6))).count, 6)
        XCTAssertEqual(LLMCurator.trimmed(h).map(\.content), ["m5", "m6"])
    }
}

final class VoiceTests: XCTestCase {
    func testWavLengthFromItsHeader() throws {
        // 0.5 s of 16-bit mono at 22050 Hz.
        var b: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 255) } }
        b += le32(22050) + le32(44100) + [2, 0, 16, 0] + Array("data".utf8) + le32(22050) + [UInt8](repeating: 0, count: 22050)
        let dir = try scratchDirectory("wav")
        try FixtureFactory.write(b, to: dir + "/a.wav")
        XCTAssertEqual(try XCTUnwrap(Voice.wavSeconds(dir + "/a.wav")), 0.5, accuracy: 1e-9)
        try FixtureFactory.write(Array("RIFF....WAVE".utf8), to: dir + "/b.wav")
        XCTAssertNil(Voice.wavSeconds(dir + "/b.wav"))
        XCTAssertThrowsError(try Voice(executable: "/nonexistent/espeak-ng").speak("x", to: dir + "/c.wav")) { e in
            XCTAssertTrue("\(e)".contains("apt-get install espeak-ng"), "\(e)")
        }
    }
}

extension XCTestCase {
    /// A fresh directory that is removed when the test ends.
    func scratchDirectory(_ name: String) throws -> String {
        let dir = try FixtureFactory.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}
