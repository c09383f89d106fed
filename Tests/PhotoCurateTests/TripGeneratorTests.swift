import Foundation
import PhotoCurate
import PhotoCurateBench
import PhotoCurateTestSupport
import XCTest

final class TripGeneratorTests: XCTestCase {
    func testSameSeedSameBytesAndLabelsAreConsistent() async throws {
        let root = try temporaryDirectory("photocurate-gen")
        try FixtureFactory.sources(count: 3, in: root + "/sources", width: 480, height: 360)
        func generate(_ out: String, seed: UInt64) async throws -> TripLabels {
            var g = TripGenerator(sources: root + "/sources", out: out, seed: seed)
            g.scenes = 4
            g.longEdge = 320
            g.corruptFiles = 3
            return try await g.generate()
        }
        let a = try await generate(root + "/a", seed: 9)
        _ = try await generate(root + "/b", seed: 9)
        _ = try await generate(root + "/c", seed: 10)
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/a/photos").sorted()
        XCTAssertEqual(names.count, a.files.count)
        for n in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/a/photos/" + n)),
                           try Data(contentsOf: URL(fileURLWithPath: root + "/b/photos/" + n)), "\(n) differs between runs with one seed")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/a/labels.json")), try Data(contentsOf: URL(fileURLWithPath: root + "/b/labels.json")))
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/a/labels.json")), try Data(contentsOf: URL(fileURLWithPath: root + "/c/labels.json")))

        // Labels match the files: EXIF where labelled, Orientation as labelled, corrupt files unreadable.
        let importer = PhotoImporter(decoder: Decoder(longEdge: 128))
        for (name, label) in a.files {
            let path = root + "/a/photos/" + name
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).int64Value
            let file = PhotoFile(path: path, size: size, mtimeNs: 0)
            if label.corrupt {
                if label.corruption != "garbage" { XCTAssertThrowsError(try importer.load(file, decode: true), name) }
                continue
            }
            let facts = try importer.facts(for: file)
            XCTAssertEqual(facts.timeTrusted, label.has_exif, name)
            XCTAssertEqual(facts.hasGPS, label.has_gps, name)
            XCTAssertEqual(facts.orientation, label.orientation, name)
            XCTAssertEqual(label.degradation == nil || label.shot != nil, true)
        }
        // Every burst keeps at least one clean shot.
        let scenes = Dictionary(grouping: a.files.values.filter { !$0.corrupt }, by: { $0.scene! })
        for (_, shots) in scenes { XCTAssertTrue(shots.contains { $0.degradation == nil }) }
    }

    /// The edge range draws every fault just over the spec's threshold, and nothing else.
    func testEdgeRangeStaysJustOverEachThreshold() async throws {
        let root = try temporaryDirectory("photocurate-gen-edge")
        try FixtureFactory.sources(count: 4, in: root + "/sources", width: 320, height: 240)
        var g = TripGenerator(sources: root + "/sources", out: root + "/trip", seed: 3)
        g.scenes = 8
        g.longEdge = 200
        g.corruptFiles = 0
        g.degradedFraction = 0.6
        g.range = .edge
        let labels = try await g.generate()
        XCTAssertEqual(labels.range, "edge")
        let faults = labels.files.values.compactMap(\.degradation)
        XCTAssertGreaterThan(faults.count, 5)
        let bounds: [String: ClosedRange<Double>] = ["blur": 0.5...0.65, "motion": 3...3.8, "noise": 8...9.5, "under": 1.7...1.9, "over": 1.7...1.9]
        for f in faults {
            XCTAssertTrue(bounds[f.kind]!.contains(f.strength), "\(f.kind) \(f.strength)")
            if f.kind == "noise" { XCTAssertTrue((3...4).contains(f.chroma ?? 0), "chroma \(f.chroma ?? 0)") }
        }
    }
}
