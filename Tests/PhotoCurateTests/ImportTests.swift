import Foundation
import PhotoCurate
import PhotoCurateBench
import PhotoCurateTestSupport
import XCTest

final class ImportTests: XCTestCase {
    func file(_ path: String) throws -> PhotoFile {
        let a = try FileManager.default.attributesOfItem(atPath: path)
        return PhotoFile(path: path, size: (a[.size] as! NSNumber).int64Value, mtimeNs: Int64((a[.modificationDate] as! Date).timeIntervalSince1970 * 1e9))
    }

    func testExifRoundTripThroughLibexif() throws {
        var f = FixtureFactory.exif(time: "2024:06:01 14:02:07", offset: "-05:00", lat: -33.8567844, lon: 151.2152967, orientation: 6)
        f.subSecTimeOriginal = "25"
        f.altitude = 12.5
        let fields = ExifReader.read(ExifWriter.block(f))
        XCTAssertEqual(fields.dateTimeOriginal, "2024:06:01 14:02:07")
        XCTAssertEqual(fields.offsetTimeOriginal, "-05:00")
        XCTAssertEqual(fields.subSecTimeOriginal, "25")
        XCTAssertEqual(fields.latitude!, -33.8567844, accuracy: 1e-6)
        XCTAssertEqual(fields.longitude!, 151.2152967, accuracy: 1e-6)
        XCTAssertEqual(fields.altitude!, 12.5, accuracy: 1e-6)
        XCTAssertEqual(fields.orientation, 6)
        XCTAssertEqual(fields.make, "Fixture")
        XCTAssertEqual(fields.model, "Factory 1")
    }

    func testCaptureTimeWithOffsetAndSubseconds() {
        let t = CaptureTime.parse("2021:04:11 15:47:53", offset: "-05:00", subSeconds: "054")!
        XCTAssertEqual(t.iso, "2021-04-11T15:47:53.054-05:00")
        XCTAssertEqual(t.epoch, 1_618_174_073.054, accuracy: 1e-6)  // 20:47:53.054 UTC
        XCTAssertNil(CaptureTime.parse("0000:00:00 00:00:00", offset: nil, subSeconds: nil))
        XCTAssertNil(CaptureTime.parse("    :  :     :  :  ", offset: nil, subSeconds: nil))
        XCTAssertEqual(CaptureTime.iso(epoch: 0), "1970-01-01T00:00:00Z")
    }

    func testClockLabelSaysWhenTheZoneIsUnknown() {
        let zoned = CaptureTime.parse("2021:04:11 15:47:53", offset: "-05:00", subSeconds: "054")!.iso
        let utc = CaptureTime.parse("2021:04:11 15:47:53", offset: "+00:00", subSeconds: nil)!.iso
        let bare = CaptureTime.parse("2021:04:11 15:47:53", offset: nil, subSeconds: "5")!.iso
        XCTAssertEqual(CaptureTime.clockLabel(iso: zoned), "15:47")
        XCTAssertEqual(CaptureTime.clockLabel(iso: utc), "15:47")
        XCTAssertEqual(CaptureTime.clockLabel(iso: bare), "15:47 (time zone unknown)")
        XCTAssertTrue(CaptureTime.hasOffset(iso: "2021-04-11T15:47:53+02:00"))
        XCTAssertFalse(CaptureTime.hasOffset(iso: "2021-04-11T15:47:53"))
    }

    func testImportReadsFactsAndDecodesUpright() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/rotated.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 1, width: 640, height: 480,
                                                         exif: FixtureFactory.exif(time: "2024:06:01 10:00:00", lat: 48.8584, lon: 2.2945, orientation: 6)), to: path)
        let (facts, image) = try PhotoImporter(decoder: Decoder(longEdge: 320)).load(try file(path), decode: true)
        XCTAssertEqual(facts.orientation, 6)
        XCTAssertEqual(facts.pixelWidth, 480)    // stored rotated
        XCTAssertEqual(facts.pixelHeight, 640)
        XCTAssertEqual(image!.width, 320)        // upright again: landscape
        XCTAssertEqual(image!.height, 240)
        XCTAssertEqual(facts.captureTime, "2024-06-01T10:00:00+01:00")
        XCTAssertTrue(facts.timeTrusted)
        XCTAssertEqual(facts.latitude!, 48.8584, accuracy: 1e-6)
        XCTAssertEqual(facts.format, "jpegload")
    }

    func testMissingTimeFallsBackToMtimeUntrusted() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/noexif.jpg"
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 2, width: 320, height: 240), to: path)
        let facts = try PhotoImporter().facts(for: try file(path))
        XCTAssertEqual(facts.timeSource, "mtime")
        XCTAssertFalse(facts.timeTrusted)
        XCTAssertNotNil(facts.captureEpoch)
        XCTAssertFalse(facts.hasGPS)
    }

    func testBadFilesGiveNamedErrors() throws {
        let dir = try temporaryDirectory()
        let good = try FixtureFactory.jpeg(scene: 3, width: 320, height: 240)
        try FixtureFactory.write([], to: dir + "/empty.jpg")
        try FixtureFactory.write(Array("not a photo".utf8), to: dir + "/text.jpg")
        try FixtureFactory.write(Array(good.prefix(good.count / 3)), to: dir + "/truncated.jpg")
        let importer = PhotoImporter(decoder: Decoder(longEdge: 256, maxPixels: 1_000))
        func kind(_ name: String) -> String? {
            do { _ = try importer.load(try file(dir + "/" + name), decode: true); return nil } catch let e as PhotoError {
                XCTAssertTrue(e.description.hasPrefix(dir + "/" + name), "error names the file: \(e)")
                return e.kind
            } catch { return "other" }
        }
        XCTAssertEqual(kind("empty.jpg"), "empty")
        XCTAssertEqual(kind("text.jpg"), "not-an-image")
        try FixtureFactory.write(good, to: dir + "/big.jpg")
        XCTAssertEqual(kind("big.jpg"), "too-large")  // 76,800 px over a 1,000 px limit
        let lenient = PhotoImporter(decoder: Decoder(longEdge: 256))
        XCTAssertThrowsError(try lenient.load(try file(dir + "/truncated.jpg"), decode: true)) { e in
            XCTAssertEqual((e as? PhotoError)?.kind, "corrupt")
        }
    }

    func testScannerSkipsHiddenSurvivesLoopsAndSorts() throws {
        let dir = try temporaryDirectory()
        let jpeg = try FixtureFactory.jpeg(scene: 4, width: 64, height: 48)
        for p in ["b/2.jpg", "a/1.JPG", "c.png", ".hidden/x.jpg", "a/.y.jpg", "notes.txt"] { try FixtureFactory.write(jpeg, to: dir + "/" + p) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/loop", withDestinationPath: dir)
        let found = try FolderScanner().scan(dir).files.map { String($0.path.dropFirst(dir.count + 1)) }
        XCTAssertEqual(found, ["a/1.JPG", "b/2.jpg", "c.png"])
    }

    func testMalformedExifNeverCrashes() {
        var rng = SeededRandom(seed: 42)
        let valid = ExifWriter.block(FixtureFactory.exif(time: "2024:01:01 00:00:00", lat: 1, lon: 2, orientation: 3))
        for _ in 0..<200 {
            var b = valid
            for _ in 0..<8 { b[rng.int(6...(b.count - 1))] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = ExifReader.read(Array(b.prefix(rng.int(0...b.count))))
        }
        XCTAssertFalse(ExifReader.read([1, 2, 3]).warnings.isEmpty)
    }
}
