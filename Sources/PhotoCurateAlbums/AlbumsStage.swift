import Foundation
import Logging
import PhotoCurate

/// The albums stage: every usable photo of a run → the album whose cover it shows.
///
/// ```yaml
/// # pipelines/albums.yml
/// stages:
///   albums: { guide: 0, history: 1 }
/// ```
/// Input: `OutputContext` (the manifest's usable photos). Output, in `albums/`:
/// `scans.json` (one `AlbumScanner.AlbumScan` per photo, in the manifest's
/// order, without timings, so two runs give the same bytes) and
/// `cards/NNN-NAME.html` (the context card of each matched photo: its position and name).
/// The catalog is `$PHOTOCURATE_ALBUMS_CATALOG`, or else the one `photocurate
/// albums index` last indexed; its covers come from the albums cache.
public struct AlbumsStage: Sendable {
    public static let id = "albums"
    public static let version = 1
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("guide", 0, in: 0...1, integer: true, "1: the photos were taken with the square guide (only the centre square is searched)"),
        ParameterSpec("history", 1, in: 0...1, integer: true, "1: save each identification in the scan history"),
    ] + AlbumParameters.identify + AlbumParameters.cover

    /// Where `albums index` records the catalog it indexed: `$XDG_DATA_HOME/photocurate/albums-catalog`.
    public static func rememberedCatalogFile(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        (ScanHistory.defaultPath(environment: env) as NSString).deletingLastPathComponent + "/albums-catalog"
    }

    /// The catalog the stage reads, or an error that says how to name one.
    public static func catalogFolder(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let c = env["PHOTOCURATE_ALBUMS_CATALOG"], !c.isEmpty { return c }
        let file = rememberedCatalogFile(env)
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            let c = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !c.isEmpty { return c }
        }
        throw PhotoError.io(path: file, reason: "the albums stage has no catalog: run `photocurate albums index CATALOG` once, or set PHOTOCURATE_ALBUMS_CATALOG")
    }

    /// Records `folder` (absolute) as the catalog the stage uses.
    public static func remember(catalog folder: String) throws {
        let abs = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
        try AtomicFile.write(abs + "\n", to: rememberedCatalogFile())
    }

    /// The default albums cache: beside the photo cache, `albums.sqlite`.
    public static func defaultCachePath() -> String {
        (CacheStore.defaultPath() as NSString).deletingLastPathComponent + "/albums.sqlite"
    }

    public static let plugin = OutputStagePlugin(id: id, version: version, summary: "record covers identified against an album catalog",
                                                 parameterSpecs: parameterSpecs, outputs: ["albums"],
                                                 check: { _, _ in _ = try AlbumCatalog.load(try catalogFolder()) }) { parameters, context, dir in
        try AlbumsStage().write(parameters, context, into: dir + "/albums")
    }

    public init() {}

    public func write(_ p: Parameters, _ context: OutputContext, into folder: String, catalog: String? = nil,
                      cachePath: String? = AlbumsStage.defaultCachePath(), historyPath: String? = nil,
                      provider: AlbumContextProvider?? = nil) throws {
        let log = Logger(label: "albums")
        let cat = try AlbumCatalog.load(try catalog ?? Self.catalogFolder())
        for problem in cat.problems { log.warning("\(problem)", metadata: ["event": "catalog-entry"]) }
        var cp = try Parameters(AlbumParameters.cover), ip = try Parameters(AlbumParameters.identify)
        for s in AlbumParameters.cover { try cp.set(s.name, p[s.name]) }
        for s in AlbumParameters.identify { try ip.set(s.name, p[s.name]) }
        var store: CacheStore? = nil
        if let cachePath {
            do { store = try CacheStore.openChecked(path: cachePath, warn: { log.warning("\($0)") }) } catch {
                log.warning("albums cache \(cachePath) not used (\(error)); covers are analysed without it", metadata: ["event": "cache-unavailable"])
            }
        }
        let index = try AlbumIndex.build(cat, cache: store, cover: cp, identify: ip)
        for problem in index.problems { log.warning("\(problem)", metadata: ["event": "catalog-entry"]) }
        var history: ScanHistory? = nil
        if p.int("history") == 1 {
            do { history = try ScanHistory(path: historyPath ?? ScanHistory.defaultPath()) } catch {
                log.warning("\(error); scans are not saved", metadata: ["event": "history-failed"])
            }
        }
        let scanner = AlbumScanner(identifier: try AlbumIdentifier(index: index, parameters: ip),
                                   provider: try provider ?? AlbumContextProvider.fromEnvironment(), history: history)
        let photos = context.manifest.photos.filter { $0.error == nil }.map(\.path)
        let results = ResultSlots<(AlbumScanner.AlbumScan, ContextCard?)>(count: photos.count)
        let guide = p.int("guide") == 1
        // Two photos at a time, like the analysis: each identification is independent.
        DispatchQueue.concurrentPerform(iterations: photos.count) { k in
            do { results[k] = try scanner.scan(photos[k], guide: guide) } catch {
                log.warning("\(photos[k]): \(error)", metadata: ["event": "album-photo-unreadable"])
            }
        }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/cards", withIntermediateDirectories: true)
        var scans: [AlbumScanner.AlbumScan] = []
        for k in photos.indices {
            guard let result = results[k] else { continue }
            var scan = result.0
            let card = result.1
            scan.identification.milliseconds = nil
            if let card {
                // Position first (names repeat across subfolders), then the photo's name for a reader.
                let stem = ((photos[k] as NSString).lastPathComponent as NSString).deletingPathExtension
                let safe = String(stem.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0) ? Character($0) : "_" }.prefix(80))
                try AtomicFile.write(try card.html(), to: folder + String(format: "/cards/%03d-", k + 1) + safe + ".html")
            }
            scans.append(scan)
        }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(try enc.encode(scans), to: folder + "/scans.json")
    }
}
