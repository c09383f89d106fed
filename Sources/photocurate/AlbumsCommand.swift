import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateAlbums
import PhotoCurateBench

/// `photocurate albums index|identify|history|eval`: record covers in photos → the catalog's album and its context card.
struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "Identify record covers in photos against a catalog; show the album's context card; keep a scan history.",
        discussion: """
        A catalog is a folder with albums.json (the product's fields) and the cover images it names. \
        Covers are analysed once and cached (--cache, default ~/.cache/photocurate/albums.sqlite).

        EXAMPLES:
          photocurate albums index ~/Records/catalog
          photocurate albums identify shop/IMG_2041.jpg --catalog ~/Records/catalog
          photocurate albums identify shop/ --catalog ~/Records/catalog --json > scans.json
          photocurate albums identify IMG_2041.jpg --catalog cat --guide --html card.html
          photocurate albums history
          photocurate albums history show 12
          photocurate albums history delete 12
          photocurate bench make-covers --out /tmp/albums --catalog 500 --photos 400 --unknown 100
          photocurate albums eval /tmp/albums
        """,
        subcommands: [Index.self, Identify.self, History.self, Eval.self]
    )

    struct CatalogOptions: ParsableArguments {
        @Option(help: "Albums cache (SQLite). Default: $XDG_CACHE_HOME/photocurate/albums.sqlite.") var cache: String?
        @Flag(help: "Analyse the covers without reading or writing a cache.") var noCache = false
        @Option(name: .customLong("set"), help: ArgumentHelp("An albums parameter, e.g. --set minInliers=25 (see `photocurate albums identify --help`).", valueName: "param=value"))
        var overrides: [String] = []

        func parameters() throws -> (cover: Parameters, identify: Parameters) {
            var c = try Parameters(AlbumParameters.cover), i = try Parameters(AlbumParameters.identify)
            for o in overrides {
                let kv = o.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Double(kv[1]) else { throw fail("--set \(o): expected param=number", code: ExitStatus.usage) }
                do {
                    if AlbumParameters.cover.contains(where: { $0.name == kv[0] }) { try c.set(kv[0], v) }
                    else if AlbumParameters.identify.contains(where: { $0.name == kv[0] }) { try i.set(kv[0], v) }
                    else {
                        let names = (AlbumParameters.cover + AlbumParameters.identify).map(\.name).joined(separator: ", ")
                        throw fail("--set \(kv[0]): unknown albums parameter (known: \(names))", code: ExitStatus.usage)
                    }
                } catch let e as ParameterError { throw fail("--set: \(e)", code: ExitStatus.usage) }
            }
            return (c, i)
        }

        /// Loads and indexes the catalog; its problems go to stderr, the work goes on.
        func index(_ folder: String, quiet: Bool = false) throws -> AlbumIndex {
            let (cp, ip) = try parameters()
            let catalog: AlbumCatalog
            do { catalog = try AlbumCatalog.load(folder) } catch { throw fail("\(error)") }
            var store: CacheStore?
            if !noCache {
                let path = cache ?? AlbumsStage.defaultCachePath()
                do {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    store = try CacheStore.openChecked(path: path, warn: { FileHandle.standardError.write(Data("photocurate: warning: \($0)\n".utf8)) })
                } catch {
                    FileHandle.standardError.write(Data("photocurate: warning: albums cache \(path) not used (\(error)); covers are analysed without it\n".utf8))
                }
            }
            let index = try AlbumIndex.build(catalog, cache: store, cover: cp, identify: ip)
            for p in index.problems { FileHandle.standardError.write(Data("photocurate: \(p)\n".utf8)) }
            if index.albums.isEmpty { throw fail("\(folder): no usable album in the catalog") }
            if !quiet {
                FileHandle.standardError.write(Data("catalog: \(index.albums.count) albums (\(index.computed) covers analysed, \(index.reused) from the cache), \(index.problems.count) left out; shortlist index: \(index.vocabulary.words) words, \(index.postings) postings, \(String(format: "%.1f", Double(index.indexBytes) / 1_048_576)) MB\n".utf8))
            }
            return index
        }
    }

    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Analyse a catalog's covers once and cache them; report entries that fail validation.",
            discussion: """
            Exit 0 when every entry is usable, 2 when some were left out (each is named with its field), 1 when none is.

            EXAMPLES:
              photocurate albums index ~/Records/catalog
              photocurate albums index catalog --cache /tmp/albums.sqlite
            """)
        @Argument(help: "Catalog folder (albums.json and covers).") var catalog: String
        @OptionGroup var options: CatalogOptions

        func run() async throws {
            let index = try options.index(catalog)
            // The `albums` pipeline stage reads the catalog indexed last.
            do { try AlbumsStage.remember(catalog: catalog) } catch {
                FileHandle.standardError.write(Data("photocurate: warning: \(error); the albums stage will need PHOTOCURATE_ALBUMS_CATALOG\n".utf8))
            }
            print("\(index.albums.count) albums indexed: \(index.computed) covers analysed, \(index.reused) reused; \(index.problems.count) left out")
            if !index.problems.isEmpty { throw ExitCode(ExitStatus.partial) }
        }
    }

    struct Identify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name the album whose cover a photo shows, or say \"Couldn't find a match\".",
            discussion: """
            PHOTO may be files or folders (every image inside, recursively). Each identification is \
            saved in the scan history (--history; --no-history to skip). Output: the context card as text, \
            or --json (one object per photo), or --html FILE (the card of a single photo).

            Parameters (--set name=value):
            \(AlbumParameters.identify.map { "  \($0.name) (default \(ParameterSpec.formatted($0.defaultValue)), \(ParameterSpec.formatted($0.range.lowerBound))–\(ParameterSpec.formatted($0.range.upperBound))): \($0.doc)" }.joined(separator: "\n"))
            \(AlbumParameters.cover.map { "  \($0.name) (default \(ParameterSpec.formatted($0.defaultValue)), \(ParameterSpec.formatted($0.range.lowerBound))–\(ParameterSpec.formatted($0.range.upperBound))): \($0.doc)" }.joined(separator: "\n"))

            Exit 0 when every photo was read (matched or not), 2 when some could not be read.

            EXAMPLES:
              photocurate albums identify IMG_2041.jpg --catalog ~/Records/catalog
              photocurate albums identify shop-day/ --catalog cat --json
              photocurate albums identify IMG_2041.jpg --catalog cat --guide --html card.html
            """)
        @Argument(help: "Photos or folders of photos.") var photos: [String]
        @Option(help: "Catalog folder.") var catalog: String
        @Flag(help: "The photo was taken with the square guide: only its centre square is searched.") var guide = false
        @Flag(help: "Print JSON: one identification per photo, with its card.") var json = false
        @Option(help: "Write the card of the (single) photo as a self-contained HTML page.") var html: String?
        @Option(help: "Scan history (SQLite). Default: $XDG_DATA_HOME/photocurate/albums-history.sqlite.") var history: String?
        @Flag(help: "Do not save this scan in the history.") var noHistory = false
        @OptionGroup var options: CatalogOptions

        func run() async throws {
            let files = try expand(photos)
            if html != nil && files.count != 1 { throw fail("--html writes one card: give exactly one photo (got \(files.count))", code: ExitStatus.usage) }
            let index = try options.index(catalog, quiet: json)
            let identifier = try AlbumIdentifier(index: index, parameters: try options.parameters().identify)
            let store: ScanHistory?
            do { store = noHistory ? nil : try ScanHistory(path: history ?? ScanHistory.defaultPath()) } catch {
                FileHandle.standardError.write(Data("photocurate: warning: \(error); scans are not saved\n".utf8)); store = nil
            }
            let provider: AlbumContextProvider?
            do { provider = try AlbumContextProvider.fromEnvironment() } catch { throw fail("\(error)", code: ExitStatus.usage) }
            let titleOnly = index.catalog.albums.filter(\.needsContext).count
            if titleOnly > 0 && provider == nil && !json {
                FileHandle.standardError.write(Data("photocurate: note: \(titleOnly) catalog albums have no card of their own; set ANTHROPIC_API_KEY to have a provider write them (until then they give \"\(AlbumIdentifier.noMatch)\")\n".utf8))
            }
            let scanner = AlbumScanner(identifier: identifier, provider: provider, history: store)
            var outputs: [AlbumScanner.AlbumScan] = [], unreadable = 0
            for file in files {
                let out: AlbumScanner.AlbumScan, card: ContextCard?
                do { (out, card) = try scanner.scan(file, guide: guide) } catch {
                    unreadable += 1
                    FileHandle.standardError.write(Data("photocurate: \(file): \(error)\n".utf8))
                    continue
                }
                if let card, let m = out.identification.match {
                    if let html {
                        do { try AtomicFile.write(try card.html(), to: html) } catch { throw fail("\(html): cannot write the card (\(AtomicFile.reason(error)))") }
                    }
                    if !json {
                        print("\(file): \(out.result) (confidence \(String(format: "%.2f", m.confidence)), \(m.inliers) matching points, \(String(format: "%.0f", out.identification.milliseconds ?? 0)) ms)")
                        print(card.text().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
                        print("")
                    }
                } else if !json {
                    print("\(file): \(AlbumIdentifier.noMatch)")
                    if let note = out.identification.note, out.identification.match == nil { FileHandle.standardError.write(Data("photocurate: \(file): \(note)\n".utf8)) }
                }
                outputs.append(out)
            }
            if json {
                let enc = JSONEncoder()
                enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try enc.encode(outputs), as: UTF8.self))
            }
            if unreadable > 0 { throw ExitCode(ExitStatus.partial) }
        }

        func expand(_ args: [String]) throws -> [String] {
            var out: [String] = []
            for a in args {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: a, isDirectory: &isDir) else { throw fail("\(a): no such file or folder", code: ExitStatus.usage) }
                if isDir.boolValue {
                    let scan: FolderScanner.Result
                    do { scan = try FolderScanner().scan(a) } catch { throw fail("\(error)") }
                    for p in scan.problems { FileHandle.standardError.write(Data("photocurate: \(p)\n".utf8)) }
                    out += scan.files.map(\.path).sorted()
                } else { out.append(a) }
            }
            return out
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The scan history: list (newest first), show ID, delete ID.",
            discussion: """
            EXAMPLES:
              photocurate albums history
              photocurate albums history show 12
              photocurate albums history delete 12
              photocurate albums history show 12 --thumbnail cover.jpg
            """)
        @Argument(help: "list, show or delete.") var action: String = "list"
        @Argument(help: "Scan id (show, delete).") var id: Int64?
        @Option(help: "Scan history (SQLite). Default: $XDG_DATA_HOME/photocurate/albums-history.sqlite.") var history: String?
        @Option(help: "With show: write the scan's 200×200 cover thumbnail here.") var thumbnail: String?
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let path = history ?? ScanHistory.defaultPath()
            let store: ScanHistory
            do { store = try ScanHistory(path: path) } catch { throw fail("\(error)") }
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            func when(_ t: Double) -> String { CaptureTime.iso(epoch: t) }
            switch action {
            case "list":
                let scans = try store.list()
                if json { print(String(decoding: try enc.encode(scans), as: UTF8.self)); return }
                if scans.isEmpty { print("no scans in \(path)"); return }
                for s in scans {
                    print(String(format: "%5lld  %@  %@ — %@  (confidence %.2f, photo %@)", s.id, when(s.scannedAt), s.artist, s.title, s.confidence, s.photoName))
                }
            case "show", "delete":
                guard let id else { throw fail("history \(action): give the scan's id (see `photocurate albums history`)", code: ExitStatus.usage) }
                guard let s = try store.scan(id) else { throw fail("history \(action) \(id): no such scan in \(path)") }
                if action == "delete" {
                    try store.delete(id)
                    print("deleted scan \(id): \(s.artist) — \(s.title)")
                    return
                }
                if let thumbnail, let data = try store.thumbnail(id) { try AtomicFile.write(data, to: thumbnail) }
                if json { print(String(decoding: try enc.encode(s), as: UTF8.self)); return }
                print("scan \(s.id), \(when(s.scannedAt)), photo \(s.photoName), confidence \(String(format: "%.2f", s.confidence))")
                if let card = try? JSONDecoder().decode(ContextCard.JSONCard.self, from: Data(s.card.utf8)) {
                    print("\(card.artist_name) — \(card.album_title)\n\(card.badge)\n\n\(card.context_summary)\n")
                    for b in card.context_bullets { print("• \(b)") }
                    print("\nRating: \(card.rating)/10")
                    if !card.key_tracks.isEmpty { print("Key tracks: " + card.key_tracks.joined(separator: ", ")) }
                }
            default:
                throw fail("history \(action): expected list, show or delete", code: ExitStatus.usage)
            }
        }
    }

    struct Eval: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score identification on a set made by `bench make-covers`: accuracy by condition, false matches, time.",
            discussion: """
            EXAMPLES:
              photocurate bench make-covers --out /tmp/albums --catalog 500 --photos 400 --unknown 100
              photocurate albums eval /tmp/albums --no-cache
            """)
        @Argument(help: "Folder written by bench make-covers.") var set: String
        @OptionGroup var options: CatalogOptions

        func run() async throws {
            let t0 = Date()
            let index = try options.index(set + "/catalog")
            let indexSeconds = Date().timeIntervalSince(t0)
            let identifier = try AlbumIdentifier(index: index, parameters: try options.parameters().identify)
            guard let data = FileManager.default.contents(atPath: set + "/labels.json"),
                  let labels = try? JSONDecoder().decode([AlbumEvaluation.Label].self, from: data) else {
                throw fail("\(set)/labels.json: missing or not a make-covers label file")
            }
            let report = AlbumEvaluation.run(labels: labels, folder: set + "/photos", identifier: identifier)
            print(report.render(indexSeconds: indexSeconds, covers: index.albums.count))
        }
    }
}
