import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

final class ExportTests: XCTestCase {
    func testXMPMergeKeepsUserFieldsAndReplacesOurs() throws {
        let existing = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
          xmlns:darktable="http://darktable.sf.net/" darktable:history_end="3" xmp:Rating="1">
        <dc:subject><rdf:Bag><rdf:li>holiday</rdf:li><rdf:li>photocurate/pick</rdf:li></rdf:Bag></dc:subject>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
        let w = XMPSidecarWriter()
        let out = String(decoding: try w.render(.init(rating: 5, label: "Green", keywords: ["photocurate", "photocurate/group/2"]), merging: Data(existing.utf8)), as: UTF8.self)
        XCTAssertTrue(out.contains("xmp:Rating=\"5\""), out)
        XCTAssertFalse(out.contains("xmp:Rating=\"1\""), out)
        XCTAssertTrue(out.contains("darktable:history_end=\"3\""), "unrelated fields survive")
        XCTAssertTrue(out.contains("holiday"))
        XCTAssertTrue(out.contains("photocurate/group/2"))
        XCTAssertFalse(out.contains("photocurate/pick"), "our old keywords are replaced")
        let fresh = String(decoding: try w.render(.init(rating: -1, label: "Red", keywords: ["photocurate"]), merging: nil), as: UTF8.self)
        XCTAssertTrue(fresh.contains("xmp:Rating=\"-1\""))
        XCTAssertEqual(w.sidecarPath(for: "/p/a.jpg"), "/p/a.jpg.xmp")
        XCTAssertEqual(XMPSidecarWriter(adobeNames: true).sidecarPath(for: "/p/a.jpg"), "/p/a.xmp")
    }

    /// Sidecars must be well-formed XML: exiv2 (digiKam, darktable, gThumb, Shotwell) refuses an
    /// XML declaration after the packet instruction. Merged darktable and digiKam sidecars stay whole.
    func testSidecarsAreWellFormedAndStaySoWhenMerged() throws {
        let w = XMPSidecarWriter()
        func wellFormed(_ data: Data, _ label: String) throws {
            let text = String(decoding: data, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("<?xpacket begin="), label)
            XCTAssertFalse(text.contains("<?xml"), "\(label): no XML declaration after the packet instruction")
            XCTAssertEqual(text.components(separatedBy: "<?xpacket").count - 1, 2, "\(label): one packet, begin and end")
            // A strict SAX parse: any well-formedness error fails it.
            let parser = XMLParser(data: data)
            XCTAssertTrue(parser.parse(), "\(label): \(parser.parserError.map { "\($0)" } ?? "")")
        }
        let fresh = try w.render(.init(rating: 4, label: "Green", keywords: ["photocurate"], orientation: 6), merging: nil)
        try wellFormed(fresh, "fresh")
        XCTAssertTrue(String(decoding: fresh, as: UTF8.self).contains("tiff:Orientation=\"6\""))
        let darktable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/"
            xmp:Rating="2" darktable:xmp_version="5" darktable:history_end="1">
           <darktable:history><rdf:Seq><rdf:li darktable:operation="exposure" darktable:enabled="1"/></rdf:Seq></darktable:history>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """
        let digikam = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:digiKam="http://www.digikam.org/ns/1.0/">
        <digiKam:TagsList><rdf:Seq><rdf:li>Family/Anna</rdf:li></rdf:Seq></digiKam:TagsList></rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
        // What photocurate 0.1 wrote: a declaration after the packet instruction.
        let old = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:subject><rdf:Bag><rdf:li>mine</rdf:li></rdf:Bag></dc:subject>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>\n"
        XCTAssertFalse(XMLParser(data: Data(old.utf8)).parse(), "the strict parse does refuse the old form")
        for (name, existing, kept) in [("darktable", darktable, "darktable:operation=\"exposure\""), ("digiKam", digikam, "Family/Anna"), ("photocurate 0.1", old, "mine")] {
            let once = try w.render(.init(rating: 5, label: "Green", keywords: ["photocurate"]), merging: Data(existing.utf8))
            try wellFormed(once, name)
            let twice = try w.render(.init(rating: 5, label: "Green", keywords: ["photocurate"]), merging: once)
            try wellFormed(twice, "\(name), merged twice")
            XCTAssertTrue(String(decoding: twice, as: UTF8.self).contains(kept), "\(name): the user's fields are kept")
            XCTAssertEqual(once, twice, "\(name): merging again changes nothing")
        }
    }

    func testAtomicWriteReplacesWhole() throws {
        let dir = try temporaryDirectory("atomic")
        try AtomicFile.write("one", to: dir + "/f.txt")
        try AtomicFile.write("two", to: dir + "/f.txt")
        XCTAssertEqual(try String(contentsOfFile: dir + "/f.txt", encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["f.txt"], "no temporary files left")
    }
}

/// The output folder holds one run's set of files, written by one run at a time.
final class OutputSetTests: XCTestCase {
    func testASecondRunOnOneFolderIsRefusedWithTheFirstOnesPid() throws {
        let dir = try temporaryDirectory()
        let first = try OutputLock(folder: dir)
        XCTAssertThrowsError(try OutputLock(folder: dir)) { e in
            XCTAssertTrue("\(e)".contains("pid \(getpid())"), "\(e)")
            XCTAssertTrue("\(e)".contains("choose another --out"), "\(e)")
        }
        withExtendedLifetime(first) {}
    }

    /// A run refused in the moment between the holder's lock and its pid still names the pid.
    func testARunRefusedBeforeTheHolderWroteItsPidStillNamesIt() throws {
        let dir = try temporaryDirectory(), path = dir + "/.photocurate.lock"
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        defer { flock(fd, LOCK_UN); close(fd) }
        let writer = Thread { usleep(50_000); _ = "4242\n".withCString { write(fd, $0, 5) } }
        writer.start()
        XCTAssertThrowsError(try OutputLock(folder: dir)) { e in XCTAssertTrue("\(e)".contains("(pid 4242)"), "\(e)") }
    }

    func testOutputsFromAnEarlierRunDoNotOutliveIt() async throws {
        let dir = try temporaryDirectory()
        for k in 0..<2 { try FixtureFactory.write(try FixtureFactory.jpeg(scene: k, width: 320, height: 240), to: dir + "/in/p\(k).jpg") }
        var o = CurationRunner.Options(root: dir + "/in")
        o.cachePath = nil
        let m = Manifest(try await CurationRunner(options: o).run(), startedAt: Date(), finishedAt: Date())
        let out = dir + "/out"
        try Exporter(outDir: out).write(m, csv: true, contactSheet: true, picks: .copy)
        for f in ["manifest.json", "manifest.csv", "contact-sheet.jpg", "picks"] { XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + f), f) }
        try Exporter(outDir: out).write(m, csv: false, contactSheet: false, picks: nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(left, ["manifest.json"], "the contact sheet, CSV and picks of the earlier run are gone; no staging is left")
    }

    /// The manifest is streamed photo by photo (a 10,000-photo run's peak memory);
    /// its bytes must stay those of the one-piece encoding, whatever the strings hold.
    func testStreamedManifestHasTheOnePieceBytes() async throws {
        let dir = try temporaryDirectory()
        for k in 0..<3 { try FixtureFactory.write(try FixtureFactory.jpeg(scene: k, width: 320, height: 240), to: dir + "/in/p\(k).jpg") }
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: dir + "/in/broken.jpg"))
        var o = CurationRunner.Options(root: dir + "/in")
        o.cachePath = nil
        var m = Manifest(try await CurationRunner(options: o).run(), startedAt: Date(), finishedAt: Date())
        XCTAssertEqual(m.photos.count, 4)
        m.photos[0].reasons.append("a line\nbreak, a \"quote\", a ] bracket, ünïcødé and a tab\t")
        for (label, manifest) in [("photos", m), ("no photos", { var e = m; e.photos = []; return e }())] {
            try manifest.write(to: dir + "/m.json")
            let streamed = try Data(contentsOf: URL(fileURLWithPath: dir + "/m.json"))
            XCTAssertEqual(streamed, try manifest.json(), label)
            XCTAssertEqual(try Manifest.read(dir + "/m.json").photos.count, manifest.photos.count, label)
        }
    }
}
