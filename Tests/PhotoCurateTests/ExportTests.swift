import Foundation
import PhotoCurate
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

    func testAtomicWriteReplacesWhole() throws {
        let dir = try temporaryDirectory("atomic")
        try AtomicFile.write("one", to: dir + "/f.txt")
        try AtomicFile.write("two", to: dir + "/f.txt")
        XCTAssertEqual(try String(contentsOfFile: dir + "/f.txt", encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["f.txt"], "no temporary files left")
    }
}
